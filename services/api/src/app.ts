import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import type { ClickHouseClient } from '@clickhouse/client';
import type { Redis } from 'ioredis';
import { answerErrorsInContract } from '@warden/shared/http/answers';
import { typeBoxValidatorCompiler } from '@warden/shared/http/validation';
import type { KeyAuthenticator } from '@warden/shared/keys/index';
import type { Logger } from '@warden/shared/logger';
import type { PostgresPool } from '@warden/shared/postgres/client';
import { SessionStore, UserDirectory } from '@warden/shared/users/index';
import { guard } from './caller';
import { apiErrorOf } from './errors';
import { openApiPlugin } from './plugins/openapi';
import { alertsRoutes } from './routes/alerts';
import { analyticsRoutes } from './routes/analytics';
import { authRoutes } from './routes/auth';
import { keysRoutes } from './routes/keys';

export interface ApiDeps {
  pool: PostgresPool;
  redis: Redis;
  /** Namespace of the key cache and sign-in throttle in Redis (default `warden:`). */
  redisPrefix?: string;
  /** Started by the caller (main.ts): a local key cache kept fresh over pub/sub, as in ingest. */
  keys: KeyAuthenticator;
  clickhouse: ClickHouseClient;
  database: string;
  logger?: Logger | false;
  sessionTtlMs?: number;
  cookieSecure?: 'auto' | boolean;
  trustProxy?: boolean;
  loginAttemptsPerMinute?: number;
  /** WARDEN_SECRET_KEY: webhook secrets are encrypted with it (loaded on first use when not given). */
  secretKey?: Buffer;
  /** WARDEN_WEBHOOK_ALLOW_PRIVATE=1: webhook URLs on private addresses are accepted. */
  webhookAllowPrivate?: boolean;
}

/** Builds the API without listening, so tests drive it with `inject()` or a real port. */
export async function buildApp(deps: ApiDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger as FastifyBaseLogger } : { logger: false }),
    bodyLimit: 64 * 1024,
    trustProxy: deps.trustProxy ?? false,
  });
  app.setValidatorCompiler(typeBoxValidatorCompiler);
  answerErrorsInContract(app, apiErrorOf);

  await app.register(cookie);
  await app.register(openApiPlugin);

  const redisPrefix = deps.redisPrefix ?? 'warden:';
  const sessions = new SessionStore(deps.pool);
  app.decorateRequest('principal');
  app.decorateRequest('projectId', '');
  // One hook for every route: it acts on routes that declare `config.permission` (caller.ts).
  app.addHook('onRequest', guard({ sessions, keys: deps.keys, pool: deps.pool }));

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const ready = await deps.pool.query('SELECT 1').then(
      () => true,
      () => false,
    );
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready' });
  });

  await app.register(
    async (v1) => {
      await v1.register(authRoutes, {
        sessions,
        users: new UserDirectory(deps.pool, 'api'),
        redis: deps.redis,
        redisPrefix,
        sessionTtlMs: deps.sessionTtlMs ?? 7 * 86_400_000,
        cookieSecure: deps.cookieSecure ?? 'auto',
        loginAttemptsPerMinute: deps.loginAttemptsPerMinute ?? 5,
        ...(deps.logger ? { logger: deps.logger } : {}),
      });
      await v1.register(keysRoutes, { pool: deps.pool, redis: deps.redis, redisPrefix });
      await v1.register(analyticsRoutes, { clickhouse: deps.clickhouse, database: deps.database });
      await v1.register(alertsRoutes, {
        pool: deps.pool,
        allowPrivate: deps.webhookAllowPrivate ?? false,
        ...(deps.secretKey ? { secretKey: deps.secretKey } : {}),
      });
    },
    { prefix: '/api/v1' },
  );
  return app;
}
