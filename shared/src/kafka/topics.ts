import type { Admin, ConfigResourceTypes, ConfigSource, IResourceConfig, ITopicConfig } from 'kafkajs';
import pRetry from 'p-retry';
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

/**
 * Replication for a cluster of `brokers` brokers: three copies where there are three, of which two
 * must have a write before it is acknowledged (acks=all), so one broker can fail without a 503 or a
 * loss; fewer only where there are fewer brokers.
 */
export function replicationFor(brokers: number): { factor: number; minInSync: number } {
  const factor = Math.min(3, Math.max(1, brokers));
  return { factor, minInSync: factor >= 3 ? 2 : 1 };
}

export interface TopicOptions {
  partitions?: number;
  /** Default: min(3, brokers in the cluster); min.insync.replicas is 2 from a factor of 3. */
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

export interface TopicDifference {
  topic: string;
  setting: 'partitions' | 'replication factor' | 'min.insync.replicas';
  actual: number;
  expected: number;
}

export interface EnsureTopicsResult {
  created: string[];
  existing: string[];
  /** Existing topics whose max.message.bytes was below the spec and has been raised to it. */
  raised: string[];
  /** Existing topics whose layout differs from what would be created now (left as they are). */
  differs: TopicDifference[];
  replicationFactor: number;
  minInSync: number;
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

/** How existing topics differ from the spec in partitions, replication and min.insync.replicas. */
async function differences(
  admin: Admin,
  specs: TopicSpec[],
  expected: { factor: number; minInSync: number },
): Promise<TopicDifference[]> {
  if (specs.length === 0) return [];
  const { topics: metadata } = await admin.fetchTopicMetadata({ topics: specs.map((s) => s.name) });
  const { resources } = await admin.describeConfigs({
    includeSynonyms: false,
    resources: specs.map((s) => ({ type: TOPIC_RESOURCE, name: s.name })),
  });
  const found: TopicDifference[] = [];
  for (const spec of specs) {
    const partitions = metadata.find((t) => t.name === spec.name)?.partitions ?? [];
    const factor = Math.min(...partitions.map((p) => p.replicas.length));
    const minInSync = Number(
      resources
        .find((r) => r.resourceName === spec.name)
        ?.configEntries.find((e) => e.configName === 'min.insync.replicas')?.configValue,
    );
    const check = (setting: TopicDifference['setting'], actual: number, want: number) => {
      if (Number.isFinite(actual) && actual !== want)
        found.push({ topic: spec.name, setting, actual, expected: want });
    };
    check('partitions', partitions.length, spec.partitions);
    check('replication factor', factor, expected.factor);
    check('min.insync.replicas', minInSync, expected.minInSync);
  }
  return found;
}

/**
 * Creates missing topics, replicated as `replicationFor` says for the cluster's size (or the factor
 * asked for); existing ones keep their partitions, replication and retention (differences are
 * reported, never changed behind an operator's back), and only a max.message.bytes below the spec
 * is raised.
 */
export function ensureTopics(admin: Admin, opts: TopicOptions = {}): Promise<EnsureTopicsResult> {
  // A cluster that has just formed or lost a broker answers for a while that a new topic's
  // partitions are not hosted yet: retriable errors are retried for up to 30 s.
  return pRetry(() => ensureTopicsOnce(admin, opts), {
    retries: 10,
    minTimeout: 250,
    maxTimeout: 4_000,
    maxRetryTime: 30_000,
    shouldRetry: ({ error }) => isRetriable(error),
  });
}

/** KafkaJS marks what may succeed when tried again; a wrapper (retries exhausted) keeps the cause. */
function isRetriable(error: unknown): boolean {
  const e = error as { retriable?: boolean; originalError?: unknown; cause?: unknown } | undefined;
  if (!e) return false;
  return e.retriable === true || isRetriable(e.originalError) || isRetriable(e.cause);
}

async function ensureTopicsOnce(admin: Admin, opts: TopicOptions): Promise<EnsureTopicsResult> {
  const specs = topicSpecs(opts);
  const replication = replicationFor(
    opts.replicationFactor ?? (await admin.describeCluster()).brokers.length,
  );
  const present = new Set(await admin.listTopics());
  const missing = specs.filter((s) => !present.has(s.name));
  if (missing.length > 0) {
    const toCreate: ITopicConfig[] = missing.map((s) => ({
      topic: s.name,
      numPartitions: s.partitions,
      replicationFactor: replication.factor,
      configEntries: [
        { name: 'retention.ms', value: String(s.retentionMs) },
        { name: 'max.message.bytes', value: String(s.maxMessageBytes) },
        { name: 'min.insync.replicas', value: String(replication.minInSync) },
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
    differs: await differences(admin, existing, replication),
    replicationFactor: replication.factor,
    minInSync: replication.minInSync,
  };
}
