import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { IdempotencyKeyError, IdempotencyStore, requestFingerprint } from '@warden/shared/idempotency/index';
import { connect, deletePrefix, testPrefix } from './support/redis-namespace';

describe('idempotency store', () => {
  const prefix = testPrefix('idempotency');
  let redis: Redis;
  let store: IdempotencyStore;

  beforeAll(() => {
    redis = connect();
    store = new IdempotencyStore({ redis, prefix });
  });

  afterAll(async () => {
    await deletePrefix(redis, prefix);
    redis?.disconnect();
  });

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

  it('rejects invalid idempotency keys before touching Redis', async () => {
    await expect(store.begin('acme', '')).rejects.toThrow(IdempotencyKeyError);
    await expect(store.begin('acme', 'x'.repeat(256))).rejects.toThrow(/255 printable ASCII/);
    await expect(store.begin('acme', 'clé')).rejects.toThrow(IdempotencyKeyError);
  });
});
