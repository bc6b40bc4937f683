import {
  Kafka,
  logLevel,
  Partitioners,
  type ICustomPartitioner,
  type Producer,
  type ProducerConfig,
} from 'kafkajs';
import { createRequire } from 'node:module';
import type { Logger } from '../logger';

/**
 * The messages of the protocol errors kafkajs itself retries (leader elections, a coordinator
 * loading, a group rebalancing), from its own error table: kafkajs logs each failed response at
 * error level before retrying it, which at start-up and during a broker restart is routine.
 */
const RETRIABLE_MESSAGES = new Set(
  (
    createRequire(import.meta.url)('kafkajs/src/protocol/error') as {
      errorCodes: { message: string; retriable: boolean }[];
    }
  ).errorCodes
    .filter((e) => e.retriable)
    .map((e) => e.message),
);

/**
 * The pino level of a kafkajs log entry. A failed response kafkajs will retry, or a lost
 * connection it will reopen, is a warning: what stays failing surfaces as the caller's own error
 * (a 503, a consumer crash, a stall).
 */
export function kafkaLogLevel(
  level: number,
  message: string,
  extra: Record<string, unknown>,
): 'error' | 'warn' | 'debug' {
  if (level > logLevel.ERROR) return level === logLevel.WARN ? 'warn' : 'debug';
  const transient =
    (message.startsWith('Response ') &&
      typeof extra.error === 'string' &&
      RETRIABLE_MESSAGES.has(extra.error)) ||
    message.startsWith('Connection error:') ||
    message === 'Connection timeout';
  return transient ? 'warn' : 'error';
}

export interface KafkaClientOptions {
  brokers: string[];
  clientId: string;
  logger?: Logger;
  /** How long a connection attempt may take before the caller sees an error. */
  connectionTimeoutMs?: number;
}

/** The one Kafka client wrapper: kafkajs logs routed into pino, sane timeouts. */
export function createKafka(opts: KafkaClientOptions): Kafka {
  const log = opts.logger;
  return new Kafka({
    clientId: opts.clientId,
    brokers: opts.brokers,
    connectionTimeout: opts.connectionTimeoutMs ?? 3000,
    requestTimeout: 10000,
    retry: { initialRetryTime: 200, retries: 5, maxRetryTime: 5000 },
    logLevel: logLevel.WARN,
    logCreator: () => (entry) => {
      if (!log) return;
      const { message, ...extra } = entry.log;
      // Our producers bound their retries on purpose: a write that cannot be acknowledged in time is
      // answered 503 and retried by the client (at-least-once), so this startup warning is noise.
      if (message.startsWith('Limiting retries for the idempotent producer')) return;
      log[kafkaLogLevel(entry.level, message, extra)]({ kafka: entry.namespace, ...extra }, message);
    },
  });
}

/**
 * Producer for records a client was told are stored: idempotent, acks from all in-sync replicas
 * (set per send), one in-flight request so retries never reorder.
 */
export function createDurableProducer(kafka: Kafka, extra: Partial<ProducerConfig> = {}): Producer {
  return kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: cachedKeyPartitioner,
    retry: { retries: 3, initialRetryTime: 100, maxRetryTime: 1000 },
    ...extra,
  });
}

/** Keys remembered per partitioner before the memory starts over. */
const PARTITION_CACHE_KEYS = 50_000;

/**
 * kafkajs' default (Java-compatible) partitioner, remembering the partition of each string key:
 * a keyed message's partition depends only on its key and the topic's partition count, and
 * Warden's keys (account and conversation) repeat for every record of a conversation, while the
 * default hashes each key byte by byte in JavaScript and filters the partition list per message.
 */
export const cachedKeyPartitioner: ICustomPartitioner = () => {
  const partitioner = Partitioners.DefaultPartitioner();
  const cache = new Map<string, number>();
  return (args) => {
    const { message, partitionMetadata } = args;
    if (message.partition != null || typeof message.key !== 'string') return partitioner(args);
    const memo = `${partitionMetadata.length}:${message.key}`;
    let partition = cache.get(memo);
    if (partition === undefined) {
      partition = partitioner(args);
      if (cache.size >= PARTITION_CACHE_KEYS) cache.clear();
      cache.set(memo, partition);
    }
    return partition;
  };
};
