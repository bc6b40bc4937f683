import type { Consumer, ConsumerConfig, Kafka } from 'kafkajs';
import type { ConsumerServiceConfig } from '../config';
import { createLogger, type Logger } from '../logger';
import { createMetricsRegistry, type Registry } from '../metrics';
import { serveMetrics } from '../metrics-server';
import { onShutdown } from '../shutdown';
import { createDurableProducer, createKafka } from './client';
import { DurableWriter } from './durable-writer';

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
    ...opts.consumer,
    groupId: config.groupId,
  });
  const producer = createDurableProducer(kafka);
  const writer = new DurableWriter(producer, {
    timeoutMs: 30_000,
    createProducer: () => createDurableProducer(kafka),
  });
  const { pipeline, prepare, close, describe } = wire({ log, metrics, kafka, consumer, writer });

  await producer.connect();
  await prepare?.();
  await pipeline.start();
  const server = await serveMetrics(metrics, config.metricsPort);
  log.info({ groupId: config.groupId, ...describe, metrics: server.url }, `${name} running`);

  onShutdown(log, async () => {
    await pipeline.stop();
    // Drains what it wrote and disconnects its producer (or the one that replaced it).
    await writer.close();
    await close?.();
    await server.close();
  });
}
