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
