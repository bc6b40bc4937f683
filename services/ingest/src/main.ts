import { intFromEnv, loadEndpoints } from '@warden/shared/config';
import { createDurableProducer, createKafka } from '@warden/shared/kafka/client';
import { DurableWriter } from '@warden/shared/kafka/durable-writer';
import { createLogger } from '@warden/shared/logger';
import { createMetricsRegistry, Histogram } from '@warden/shared/metrics';
import { onShutdown } from '@warden/shared/shutdown';
import { Redis } from 'ioredis';
import { buildApp } from './app';
import { redisGuards } from './redis-guards';
import { kafkaPublisher } from './publish';

const log = createLogger('ingest');
const endpoints = loadEndpoints();
const port = intFromEnv(process.env, 'PORT', 8080, 1, 65535);
const host = process.env.HOST?.trim() || '0.0.0.0';

const metrics = createMetricsRegistry('ingest');
const produceLatency = new Histogram({
  name: 'warden_kafka_produce_duration_seconds',
  help: 'Duration of one produce request (acks=all) and its outcome.',
  labelNames: ['ok'],
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
  registers: [metrics],
});
const produceBatch = new Histogram({
  name: 'warden_kafka_produce_batch_messages',
  help: 'Messages per produce request.',
  buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000],
  registers: [metrics],
});

const kafka = createKafka({ brokers: endpoints.kafkaBrokers, clientId: 'warden-ingest', logger: log });
const producer = createDurableProducer(kafka);
let connected = false;
producer.on(producer.events.CONNECT, () => (connected = true));
producer.on(producer.events.DISCONNECT, () => (connected = false));
const writer = new DurableWriter(producer, {
  timeoutMs: intFromEnv(process.env, 'WARDEN_PRODUCE_TIMEOUT_MS', 5000, 100, 60000),
  onFlush: ({ messages, ms, ok }) => {
    produceLatency.observe({ ok: String(ok) }, ms / 1000);
    produceBatch.observe(messages);
  },
});

// Commands fail fast while Redis is away, so the guards fall back (local limits, cached keys) instead of waiting.
const redis = new Redis(endpoints.redisUrl, {
  maxRetriesPerRequest: 1,
  enableOfflineQueue: false,
  connectTimeout: 2000,
  lazyConnect: true,
});
redis.on('error', (err) => log.warn({ err: err.message }, 'Redis error'));
const guards = redisGuards({ redis, logger: log, metrics });
await redis.connect().catch((err: unknown) => log.warn({ err }, 'Redis not reachable yet'));
await guards
  .start()
  .catch((err: unknown) => log.warn({ err }, 'key cache not loaded yet; keys are looked up on demand'));

const app = await buildApp({
  publisher: kafkaPublisher(writer),
  metrics,
  logger: log,
  guards,
  ready: () => connected,
});

// Kafka may come up after ingest: keep trying in the background; until then answers are 503.
void (async function connectProducer(attempt = 1): Promise<void> {
  try {
    await producer.connect();
    log.info({ brokers: endpoints.kafkaBrokers }, 'connected to Kafka');
  } catch (err) {
    log.warn({ err, attempt }, 'Kafka not reachable yet; retrying');
    setTimeout(() => void connectProducer(attempt + 1), Math.min(5000, 250 * attempt));
  }
})();

await app.listen({ port, host });
log.info({ url: `http://${host}:${port}/api/v1` }, 'ingest listening');

onShutdown(log, async () => {
  await app.close();
  await writer.drain();
  await producer.disconnect();
  await guards.stop();
  redis.disconnect();
});
