import type { Consumer, ConsumerConfig, Kafka } from 'kafkajs';
import type { ConsumerServiceConfig } from '../config';
import { createLogger, type Logger } from '../logger';
import { createMetricsRegistry, type Registry } from '../metrics';
import { serveMetrics } from '../metrics-server';
import { onShutdown } from '../shutdown';
import { createDurableProducer, createKafka } from './client';
import { DurableWriter } from './durable-writer';
import { watchForStall } from './stall-watch';

export interface ConsumerServiceOptions {
  /** `detector`, `sink`, …: names the logger, the metrics' service label and the Kafka client. */
  name: string;
  /** Brokers, group and metrics port, as loadDetectorConfig/loadSinkConfig read them. */
  config: ConsumerServiceConfig;
  /** Consumer settings beyond the ones every consumer shares (session, heartbeat, fetch wait). */
  consumer?: Omit<Partial<ConsumerConfig>, 'groupId'>;
}

/** What a consumer service's pipeline is built from. */
export interface ConsumerServiceParts {
  log: Logger;
  metrics: Registry;
  kafka: Kafka;
  /** Joined to the service's group; the pipeline connects and subscribes it. */
  consumer: Consumer;
  /** Writes what the pipeline produces, dead letters included, with acks=all. */
  writer: DurableWriter;
  /**
   * Ends the process so a fresh one resumes from the committed offsets: for a pipeline whose state
   * can no longer be trusted (a rewind the consumer refused), where going on could commit past rows
   * it never wrote.
   */
  restart: (reason: string, fields?: Record<string, unknown>) => void;
}

/** What the service wires from its parts. */
export interface ConsumerServiceWiring {
  pipeline: { start(): Promise<void>; stop(): Promise<void> };
  /** Runs once the producer is connected, before the pipeline starts consuming. */
  prepare?: () => void | Promise<void>;
  /** Closes what the wiring opened itself, after the pipeline stopped and the writer drained. */
  close?: () => Promise<void>;
  /** More fields for the "running" log line. */
  describe?: Record<string, unknown>;
  /** What the stall watch reads: the topics the pipeline consumes, and when it waits on purpose. */
  watch: { topics: string[]; waiting?: () => boolean };
}

/**
 * Runs a consumer service (detector, sink): Kafka client, consumer in its group, durable writer,
 * metrics registry and `/metrics` server, then the pipeline `wire` builds from them; on SIGTERM or
 * SIGINT the pipeline stops first (kafkajs finishes the batch in hand and commits), then what it
 * wrote is drained and everything closes.
 */
export async function runConsumerService(
  opts: ConsumerServiceOptions,
  wire: (parts: ConsumerServiceParts) => ConsumerServiceWiring,
): Promise<void> {
  const { name, config } = opts;
  const log = createLogger(name);
  const metrics = createMetricsRegistry(name);
  const kafka = createKafka({
    brokers: config.endpoints.kafkaBrokers,
    clientId: `warden-${name}`,
    logger: log,
  });
  const consumer = kafka.consumer({
    sessionTimeout: 30_000,
    heartbeatInterval: 3_000,
    maxWaitTimeInMs: 250,
    // About 30 s of retries absorb a leader election; past them the consumer crashes, and a crashed
    // consumer is not restarted inside this process (see the CRASH handler below).
    retry: { retries: 8, restartOnFailure: async () => false },
    ...opts.consumer,
    groupId: config.groupId,
  });
  const producer = createDurableProducer(kafka);
  const writer = new DurableWriter(producer, {
    timeoutMs: 30_000,
    createProducer: () => createDurableProducer(kafka),
  });
  // Crash-only: kafkajs restarting a consumer in place left the pipeline's in-flight state (runs
  // decoding, a flush committing to the old group generation) behind, and a restarted sink was seen
  // silent until the group's next rebalance, minutes later. A fresh process has no such state and
  // resumes from the committed offsets, which only ever cover what was written: nothing is lost.
  // `warden start`, compose and Kubernetes restart the process.
  let exiting = false;
  const exitForFreshStart = (reason: string, fields: Record<string, unknown>) => {
    if (exiting) return;
    exiting = true;
    log.error(fields, `${name}: ${reason}; exiting so a fresh process resumes from the committed offsets`);
    const exit = setTimeout(() => process.exit(1), 10_000);
    exit.unref();
    void writer.close().finally(() => process.exit(1));
  };
  const { pipeline, prepare, close, describe, watch } = wire({
    log,
    metrics,
    kafka,
    consumer,
    writer,
    restart: (reason, fields = {}) => exitForFreshStart(reason, fields),
  });

  consumer.on(consumer.events.CRASH, ({ payload }) => {
    if (!payload.restart) exitForFreshStart('the Kafka consumer stopped', { err: payload.error });
  });
  const stallWatch =
    config.stallMs > 0
      ? watchForStall({
          kafka,
          consumer,
          groupId: config.groupId,
          topics: watch.topics,
          log,
          stallMs: config.stallMs,
          ...(watch.waiting ? { waiting: watch.waiting } : {}),
          onStall: ({ reason, ...detail }) => exitForFreshStart(`stalled: ${reason}`, detail),
        })
      : undefined;

  await producer.connect();
  await prepare?.();
  await pipeline.start();
  const server = await serveMetrics(metrics, config.metricsPort);
  log.info({ groupId: config.groupId, ...describe, metrics: server.url }, `${name} running`);

  onShutdown(log, async () => {
    await stallWatch?.stop();
    await pipeline.stop();
    // Drains what it wrote and disconnects its producer (or the one that replaced it).
    await writer.close();
    await close?.();
    await server.close();
  });
}
