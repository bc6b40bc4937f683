import { join } from 'node:path';
import { loadSecretKey } from '@warden/shared/alerts/secrets';
import { clickhouseDatabase, loadApiConfig, loadEndpoints, webhookAllowPrivate } from '@warden/shared/config';
import { createClickhouse } from '@warden/shared/clickhouse/client';
import { KeyAuthenticator, PostgresKeys } from '@warden/shared/keys/index';
import { createLogger } from '@warden/shared/logger';
import { serviceRedis } from '@warden/shared/redis';
import { createPostgres } from '@warden/shared/postgres/client';
import { repoRoot } from '@warden/shared/paths';
import { onShutdown } from '@warden/shared/shutdown';
import { buildApp } from './app';

/** The management and analytics API: config → wiring → listen. */
const log = createLogger('api');
const endpoints = loadEndpoints();
const config = loadApiConfig();

const postgres = createPostgres({ url: endpoints.databaseUrl, max: 8 });
const redis = serviceRedis(endpoints.redisUrl, log);
await redis.connect().catch((err: unknown) => log.warn({ err }, 'Redis not reachable yet'));
const keys = new KeyAuthenticator({
  redis,
  source: new PostgresKeys(postgres, 'api'),
  onError: (err, during) => log.warn({ err, during }, 'key cache'),
});
await keys
  .start()
  .catch((err: unknown) => log.warn({ err }, 'key cache not loaded yet; keys are looked up on demand'));
const clickhouse = createClickhouse({ url: endpoints.clickhouseUrl });

const app = await buildApp({
  pool: postgres,
  redis,
  keys,
  clickhouse,
  database: clickhouseDatabase(),
  logger: log,
  sessionTtlMs: config.sessionTtlMs,
  cookieSecure: config.cookieSecure,
  trustProxy: config.trustProxy,
  loginAttemptsPerMinute: config.loginAttemptsPerMinute,
  signup: config.signup,
  dashboardRoot: join(repoRoot, 'web', 'dist'),
  // Read at start: in production a missing WARDEN_SECRET_KEY stops the API with how to set it.
  secretKey: loadSecretKey(),
  webhookAllowPrivate: webhookAllowPrivate(),
});
await app.listen({ port: config.port, host: config.host });
log.info(
  { url: `http://${config.host}:${config.port}/api/v1`, dashboard: `http://${config.host}:${config.port}/` },
  'api listening',
);

onShutdown(log, async () => {
  await app.close();
  await keys.stop();
  redis.disconnect();
  await clickhouse.close();
  await postgres.end();
});
