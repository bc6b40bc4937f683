import { createClickhouse } from '@warden/shared/clickhouse/client';
import {
  clickhouseDatabase,
  consumerStartsFromBeginning,
  intFromEnv,
  loadEndpoints,
  stringFromEnv,
} from '@warden/shared/config';
import { createDurableProducer, createKafka } from '@warden/shared/kafka/client';
import { topics } from '@warden/shared/kafka/topics';
import { createLogger } from '@warden/shared/logger';
import { createMetricsRegistry } from '@warden/shared/metrics';
import { serveMetrics } from '@warden/shared/metrics-server';
import { onShutdown } from '@warden/shared/shutdown';
import { SinkPipeline } from './pipeline';

const log = createLogger('sink');
const endpoints = loadEndpoints();
const env = process.env;
const groupId = stringFromEnv(env, 'WARDEN_SINK_GROUP', 'warden-sink');
const metrics = createMetricsRegistry('sink');

const kafka = createKafka({ brokers: endpoints.kafkaBrokers, clientId: 'warden-sink', logger: log });
const consumer = kafka.consumer({
  groupId,
  sessionTimeout: 30_000,
  heartbeatInterval: 3_000,
  maxBytesPerPartition: 4 * 1024 * 1024,
  minBytes: 256 * 1024,
  maxWaitTimeInMs: 250,
});
const dlqProducer = createDurableProducer(kafka);
const clickhouse = createClickhouse({ url: endpoints.clickhouseUrl });

const pipeline = new SinkPipeline({
  consumer,
  dlqProducer,
  clickhouse,
  database: clickhouseDatabase(env),
  groupId,
  logger: log,
  metrics,
  maxRows: intFromEnv(env, 'WARDEN_SINK_MAX_ROWS', 50_000, 1, 1_000_000),
  maxAgeMs: intFromEnv(env, 'WARDEN_SINK_MAX_AGE_MS', 1000, 10, 60_000),
  decodeThreads: intFromEnv(env, 'WARDEN_SINK_DECODE_THREADS', 1, 0, 16),
  topics: [topics.interactions, topics.detections],
  fromBeginning: consumerStartsFromBeginning(env),
});

await dlqProducer.connect();
await pipeline.start();
const metricsServer = await serveMetrics(
  metrics,
  intFromEnv(env, 'WARDEN_SINK_METRICS_PORT', 9102, 0, 65535),
);
log.info({ groupId, database: clickhouseDatabase(env), metrics: metricsServer.url }, 'sink running');

onShutdown(log, async () => {
  await pipeline.stop();
  await dlqProducer.disconnect();
  await clickhouse.close();
  await metricsServer.close();
});
