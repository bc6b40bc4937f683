import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Kafka, KafkaMessage } from 'kafkajs';
import { afterAll, beforeAll } from 'vitest';
import { createClickhouse, type ClickHouseClient } from '@warden/shared/clickhouse/client';
import { migrate } from '@warden/shared/clickhouse/migrate';
import { loadEndpoints, type Endpoints } from '@warden/shared/config';
import { SinkPipeline, type SinkOptions } from '@warden/sink';
import { createDurableProducer, createKafka } from '@warden/shared/kafka/client';
import { DurableWriter } from '@warden/shared/kafka/durable-writer';
import { ensureTopics, topicNames, topics } from '@warden/shared/kafka/topics';
import { KafkaWriterThread } from '@warden/shared/kafka/writer-thread';
import { createLogger } from '@warden/shared/logger';
import { createMetricsRegistry } from '@warden/shared/metrics';
import {
  buildApp,
  kafkaPublisher,
  openGuards,
  type EnvelopePublisher,
  type IngestDeps,
} from '@warden/ingest';

/** Endpoints the global setup found or started. */
export function endpoints(): Endpoints {
  return loadEndpoints(process.env);
}

export const uniqueName = (prefix: string) =>
  `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;

/** A throw-away ClickHouse database with every migration applied. */
export async function testDatabase(
  prefix = 'warden_test',
): Promise<{ client: ClickHouseClient; db: string; drop(): Promise<void> }> {
  const client = createClickhouse({ url: endpoints().clickhouseUrl });
  const db = uniqueName(prefix);
  await migrate(client, { database: db });
  return {
    client,
    db,
    drop: async () => {
      await client.command({ query: `DROP DATABASE IF EXISTS ${db}` });
      await client.close();
    },
  };
}

export async function ensureTestTopics(): Promise<void> {
  const admin = createKafka({ brokers: endpoints().kafkaBrokers, clientId: 'warden-test' }).admin();
  await admin.connect();
  try {
    await ensureTopics(admin);
  } finally {
    await admin.disconnect();
  }
}

/** The tests' logger: silent unless LOG_LEVEL asks for more. */
export const quiet = createLogger('test');
quiet.level = process.env.LOG_LEVEL ?? 'silent';

export interface RunningIngest {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/** POSTs a JSON body to one of the app's `/api/v1` routes (in process, through `inject`). */
export const postJson = (
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

/** The real ingest app on a free port, writing to the real Kafka. */
export async function startIngest(
  extra: Partial<IngestDeps> & { wrapPublisher?: (p: EnvelopePublisher) => EnvelopePublisher } = {},
): Promise<RunningIngest> {
  const writer = new KafkaWriterThread({
    brokers: endpoints().kafkaBrokers,
    clientId: 'warden-test-ingest',
    producers: 1,
    timeoutMs: 5000,
  });
  await writer.connect();
  const app = await buildApp({
    metrics: createMetricsRegistry('ingest'),
    ...extra,
    publisher: (extra.wrapPublisher ?? ((p) => p))(kafkaPublisher(writer)),
    guards: extra.guards ?? openGuards,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    url: `http://127.0.0.1:${port}/api/v1`,
    close: async () => {
      await app.close();
      await writer.close();
    },
  };
}

/** The real sink pipeline in a fresh consumer group, starting at the end of the topics. */
export async function startSink(
  db: string,
  extra: Partial<SinkOptions> = {},
): Promise<{ pipeline: SinkPipeline; groupId: string; stop(): Promise<void> }> {
  const kafka = createKafka({
    brokers: endpoints().kafkaBrokers,
    clientId: 'warden-test-sink',
    logger: quiet,
  });
  const groupId = uniqueName('warden-test-sink');
  const consumer = kafka.consumer({
    groupId,
    sessionTimeout: 30_000,
    heartbeatInterval: 1000,
    maxWaitTimeInMs: 100,
  });
  const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
  const producer = createDurableProducer(kafka);
  await producer.connect();
  const writer = new DurableWriter(producer, { timeoutMs: 10_000 });
  const clickhouse = createClickhouse({ url: endpoints().clickhouseUrl });
  const pipeline = new SinkPipeline({
    consumer,
    writer,
    clickhouse,
    database: db,
    groupId,
    logger: quiet,
    metrics: createMetricsRegistry('sink'),
    maxAgeMs: 200,
    topics: [topics.interactions],
    fromBeginning: false,
    ...extra,
  });
  await pipeline.start();
  await joined;
  return {
    pipeline,
    groupId,
    stop: async () => {
      await pipeline.stop();
      await writer.drain();
      await producer.disconnect();
      await clickhouse.close();
    },
  };
}

