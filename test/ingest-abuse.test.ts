import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KafkaUnavailableError } from '@warden/shared/kafka/durable-writer';
import { generateApiKey, KeyStore } from '@warden/shared/keys/index';
import { createMetricsRegistry } from '@warden/shared/metrics';
import { redisGuards, type EnvelopePublisher, type Guards, type RedisGuards } from '@warden/ingest';
import {
  ensureTestTopics,
  startIngest,
  uniqueName,
  type RunningIngest,
  postJson as post,
  quiet,
} from './support/pipeline';
import { connect, deletePrefix, testPrefix } from './support/redis-namespace';

/**
 * Issue #26: what a key holder (or anyone without a key) can do to Warden's limits and Redis:
 * batches cost their records, keyless traffic is limited per address, idempotent answers are
 * bounded, client interactionIds cannot be reused, and bookkeeping after the Kafka ack never turns
 * a stored record into an error.
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

  describe('idempotent answers are bounded in Redis', () => {
    const answerKey = (accountId: string, idempotencyKey: string) =>
      `${prefix}idem:${accountId}:${createHash('sha256').update(idempotencyKey).digest('hex')}`;

    it('ten idempotent 1,000-record batches keep under 16 KiB each, and replay the same answer', async () => {
      const accountId = uniqueName('bounded');
      const { key } = await store.createKey({
        accountId,
        tier: 'enterprise',
        limits: { ratePerMinute: 1_000_000, burst: 1_000_000 },
      });
      // Every record lacks agentId: 1,000 rejections a request, the largest answer per byte sent.
      const body = batchOf(1000, (i) => ({ prompt: `p${i}`, response: 'r' }));
      const keys: string[] = [];
      let first;
      for (let i = 0; i < 10; i++) {
        const idempotencyKey = uniqueName(`batch-${i}`);
        keys.push(answerKey(accountId, idempotencyKey));
        const res = await post(
          ingest,
          body,
          { ...bearer(key), 'idempotency-key': idempotencyKey },
          '/telemetry/batch',
        );
        expect(res.statusCode).toBe(207);
        expect(res.json().rejected).toBe(1000);
        if (i === 0) {
          first = res.json();
          const again = await post(
            ingest,
            body,
            { ...bearer(key), 'idempotency-key': idempotencyKey },
            '/telemetry/batch',
          );
          expect(again.headers['idempotent-replayed']).toBe('true');
          expect(again.json()).toEqual(first);
        }
      }
      let bytes = 0;
      for (const k of keys) bytes += (await redis.call('MEMORY', 'USAGE', k)) as number;
      // The uncompressed answers took ~235 KB each.
      expect(bytes).toBeLessThan(10 * 16 * 1024);
    });

    it('an answer too large to keep is replayed as its summary, and stored under 64 KiB', async () => {
      const accountId = uniqueName('capped');
      const { key } = await store.createKey({
        accountId,
        tier: 'enterprise',
        limits: { ratePerMinute: 1_000_000, burst: 1_000_000, agentLimit: 1 },
      });
      // Random 256-character agent ids beyond the agent limit: each rejection quotes its agentId.
      const body = batchOf(1000, () => record(randomBytes(128).toString('hex')));
      const headers = { ...bearer(key), 'idempotency-key': uniqueName('big') };
      const res = await post(ingest, body, headers, '/telemetry/batch');
      expect(res.statusCode).toBe(207);
      expect(res.json()).toMatchObject({ accepted: 1, rejected: 999 });
      expect(res.body.length).toBeGreaterThan(300_000);
      expect(await redis.strlen(answerKey(accountId, headers['idempotency-key']))).toBeLessThan(64 * 1024);

      const replay = await post(ingest, body, headers, '/telemetry/batch');
      expect(replay.statusCode).toBe(207);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json()).toMatchObject({ status: 'partial', accepted: 1, rejected: 999, results: [] });
      expect(replay.json().message).toMatch(/not replayed/);
    });
  });

  describe('interaction ids cannot be reused', () => {
    it('a client id with another record is 409; the same record again is its first answer, written once', async () => {
      const { key } = await store.createKey({ accountId: uniqueName('ids'), tier: 'business' });
      const interactionId = uniqueName('client-id');
      const before = published.length;
      const first = await post(ingest, { ...record(), interactionId }, bearer(key));
      expect(first.statusCode).toBe(200);
      expect(first.json().interactionId).toBe(interactionId);
      const again = await post(ingest, { ...record(), interactionId }, bearer(key));
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
      expect(again.headers['idempotent-replayed']).toBe('true');
      const other = await post(
        ingest,
        { ...record(), prompt: 'a different prompt', interactionId },
        bearer(key),
      );
      expect(other.statusCode).toBe(409);
      expect(other.json().error).toMatchObject({
        code: 'IDEMPOTENCY_CONFLICT',
        details: { field: 'interactionId' },
      });
      expect(published.length - before).toBe(1);
      // Ids are per account: another account may use the same one.
      const { key: otherAccount } = await store.createKey({ accountId: uniqueName('ids'), tier: 'business' });
      expect((await post(ingest, { ...record(), interactionId }, bearer(otherAccount))).statusCode).toBe(200);
    });

    it('an id Warden assigned in an earlier 200 cannot be sent back, whatever the record', async () => {
      const { key } = await store.createKey({ accountId: uniqueName('assigned'), tier: 'business' });
      const first = await post(ingest, record(), bearer(key));
      const assigned: string = first.json().interactionId;
      const before = published.length;
      for (const body of [
        { ...record(), prompt: 'hide the first one', interactionId: assigned },
        { ...record(), interactionId: assigned.toUpperCase() },
      ]) {
        const res = await post(ingest, body, bearer(key));
        expect(res.statusCode).toBe(409);
        expect(res.json().error.code).toBe('IDEMPOTENCY_CONFLICT');
        expect(res.json().error.message).toMatch(/assigned by Warden/);
      }
      const platform = await post(
        ingest,
        { ...record(), interactionId: assigned },
        bearer(key),
        '/integrations/custom/telemetry',
      );
      expect(platform.statusCode).toBe(409);
      expect(published.length).toBe(before);
    });

    it('in a batch, each reused id is rejected in its own result and the rest are stored once', async () => {
      const { key } = await store.createKey({ accountId: uniqueName('batch-ids'), tier: 'business' });
      const taken = uniqueName('taken');
      const fresh = uniqueName('fresh');
      expect((await post(ingest, { ...record(), interactionId: taken }, bearer(key))).statusCode).toBe(200);
      const assigned: string = (await post(ingest, record(), bearer(key))).json().interactionId;
      const before = published.length;
      const res = await post(
        ingest,
        {
          interactions: [
            { ...record(), interactionId: taken }, // the same record again: stored before
            { ...record(), interactionId: fresh },
            { ...record(), prompt: 'other', interactionId: taken }, // reused for another record
            { ...record(), interactionId: fresh }, // repeated in the batch: stored once
            { ...record(), interactionId: assigned },
            record(),
          ],
        },
        bearer(key),
        '/telemetry/batch',
      );
      expect(res.statusCode).toBe(207);
      const results = res.json().results as Array<{
        status: string;
        interactionId?: string;
        error?: { code: string; details: { field: string } };
      }>;
      expect(results.map((r) => r.status)).toEqual([
        'accepted',
        'accepted',
        'rejected',
        'accepted',
        'rejected',
        'accepted',
      ]);
      expect(results[0]!.interactionId).toBe(taken);
      expect(results[2]!.error).toMatchObject({
        code: 'IDEMPOTENCY_CONFLICT',
        details: { field: 'interactions[2].interactionId' },
      });
      expect(results[4]!.error?.code).toBe('IDEMPOTENCY_CONFLICT');
      expect(res.json()).toMatchObject({ accepted: 4, rejected: 2 });
      // Written: the fresh id once and the record without an id.
      expect(published.length - before).toBe(2);
      expect(published.slice(before)).toContain(fresh);
    });
    it('a record Kafka did not take (503) releases its id, so the retry stores it', async () => {
      let down = true;
      const { app } = await start({ kafkaDown: () => down });
      const { key } = await store.createKey({ accountId: uniqueName('released'), tier: 'business' });
      const body = { ...record(), interactionId: uniqueName('retried') };
      expect((await post(app, body, bearer(key))).statusCode).toBe(503);
      down = false;
      const before = published.length;
      const retry = await post(app, body, bearer(key));
      expect(retry.statusCode).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
      expect(published.length - before).toBe(1);
    });
  });

  describe('bookkeeping after the Kafka acknowledgement', () => {
    it('a Redis failure storing the idempotent answer still answers 200, once, and is counted', async () => {
      const { app, metrics } = await start({
        prepare: (client) => {
          // The guards find this command already defined: storing (or releasing) an answer fails.
          Object.assign(client, {
            wardenIdemSettle: () =>
              Promise.reject(new Error("READONLY You can't write against a read only replica.")),
          });
        },
      });
      const { key } = await store.createKey({ accountId: uniqueName('after-ack'), tier: 'business' });
      const before = published.length;
      const res = await post(app, record(), { ...bearer(key), 'idempotency-key': uniqueName('ack') });
      expect(res.statusCode).toBe(200);
      expect(res.json().status).toBe('success');
      // A record with its own id: its id's claim cannot be completed either.
      const own = await post(app, { ...record(), interactionId: uniqueName('own') }, bearer(key));
      expect(own.statusCode).toBe(200);
      expect(published.length - before).toBe(2);
      expect(await metrics.metrics()).toMatch(
        /warden_ingest_bookkeeping_failures_total\{[^}]*step="idempotency"[^}]*\} 2/,
      );
    });

    it('guards that throw after the ack do not turn the answer into an error', async () => {
      const { app } = await start({
        wrap: (guard) => ({
          ...guard,
          completeIdempotency: () => Promise.reject(new Error('Connection is closed.')),
        }),
      });
      const { key } = await store.createKey({ accountId: uniqueName('wrapped'), tier: 'business' });
      const res = await post(
        app,
        batchOf(3),
        { ...bearer(key), 'idempotency-key': uniqueName('ack') },
        '/telemetry/batch',
      );
      expect(res.statusCode).toBe(200);
      expect(res.json().accepted).toBe(3);
    });
  });
});
