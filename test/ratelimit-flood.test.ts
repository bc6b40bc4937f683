import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore, PostgresKeys } from '@warden/shared/keys/index';
import { eventually, privateTopics, uniqueName } from './support/pipeline';
import { freePort, runService, type ServiceProcess } from './support/processes';
import { testPostgres, type TestPostgres } from './support/postgres';
import { startPrivateRedis, type PrivateRedis } from './support/redis-namespace';

/**
 * Issue #25: a free-tier key (burst 200, 100/min) flooding two ingest processes with 1,000 concurrent
 * requests gets at most its burst plus a small bound accepted, whether Redis answers at once or is
 * slowed: a slow Redis is waited for and then answered 503, never decided per process (which would
 * admit a burst per process). A Redis of its own, so it can be slowed without slowing anyone else.
 */
describe('rate limits under a flood, over two ingest processes', () => {
  const { prefix } = privateTopics('flood');
  let redisServer: PrivateRedis;
  let redis: Redis;
  let controlPlane: TestPostgres;
  const ingests: { process: ServiceProcess; url: string }[] = [];
  const keys: string[] = [];

  beforeAll(async () => {
    // DEBUG SLEEP slows it down in the second test.
    redisServer = await startPrivateRedis(['--enable-debug-command', 'yes']);
    const redisUrl = redisServer.url;
    redis = new Redis(redisUrl);
    redis.on('error', () => undefined);
    // Keys exist before ingest starts: each process loads them into its cache at start.
    controlPlane = await testPostgres();
    const store = new KeyStore({ redis, source: new PostgresKeys(controlPlane.pool, 'test') });
    for (let i = 0; i < 2; i++)
      keys.push((await store.createKey({ accountId: uniqueName('flood'), tier: 'free' })).key);
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      ingests.push({
        process: runService('ingest', {
          PORT: String(port),
          REDIS_URL: redisUrl,
          DATABASE_URL: controlPlane.url,
          WARDEN_TOPIC_PREFIX: prefix,
          WARDEN_INGEST_METRICS_PORT: '0',
        }),
        url: `http://127.0.0.1:${port}`,
      });
    }
    for (const ingest of ingests)
      await eventually(
        () =>
          fetch(`${ingest.url}/readyz`)
            .then((r) => r.status)
            .catch(() => 0),
        (status) => status === 200,
        60_000,
      );
  }, 120_000);

  afterAll(async () => {
    await Promise.all(ingests.map((i) => i.process.stop()));
    redis?.disconnect();
    await redisServer?.stop();
    await controlPlane?.drop();
  });

  /** 1,000 requests at once, alternating between the two processes; the count of each status. */
  const flood = async (key: string) => {
    const statuses = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        fetch(`${ingests[i % 2]!.url}/api/v1/telemetry/ingest`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify({ agentId: 'flood-agent', prompt: `p${i}`, response: 'r' }),
          signal: AbortSignal.timeout(30_000),
        })
          .then((r) => r.status)
          .catch(() => 0),
      ),
    );
    const counts = new Map<number, number>();
    for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
    return counts;
  };

  it('accepts at most the burst plus a small bound (≤ 210 of 1,000)', async () => {
    const counts = await flood(keys[0]!);
    const accepted = counts.get(200) ?? 0;
    expect(accepted, JSON.stringify([...counts])).toBeLessThanOrEqual(210);
    // The burst is there to be used: a limiter that refused everything would pass the bound too.
    expect(accepted, JSON.stringify([...counts])).toBeGreaterThanOrEqual(150);
    expect(counts.get(429) ?? 0).toBeGreaterThanOrEqual(700);
  }, 120_000);

  it('still ≤ 210 while Redis is slowed (DEBUG SLEEP): slow checks answer 503, not a per-process burst', async () => {
    const slow = new Redis(redis.options);
    slow.on('error', () => undefined);
    let slowing = true;
    const sleeper = (async () => {
      while (slowing) {
        await slow.call('DEBUG', 'SLEEP', '1.5').catch(() => undefined);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    try {
      const counts = await flood(keys[1]!);
      const accepted = counts.get(200) ?? 0;
      expect(accepted, JSON.stringify([...counts])).toBeLessThanOrEqual(210);
      // Nothing but accepted, limited or "try again": no 500, no hang.
      expect(
        [...counts.keys()].every((s) => [200, 429, 503].includes(s)),
        JSON.stringify([...counts]),
      ).toBe(true);
    } finally {
      slowing = false;
      await sleeper;
      slow.disconnect();
    }
  }, 180_000);
});
