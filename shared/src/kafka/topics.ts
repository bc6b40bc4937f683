import type { Admin, ConfigResourceTypes, ConfigSource, IResourceConfig, ITopicConfig } from 'kafkajs';
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

/**
 * max.message.bytes of the interactions and detections topics: a record is at most 1 MiB serialized,
 * and its envelope (or its analysis, bounded to fit: see the detector) stays within twice that.
 */
export const MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

/**
 * max.message.bytes of the DLQ: any message of the other topics plus the dead-letter headers, so a
 * message a consumer gives up on is kept whole (the dead-letter step cuts what is larger still).
 */
export const MAX_DEAD_LETTER_BYTES = MAX_MESSAGE_BYTES + 64 * 1024;

/**
 * What a record batch adds around one record beyond the estimate the writer counts (messageBytes):
 * the batch header and varints, measured at under 100 bytes for one message; the rest is margin.
 */
const RECORD_BATCH_FRAMING = 1024;

/**
 * The largest message (as DurableWriter's messageBytes estimates it) a Warden topic takes, under
 * any prefix: the topic's max.message.bytes less a record batch's framing. Kafka refuses a larger
 * one for good, so it is never sent.
 */
export function messageLimit(topic: string): number {
  const max = topic.endsWith(topicNames('').dlq) ? MAX_DEAD_LETTER_BYTES : MAX_MESSAGE_BYTES;
  return max - RECORD_BATCH_FRAMING;
}

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
  const maxMessageBytes = MAX_MESSAGE_BYTES;
  const names = opts.prefix === undefined ? topics : topicNames(opts.prefix);
  return [
    { name: names.interactions, partitions, retentionMs, maxMessageBytes },
    { name: names.detections, partitions, retentionMs, maxMessageBytes },
    {
      name: names.dlq,
      partitions: Math.min(partitions, 3),
      retentionMs: 30 * day,
      maxMessageBytes: MAX_DEAD_LETTER_BYTES,
    },
  ];
}

export interface EnsureTopicsResult {
  created: string[];
  existing: string[];
  /** Existing topics whose max.message.bytes was below the spec and has been raised to it. */
  raised: string[];
}

// kafkajs' TOPIC_RESOURCE and TOPIC_OVERRIDE, as values: the sink's decode
// threads load this module as plain ESM, which sees no named exports of kafkajs (CommonJS).
const TOPIC_RESOURCE: ConfigResourceTypes = 2;
const TOPIC_OVERRIDE: ConfigSource = 1;

/**
 * Raises max.message.bytes of existing topics that are below their spec (a DLQ made by an older
 * Warden takes no dead letter of a full-size message); never lowers it, and keeps the topic's other
 * overrides: the AlterConfigs request kafkajs sends replaces all of them, so they are sent again.
 */
async function raiseMessageLimits(admin: Admin, specs: TopicSpec[]): Promise<string[]> {
  if (specs.length === 0) return [];
  const { resources } = await admin.describeConfigs({
    includeSynonyms: false,
    resources: specs.map((s) => ({ type: TOPIC_RESOURCE, name: s.name })),
  });
  const raise: IResourceConfig[] = [];
  for (const r of resources) {
    const spec = specs.find((s) => s.name === r.resourceName);
    const current = Number(r.configEntries.find((e) => e.configName === 'max.message.bytes')?.configValue);
    if (!spec || !(current < spec.maxMessageBytes)) continue;
    const overrides = r.configEntries.filter(
      (e) => e.configSource === TOPIC_OVERRIDE && e.configName !== 'max.message.bytes',
    );
    // A hidden (sensitive) value cannot be sent again: such a topic is left for an operator.
    if (overrides.some((e) => e.isSensitive)) continue;
    raise.push({
      type: TOPIC_RESOURCE,
      name: r.resourceName,
      configEntries: [
        ...overrides.map((e) => ({ name: e.configName, value: e.configValue })),
        { name: 'max.message.bytes', value: String(spec.maxMessageBytes) },
      ],
    });
  }
  if (raise.length > 0) await admin.alterConfigs({ validateOnly: false, resources: raise });
  return raise.map((r) => r.name);
}

/**
 * Creates missing topics; existing ones keep their partitions and retention (they are reported),
 * and only a max.message.bytes below the spec is raised.
 */
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
  const existing = specs.filter((s) => present.has(s.name));
  return {
    created: missing.map((s) => s.name),
    existing: existing.map((s) => s.name),
    raised: await raiseMessageLimits(admin, existing),
  };
}