/** Polls until `check` passes or the time is up; returns the last value seen. */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (v: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (!check(last) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    last = await read();
  }
  return last;
}

/**
 * Reads `topic` from its beginning up to the ends its partitions have now, handing each message to
 * `each`, with a consumer group of its own; `complete` is false when the time ran out first.
 */
export async function readTopicToEnd(
  kafka: Kafka,
  topic: string,
  each: (partition: number, message: KafkaMessage) => void,
  timeoutMs = 30_000,
): Promise<{ complete: boolean; ends: Array<{ partition: number; high: string }> }> {
  const admin = kafka.admin();
  const reader = kafka.consumer({ groupId: uniqueName('warden-test-reader') });
  try {
    await admin.connect();
    const offsets = await admin.fetchTopicOffsets(topic);
    const left = new Map(offsets.filter((e) => e.high !== e.low).map((e) => [e.partition, BigInt(e.high)]));
    await reader.connect();
    await reader.subscribe({ topic, fromBeginning: true });
    await reader.run({
      eachMessage: async ({ partition, message }) => {
        each(partition, message);
        if (BigInt(message.offset) + 1n >= (left.get(partition) ?? 0n)) left.delete(partition);
      },
    });
    const remaining = await eventually(
      async () => left.size,
      (n) => n === 0,
      timeoutMs,
    );
    return { complete: remaining === 0, ends: offsets.map(({ partition, high }) => ({ partition, high })) };
  } finally {
    await reader.disconnect().catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
  }
}

export async function queryRows<T>(client: ClickHouseClient, query: string): Promise<T[]> {
  const rs = await client.query({ query, format: 'JSONEachRow' });
  return rs.json<T>();
}

/**
 * Follows a dead-letter topic from its beginning and keeps the letters one consumer group wrote
 * (header `dlq-consumer`), as they arrive. `stop()` disconnects the reader.
 */
export async function followDeadLetters(
  kafka: Kafka,
  topic: string,
  group: string,
): Promise<{ letters: KafkaMessage[]; stop: () => Promise<void> }> {
  const reader = kafka.consumer({ groupId: uniqueName('dlq-reader') });
  const letters: KafkaMessage[] = [];
  await reader.connect();
  await reader.subscribe({ topic, fromBeginning: true });
  await reader.run({
    eachMessage: async ({ message }) => {
      if (message.headers?.['dlq-consumer']?.toString() === group) letters.push(message);
    },
  });
  return { letters, stop: () => reader.disconnect() };
}

/** A Kafka header as text ('' when absent). */
export const headerText = (message: KafkaMessage, name: string): string =>
  message.headers?.[name]?.toString() ?? '';

/**
 * Topics of a suite's own, made as `warden topics` makes them and deleted after the suite, with a
 * connected producer: a consumer group that starts from the earliest offset reads only this suite's
 * records, not whatever history a developer's stack has collected. Call it inside `describe`.
 */
export function privateTopics(name: string) {
  const kafka = createKafka({ brokers: endpoints().kafkaBrokers, clientId: name });
  const admin = kafka.admin();
  const producer = createDurableProducer(kafka);
  const prefix = `${uniqueName(name)}.`;
  const names = topicNames(prefix);
  beforeAll(async () => {
    await admin.connect();
    await ensureTopics(admin, { prefix });
    await producer.connect();
  });
  afterAll(async () => {
    await producer.disconnect();
    await admin.deleteTopics({ topics: Object.values(names) });
    await admin.disconnect();
  });
  return { kafka, producer, prefix, topics: names };
}
