import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KafkaUnavailableError } from '@warden/shared/kafka/durable-writer';
import { generateApiKey, KeyStore } from '@warden/shared/keys/index';
import { createLogger } from '@warden/shared/logger';
import { createMetricsRegistry } from '@warden/shared/metrics';
import { redisGuards, type EnvelopePublisher, type Guards, type RedisGuards } from '@warden/ingest';
import { ensureTestTopics, startIngest, uniqueName, type RunningIngest } from './support/pipeline';
import { connect, deletePrefix, testPrefix } from './support/redis-namespace';

const quiet = createLogger('test');
quiet.level = 'silent';

/**
 * Issue #26: what a key holder (or anyone without a key) can do to Warden's limits and Redis:
 * batches cost their records, and keyless traffic is limited per address.
 */
describe('ingest under abuse (Redis guards)', () => {
  const prefix = testPrefix('abuse');
  let redis: Redis;
  let store: KeyStore;
  const clients: Redis[] = [];
  const guards: RedisGuards[] = [];
  const apps: RunningIngest[] = [];
  const published: string[] = [];

  const counting = (inner: EnvelopePublisher): EnvelopePublisher => ({
    publish: async (envs) => {
      await inner.publish(envs);
      published.push(...envs.map((e) => e.interactionId));
    },
  });

  /** An ingest process on its own guards; rates scaled to 1/20 (free: 5/min, burst 10). */
  const start = async (
    options: {
      addressLimits?: { ratePerMinute: number; burst: number };
      /** Changes the guards' Redis client before the guards define their commands on it. */
      prepare?: (redis: Redis) => void;
      wrap?: (guards: RedisGuards) => Guards;
      /** Publishes fail while this says so (Kafka unavailable: 503). */
      kafkaDown?: () => boolean;
    } = {},
  ) => {
    const client = connect();
    clients.push(client);
    options.prepare?.(client);
    const metrics = createMetricsRegistry('ingest');
    const guard = redisGuards({
      redis: client,
      logger: quiet,
      prefix,
      metrics,
      rateScale: 0.05,
      rateLimitTimeoutMs: 2000,
      ...(options.addressLimits ? { addressLimits: options.addressLimits } : {}),
    });
    await guard.start();
    guards.push(guard);
    const app = await startIngest({
      guards: options.wrap ? options.wrap(guard) : guard,
      metrics,
      wrapPublisher: (inner) => {
        const publisher = counting(inner);
        return {
          publish: async (envs) => {
            if (options.kafkaDown?.()) throw new KafkaUnavailableError('test: broker down');
            await publisher.publish(envs);
          },
        };
      },
    });
    apps.push(app);
    return { app, client, metrics };
  };

  let ingest: RunningIngest;

  beforeAll(async () => {
    redis = connect();
    store = new KeyStore({ redis, prefix });
    await ensureTestTopics();
    ingest = (await start()).app;
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const guard of guards) await guard.stop();
    for (const client of clients) client.disconnect();
    await deletePrefix(redis, prefix);
    redis?.disconnect();
  });

  const post = (
    app: RunningIngest,
    body: object,
    headers: Record<string, string>,
    path = '/telemetry/ingest',
  ) =>
    app.app.inject({
      method: 'POST',
      url: `/api/v1${path}`,
      headers: { 'content-type': 'application/json', ...headers },
      payload: body,
    });
  const record = (agentId = 'agent-1') => ({ agentId, prompt: 'p', response: 'r' });
  const batchOf = (n: number, make: (i: number) => object = () => record()) => ({
    interactions: Array.from({ length: n }, (_, i) => make(i)),
  });
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
  const remaining = (res: { headers: Record<string, unknown> }) =>
    Number(/r=(\d+)/.exec(String(res.headers['ratelimit']))?.[1]);

  describe('rate limits count records', () => {
    it('a batch costs the records it carries, and its RateLimit header says so', async () => {
      const { key } = await store.createKey({ accountId: uniqueName('records'), tier: 'free' });
      const batch = await post(ingest, batchOf(8), bearer(key), '/telemetry/batch');
      expect(batch.statusCode).toBe(200);
      expect(remaining(batch)).toBe(2);
      expect((await post(ingest, record(), bearer(key))).statusCode).toBe(200);
      expect((await post(ingest, record(), bearer(key))).statusCode).toBe(200);
      const refused = await post(ingest, record(), bearer(key));
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.message).toMatch(/records\/min/);
    });

    it('a batch larger than the burst is 413 with how to split it, never a 429 that cannot pass', async () => {
      const { key } = await store.createKey({ accountId: uniqueName('split'), tier: 'free' });
      const before = published.length;
      const res = await post(ingest, batchOf(11), bearer(key), '/telemetry/batch');
      expect(published.length).toBe(before);
      expect(res.statusCode).toBe(413);
      expect(res.json().error).toMatchObject({
        code: 'PAYLOAD_TOO_LARGE',
        details: { field: 'interactions', expected: 'at most 10 records', received: '11 records' },
      });
      expect(res.json().error.message).toMatch(/batches of at most 10/);
      // Like any request, it cost one unit on arrival.
      expect(remaining(res)).toBe(9);
      // Ten fit a rested account at once.
      const { key: rested } = await store.createKey({ accountId: uniqueName('split'), tier: 'free' });
      expect((await post(ingest, batchOf(10), bearer(rested), '/telemetry/batch')).statusCode).toBe(200);
    });

    it('a refused batch costs nothing: its arrival is refunded and Retry-After is for the whole batch', async () => {
      const { key } = await store.createKey({ accountId: uniqueName('refund'), tier: 'free' });
      for (let i = 0; i < 5; i++) expect((await post(ingest, record(), bearer(key))).statusCode).toBe(200);
      const refused = await post(ingest, batchOf(7), bearer(key), '/telemetry/batch');
      expect(refused.statusCode).toBe(429);
      expect(remaining(refused)).toBe(5);
      // Two more records must drip in at 5/min: about 24 s.
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(23);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(24);
      const next = await post(ingest, batchOf(5), bearer(key), '/telemetry/batch');
      expect(next.statusCode).toBe(200);
      expect(remaining(next)).toBe(0);
    });
  });

  describe('requests without a valid key', () => {
    it('are limited per client address, and random keys stop costing Redis lookups', async () => {
      // Created first, so the new process loads it at start: a key it knows costs the address nothing.
      const { key } = await store.createKey({ accountId: uniqueName('addr'), tier: 'business' });
      const { app, client } = await start({ addressLimits: { ratePerMinute: 1, burst: 5 } });
      expect((await post(app, record(), bearer(key))).statusCode).toBe(200);
      let lookups = 0;
      const get = client.get.bind(client);
      client.get = ((...args: Parameters<typeof get>) => {
        if (String(args[0]).includes('keyhash:')) lookups++;
        return get(...args);
      }) as typeof client.get;

      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await post(app, record(), bearer(generateApiKey()))).statusCode);
      expect(statuses).toEqual([401, 401, 401, 401, 401]);
      expect(lookups).toBe(5);
      const refused = await post(app, record(), bearer(generateApiKey()));
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(String(refused.headers['ratelimit-policy'])).toBe('"unauthenticated";q=5;w=300');
      for (let i = 0; i < 20; i++) {
        expect((await post(app, record(), bearer(generateApiKey()))).statusCode).toBe(429);
        expect((await post(app, record(), { 'x-api-key': 'garbage' })).statusCode).toBe(429);
      }
      expect(lookups).toBe(5);
      // A key this process knows to be valid still passes from the same address.
      expect((await post(app, record(), bearer(key))).statusCode).toBe(200);
    });
  });
});
