import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { stackDir } from './paths';

/**
 * The one config loader. Every value comes from the environment, is validated at start, and a bad
 * value fails with a message naming the variable and what would be accepted.
 */

export const stackDefaults = {
  kafkaBrokers: '127.0.0.1:19092',
  clickhouseUrl: 'http://127.0.0.1:18123',
  redisUrl: 'redis://127.0.0.1:6379',
} as const;

export interface Endpoints {
  kafkaBrokers: string[];
  clickhouseUrl: string;
  redisUrl: string;
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string, fix: string) {
    super(`${variable} ${problem}. ${fix}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Endpoints the local stack recorded when it came up (`.stack/endpoints.json`), if any. */
function stackEndpoints(): Partial<Record<keyof typeof stackDefaults, string>> {
  const file = resolve(stackDir, 'endpoints.json');
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<Record<keyof typeof stackDefaults, string>>;
  } catch {
    return {};
  }
}

function parseUrl(env: Env, name: string, fallback: string, protocols: string[]): string {
  const raw = env[name]?.trim() || fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `is not a URL (got "${raw}")`, `Use e.g. ${fallback}.`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(
      name,
      `must use ${protocols.join(' or ')} (got "${url.protocol}")`,
      `Use e.g. ${fallback}.`,
    );
  }
  return raw.replace(/\/$/, '');
}

/** Kafka, ClickHouse and Redis: environment first, then the local stack, then its default ports. */
export function loadEndpoints(env: Env = process.env): Endpoints {
  const local = stackEndpoints();
  const brokersRaw = env.KAFKA_BROKERS?.trim() || local.kafkaBrokers || stackDefaults.kafkaBrokers;
  const kafkaBrokers = brokersRaw
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  for (const broker of kafkaBrokers) {
    if (!/^[^\s:/]+:\d{1,5}$/.test(broker)) {
      throw new ConfigError(
        'KAFKA_BROKERS',
        `has an entry "${broker}" that is not host:port`,
        'Use a comma-separated list such as 127.0.0.1:9092,127.0.0.1:9094.',
      );
    }
  }
  return {
    kafkaBrokers,
    clickhouseUrl: parseUrl(env, 'CLICKHOUSE_URL', local.clickhouseUrl ?? stackDefaults.clickhouseUrl, [
      'http:',
      'https:',
    ]),
    redisUrl: parseUrl(env, 'REDIS_URL', local.redisUrl ?? stackDefaults.redisUrl, ['redis:', 'rediss:']),
  };
}

export function intFromEnv(
  env: Env,
  name: string,
  fallback: number,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(
      name,
      `must be an integer between ${min} and ${max} (got "${raw}")`,
      `Unset it to use ${fallback}.`,
    );
  }
  return value;
}

export function stringFromEnv(
  env: Env,
  name: string,
  fallback: string,
  pattern = /^[A-Za-z0-9_.-]+$/,
): string {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!pattern.test(raw)) {
    throw new ConfigError(
      name,
      `has an invalid value "${raw}"`,
      `It must match ${pattern}; unset it to use "${fallback}".`,
    );
  }
  return raw;
}

/** The ClickHouse database Warden's tables live in (tests use their own). */
export function clickhouseDatabase(env: Env = process.env): string {
  return stringFromEnv(env, 'CLICKHOUSE_DATABASE', 'warden', /^[A-Za-z_][A-Za-z0-9_]*$/);
}

/**
 * Where a consumer group with no committed offsets starts: `earliest` (default: a new deployment
 * processes everything the topics retain) or `latest` (only what arrives from now on).
 */
export function consumerStartsFromBeginning(env: Env = process.env): boolean {
  const raw = env.WARDEN_CONSUMER_START?.trim() || 'earliest';
  if (raw !== 'earliest' && raw !== 'latest') {
    throw new ConfigError(
      'WARDEN_CONSUMER_START',
      `must be earliest or latest (got "${raw}")`,
      'Unset it to use earliest.',
    );
  }
  return raw === 'earliest';
}

// Consumer services: the detector and the sink. Each reads its variables here, once, at start.

/** Per-agent canary tokens: `{"*": [...], "<agentId>": [...]}`. */
export type CanaryConfig = Record<string, string[]>;

/** Reads canaries from `WARDEN_CANARIES` (JSON object of agentId or "*" to token lists). */
export function canariesFromEnv(raw: string | undefined): CanaryConfig {
  if (!raw?.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('WARDEN_CANARIES must be JSON such as {"*":["canary-123"],"support-bot":["cn-9f2"]}');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error('WARDEN_CANARIES must be a JSON object of agentId (or "*") to a list of tokens');
  }
  const out: CanaryConfig = {};
  for (const [agent, tokens] of Object.entries(parsed)) {
    if (!Array.isArray(tokens) || !tokens.every((t) => typeof t === 'string' && t.length >= 6)) {
      throw new Error(`WARDEN_CANARIES["${agent}"] must be a list of strings of at least 6 characters`);
    }
    out[agent] = tokens;
  }
  return out;
}

/** What every consumer service reads: where Kafka is, its group, where it starts, its metrics port. */
export interface ConsumerServiceConfig {
  endpoints: Endpoints;
  groupId: string;
  fromBeginning: boolean;
  metricsPort: number;
}

export interface DetectorConfig extends ConsumerServiceConfig {
  /** Partitions whose batches are analysed at once. */
  partitionsConcurrently: number;
  canaries: CanaryConfig;
}

/** The variables every consumer service reads, each under the service's own name and default. */
function consumerServiceConfig(
  env: Env,
  vars: { group: string; defaultGroup: string; metricsPort: string; defaultMetricsPort: number },
): ConsumerServiceConfig {
  return {
    endpoints: loadEndpoints(env),
    groupId: stringFromEnv(env, vars.group, vars.defaultGroup),
    fromBeginning: consumerStartsFromBeginning(env),
    metricsPort: intFromEnv(env, vars.metricsPort, vars.defaultMetricsPort, 0, 65535),
  };
}

export function loadDetectorConfig(env: Env = process.env): DetectorConfig {
  return {
    ...consumerServiceConfig(env, {
      group: 'WARDEN_DETECTOR_GROUP',
      defaultGroup: 'warden-detector',
      metricsPort: 'WARDEN_DETECTOR_METRICS_PORT',
      defaultMetricsPort: 9101,
    }),
    partitionsConcurrently: intFromEnv(env, 'WARDEN_DETECTOR_CONCURRENCY', 6, 1, 64),
    canaries: canariesFromEnv(env.WARDEN_CANARIES),
  };
}

export interface SinkConfig extends ConsumerServiceConfig {
  database: string;
  /** Flush when this many rows are buffered… */
  maxRows: number;
  /** …or when the oldest buffered row is this old. */
  maxAgeMs: number;
  /** Threads that decode and serialize rows; 0 decodes on the consuming thread. */
  decodeThreads: number;
}

export function loadSinkConfig(env: Env = process.env): SinkConfig {
  return {
    ...consumerServiceConfig(env, {
      group: 'WARDEN_SINK_GROUP',
      defaultGroup: 'warden-sink',
      metricsPort: 'WARDEN_SINK_METRICS_PORT',
      defaultMetricsPort: 9102,
    }),
    database: clickhouseDatabase(env),
    maxRows: intFromEnv(env, 'WARDEN_SINK_MAX_ROWS', 50_000, 1, 1_000_000),
    maxAgeMs: intFromEnv(env, 'WARDEN_SINK_MAX_AGE_MS', 1000, 10, 60_000),
    decodeThreads: intFromEnv(env, 'WARDEN_SINK_DECODE_THREADS', 1, 0, 16),
  };
}
