import { describe, expect, it } from 'vitest';
import { LocalGcra, type GcraLimits } from './gcra';
import type { RateLimitDecision } from './limiter';
import { defaultChunk, ReservingLimiter, type AccountLimiter } from './reservations';

/** The real GCRA math in process, counting how often the shared store is asked. */
function countingLimiter(): AccountLimiter & { calls: number } {
  const gcra = new LocalGcra();
  const limiter = {
    calls: 0,
    async check(accountId: string, limits: GcraLimits, cost = 1): Promise<RateLimitDecision> {
      limiter.calls++;
      return { ...gcra.allow(accountId, limits, cost), degraded: false, limits };
    },
  };
  return limiter;
}

describe('ReservingLimiter', () => {
  it('keeps one call per request for small limits (exact accounting)', async () => {
    const inner = countingLimiter();
    const limiter = new ReservingLimiter(inner);
    const limits = { ratePerMinute: 100, burst: 200 };
    expect(defaultChunk(limits)).toBe(1);
    for (let i = 0; i < 10; i++) await limiter.check('a', limits);
    expect(inner.calls).toBe(10);
  });

  it('charges large accounts in chunks and never admits more than the burst', async () => {
    const inner = countingLimiter();
    const limiter = new ReservingLimiter(inner);
    const limits = { ratePerMinute: 60, burst: 5000 };
    const first = await Promise.all(Array.from({ length: 4000 }, () => limiter.check('big', limits)));
    expect(first.every((d) => d.allowed)).toBe(true);
    expect(inner.calls).toBeLessThanOrEqual(4000 / 50 + 1);
    const rest = await Promise.all(Array.from({ length: 2000 }, () => limiter.check('big', limits)));
    const allowed = first.length + rest.filter((d) => d.allowed).length;
    expect(allowed).toBeLessThanOrEqual(5000);
    expect(allowed).toBeGreaterThan(4900);
  });

  it('serves the rest of a request from the reservation, else from the shared limit with its refund', async () => {
    const inner = countingLimiter();
    const limiter = new ReservingLimiter(inner);
    const limits = { ratePerMinute: 60, burst: 5000 }; // chunks of 50
    await limiter.check('big', limits); // reserves 50, spends 1
    const calls = inner.calls;
    expect((await limiter.check('big', limits, 9, 1)).allowed).toBe(true);
    expect(inner.calls).toBe(calls);
    // More than the reservation holds: the shared limit decides the rest.
    expect((await limiter.check('big', limits, 999, 1)).allowed).toBe(true);
    expect(inner.calls).toBe(calls + 1);
  });
});
