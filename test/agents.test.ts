import { describe, expect, it } from 'vitest';
import { AgentRegistry, AgentRegistryUnavailableError } from '@warden/shared/agents/index';
import { connect, redisNamespace, unreachableRedis } from './support/redis-namespace';

describe('agent registry: per-account agent limit', () => {
  const { prefix, redis } = redisNamespace('agents');

  it('admits new agents up to the limit, always admits known ones, refuses the next new one', async () => {
    const registry = new AgentRegistry({ redis, prefix });
    expect(await registry.admit('acme', 'a1', 2)).toEqual({ allowed: true, known: false, count: 1 });
    expect(await registry.admit('acme', 'a2', 2)).toEqual({ allowed: true, known: false, count: 2 });
    expect(await registry.admit('acme', 'a3', 2)).toEqual({ allowed: false, known: false, count: 2 });
    expect(await registry.admit('acme', 'a1', 2)).toMatchObject({ allowed: true, known: true });

    // Another process that has never seen a2 learns it from Redis; a lowered limit does not evict it.
    const other = new AgentRegistry({ redis, prefix });
    expect(await other.admit('acme', 'a2', 1)).toEqual({ allowed: true, known: true, count: 2 });
    // A raised limit lets the refused agent in on its next request.
    expect(await other.admit('acme', 'a3', 3)).toEqual({ allowed: true, known: false, count: 3 });
    // Unlimited plans may pass Infinity.
    expect(await other.admit('acme', 'a4', Infinity)).toEqual({ allowed: true, known: false, count: 4 });
    // Accounts are independent.
    expect(await other.admit('globex', 'a1', 1)).toEqual({ allowed: true, known: false, count: 1 });

    const listed = await registry.list('acme');
    expect(listed.map((a) => a.agentId)).toEqual(['a1', 'a2', 'a3', 'a4']);
    for (const agent of listed)
      expect(Date.parse(agent.lastSeen)).toBeGreaterThanOrEqual(Date.parse(agent.firstSeen));
  });

  it('never exceeds the limit under parallel admits from several processes', async () => {
    const clients = [connect(), connect(), connect()];
    try {
      const registries = clients.map((client) => new AgentRegistry({ redis: client, prefix }));
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) => registries[i % 3]!.admit('racy', `agent-${i}`, 7)),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(7);
      expect(Math.max(...results.map((r) => r.count))).toBe(7);
      expect(await redis.scard(`${prefix}agents:racy`)).toBe(7);
    } finally {
      for (const client of clients) client.disconnect();
    }
  });

  it('serves known agents from memory and coalesces last-seen writes', async () => {
    const registry = new AgentRegistry({ redis, prefix, lastSeenEveryMs: 10_000 });
    await registry.admit('cached', 'bot', 5);
    const lastSeenKey = `${prefix}agents:cached:last`;
    const firstWrite = await redis.hget(lastSeenKey, 'bot');
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (let i = 0; i < 20; i++)
      expect(await registry.admit('cached', 'bot', 5)).toMatchObject({ allowed: true, known: true });
    expect(await redis.hget(lastSeenKey, 'bot')).toBe(firstWrite);

    const eager = new AgentRegistry({ redis, prefix, lastSeenEveryMs: 0 });
    await eager.admit('cached', 'bot', 5);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await eager.admit('cached', 'bot', 5); // local hit, last-seen due: written in the background
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(Number(await redis.hget(lastSeenKey, 'bot'))).toBeGreaterThan(Number(firstWrite));
    expect(await redis.hget(`${prefix}agents:cached:first`, 'bot')).toBe(firstWrite);
  });

  it('keeps admitting known agents when Redis is down, and refuses to guess about new ones', async () => {
    const client = connect();
    const registry = new AgentRegistry({ redis: client, prefix });
    expect(await registry.admit('outage', 'known-bot', 5)).toMatchObject({ allowed: true, known: false });
    client.disconnect(); // this process loses Redis
    expect(await registry.admit('outage', 'known-bot', 5)).toMatchObject({ allowed: true, known: true });
    await expect(registry.admit('outage', 'new-bot', 5)).rejects.toThrow(AgentRegistryUnavailableError);

    const down = unreachableRedis();
    try {
      await expect(new AgentRegistry({ redis: down, prefix }).admit('outage', 'new-bot', 5)).rejects.toThrow(
        /unavailable/,
      );
    } finally {
      down.disconnect();
    }
  });
});
