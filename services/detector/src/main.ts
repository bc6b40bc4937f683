import { canariesFromEnv } from '@warden/shared/detectors/analyze';
import { consumerStartsFromBeginning, intFromEnv, loadEndpoints, stringFromEnv } from '@warden/shared/config';
import { createDurableProducer, createKafka } from '@warden/shared/kafka/client';
import { DurableWriter } from '@warden/shared/kafka/durable-writer';
import { prepareDetectors } from '@warden/shared/detectors/index';
import { createLogger } from '@warden/shared/logger';
import { createMetricsRegistry } from '@warden/shared/metrics';
import { serveMetrics } from '@warden/shared/metrics-server';
import { onShutdown } from '@warden/shared/shutdown';
import { DetectorPipeline } from './pipeline';

const log = createLogger('detector');
const env = process.env;
const endpoints = loadEndpoints();
const groupId = stringFromEnv(env, 'WARDEN_DETECTOR_GROUP', 'warden-detector');
const canaries = canariesFromEnv(env.WARDEN_CANARIES);
const metrics = createMetricsRegistry('detector');

const kafka = createKafka({ brokers: endpoints.kafkaBrokers, clientId: 'warden-detector', logger: log });
const consumer = kafka.consumer({
  groupId,
  sessionTimeout: 30_000,
  heartbeatInterval: 3_000,
  maxWaitTimeInMs: 250,
});
const producer = createDurableProducer(kafka);
const writer = new DurableWriter(producer, { timeoutMs: 30_000 });
const pipeline = new DetectorPipeline({
  consumer,
  writer,
  groupId,
  logger: log,
  metrics,
  analyze: { canaries },
  fromBeginning: consumerStartsFromBeginning(env),
  partitionsConcurrently: intFromEnv(env, 'WARDEN_DETECTOR_CONCURRENCY', 6, 1, 64),
});

await producer.connect();
const compiling = performance.now();
prepareDetectors();
log.info({ ms: Math.round(performance.now() - compiling) }, 'detector rule sets compiled');
await pipeline.start();
const server = await serveMetrics(metrics, intFromEnv(env, 'WARDEN_DETECTOR_METRICS_PORT', 9101, 0, 65535));
log.info({ groupId, metrics: server.url }, 'detector running');

onShutdown(log, async () => {
  await pipeline.stop();
  await writer.drain();
  await producer.disconnect();
  await server.close();
});
