import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import {
  KeyAuthenticator,
  KeysError,
  KeyStore,
  KeyUsageRecorder,
  generateApiKey,
  hashKey,
} from '@warden/shared/keys/index';
import { connect, deletePrefix, pollUntil, testPrefix, unreachableRedis } from './support/redis-namespace';

describe('API keys and accounts on Redis', () => {
  const prefix = testPrefix('keys');
  let redisA: Redis;
  let redisB: Redis;
  let store: KeyStore;
  let authA: KeyAuthenticator;
  let authB: KeyAuthenticator;

  beforeAll(async () => {
    // Two connections and two authenticators stand for two ingest processes.
    redisA = connect();
    redisB = connect();
    store = new KeyStore({ redis: redisA, prefix });
    authA = new KeyAuthenticator({ redis: redisA, prefix });
    authB = new KeyAuthenticator({ redis: redisB, prefix });
    await Promise.all([authA.start(), authB.start()]);
  });

  afterAll(async () => {
    await authA?.stop();
    await authB?.stop();
    await deletePrefix(redisA, prefix);
    redisA?.disconnect();
    redisB?.disconnect();
  });

  it('creates a key once, authenticates it on both processes, and revokes it everywhere within 5 s', async () => {
    const created = await store.createKey({
      accountId: 'acme',
      tier: 'professional',
      scopes: ['ingest', 'analytics:read'],
    });
    expect(created).toMatchObject({
      accountId: 'acme',
      tier: 'professional',
      scopes: ['ingest', 'analytics:read'],
    });
    expect(created.key).toMatch(/^wdn_live_/);

    for (const auth of [authA, authB]) {
      const { value } = await pollUntil(
        () => auth.authenticate(created.key),
        (r) => r.ok,
        2000,
      );
      expect(value).toMatchObject({
        ok: true,
        keyId: created.keyId,
        accountId: 'acme',
        tier: 'professional',
        limits: { ratePerMinute: 1000, burst: 2000, agentLimit: 25 },
      });
    }
    // Served from the cache: no further lookups for this key.
    const lookups = authB.stats().lookups;
    for (let i = 0; i < 50; i++) expect((await authB.authenticate(created.key)).ok).toBe(true);
    expect(authB.stats().lookups).toBe(lookups);

    await store.revokeKey(created.keyId);
    const seen = await pollUntil(
      () => authB.authenticate(created.key),
      (r) => !r.ok,
      5000,
    );
    expect(seen.value).toMatchObject({ ok: false, reason: 'revoked' });
    expect(seen.elapsedMs).toBeLessThan(5000);
    expect(await authA.authenticate(created.key)).toMatchObject({ ok: false, reason: 'revoked' });
  });

  it('lists keys without the key or its hash, with usage counts', async () => {
    const created = await store.createKey({ accountId: 'listing', tier: 'free', name: 'ci' });
    const usage = new KeyUsageRecorder({ redis: redisA, prefix, flushIntervalMs: 60_000 });
    usage.recordUsage(created.keyId, 3);
    usage.recordUsage(created.keyId);
    await usage.stop();

    const listed = await store.listKeys('listing');
    expect(listed).toHaveLength(1);
    const [entry] = listed;
    expect(entry).toMatchObject({
      keyId: created.keyId,
      accountId: 'listing',
      tier: 'free',
      scopes: ['ingest'],
      name: 'ci',
      status: 'active',
      usage: { today: 4, total: 4 },
    });
    expect(entry?.hint).toBe(`wdn_live_…${created.key.slice(-4)}`);
    const text = JSON.stringify(listed);
    expect(text).not.toContain(created.key);
    expect(text).not.toContain(hashKey(created.key));
    expect((await store.listKeys()).map((k) => k.keyId)).toContain(created.keyId);
  });

  it('rotates with a grace period: both keys work, then the old one fails as expired', async () => {
    const original = await store.createKey({ accountId: 'rotator', tier: 'business', scopes: ['ingest'] });
    expect((await authB.authenticate(original.key)).ok).toBe(true);

    const rotated = await store.rotateKey(original.keyId, 1500);
    expect(rotated).toMatchObject({
      accountId: 'rotator',
      tier: 'business',
      scopes: ['ingest'],
      replacesKeyId: original.keyId,
    });
    expect(rotated.key).not.toBe(original.key);

    expect(
      (
        await pollUntil(
          () => authB.authenticate(rotated.key),
          (r) => r.ok,
          2000,
        )
      ).value.ok,
    ).toBe(true);
    expect((await authB.authenticate(original.key)).ok).toBe(true);

    const expired = await pollUntil(
      () => authB.authenticate(original.key),
      (r) => !r.ok,
      5000,
    );
    expect(expired.value).toMatchObject({ ok: false, reason: 'expired' });
    expect(expired.elapsedMs).toBeGreaterThan(1000);
    expect((await authA.authenticate(original.key)).ok).toBe(false);
    expect((await authB.authenticate(rotated.key)).ok).toBe(true);

    const listed = await store.listKeys('rotator');
    expect(listed.find((k) => k.keyId === original.keyId)).toMatchObject({
      status: 'expired',
      replacedBy: rotated.keyId,
    });
    await expect(store.rotateKey(original.keyId, 1000)).rejects.toThrow(/expired/);
  });

  it('answers "no API access" for keys of starter accounts, and follows tier changes', async () => {
    const created = await store.createKey({ accountId: 'dashboard-only', tier: 'starter' });
    const result = await authA.authenticate(created.key);
    expect(result).toMatchObject({ ok: false, reason: 'no_api_access' });
    expect(result.ok ? '' : result.message).toMatch(/no API access/);

    await store.setAccount({ accountId: 'dashboard-only', tier: 'free' });
    const upgraded = await pollUntil(
      () => authB.authenticate(created.key),
      (r) => r.ok,
      5000,
    );
    expect(upgraded.value).toMatchObject({ ok: true, tier: 'free' });
  });

  it('tells missing, malformed and unknown apart, and forgets "unknown" when the key is created', async () => {
    expect(await authA.authenticate(undefined)).toMatchObject({ ok: false, reason: 'missing' });
    expect(await authA.authenticate('')).toMatchObject({ ok: false, reason: 'missing' });
    expect(await authA.authenticate('wdn_live_nope')).toMatchObject({ ok: false, reason: 'malformed' });
    const stranger = generateApiKey();
    expect(await authA.authenticate(stranger)).toMatchObject({ ok: false, reason: 'unknown' });
    const lookups = authA.stats().lookups;
    expect(await authA.authenticate(stranger)).toMatchObject({ ok: false, reason: 'unknown' });
    expect(authA.stats().lookups).toBe(lookups); // negative cache
  });

  it('a key created after its negative lookup works within 5 s, at once when its change message arrives', async () => {
    // Written the way KeyStore writes a key, for a key whose lookup failed before it existed.
    const appear = async (key: string, announce: boolean) => {
      const keyId = `key_${randomBytes(10).toString('hex')}`;
      const hash = hashKey(key);
      await redisA.hset(store.keyspace.account('late'), { accountId: 'late', tier: 'free', version: 1 });
      await redisA.hset(store.keyspace.key(keyId), {
        keyId,
        accountId: 'late',
        hash,
        scopes: 'ingest',
        createdAt: Date.now(),
        hint: 'wdn_live_…late',
        version: 1,
      });
      await redisA.set(store.keyspace.keyByHash(hash), keyId);
      if (announce)
        await redisA.publish(store.keyspace.changes, JSON.stringify({ kind: 'key', keyId, hash }));
    };
    const silent = generateApiKey();
    expect(await authA.authenticate(silent)).toMatchObject({ ok: false, reason: 'unknown' });
    await appear(silent, false);
    const lapsed = await pollUntil(
      () => authA.authenticate(silent),
      (r) => r.ok,
      6000,
      50,
    );
    expect(lapsed.value.ok).toBe(true);
    expect(lapsed.elapsedMs).toBeLessThan(5100);

    const announced = generateApiKey();
    expect(await authB.authenticate(announced)).toMatchObject({ ok: false, reason: 'unknown' });
    await appear(announced, true);
    const seen = await pollUntil(
      () => authB.authenticate(announced),
      (r) => r.ok,
      6000,
    );
    expect(seen.value.ok).toBe(true);
    expect(seen.elapsedMs).toBeLessThan(1000);
  });

  it('picks up a change whose message was lost on the next full refresh', async () => {
    const redisC = connect();
    const authC = new KeyAuthenticator({ redis: redisC, prefix, refreshIntervalMs: 300 });
    try {
      await authC.start();
      const created = await store.createKey({ accountId: 'quiet', tier: 'free' });
      expect(
        (
          await pollUntil(
            () => authC.authenticate(created.key),
            (r) => r.ok,
            2000,
          )
        ).value.ok,
      ).toBe(true);
      // Revoke behind the authenticators' backs: no message is published.
      await redisA.hset(store.keyspace.key(created.keyId), 'revokedAt', Date.now());
      await redisA.hincrby(store.keyspace.key(created.keyId), 'version', 1);
      const seen = await pollUntil(
        () => authC.authenticate(created.key),
        (r) => !r.ok,
        3000,
      );
      expect(seen.value).toMatchObject({ ok: false, reason: 'revoked' });
    } finally {
      await authC.stop();
      redisC.disconnect();
    }
  });

  it('validates input with errors that say what to do', async () => {
    await expect(store.createKey({ accountId: 'bad:id' })).rejects.toThrow(KeysError);
    await expect(store.createKey({ accountId: 'ok', scopes: ['superuser' as 'ingest'] })).rejects.toThrow(
      /Use any of/,
    );
    await expect(store.revokeKey('key_doesnotexist000000')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers "unavailable" (not 401) for an uncached key when Redis is down, without hanging', async () => {
    const down = unreachableRedis();
    try {
      const auth = new KeyAuthenticator({ redis: down, prefix });
      const started = Date.now();
      expect(await auth.authenticate(generateApiKey())).toMatchObject({ ok: false, reason: 'unavailable' });
      expect(Date.now() - started).toBeLessThan(500);
    } finally {
      down.disconnect();
    }
  });
});
