import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import { redisGuards, type RedisGuards } from '@warden/ingest';
import {
  KeyAuthenticator,
  KeyStore,
  KeyUsageRecorder,
  PostgresKeys,
  generateApiKey,
  hashKey,
} from '@warden/shared/keys/index';
import { createLogger } from '@warden/shared/logger';
import { createPostgres } from '@warden/shared/postgres/client';
import { endpoints, ensureTestTopics, postJson, startIngest, type RunningIngest } from './support/pipeline';
import { freePort, runService } from './support/processes';
import { testPostgres, type TestPostgres } from './support/postgres';
import {
  pollUntil,
  startPrivateRedis,
  testPrefix,
  unreachableRedis,
  type PrivateRedis,
} from './support/redis-namespace';

const quiet = createLogger('test');
quiet.level = 'silent';
const record = { agentId: 'agent-1', prompt: 'p', response: 'r' };

/**
 * PostgreSQL is the record, Redis a cache: on a redis-server of this suite's own (FLUSHALL is
 * allowed there) and a database of its own.
 */
describe('keys in PostgreSQL, cached in Redis', () => {
  let db: TestPostgres;
  let privateRedis: PrivateRedis;
  let redis: Redis;
  let store: KeyStore;
  const prefix = testPrefix('control');
  const clients: Redis[] = [];
  const connect = () => {
    const client = new Redis(privateRedis.url, { maxRetriesPerRequest: 1 });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    [db, privateRedis] = await Promise.all([testPostgres(), startPrivateRedis()]);
    redis = connect();
    store = new KeyStore({ redis, prefix, source: new PostgresKeys(db.pool, 'test') });
    await ensureTestTopics();
  });

  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await privateRedis?.stop();
    await db?.drop();
  });

  it('writes PostgreSQL first and keeps only the hash there; every change is in the audit log', async () => {
    const created = await store.createKey({ accountId: 'acme', tier: 'business', scopes: ['ingest'] });
    const { rows } = await db.pool.query<Record<string, unknown>>('SELECT * FROM api_keys WHERE id = $1', [
      created.keyId,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ project_id: 'acme', hash: hashKey(created.key), scopes: ['ingest'] });
    expect(JSON.stringify(rows[0])).not.toContain(created.key);
    const project = await db.pool.query('SELECT tier FROM projects WHERE id = $1', ['acme']);
    expect(project.rows[0]).toEqual({ tier: 'business' });

    await store.revokeKey(created.keyId);
    const revoked = await db.pool.query('SELECT revoked_at, version FROM api_keys WHERE id = $1', [
      created.keyId,
    ]);
    expect(revoked.rows[0].revoked_at).toBeInstanceOf(Date);
    expect(Number(revoked.rows[0].version)).toBe(2);
    const audit = await db.pool.query<{ action: string; target: string; actor: string }>(
      'SELECT action, target, actor FROM audit_log WHERE target = $1 ORDER BY id',
      [created.keyId],
    );
    expect(audit.rows).toEqual([
      { action: 'key.created', target: created.keyId, actor: 'test' },
      { action: 'key.revoked', target: created.keyId, actor: 'test' },
    ]);
    // Listings read PostgreSQL.
    expect(await store.listKeys('acme')).toMatchObject([{ keyId: created.keyId, status: 'revoked' }]);
  });

  it('after FLUSHALL a restarted ingest authenticates an existing key again within 5 s, and a lookup refills Redis', async () => {
    const created = await store.createKey({ accountId: 'flush', tier: 'professional', scopes: ['ingest'] });
    const guardsFor = async () => {
      const guards = redisGuards({ redis: connect(), postgres: db.pool, prefix, logger: quiet });
      await guards.start();
      return guards;
    };
    const running: { ingest: RunningIngest; guards: RedisGuards }[] = [];
    const startOne = async () => {
      const guards = await guardsFor();
      const ingest = await startIngest({ guards });
      running.push({ ingest, guards });
      return ingest;
    };
    try {
      const before = await startOne();
      expect((await postJson(before, record, { authorization: `Bearer ${created.key}` })).statusCode).toBe(
        200,
      );

      expect(await redis.flushall()).toBe('OK');
      expect(await redis.dbsize()).toBe(0);
      // The process that was running keeps its cached key…
      expect((await postJson(before, record, { authorization: `Bearer ${created.key}` })).statusCode).toBe(
        200,
      );
      // …and one started after the flush finds it in PostgreSQL.
      const t0 = Date.now();
      const after = await startOne();
      const { value, elapsedMs } = await pollUntil(
        async () => (await postJson(after, record, { authorization: `Bearer ${created.key}` })).statusCode,
        (status) => status === 200,
        5000,
        100,
      );
      expect(value).toBe(200);
      expect(Date.now() - t0).toBeLessThan(5000);
      expect(elapsedMs).toBeLessThan(5000);

      // A lookup of a key Redis no longer holds reads PostgreSQL and puts the key back in Redis.
      expect(await redis.exists(store.keyspace.keyByHash(hashKey(created.key)))).toBe(0);
      const found = await store.findByHash(hashKey(created.key));
      expect(found?.record.keyId).toBe(created.keyId);
      expect(await redis.get(store.keyspace.keyByHash(hashKey(created.key)))).toBe(created.keyId);
    } finally {
      for (const { ingest, guards } of running) {
        await ingest.close();
        await guards.stop();
      }
    }
  });

  it('the real ingest process, restarted after FLUSHALL, answers 200 for an existing key within 5 s', async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const api = `http://127.0.0.1:${port}`;
    const env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      WARDEN_INGEST_METRICS_PORT: String(metricsPort),
      KAFKA_BROKERS: endpoints().kafkaBrokers.join(','),
      REDIS_URL: privateRedis.url,
      DATABASE_URL: db.url,
    };
    // The service uses the default key namespace: this suite's own Redis holds nothing else.
    const served = new KeyStore({ redis, source: new PostgresKeys(db.pool, 'test') });
    const key = await served.createKey({ accountId: 'process', scopes: ['ingest'] });
    const post = () =>
      fetch(`${api}/api/v1/telemetry/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key.key}` },
        body: JSON.stringify(record),
      }).then(
        (r) => r.status,
        () => 0,
      );
    const healthy = () =>
      pollUntil(
        () =>
          fetch(`${api}/healthz`).then(
            (r) => r.ok,
            () => false,
          ),
        (ok) => ok,
        60_000,
        100,
      );
    let ingest = runService('ingest', env);
    try {
      expect((await healthy()).value).toBe(true);
      expect((await pollUntil(post, (status) => status === 200, 10_000, 100)).value).toBe(200);
      await ingest.stop();

      await redis.flushall();
      ingest = runService('ingest', env);
      expect((await healthy()).value).toBe(true);
      const { value, elapsedMs } = await pollUntil(post, (status) => status === 200, 5000, 100);
      expect(value).toBe(200);
      expect(elapsedMs).toBeLessThan(5000);
    } finally {
      await ingest.stop();
    }
  }, 120_000);

  it('a revocation after FLUSHALL reaches every process within 5 s', async () => {
    const created = await store.createKey({ accountId: 'revoke', tier: 'free', scopes: ['ingest'] });
    const auths = [1, 2].map(
      () => new KeyAuthenticator({ redis: connect(), prefix, source: new PostgresKeys(db.pool) }),
    );
    try {
      await Promise.all(auths.map((a) => a.start()));
      for (const auth of auths) expect((await auth.authenticate(created.key)).ok).toBe(true);
      await redis.flushall();
      await store.revokeKey(created.keyId);
      for (const auth of auths) {
        const seen = await pollUntil(
          () => auth.authenticate(created.key),
          (r) => !r.ok,
          5000,
        );
        expect(seen.value).toMatchObject({ ok: false, reason: 'revoked' });
        expect(seen.elapsedMs).toBeLessThan(5000);
      }
    } finally {
      for (const auth of auths) await auth.stop();
    }
  });

  it('a key the process holds is answered without asking PostgreSQL or Redis (the hot path)', async () => {
    const created = await store.createKey({ accountId: 'hot', tier: 'business', scopes: ['ingest'] });
    const pool = createPostgres({ url: db.url });
    const queries = vi.spyOn(pool, 'query');
    const commandRedis = connect();
    const commands = vi.spyOn(commandRedis, 'sendCommand');
    const auth = new KeyAuthenticator({ redis: commandRedis, prefix, source: new PostgresKeys(pool) });
    try {
      await auth.start();
      expect(queries.mock.calls.length).toBeGreaterThan(0); // the full load at start
      const [pgBefore, redisBefore, lookupsBefore] = [
        queries.mock.calls.length,
        commands.mock.calls.length,
        auth.stats().lookups,
      ];
      for (let i = 0; i < 1000; i++) expect((await auth.authenticate(created.key)).ok).toBe(true);
      expect(queries.mock.calls.length).toBe(pgBefore);
      expect(commands.mock.calls.length).toBe(redisBefore);
      expect(auth.stats().lookups).toBe(lookupsBefore);
      // The spies do see traffic: a key nobody holds costs one lookup in each store.
      expect(await auth.authenticate(generateApiKey())).toMatchObject({ ok: false, reason: 'unknown' });
      expect(commands.mock.calls.length).toBeGreaterThan(redisBefore);
      expect(queries.mock.calls.length).toBeGreaterThan(pgBefore);
    } finally {
      await auth.stop();
      await pool.end();
    }
  });

  it('usage per key per day is counted in PostgreSQL and survives FLUSHALL', async () => {
    const created = await store.createKey({ accountId: 'usage', tier: 'free', scopes: ['ingest'] });
    const usage = new KeyUsageRecorder({
      redis,
      prefix,
      source: new PostgresKeys(db.pool),
      flushIntervalMs: 60_000,
    });
    usage.recordUsage(created.keyId, 3);
    usage.recordUsage(created.keyId);
    // A key PostgreSQL does not know (Redis-only, before `warden migrate`) does not fail the others.
    usage.recordUsage('key_00000000000000000000', 5);
    await usage.flush();
    usage.recordUsage(created.keyId, 2);
    await usage.stop();

    const { rows } = await db.pool.query<{ day: string; requests: string }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, requests FROM key_usage WHERE key_id = $1`,
      [created.keyId],
    );
    expect(rows).toEqual([{ day: new Date().toISOString().slice(0, 10), requests: '6' }]);
    await redis.flushall();
    const [listed] = await store.listKeys('usage');
    expect(listed).toMatchObject({ keyId: created.keyId, usage: { today: 6, total: 6 } });
    expect(Date.parse(listed!.usage.lastUsedAt!)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('while PostgreSQL is down, cached keys keep working and keys nobody holds get "unavailable" (503), not 401', async () => {
    const created = await store.createKey({ accountId: 'pgdown', tier: 'free', scopes: ['ingest'] });
    // A pool to a port where nothing listens stands for PostgreSQL being down.
    const deadPool = createPostgres({
      url: 'postgres://postgres@127.0.0.1:1/warden',
      connectionTimeoutMs: 300,
    });
    const errors: string[] = [];
    const auth = new KeyAuthenticator({
      redis: connect(),
      prefix,
      source: new PostgresKeys(deadPool),
      onError: (_error, during) => errors.push(during),
    });
    try {
      // The full load falls back to the Redis cache.
      await auth.start();
      expect(errors).toContain('refresh from PostgreSQL');
      expect(await auth.authenticate(created.key)).toMatchObject({ ok: true, keyId: created.keyId });
      // Flushed from Redis too: the process still holds it.
      await redis.flushall();
      await auth.refresh();
      expect(await auth.authenticate(created.key)).toMatchObject({ ok: true, keyId: created.keyId });
      const other = await store.createKey({ accountId: 'pgdown', scopes: ['ingest'] });
      await redis.flushall();
      const unknown = await auth.authenticate(other.key);
      expect(unknown).toMatchObject({ ok: false, reason: 'unavailable' });
    } finally {
      await auth.stop();
      await deadPool.end();
    }
  });

  it('while Redis is down, a key the process does not hold is read from PostgreSQL', async () => {
    const created = await store.createKey({ accountId: 'redisdown', tier: 'free', scopes: ['ingest'] });
    const down = unreachableRedis();
    clients.push(down);
    const withRecord = new KeyAuthenticator({ redis: down, prefix, source: new PostgresKeys(db.pool) });
    expect(await withRecord.authenticate(created.key)).toMatchObject({ ok: true, keyId: created.keyId });
    // Without PostgreSQL nothing could tell: "unavailable" (503), never 401.
    const cacheOnly = new KeyAuthenticator({ redis: down, prefix });
    expect(await cacheOnly.authenticate(created.key)).toMatchObject({ ok: false, reason: 'unavailable' });
  });

  it('warden migrate carries keys that exist only in Redis into PostgreSQL, once', async () => {
    const redisOnly = new KeyStore({ redis, prefix });
    const kept = await redisOnly.createKey({
      accountId: 'legacy',
      tier: 'enterprise',
      scopes: ['ingest', 'analytics:read'],
      limits: { agentLimit: 7 },
      name: 'old',
    });
    const rotated = await redisOnly.rotateKey(kept.keyId, 60_000);
    const gone = await redisOnly.createKey({ accountId: 'legacy', scopes: ['ingest'] });
    await redisOnly.revokeKey(gone.keyId);

    expect(await store.importCachedRecords()).toMatchObject({ keys: 3, projects: 1 });
    expect(await store.importCachedRecords()).toEqual({ keys: 0, projects: 0 });

    const listed = await new PostgresKeys(db.pool).listKeys('legacy');
    expect(listed.map((l) => l.record.keyId).sort()).toEqual([kept.keyId, rotated.keyId, gone.keyId].sort());
    const old = listed.find((l) => l.record.keyId === kept.keyId)!.record;
    expect(old).toMatchObject({ name: 'old', replacedBy: rotated.keyId, hash: hashKey(kept.key) });
    expect(old.expiresAt).toBeGreaterThan(Date.now());
    expect(listed.find((l) => l.record.keyId === gone.keyId)!.record.revokedAt).toBeGreaterThan(0);
    expect(listed[0]!.tier).toBe('enterprise');
    expect(await new PostgresKeys(db.pool).getProject('legacy')).toMatchObject({ limits: { agentLimit: 7 } });

    // Now only PostgreSQL knows them: a fresh process after FLUSHALL authenticates the carried key.
    await redis.flushall();
    const auth = new KeyAuthenticator({ redis: connect(), prefix, source: new PostgresKeys(db.pool) });
    try {
      await auth.start();
      expect(await auth.authenticate(rotated.key)).toMatchObject({ ok: true, tier: 'enterprise' });
      expect(await auth.authenticate(gone.key)).toMatchObject({ ok: false, reason: 'revoked' });
    } finally {
      await auth.stop();
    }
  });
});
