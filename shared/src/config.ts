import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import ms from 'ms';
import { repoRoot } from './paths';

/**
 * The one config loader. Every value comes from the environment, is validated at start, and a bad
 * value fails with a message naming the variable and what would be accepted.
 */

export const stackDefaults = {
  kafkaBrokers: '127.0.0.1:19092',
  clickhouseUrl: 'http://127.0.0.1:18123',
  redisUrl: 'redis://127.0.0.1:6379',
  databaseUrl: 'postgres://postgres@127.0.0.1:5432/warden',
} as const;

export interface Endpoints {
  kafkaBrokers: string[];
  clickhouseUrl: string;
  redisUrl: string;
  /** PostgreSQL, the control plane's system of record (projects, keys, users, audit log). */
  databaseUrl: string;
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string, fix: string) {
    super(`${variable} ${problem}. ${fix}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** WARDEN_STACK_DIR: the local stack's runtime state (data, logs, pids, endpoints); git-ignored. */
export function stackDir(env: Env = process.env): string {
  return resolve(env.WARDEN_STACK_DIR?.trim() || resolve(repoRoot, '.stack'));
}

/** Endpoints the local stack recorded when it came up (`.stack/endpoints.json`), if any. */
function stackEndpoints(dir: string): Partial<Record<keyof typeof stackDefaults, string>> {
  const file = resolve(dir, 'endpoints.json');
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<Record<keyof typeof stackDefaults, string>>;
  } catch {
    return {};
  }
}

function parseBrokers(raw: string): string[] {
  const brokers = raw
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  for (const broker of brokers) {
    if (!/^[^\s:/]+:\d{1,5}$/.test(broker)) {
      throw new ConfigError(
        'KAFKA_BROKERS',
        `has an entry "${broker}" that is not host:port`,
        'Use a comma-separated list such as 127.0.0.1:9092,127.0.0.1:9094.',
      );
    }
  }
  return brokers;
}

/**
 * The URL with its password replaced by `***`, for messages and logs: CLICKHOUSE_URL and REDIS_URL
 * carry credentials (`http://user:password@host:8123`, `redis://:password@host:6379`). Works on text
 * that is not a valid URL too, so a malformed value is never echoed with its password.
 */
export function redactUrl(url: string): string {
  return url.replace(/^([^:/?#]+:\/\/[^/?#@:]*:)[^/?#]*@/, '$1***@');
}

function parseUrl(name: string, raw: string, example: string, protocols: string[]): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `is not a URL (got "${redactUrl(raw)}")`, `Use e.g. ${example}.`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(
      name,
      `must use ${protocols.join(' or ')} (got "${url.protocol}")`,
      `Use e.g. ${example}.`,
    );
  }
  return raw.replace(/\/$/, '');
}

const clickhouseUrl = (raw: string) =>
  parseUrl('CLICKHOUSE_URL', raw, stackDefaults.clickhouseUrl, ['http:', 'https:']);
const redisUrl = (raw: string) => parseUrl('REDIS_URL', raw, stackDefaults.redisUrl, ['redis:', 'rediss:']);
const databaseUrl = (raw: string) =>
  parseUrl('DATABASE_URL', raw, stackDefaults.databaseUrl, ['postgres:', 'postgresql:']);

/** The endpoints the environment names (KAFKA_BROKERS, CLICKHOUSE_URL, REDIS_URL, DATABASE_URL), validated. */
function configuredEndpoints(env: Env): Partial<Endpoints> {
  const brokers = env.KAFKA_BROKERS?.trim();
  const clickhouse = env.CLICKHOUSE_URL?.trim();
  const redis = env.REDIS_URL?.trim();
  const database = env.DATABASE_URL?.trim();
  return {
    ...(brokers ? { kafkaBrokers: parseBrokers(brokers) } : {}),
    ...(clickhouse ? { clickhouseUrl: clickhouseUrl(clickhouse) } : {}),
    ...(redis ? { redisUrl: redisUrl(redis) } : {}),
    ...(database ? { databaseUrl: databaseUrl(database) } : {}),
  };
}

/** Kafka, ClickHouse, Redis and PostgreSQL: environment first, then the local stack, then its default ports. */
export function loadEndpoints(env: Env = process.env): Endpoints {
  const configured = configuredEndpoints(env);
  const local = stackEndpoints(stackDir(env));
  return {
    kafkaBrokers: configured.kafkaBrokers ?? parseBrokers(local.kafkaBrokers || stackDefaults.kafkaBrokers),
    clickhouseUrl:
      configured.clickhouseUrl ?? clickhouseUrl(local.clickhouseUrl || stackDefaults.clickhouseUrl),
    redisUrl: configured.redisUrl ?? redisUrl(local.redisUrl || stackDefaults.redisUrl),
    databaseUrl: configured.databaseUrl ?? databaseUrl(local.databaseUrl || stackDefaults.databaseUrl),
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

function flagFromEnv(env: Env, name: string): boolean {
  const raw = env[name]?.trim();
  if (!raw || raw === '0') return false;
  if (raw === '1') return true;
  throw new ConfigError(name, `must be 1 or 0 (got "${raw}")`, 'Unset it to leave it off.');
}

/** How long ingest waits for a client: a slow or stalled sender cannot hold a connection for ever. */
export interface IngestTimeouts {
  /** WARDEN_INGEST_REQUEST_TIMEOUT_MS: the whole request, headers and body, must arrive within it, else 408. */
  requestMs: number;
  /** WARDEN_INGEST_HEADERS_TIMEOUT_MS: the headers must arrive within it, else 408; at most requestMs. */
  headersMs: number;
  /** WARDEN_INGEST_KEEP_ALIVE_TIMEOUT_MS: an idle keep-alive connection is closed after it. */
  keepAliveMs: number;
}

/** Keep-alive outlasts the 60 s idle timeout of common load balancers, so they close first. */
export const defaultIngestTimeouts: IngestTimeouts = {
  requestMs: 30_000,
  headersMs: 10_000,
  keepAliveMs: 72_000,
};

export interface IngestConfig {
  /** PORT: the HTTP port (default 8080). */
  port: number;
  /** HOST: the address to listen on (default 0.0.0.0, every interface). */
  host: string;
  /** WARDEN_INGEST_WORKERS: processes sharing the port (node:cluster), default 1. */
  workers: number;
  /** WARDEN_PRODUCERS: idempotent producers per process, on its Kafka thread (default 4). */
  producers: number;
  /** WARDEN_PRODUCE_TIMEOUT_MS: how long a request waits for Kafka's acknowledgement before 503. */
  produceTimeoutMs: number;
  timeouts: IngestTimeouts;
  /** WARDEN_INGEST_METRICS_PORT: Prometheus `/metrics`, off the API port (default 9100; 0 picks one). */
  metricsPort: number;
  /** WARDEN_INGEST_METRICS_HOST: the address metrics listen on (default 127.0.0.1, this machine only). */
  metricsHost: string;
}

export function loadIngestConfig(env: Env = process.env): IngestConfig {
  return {
    port: intFromEnv(env, 'PORT', 8080, 1, 65535),
    host: stringFromEnv(env, 'HOST', '0.0.0.0', /^[A-Za-z0-9.:-]+$/),
    workers: intFromEnv(env, 'WARDEN_INGEST_WORKERS', 1, 1, 64),
    producers: intFromEnv(env, 'WARDEN_PRODUCERS', 4, 1, 32),
    produceTimeoutMs: intFromEnv(env, 'WARDEN_PRODUCE_TIMEOUT_MS', 5000, 100, 60000),
    timeouts: ingestTimeouts(env),
    metricsPort: intFromEnv(env, 'WARDEN_INGEST_METRICS_PORT', 9100, 0, 65535),
    metricsHost: stringFromEnv(env, 'WARDEN_INGEST_METRICS_HOST', '127.0.0.1', /^[A-Za-z0-9.:-]+$/),
  };
}

function ingestTimeouts(env: Env): IngestTimeouts {
  const d = defaultIngestTimeouts;
  const requestMs = intFromEnv(env, 'WARDEN_INGEST_REQUEST_TIMEOUT_MS', d.requestMs, 100, 600_000);
  const headersMs = intFromEnv(
    env,
    'WARDEN_INGEST_HEADERS_TIMEOUT_MS',
    Math.min(d.headersMs, requestMs),
    100,
    600_000,
  );
  if (headersMs > requestMs) {
    throw new ConfigError(
      'WARDEN_INGEST_HEADERS_TIMEOUT_MS',
      `must not exceed WARDEN_INGEST_REQUEST_TIMEOUT_MS (${requestMs}; got ${headersMs})`,
      'The headers are part of the request: lower it or raise the request timeout.',
    );
  }
  return {
    requestMs,
    headersMs,
    keepAliveMs: intFromEnv(env, 'WARDEN_INGEST_KEEP_ALIVE_TIMEOUT_MS', d.keepAliveMs, 1000, 600_000),
  };
}

export interface ApiConfig {
  /** API_PORT: the management and analytics API's HTTP port (default 8081). */
  port: number;
  /** API_HOST: the address it listens on (default 0.0.0.0). */
  host: string;
  /**
   * WARDEN_COOKIE_SECURE: `1` always marks the session cookies Secure, `0` never, `auto` (default)
   * when the request came over TLS (directly, or per X-Forwarded-Proto with WARDEN_TRUST_PROXY=1).
   */
  cookieSecure: 'auto' | boolean;
  /** WARDEN_TRUST_PROXY=1: take the client address and protocol from X-Forwarded-* (behind a proxy). */
  trustProxy: boolean;
  /**
   * WARDEN_SIGNUP: who may create an account through POST /api/v1/auth/signup — `invite` (default:
   * people join by invitation only), `open` (anyone creates an organisation) or `closed` (no one;
   * users come from the CLI). The very first user of a fresh install may always sign up.
   */
  signup: SignupMode;
  /** WARDEN_SESSION_TTL_HOURS: how long a sign-in lasts (default 168, a week). */
  sessionTtlMs: number;
  /** WARDEN_LOGIN_ATTEMPTS_PER_MINUTE: sign-in attempts per email and address (default 5, burst 10). */
  loginAttemptsPerMinute: number;
}

export const SIGNUP_MODES = ['invite', 'open', 'closed'] as const;
export type SignupMode = (typeof SIGNUP_MODES)[number];

export function loadApiConfig(env: Env = process.env): ApiConfig {
  const signup = env.WARDEN_SIGNUP?.trim().toLowerCase() || 'invite';
  if (!(SIGNUP_MODES as readonly string[]).includes(signup)) {
    throw new ConfigError(
      'WARDEN_SIGNUP',
      `must be invite, open or closed (got "${signup}")`,
      'Unset it to use invite.',
    );
  }
  const secure = env.WARDEN_COOKIE_SECURE?.trim() || 'auto';
  if (secure !== 'auto' && secure !== '1' && secure !== '0') {
    throw new ConfigError(
      'WARDEN_COOKIE_SECURE',
      `must be auto, 1 or 0 (got "${secure}")`,
      'Unset it to use auto.',
    );
  }
  return {
    port: intFromEnv(env, 'API_PORT', 8081, 1, 65535),
    host: stringFromEnv(env, 'API_HOST', '0.0.0.0', /^[A-Za-z0-9.:-]+$/),
    cookieSecure: secure === 'auto' ? 'auto' : secure === '1',
    signup: signup as SignupMode,
    trustProxy: flagFromEnv(env, 'WARDEN_TRUST_PROXY'),
    sessionTtlMs: intFromEnv(env, 'WARDEN_SESSION_TTL_HOURS', 168, 1, 24 * 90) * 3_600_000,
    loginAttemptsPerMinute: intFromEnv(env, 'WARDEN_LOGIN_ATTEMPTS_PER_MINUTE', 5, 1, 10_000),
  };
}

/** WARDEN_RATE_SCALE: a positive number multiplying every tier's rate and burst (default 1). */
export function rateScaleFromEnv(env: Env = process.env): number {
  const raw = env.WARDEN_RATE_SCALE?.trim();
  if (!raw) return 1;
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale <= 0) {
    throw new ConfigError(
      'WARDEN_RATE_SCALE',
      `must be a positive number (got "${raw}")`,
      'Use e.g. 0.1, or unset it.',
    );
  }
  return scale;
}

export interface TopicConfig {
  /** WARDEN_TOPIC_PREFIX: put before the topic names, so deployments can share one cluster. */
  prefix: string;
  /** WARDEN_TOPIC_PARTITIONS: partitions of each topic `warden topics` creates (default 6). */
  partitions: number;
  /** WARDEN_REPLAY_WINDOW_DAYS: how long the topics keep records (default 7). */
  replayWindowDays: number;
}

export function loadTopicConfig(env: Env = process.env): TopicConfig {
  const prefix = env.WARDEN_TOPIC_PREFIX?.trim() ?? '';
  if (!/^[A-Za-z0-9._-]*$/.test(prefix)) {
    throw new ConfigError(
      'WARDEN_TOPIC_PREFIX',
      `has characters Kafka topic names cannot hold ("${prefix}")`,
      'Use letters, digits, dots, dashes and underscores.',
    );
  }
  return {
    prefix,
    partitions: intFromEnv(env, 'WARDEN_TOPIC_PARTITIONS', 6, 1, 1000),
    replayWindowDays: intFromEnv(env, 'WARDEN_REPLAY_WINDOW_DAYS', 7, 1, 365),
  };
}

/** WARDEN_RETENTION_DAYS: how long ClickHouse keeps rows (TTL, or `warden retention`), default 90. */
export function clickhouseRetentionDays(env: Env = process.env): number {
  return intFromEnv(env, 'WARDEN_RETENTION_DAYS', 90, 1, 3650);
}

export interface StackConfig {
  /** WARDEN_STACK_DIR: data, logs, pids and endpoints of the local stack (default .stack/). */
  dir: string;
  /** WARDEN_CACHE_DIR: downloads that outlive a clone, the Kafka jars (default ~/.cache/warden). */
  cacheDir: string;
  /** WARDEN_NO_INSTALL=1: `stack up` never installs a missing Debian package itself. */
  noInstall: boolean;
  /** The parts the environment names: used as configured, never started or stopped. */
  configured: Partial<Endpoints>;
}

export function loadStackConfig(env: Env = process.env): StackConfig {
  return {
    dir: stackDir(env),
    cacheDir: resolve(env.WARDEN_CACHE_DIR?.trim() || resolve(homedir(), '.cache', 'warden')),
    noInstall: flagFromEnv(env, 'WARDEN_NO_INSTALL'),
    configured: configuredEndpoints(env),
  };
}

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** LOG_LEVEL: the least severe level logged (default info). */
export function logLevel(env: Env = process.env): LogLevel {
  const raw = env.LOG_LEVEL?.trim() || 'info';
  if (!(logLevels as readonly string[]).includes(raw)) {
    throw new ConfigError(
      'LOG_LEVEL',
      `must be one of ${logLevels.join(', ')} (got "${raw}")`,
      'Unset it to use info.',
    );
  }
  return raw as LogLevel;
}

/**
 * WARDEN_LOG_FORMAT: `json` (one JSON object a line), `pretty` (pino-pretty's readable lines) or
 * unset: pretty when stdout is a terminal. `warden start` sets `pretty` for the services it runs
 * when its own output is a terminal, since theirs is a pipe to it.
 */
export function logFormat(env: Env = process.env): 'json' | 'pretty' | undefined {
  const raw = env.WARDEN_LOG_FORMAT?.trim();
  if (!raw) return undefined;
  if (raw !== 'json' && raw !== 'pretty')
    throw new ConfigError(
      'WARDEN_LOG_FORMAT',
      `must be json or pretty (got "${raw}")`,
      'Unset it to choose by terminal.',
    );
  return raw;
}

/** The ClickHouse database Warden's tables live in (tests use their own). */
export function clickhouseDatabase(env: Env = process.env): string {
  return stringFromEnv(env, 'CLICKHOUSE_DATABASE', 'warden', /^[A-Za-z_][A-Za-z0-9_]*$/);
}

/**
 * CLICKHOUSE_CLUSTER: the cluster (a `<remote_servers>` entry on every server) Warden's tables are
 * replicated across; unset, every table lives on the one server CLICKHOUSE_URL names.
 */
export function clickhouseCluster(env: Env = process.env): string | undefined {
  const raw = env.CLICKHOUSE_CLUSTER?.trim();
  if (!raw) return undefined;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(raw)) {
    throw new ConfigError(
      'CLICKHOUSE_CLUSTER',
      `is not a cluster name Warden accepts (got "${raw}")`,
      'Use letters, digits and underscores, as the cluster is named in <remote_servers>; unset it for one server.',
    );
  }
  return raw;
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
export function canariesFromEnv(env: Env = process.env): CanaryConfig {
  const raw = env.WARDEN_CANARIES;
  if (!raw?.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(
      'WARDEN_CANARIES',
      'is not JSON',
      'Use e.g. {"*":["canary-123"],"support-bot":["cn-9f2"]}.',
    );
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError(
      'WARDEN_CANARIES',
      'is not a JSON object',
      'Map each agentId (or "*" for every agent) to a list of tokens.',
    );
  }
  const out: CanaryConfig = {};
  for (const [agent, tokens] of Object.entries(parsed)) {
    if (!Array.isArray(tokens) || !tokens.every((t) => typeof t === 'string' && t.length >= 6)) {
      throw new ConfigError(
        `WARDEN_CANARIES["${agent}"]`,
        'is not a list of strings of at least 6 characters',
        'Use tokens of 6 or more characters that never occur in ordinary text.',
      );
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
  /**
   * WARDEN_CONSUMER_STALL_MS: how long the group's committed offsets may stand still behind the
   * topics' ends, with the pipeline not waiting on a store, before the process exits to be started
   * afresh (0 turns the watch off).
   */
  stallMs: number;
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
    stallMs: intFromEnv(env, 'WARDEN_CONSUMER_STALL_MS', 120_000, 0, 86_400_000),
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
    canaries: canariesFromEnv(env),
  };
}

export interface SinkConfig extends ConsumerServiceConfig {
  database: string;
  /** CLICKHOUSE_CLUSTER: inserts go through Distributed tables, synchronously. */
  cluster: string | undefined;
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
    cluster: clickhouseCluster(env),
    maxRows: intFromEnv(env, 'WARDEN_SINK_MAX_ROWS', 50_000, 1, 1_000_000),
    maxAgeMs: intFromEnv(env, 'WARDEN_SINK_MAX_AGE_MS', 1000, 10, 60_000),
    decodeThreads: intFromEnv(env, 'WARDEN_SINK_DECODE_THREADS', 1, 0, 16),
  };
}

export interface AlerterConfig extends ConsumerServiceConfig {
  /** WARDEN_WEBHOOK_ALLOW_PRIVATE=1: deliver to private, loopback and link-local addresses (development, tests). */
  allowPrivate: boolean;
  /** WARDEN_WEBHOOK_TIMEOUT_MS: how long one attempt may take, answer included (default 10 s). */
  timeoutMs: number;
  /** WARDEN_WEBHOOK_RETRY_SCHEDULE: waits before each retry (default 5s,5m,30m,2h,5h,10h,24h). */
  retrySchedule: number[];
  /** WARDEN_WEBHOOK_CONCURRENCY: attempts in flight per endpoint (default 16). */
  perEndpointConcurrency: number;
  /** WARDEN_WEBHOOK_DISABLE_AFTER: an endpoint failing this long is disabled (default 5d). */
  disableAfterMs: number;
  /** WARDEN_WEBHOOK_POLL_MS: how often the delivery loop looks for due deliveries (default 250). */
  pollMs: number;
  /** WARDEN_DASHBOARD_URL: where the payload's link to the interaction points (default http://127.0.0.1:8081). */
  dashboardUrl: string;
}

/** WARDEN_WEBHOOK_ALLOW_PRIVATE=1: webhooks may target private addresses (the API checks URLs, the alerter connections). */
export function webhookAllowPrivate(env: Env = process.env): boolean {
  return flagFromEnv(env, 'WARDEN_WEBHOOK_ALLOW_PRIVATE');
}

/** A duration list such as `5s,5m,30m`, each through `ms`. */
function durationsFromEnv(env: Env, name: string, fallback: string): number[] {
  const raw = env[name]?.trim() || fallback;
  const values = raw.split(',').map((part) => ms(part.trim() as ms.StringValue));
  if (values.length === 0 || values.some((v) => typeof v !== 'number' || !Number.isFinite(v) || v < 0)) {
    throw new ConfigError(
      name,
      `is not a list of durations (got "${raw}")`,
      `Use e.g. ${fallback}; unset it to use that.`,
    );
  }
  return values;
}

export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,24h';

export function loadAlerterConfig(env: Env = process.env): AlerterConfig {
  const dashboard = env.WARDEN_DASHBOARD_URL?.trim() || 'http://127.0.0.1:8081';
  return {
    ...consumerServiceConfig(env, {
      group: 'WARDEN_ALERTER_GROUP',
      defaultGroup: 'warden-alerter',
      metricsPort: 'WARDEN_ALERTER_METRICS_PORT',
      defaultMetricsPort: 9103,
    }),
    allowPrivate: webhookAllowPrivate(env),
    timeoutMs: intFromEnv(env, 'WARDEN_WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    retrySchedule: durationsFromEnv(env, 'WARDEN_WEBHOOK_RETRY_SCHEDULE', DEFAULT_RETRY_SCHEDULE),
    perEndpointConcurrency: intFromEnv(env, 'WARDEN_WEBHOOK_CONCURRENCY', 16, 1, 64),
    disableAfterMs: durationsFromEnv(env, 'WARDEN_WEBHOOK_DISABLE_AFTER', '5d')[0]!,
    pollMs: intFromEnv(env, 'WARDEN_WEBHOOK_POLL_MS', 250, 10, 60_000),
    dashboardUrl: parseUrl('WARDEN_DASHBOARD_URL', dashboard, 'https://warden.example.com', [
      'http:',
      'https:',
    ]),
  };
}
