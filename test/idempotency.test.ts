import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IdempotencyKeyError, IdempotencyStore, requestFingerprint } from '@warden/shared/idempotency/index';
import { connect, redisNamespace } from './support/redis-namespace';

describe('idempotency store', () => {
  const { prefix, redis } = redisNamespace('idempotency');
  const store = new IdempotencyStore({ redis, prefix });

  const answer = { status: 200, body: { status: 'success', interactionId: 'i-1' } };

  it('claims, reports in-progress to a concurrent duplicate, then replays the first answer', async () => {
    const first = await store.begin('acme', 'order-1');
    expect(first.state).toBe('claimed');
    expect(await store.begin('acme', 'order-1')).toMatchObject({ state: 'in_progress' });
    if (first.state !== 'claimed') throw new Error('unreachable');

    expect(await store.complete('acme', 'order-1', answer, first.token)).toBe(true);
    expect(await store.begin('acme', 'order-1')).toEqual({ state: 'replay', answer });
    // Stored for 24 h, under a hashed key, scoped to the account.
    const keys = await redis.keys(`${prefix}idem:acme:*`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain('order-1');
    expect(await redis.pttl(keys[0]!)).toBeGreaterThan(23 * 60 * 60 * 1000);
    expect((await store.begin('globex', 'order-1')).state).toBe('claimed');
  });

  it('releases the claim on abandon so a retry can proceed', async () => {
    const first = await store.begin('acme', 'retry-me');
    if (first.state !== 'claimed') throw new Error(`expected a claim, got ${first.state}`);
    expect(await store.abandon('acme', 'retry-me', first.token)).toBe(true);
    const retry = await store.begin('acme', 'retry-me');
    expect(retry.state).toBe('claimed');
    // The first request's token no longer owns the key.
    expect(await store.abandon('acme', 'retry-me', first.token)).toBe(false);
    expect(await store.complete('acme', 'retry-me', answer, first.token)).toBe(false);
    expect((await store.begin('acme', 'retry-me')).state).toBe('in_progress');
  });

  it('lets exactly one of many parallel duplicates through', async () => {
    const other = connect();
    try {
      const stores = [store, new IdempotencyStore({ redis: other, prefix })];
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => stores[i % 2]!.begin('acme', 'burst')),
      );
      expect(results.filter((r) => r.state === 'claimed')).toHaveLength(1);
      expect(results.filter((r) => r.state === 'in_progress')).toHaveLength(19);
    } finally {
      other.disconnect();
    }
  });

  it('lets a retry take over when the claimant died (claim lease lapsed)', async () => {
    const short = new IdempotencyStore({ redis, prefix, claimTtlMs: 150 });
    expect((await short.begin('acme', 'crashed')).state).toBe('claimed');
    expect((await short.begin('acme', 'crashed')).state).toBe('in_progress');
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await short.begin('acme', 'crashed')).state).toBe('claimed');
  });

  it('notices a key reused for a different request', async () => {
    const body = requestFingerprint('{"agentId":"a"}');
    const first = await store.begin('acme', 'reuse', body);
    if (first.state !== 'claimed') throw new Error('expected a claim');
    await store.complete('acme', 'reuse', answer, first.token, body);
    expect(await store.begin('acme', 'reuse', requestFingerprint('{"agentId":"b"}'))).toEqual({
      state: 'mismatch',
    });
    expect((await store.begin('acme', 'reuse', body)).state).toBe('replay');
  });

  it('keeps a large answer compressed and replays it whole', async () => {
    const results = Array.from({ length: 1000 }, (_, index) => ({
      index,
      status: 'rejected',
      error: {
        code: 'MISSING_REQUIRED_FIELD',
        message: `Missing required field: interactions[${index}].agentId.`,
      },
    }));
    const big = { status: 207, body: { status: 'partial', rejected: 1000, results } };
    const claim = await store.begin('acme', 'big');
    if (claim.state !== 'claimed') throw new Error('expected a claim');
    expect(await store.complete('acme', 'big', big, claim.token)).toBe(true);
    expect(await store.begin('acme', 'big')).toEqual({ state: 'replay', answer: big });
    const key = `${prefix}idem:acme:${createHash('sha256').update('big').digest('hex')}`;
    expect(JSON.stringify(big).length).toBeGreaterThan(90_000);
    expect(await redis.strlen(key)).toBeLessThan(8 * 1024);
  });

  it('stores the summary of an answer over the cap, and the status alone when there is none', async () => {
    const capped = new IdempotencyStore({ redis, prefix, maxAnswerBytes: 2048 });
    // Random text does not compress: 8 KiB stays over a 2 KiB cap.
    const body = { accepted: 2, results: [randomBytes(4096).toString('hex')] };
    for (const [key, summary, replayed] of [
      ['capped-summary', { accepted: 2, results: [] }, { status: 207, body: { accepted: 2, results: [] } }],
      ['capped-status', undefined, { status: 207 }],
    ] as const) {
      const claim = await capped.begin('acme', key);
      if (claim.state !== 'claimed') throw new Error('expected a claim');
      await capped.complete('acme', key, { status: 207, body, ...(summary ? { summary } : {}) }, claim.token);
      expect(await capped.begin('acme', key)).toEqual({ state: 'replay', answer: replayed });
    }
  });

  it("keeps answers beyond the account's 24 h budget for 10 minutes only", async () => {
    const answerOf = (i: number) => ({ status: 200, body: { status: 'success', interactionId: `i-${i}` } });
    const ttls: number[] = [];
    for (let i = 0; i < 6; i++) {
      const claim = await store.begin('thrifty', `budget-${i}`);
      if (claim.state !== 'claimed') throw new Error('expected a claim');
      // Each stored answer takes ~180 bytes (key and value): three fit in 600.
      expect(await store.complete('thrifty', `budget-${i}`, answerOf(i), claim.token, '', 600)).toBe(true);
      ttls.push(
        await redis.pttl(`${prefix}idem:thrifty:${createHash('sha256').update(`budget-${i}`).digest('hex')}`),
      );
    }
    expect(ttls.slice(0, 3).every((ttl) => ttl > 23 * 60 * 60 * 1000)).toBe(true);
    expect(ttls.slice(3).every((ttl) => ttl > 0 && ttl <= 10 * 60 * 1000)).toBe(true);
    // Still replayed while kept.
    expect((await store.begin('thrifty', 'budget-5')).state).toBe('replay');
    const budget = await redis.pttl(`${prefix}idem-budget:thrifty`);
    expect(budget).toBeGreaterThan(23 * 60 * 60 * 1000);
  });

  it('rejects invalid idempotency keys before touching Redis', async () => {
    await expect(store.begin('acme', '')).rejects.toThrow(IdempotencyKeyError);
    await expect(store.begin('acme', 'x'.repeat(256))).rejects.toThrow(/255 printable ASCII/);
    await expect(store.begin('acme', 'clé')).rejects.toThrow(IdempotencyKeyError);
  });
});
