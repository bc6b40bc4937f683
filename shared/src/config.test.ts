import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  canariesFromEnv,
  clickhouseCluster,
  loadApiConfig,
  clickhouseRetentionDays,
  loadEndpoints,
  loadIngestConfig,
  loadStackConfig,
  loadTopicConfig,
  logLevel,
  rateScaleFromEnv,
  redactUrl,
} from './config';

// A stack directory without endpoints.json, so the defaults are what an empty environment gets.
const noStack = { WARDEN_STACK_DIR: resolve(import.meta.dirname, 'no-such-stack') };

describe('config', () => {
  it('gives the documented defaults for an empty environment', () => {
    expect(loadIngestConfig({})).toEqual({
      port: 8080,
      host: '0.0.0.0',
      workers: 1,
      producers: 4,
      produceTimeoutMs: 5000,
      timeouts: { requestMs: 30_000, headersMs: 10_000, keepAliveMs: 72_000 },
      metricsPort: 9100,
      metricsHost: '127.0.0.1',
    });
    expect(loadTopicConfig({})).toEqual({ prefix: '', partitions: 6, replayWindowDays: 7 });
    expect(clickhouseRetentionDays({})).toBe(90);
    expect(logLevel({})).toBe('info');
    expect(rateScaleFromEnv({})).toBe(1);
    expect(loadEndpoints(noStack)).toEqual({
      kafkaBrokers: ['127.0.0.1:19092'],
      clickhouseUrl: 'http://127.0.0.1:18123',
      redisUrl: 'redis://127.0.0.1:6379',
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/warden',
    });
    expect(loadStackConfig(noStack)).toMatchObject({ noInstall: false, configured: {} });
  });

  it('reads each variable', () => {
    const env = {
      PORT: '9000',
      HOST: '127.0.0.1',
      WARDEN_INGEST_WORKERS: '2',
      WARDEN_PRODUCERS: '1',
      WARDEN_PRODUCE_TIMEOUT_MS: '250',
      WARDEN_INGEST_REQUEST_TIMEOUT_MS: '5000',
      WARDEN_INGEST_HEADERS_TIMEOUT_MS: '2000',
      WARDEN_INGEST_KEEP_ALIVE_TIMEOUT_MS: '65000',
      WARDEN_INGEST_METRICS_PORT: '9200',
      WARDEN_INGEST_METRICS_HOST: '0.0.0.0',
      WARDEN_TOPIC_PREFIX: 'staging.',
      WARDEN_TOPIC_PARTITIONS: '12',
      WARDEN_REPLAY_WINDOW_DAYS: '3',
      WARDEN_STACK_DIR: '/tmp/warden-stack',
      WARDEN_CACHE_DIR: '/tmp/warden-cache',
      WARDEN_NO_INSTALL: '1',
      KAFKA_BROKERS: ' 10.0.0.1:9092, 10.0.0.2:9092 ',
      CLICKHOUSE_URL: 'https://ch.example:8443/',
      LOG_LEVEL: 'warn',
      WARDEN_RATE_SCALE: '0.1',
    };
    expect(loadIngestConfig(env)).toEqual({
      port: 9000,
      host: '127.0.0.1',
      workers: 2,
      producers: 1,
      produceTimeoutMs: 250,
      timeouts: { requestMs: 5000, headersMs: 2000, keepAliveMs: 65_000 },
      metricsPort: 9200,
      metricsHost: '0.0.0.0',
    });
    expect(loadTopicConfig(env)).toEqual({ prefix: 'staging.', partitions: 12, replayWindowDays: 3 });
    expect(loadStackConfig(env)).toEqual({
      dir: '/tmp/warden-stack',
      cacheDir: '/tmp/warden-cache',
      noInstall: true,
      configured: {
        kafkaBrokers: ['10.0.0.1:9092', '10.0.0.2:9092'],
        clickhouseUrl: 'https://ch.example:8443',
      },
    });
    expect(logLevel(env)).toBe('warn');
    expect(rateScaleFromEnv(env)).toBe(0.1);
  });

  it('fails on a bad value with a message naming the variable and what to write', () => {
    expect(() => loadIngestConfig({ PORT: 'http' })).toThrow(/PORT must be an integer between 1 and 65535/);
    expect(() => loadIngestConfig({ WARDEN_INGEST_WORKERS: '0' })).toThrow(/WARDEN_INGEST_WORKERS/);
    expect(() => loadIngestConfig({ HOST: 'a host' })).toThrow(/HOST has an invalid value/);
    expect(() =>
      loadIngestConfig({
        WARDEN_INGEST_REQUEST_TIMEOUT_MS: '1000',
        WARDEN_INGEST_HEADERS_TIMEOUT_MS: '2000',
      }),
    ).toThrow(/WARDEN_INGEST_HEADERS_TIMEOUT_MS must not exceed WARDEN_INGEST_REQUEST_TIMEOUT_MS/);
    // A short request timeout alone lowers the headers' default with it.
    expect(loadIngestConfig({ WARDEN_INGEST_REQUEST_TIMEOUT_MS: '1000' }).timeouts.headersMs).toBe(1000);
    expect(() => loadTopicConfig({ WARDEN_TOPIC_PREFIX: 'a/b' })).toThrow(
      /WARDEN_TOPIC_PREFIX has characters Kafka topic names cannot hold/,
    );
    expect(() => loadTopicConfig({ WARDEN_REPLAY_WINDOW_DAYS: '7d' })).toThrow(/WARDEN_REPLAY_WINDOW_DAYS/);
    expect(() => clickhouseRetentionDays({ WARDEN_RETENTION_DAYS: '-1' })).toThrow(/WARDEN_RETENTION_DAYS/);
    expect(() => loadStackConfig({ WARDEN_NO_INSTALL: 'yes' })).toThrow(/WARDEN_NO_INSTALL must be 1 or 0/);
    expect(() => loadStackConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(
      /REDIS_URL must use redis: or rediss:/,
    );
    expect(() => loadEndpoints({ ...noStack, KAFKA_BROKERS: 'kafka' })).toThrow(/not host:port/);
    expect(() => logLevel({ LOG_LEVEL: 'verbose' })).toThrow(/LOG_LEVEL must be one of fatal, error/);
    expect(() => rateScaleFromEnv({ WARDEN_RATE_SCALE: 'fast' })).toThrow(/WARDEN_RATE_SCALE/);
  });

  it('reads the API config: port 8081, cookies Secure over TLS, a week of session, 5 sign-ins a minute', () => {
    expect(loadApiConfig({})).toEqual({
      port: 8081,
      host: '0.0.0.0',
      cookieSecure: 'auto',
      signup: 'invite',
      trustProxy: false,
      sessionTtlMs: 168 * 3_600_000,
      loginAttemptsPerMinute: 5,
    });
    expect(
      loadApiConfig({
        API_PORT: '9001',
        WARDEN_COOKIE_SECURE: '1',
        WARDEN_TRUST_PROXY: '1',
        WARDEN_SESSION_TTL_HOURS: '12',
        WARDEN_LOGIN_ATTEMPTS_PER_MINUTE: '20',
      }),
    ).toMatchObject({
      port: 9001,
      cookieSecure: true,
      trustProxy: true,
      sessionTtlMs: 12 * 3_600_000,
      loginAttemptsPerMinute: 20,
    });
    expect(loadApiConfig({ WARDEN_COOKIE_SECURE: '0' }).cookieSecure).toBe(false);
    expect(() => loadApiConfig({ WARDEN_COOKIE_SECURE: 'yes' })).toThrow(
      /WARDEN_COOKIE_SECURE.*auto, 1 or 0/,
    );
    expect(() => loadApiConfig({ API_PORT: '70000' })).toThrow(/API_PORT/);
    expect(loadApiConfig({ WARDEN_SIGNUP: 'Open' }).signup).toBe('open');
    expect(() => loadApiConfig({ WARDEN_SIGNUP: 'public' })).toThrow(/WARDEN_SIGNUP.*invite, open or closed/);
  });

  it('reads WARDEN_CANARIES per agent and says how to write it when it is wrong', () => {
    expect(canariesFromEnv({})).toEqual({});
    expect(canariesFromEnv({ WARDEN_CANARIES: '{"*":["cn-123456"],"bot":["cn-abcdef"]}' })).toEqual({
      '*': ['cn-123456'],
      bot: ['cn-abcdef'],
    });
    expect(() => canariesFromEnv({ WARDEN_CANARIES: '{oops' })).toThrow(
      /WARDEN_CANARIES is not JSON\. Use e\.g\./,
    );
    expect(() => canariesFromEnv({ WARDEN_CANARIES: '["cn-123456"]' })).toThrow(/not a JSON object/);
    expect(() => canariesFromEnv({ WARDEN_CANARIES: '{"bot":["short"]}' })).toThrow(
      /WARDEN_CANARIES\["bot"\] is not a list of strings of at least 6 characters/,
    );
  });

  it('keeps credentials in CLICKHOUSE_URL and REDIS_URL, and never prints a password', () => {
    const env = {
      ...noStack,
      CLICKHOUSE_URL: 'http://warden:ch-s3cret@clickhouse:8123',
      REDIS_URL: 'redis://:r3d-s3cret@redis:6379',
      DATABASE_URL: 'postgres://warden:pg-s3cret@postgres:5432/warden',
    };
    expect(loadEndpoints(env)).toMatchObject({
      clickhouseUrl: 'http://warden:ch-s3cret@clickhouse:8123',
      redisUrl: 'redis://:r3d-s3cret@redis:6379',
      databaseUrl: 'postgres://warden:pg-s3cret@postgres:5432/warden',
    });
    expect(redactUrl(env.DATABASE_URL)).toBe('postgres://warden:***@postgres:5432/warden');
    expect(() => loadEndpoints({ ...noStack, DATABASE_URL: 'mysql://db/warden' })).toThrow(
      /DATABASE_URL must use postgres: or postgresql:/,
    );
    expect(redactUrl(env.CLICKHOUSE_URL)).toBe('http://warden:***@clickhouse:8123');
    expect(redactUrl(env.REDIS_URL)).toBe('redis://:***@redis:6379');
    expect(redactUrl('redis://:p@ss@redis:6379/0')).toBe('redis://:***@redis:6379/0');
    expect(redactUrl('http://clickhouse:8123/?user=x')).toBe('http://clickhouse:8123/?user=x');
    expect(redactUrl('http://warden@clickhouse:8123')).toBe('http://warden@clickhouse:8123');
    // A malformed value is named in the error without its password.
    expect(() => loadEndpoints({ ...noStack, CLICKHOUSE_URL: 'http://warden:ch-s3cret@[::1' })).toThrow(
      /CLICKHOUSE_URL is not a URL \(got "http:\/\/warden:\*\*\*@\[::1"\)/,
    );
  });

  it('CLICKHOUSE_CLUSTER: unset is one server; a cluster name as <remote_servers> spells it; else a clear error', () => {
    expect(clickhouseCluster({})).toBeUndefined();
    expect(clickhouseCluster({ CLICKHOUSE_CLUSTER: '  ' })).toBeUndefined();
    expect(clickhouseCluster({ CLICKHOUSE_CLUSTER: ' warden_prod ' })).toBe('warden_prod');
    expect(() => clickhouseCluster({ CLICKHOUSE_CLUSTER: 'prod; DROP' })).toThrow(
      /CLICKHOUSE_CLUSTER is not a cluster name Warden accepts \(got "prod; DROP"\)/,
    );
  });
});
