import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '@warden/shared/keys/index';
import { redisGuards, type EnvelopePublisher, type RedisGuards } from '@warden/ingest';
import {
  endpoints,
  ensureTestTopics,
  startIngest,
  uniqueName,
  type RunningIngest,
  postJson as post,
  quiet,
} from './support/pipeline';

/** Keys, tiers, scopes, rate and agent limits and idempotency, against the real Redis and Kafka. */
describe('ingest guards (Redis) on two ingest processes', () => {
  const prefix = `${uniqueName('wtest')}:`;
  const redis = new Redis(endpoints().redisUrl);
  const store = new KeyStore({ redis, prefix });
  const guardRedis: Redis[] = [];
  const guards: RedisGuards[] = [];
  const published: string[][] = [[], []];
  let a: RunningIngest;
  let b: RunningIngest;

  /** Rates scaled to 1/20: free is 5/min with a burst of 10. */
  const makeGuards = async () => {
    const r = new Redis(endpoints().redisUrl, { maxRetriesPerRequest: 1 });
    guardRedis.push(r);
    // A generous Redis timeout: these tests pin shared limits, not the fallback a loaded CI machine
    // would trigger with the production 50 ms (the fallback has its own test below).
    const g = redisGuards({ redis: r, logger: quiet, prefix, rateScale: 0.05, rateLimitTimeoutMs: 2000 });
    await g.start();
    guards.push(g);
    return g;
  };

  beforeAll(async () => {
    await ensureTestTopics();
    const counting =
      (i: number) =>
      (inner: EnvelopePublisher): EnvelopePublisher => ({
        publish: async (envs) => {
          await inner.publish(envs);
          published[i]!.push(...envs.map((e) => e.interactionId));
        },
      });
    a = await startIngest({ guards: await makeGuards(), wrapPublisher: counting(0) });
    b = await startIngest({ guards: await makeGuards(), wrapPublisher: counting(1) });
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    for (const g of guards) await g.stop();
    for (const r of guardRedis) r.disconnect();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  const record = (agentId = 'agent-1') => ({ agentId, prompt: 'p', response: 'r' });
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

  it('accepts both header forms and refuses missing, malformed and unknown keys with 401', async () => {
    const { key } = await store.createKey({ accountId: uniqueName('acct'), tier: 'business' });
    expect((await post(a, record(), bearer(key))).statusCode).toBe(200);
    expect((await post(a, record(), { 'x-api-key': key })).statusCode).toBe(200);
    const bad: Array<Record<string, string>> = [
      {},
      bearer('nope'),
      // The last (checksum) character changed: never the same key, whatever it ended with.
      bearer(`${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`),
      { 'x-api-key': 'wdn_live_' + 'a'.repeat(38) },
    ];
    for (const headers of bad) {
      const res = await post(a, record(), headers);
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('INVALID_API_KEY');
      expect(res.body).not.toContain(key);
    }
  });

  it('401 for a tier without API access, 403 for a key without the ingest scope', async () => {
    const starter = await store.createKey({ accountId: uniqueName('starter'), tier: 'starter' });
    const res = await post(a, record(), bearer(starter.key));
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toMatch(/no API access/);
    const readOnly = await store.createKey({
      accountId: uniqueName('ro'),
      tier: 'business',
      scopes: ['analytics:read'],
    });
    const denied = await post(a, record(), bearer(readOnly.key));
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('INSUFFICIENT_PERMISSIONS');
  });

  it('revocation on one process takes effect on the other within 5 s', async () => {
    const { key, keyId } = await store.createKey({ accountId: uniqueName('rev'), tier: 'business' });
    expect((await post(b, record(), bearer(key))).statusCode).toBe(200);
    await store.revokeKey(keyId);
    const started = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - started < 5000) {
      status = (await post(b, record(), bearer(key))).statusCode;
      if (status === 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(401);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('rotation with grace: old and new keys work, the old one fails once the grace is over', async () => {
    const { keyId, key: oldKey } = await store.createKey({ accountId: uniqueName('rot'), tier: 'business' });
    const rotated = await store.rotateKey(keyId, 1500);
    await new Promise((r) => setTimeout(r, 300));
    expect((await post(a, record(), bearer(oldKey))).statusCode).toBe(200);
    expect((await post(b, record(), bearer(rotated.key))).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 1600));
    const expired = await post(b, record(), bearer(oldKey));
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error.message).toMatch(/expired/);
    expect((await post(a, record(), bearer(rotated.key))).statusCode).toBe(200);
  });

  // Scaled by 1/20: [tier, burst, requests per minute].
  it.each([
    ['free', 10, 5],
    ['professional', 100, 50],
    ['business', 500, 250],
    ['enterprise', 2000, 1000],
  ])(
    '%s tier: the burst is shared by both processes, then 429 with Retry-After',
    async (tier, burst, perMinute) => {
      const { key } = await store.createKey({ accountId: uniqueName(tier), tier: tier as 'free' });
      const statuses: number[] = [];
      let refused;
      const started = Date.now();
      // Past the burst, keep going until three refusals (the bucket drips back in meanwhile).
      for (let i = 0; statuses.filter((s) => s === 429).length < 3 && i < burst * 2; i++) {
        const res = await post(i % 2 ? a : b, record(), bearer(key));
        statuses.push(res.statusCode);
        if (res.statusCode === 429) refused = res;
      }
      // The bucket refills while the test runs: at most that many more than the burst get through.
      const refill = Math.ceil((perMinute / 60) * ((Date.now() - started) / 1000)) + 1;
      const allowed = statuses.filter((s) => s === 200).length;
      expect(allowed).toBeGreaterThanOrEqual(burst);
      expect(allowed).toBeLessThanOrEqual(burst + refill);
      expect(statuses.slice(0, burst).every((s) => s === 200)).toBe(true);
      expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
      expect(refused?.json().error.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(Number(refused?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(String(refused?.headers['ratelimit-policy'])).toMatch(new RegExp(`q=${burst}`));
      expect(String(refused?.headers['ratelimit'])).toMatch(/r=0/);
    },
  );

  it('every answer carries RateLimit headers', async () => {
    const { key } = await store.createKey({ accountId: uniqueName('hdr'), tier: 'business' });
    const res = await post(a, record(), bearer(key));
    expect(res.headers['ratelimit-policy']).toBeDefined();
    expect(res.headers['ratelimit']).toBeDefined();
  });

  it('agent limit: a new agent past the tier limit gets 403, known agents keep working', async () => {
    const { key } = await store.createKey({
      accountId: uniqueName('agents'),
      tier: 'free',
      limits: { ratePerMinute: 100_000, burst: 100_000 },
    });
    for (const agent of ['a1', 'a2', 'a3'])
      expect((await post(a, record(agent), bearer(key))).statusCode).toBe(200);
    const fourth = await post(b, record('a4'), bearer(key));
    expect(fourth.statusCode).toBe(403);
    expect(fourth.json().error.code).toBe('AGENT_LIMIT_EXCEEDED');
    expect((await post(b, record('a2'), bearer(key))).statusCode).toBe(200);
    const batch = await post(
      a,
      { interactions: [record('a1'), record('a9')] },
      bearer(key),
      '/telemetry/batch',
    );
    expect(batch.statusCode).toBe(207);
    expect(batch.json().results[1].error.code).toBe('AGENT_LIMIT_EXCEEDED');
  });

  it('Idempotency-Key: a retry on either process returns the first answer and writes nothing new', async () => {
    const { key } = await store.createKey({ accountId: uniqueName('idem'), tier: 'business' });
    const headers = { ...bearer(key), 'idempotency-key': uniqueName('retry') };
    const before = published[0]!.length + published[1]!.length;
    const first = await post(a, record(), headers);
    const again = await post(b, record(), headers);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json().interactionId).toBe(first.json().interactionId);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(published[0]!.length + published[1]!.length - before).toBe(1);
    const other = await post(a, { ...record(), prompt: 'different' }, headers);
    expect(other.statusCode).toBe(409);
  });

  it('a client-supplied interactionId is kept and its retry is answered without a second write', async () => {
    const { key } = await store.createKey({ accountId: uniqueName('cid'), tier: 'business' });
    const id = uniqueName('client-id');
    const res = await post(a, { ...record(), interactionId: id }, { ...bearer(key), 'idempotency-key': id });
    expect(res.json().interactionId).toBe(id);
  });
});

/** Redis stops while ingest runs: known keys keep working, limits fall back to each process. */
describe('Redis outage', () => {
  const port = 26379;
  let server: ChildProcess;
  let ingest: RunningIngest;
  let guard: RedisGuards;
  let guardRedis: Redis;
  const startRedis = async () => {
    server = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    const probe = new Redis(port, { lazyConnect: true, retryStrategy: () => null });
    probe.on('error', () => undefined);
    for (let i = 0; i < 50; i++) {
      try {
        await probe.connect();
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    probe.disconnect();
  };

  beforeAll(async () => {
    await startRedis();
  });
  afterAll(async () => {
    await ingest?.close();
    await guard?.stop();
    guardRedis?.disconnect();
    server?.kill();
  });

  it('keeps accepting cached keys with local limits and says so; recovers when Redis returns', async () => {
    const admin = new Redis(port);
    const { key } = await new KeyStore({ redis: admin }).createKey({ accountId: 'outage', tier: 'business' });
    admin.disconnect();
    guardRedis = new Redis(port, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      connectTimeout: 500,
      lazyConnect: true,
    });
    guardRedis.on('error', () => undefined);
    await guardRedis.connect();
    guard = redisGuards({ redis: guardRedis, logger: quiet });
    await guard.start();
    ingest = await startIngest({ guards: guard });
    const post = () =>
      ingest.app.inject({
        method: 'POST',
        url: '/api/v1/telemetry/ingest',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        payload: { agentId: 'a', prompt: 'p', response: 'r' },
      });
    expect((await post()).statusCode).toBe(200);

    server.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      const res = await post();
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit']).toBeDefined();
      expect(Date.now() - started).toBeLessThan(1000);
    }

    await startRedis();
    await new Promise((r) => setTimeout(r, 1500));
    expect((await post()).statusCode).toBe(200);
  }, 60_000);
});
