import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import {
  RateLimiter,
  RateLimitUnavailableError,
  gcraAllow,
  rateLimitHeaders,
} from '@warden/shared/ratelimit/index';
import { connect, redisNamespace, unreachableRedis } from './support/redis-namespace';

describe('rate limiting: GCRA in Redis, local fallback', () => {
  const { prefix, redis } = redisNamespace('ratelimit');

  it('admits the burst at once, then answers 429 data with Retry-After', async () => {
    const limits = { ratePerMinute: 60, burst: 5 };
    const key = `${prefix}gcra:burst`;
    for (let i = 0; i < 5; i++) {
      expect(await gcraAllow(redis, key, limits)).toMatchObject({ allowed: true, remaining: 4 - i });
    }
    const refused = await gcraAllow(redis, key, limits);
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.retryAfterSeconds).toBeGreaterThan(0.9);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(1);
    expect(refused.resetSeconds).toBeGreaterThan(4.5);
    expect(refused.resetSeconds).toBeLessThanOrEqual(5);
    expect(rateLimitHeaders(refused, limits)).toEqual({
      'RateLimit-Policy': '"default";q=5;w=5',
      RateLimit: '"default";r=0;t=5',
      'Retry-After': '1',
    });
    // The stored TAT expires with the bucket: nothing is left behind for rested accounts.
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(4000);
    expect(ttl).toBeLessThanOrEqual(5000);
  });

  it('refills at the sustained rate', async () => {
    const limits = { ratePerMinute: 600, burst: 2 }; // one every 100 ms
    const key = `${prefix}gcra:refill`;
    expect((await gcraAllow(redis, key, limits)).allowed).toBe(true);
    expect((await gcraAllow(redis, key, limits)).allowed).toBe(true);
    const refused = await gcraAllow(redis, key, limits);
    expect(refused.allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, refused.retryAfterSeconds * 1000 + 20));
    expect((await gcraAllow(redis, key, limits)).allowed).toBe(true);
  });

  it('charges a request in two parts and refunds the first when the whole does not fit (Lua = gcraStep)', async () => {
    const limits = { ratePerMinute: 60, burst: 10 };
    const key = `${prefix}gcra:prepaid`;
    expect(await gcraAllow(redis, key, limits, 5)).toMatchObject({ allowed: true, remaining: 5 });
    expect(await gcraAllow(redis, key, limits, 1)).toMatchObject({ allowed: true, remaining: 4 });
    const rest = await gcraAllow(redis, key, limits, 6, 1);
    expect(rest).toMatchObject({ allowed: false, remaining: 5 });
    expect(rest.retryAfterSeconds).toBeGreaterThan(1.9);
    expect(rest.retryAfterSeconds).toBeLessThanOrEqual(2);
    // Refunded: the arrival's unit is back, so 5 fit at once.
    expect(await gcraAllow(redis, key, limits, 5)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('shares one limit between two limiter processes on one Redis', async () => {
    const other = connect();
    try {
      await other.ping();
      const one = new RateLimiter({ redis, prefix, scale: 1 });
      const two = new RateLimiter({ redis: other, prefix, scale: 1 });
      const limits = { ratePerMinute: 1, burst: 10 };
      const decisions = await Promise.all(
        Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? one : two).check('shared-account', limits)),
      );
      expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
      expect(decisions.every((d) => !d.degraded)).toBe(true);
      const refused = decisions.find((d) => !d.allowed);
      expect(refused?.retryAfterSeconds).toBeGreaterThan(50); // 1/min: next slot about a minute away
    } finally {
      other.disconnect();
    }
  });

  it("applies the account's tier limits, scaled for tests", async () => {
    const limiter = new RateLimiter({ redis, prefix, scale: 0.05 }); // free: 5/min, burst 10
    expect(limiter.limitsFor('free')).toEqual({ ratePerMinute: 5, burst: 10 });
    let allowed = 0;
    for (let i = 0; i < 15; i++) {
      if ((await limiter.checkAccount({ accountId: 'tiered', tier: 'free' })).allowed) allowed++;
    }
    expect(allowed).toBe(10);
    const enterprise = await limiter.checkAccount({
      accountId: 'big',
      tier: 'enterprise',
      limits: { burst: 100_000 },
    });
    expect(enterprise.limits.burst).toBe(5000);
  });

  it('falls back to a local limit when Redis is down: fast, degraded, still limiting', async () => {
    const down = unreachableRedis();
    const registry = new Registry();
    try {
      const limiter = new RateLimiter({ redis: down, prefix, scale: 1, registry });
      const limits = { ratePerMinute: 60, burst: 3 };
      const started = Date.now();
      const decisions = [];
      for (let i = 0; i < 5; i++) decisions.push(await limiter.check('outage', limits));
      expect(Date.now() - started).toBeLessThan(200);
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
      expect(decisions.every((d) => d.degraded)).toBe(true);
      expect(limiter.degraded).toBe(true);
      const metrics = await registry.metrics();
      expect(metrics).toMatch(/warden_ratelimit_degraded 1/);
      expect(metrics).toMatch(/warden_ratelimit_decisions_total\{result="limited",mode="local"\} 2/);
    } finally {
      down.disconnect();
    }
  });

  it('refuses (503), never decides locally, when Redis is connected but does not answer in time', async () => {
    // A connection busy with a blocking command stands in for a stalled Redis: connected and ready,
    // so not an outage. A local decision would admit a fresh burst on top of what Redis admitted.
    const busy = connect();
    const registry = new Registry();
    try {
      await busy.ping();
      const blocked = busy.blpop(`${prefix}never-pushed`, 1).catch(() => null);
      const limiter = new RateLimiter({ redis: busy, prefix, scale: 1, timeoutMs: 100, registry });
      const started = Date.now();
      await expect(limiter.check('stalled', { ratePerMinute: 60, burst: 2 })).rejects.toBeInstanceOf(
        RateLimitUnavailableError,
      );
      expect(Date.now() - started).toBeGreaterThanOrEqual(95);
      expect(Date.now() - started).toBeLessThan(900);
      expect(limiter.degraded).toBe(false);
      const metrics = await registry.metrics();
      expect(metrics).toMatch(/warden_ratelimit_decisions_total\{result="unavailable",mode="redis"\} 1/);
      expect(metrics).not.toMatch(/mode="local"/);
      // Once Redis answers again the next check is decided by Redis, with no grace period to wait out.
      await blocked;
      expect(await limiter.check('stalled', { ratePerMinute: 60, burst: 2 })).toMatchObject({
        allowed: true,
        degraded: false,
      });
    } finally {
      busy.disconnect();
    }
  });

  it("refuses (503) too when the connection's own commandTimeout gives up first", async () => {
    // Services connect with commandTimeout (see shared/src/redis.ts): its error is the same slowness.
    const busy = connect({ commandTimeout: 100 });
    try {
      await busy.ping();
      const blocked = busy.blpop(`${prefix}never-pushed-either`, 1).catch(() => null);
      const limiter = new RateLimiter({ redis: busy, prefix, scale: 1, timeoutMs: 5_000 });
      await expect(limiter.check('stalled-too', { ratePerMinute: 60, burst: 2 })).rejects.toBeInstanceOf(
        RateLimitUnavailableError,
      );
      expect(limiter.degraded).toBe(false);
      await blocked;
    } finally {
      busy.disconnect();
    }
  });

  it('decides locally at once when Redis is not connected, without waiting for the timeout', async () => {
    const down = unreachableRedis();
    try {
      const limiter = new RateLimiter({ redis: down, prefix, scale: 1, timeoutMs: 5_000 });
      const started = Date.now();
      expect(await limiter.check('not-connected', { ratePerMinute: 60, burst: 2 })).toMatchObject({
        allowed: true,
        degraded: true,
      });
      expect(Date.now() - started).toBeLessThan(100);
    } finally {
      down.disconnect();
    }
  });
});
