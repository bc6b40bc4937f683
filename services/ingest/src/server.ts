import cluster from 'node:cluster';
import { loadEndpoints, loadIngestConfig } from '@warden/shared/config';
import { KafkaWriterThread } from '@warden/shared/kafka/writer-thread';
import { createLogger } from '@warden/shared/logger';
import { serviceRedis } from '@warden/shared/redis';
import { createMetricsRegistry, Histogram } from '@warden/shared/metrics';
import { serveMetrics } from '@warden/shared/metrics-server';
import { createPostgres } from '@warden/shared/postgres/client';
import { onShutdown } from '@warden/shared/shutdown';
import { buildApp } from './app';
import { reportMetricsToPrimary } from './cluster-metrics';
import { redisGuards } from './redis-guards';
import { kafkaPublisher } from './publish';

const log = createLogger('ingest');
const endpoints = loadEndpoints();
const config = loadIngestConfig();

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

// A worker answers the primary's scrapes from the start, while it connects (see cluster-metrics.ts).
if (cluster.isWorker) reportMetricsToPrimary(metrics);

// Producing (kafkajs encoding, protocol and sockets) runs on its own thread, beside request handling.
const writer = new KafkaWriterThread({
  brokers: endpoints.kafkaBrokers,
  clientId: 'warden-ingest',
  loggerName: 'ingest',
  producers: config.producers,
  timeoutMs: config.produceTimeoutMs,
  onFlush: ({ messages, ms, ok }) => {
    produceLatency.observe({ ok: String(ok) }, ms / 1000);
    produceBatch.observe(messages);
  },
});
// Kafka may come up after ingest: the thread keeps connecting in the background; until then answers are 503.
writer.start();

// Rate-limit checks of concurrent requests share one write to Redis.
const redis = serviceRedis(endpoints.redisUrl, log, { enableAutoPipelining: true });
// PostgreSQL is asked only for keys neither this process nor Redis holds, and by the 30 s reload.
const postgres = createPostgres({ url: endpoints.databaseUrl, max: 2 });
const guards = redisGuards({ redis, postgres, logger: log, metrics });
await redis.connect().catch((err: unknown) => log.warn({ err }, 'Redis not reachable yet'));
await guards
  .start()
  .catch((err: unknown) => log.warn({ err }, 'key cache not loaded yet; keys are looked up on demand'));

const app = await buildApp({
  publisher: kafkaPublisher(writer),
  metrics,
  logger: log,
  guards,
  ready: () => writer.connected,
  timeouts: config.timeouts,
});

await app.listen({ port: config.port, host: config.host });
// Metrics are not on the public API port: a lone process serves them on a port of its own.
const metricsServer = cluster.isWorker
  ? undefined
  : await serveMetrics(metrics, config.metricsPort, () => writer.connected, config.metricsHost);
log.info(
  { url: `http://${config.host}:${config.port}/api/v1`, metrics: metricsServer?.url },
  'ingest listening',
);

onShutdown(log, async () => {
  await metricsServer?.close();
  await app.close();
  await writer.close();
  await guards.stop();
  redis.disconnect();
  await postgres.end();
});
