import type { Admin, ITopicConfig } from 'kafkajs';
import { loadTopicConfig } from '../config';

const day = 24 * 60 * 60 * 1000;

/**
 * Topic names, optionally under a prefix (`WARDEN_TOPIC_PREFIX`, e.g. `staging.`): several Warden
 * deployments, or a benchmark, can share one cluster without reading each other's records.
 */
export function topicNames(prefix = loadTopicConfig().prefix) {
  return {
    interactions: `${prefix}warden.interactions.v1`,
    detections: `${prefix}warden.detections.v1`,
    dlq: `${prefix}warden.dlq.v1`,
  } as const;
}

/** This process's topics. */
export const topics = topicNames();

export interface TopicSpec {
  name: string;
  partitions: number;
  retentionMs: number;
  maxMessageBytes: number;
}

export interface TopicOptions {
  partitions?: number;
  replicationFactor?: number;
  /** Replay window: how far back `warden replay` can reach. */
  retentionDays?: number;
  /** Topic name prefix; default WARDEN_TOPIC_PREFIX. */
  prefix?: string;
}

/** Explicit partitions, retention and message size for every topic Warden owns. */
export function topicSpecs(opts: TopicOptions = {}): TopicSpec[] {
  const partitions = opts.partitions ?? 6;
  const retentionMs = (opts.retentionDays ?? 7) * day;
  // A record is at most 1 MiB serialized; the envelope adds a little.
  const maxMessageBytes = 2 * 1024 * 1024;
  const names = opts.prefix === undefined ? topics : topicNames(opts.prefix);
  return [
    { name: names.interactions, partitions, retentionMs, maxMessageBytes },
    { name: names.detections, partitions, retentionMs, maxMessageBytes },
    { name: names.dlq, partitions: Math.min(partitions, 3), retentionMs: 30 * day, maxMessageBytes },
  ];
}

export interface EnsureTopicsResult {
  created: string[];
  existing: string[];
}

/** Creates missing topics; existing ones are left as they are (their partitions are reported). */
export async function ensureTopics(admin: Admin, opts: TopicOptions = {}): Promise<EnsureTopicsResult> {
  const specs = topicSpecs(opts);
  const present = new Set(await admin.listTopics());
  const missing = specs.filter((s) => !present.has(s.name));
  if (missing.length > 0) {
    const toCreate: ITopicConfig[] = missing.map((s) => ({
      topic: s.name,
      numPartitions: s.partitions,
      replicationFactor: opts.replicationFactor ?? 1,
      configEntries: [
        { name: 'retention.ms', value: String(s.retentionMs) },
        { name: 'max.message.bytes', value: String(s.maxMessageBytes) },
        { name: 'cleanup.policy', value: 'delete' },
      ],
    }));
    await admin.createTopics({ topics: toCreate, waitForLeaders: true });
  }
  return {
    created: missing.map((s) => s.name),
    existing: specs.filter((s) => present.has(s.name)).map((s) => s.name),
  };
}
