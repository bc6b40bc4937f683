import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import type { ClickHouseClient } from '@clickhouse/client';
import type { Redis } from 'ioredis';
import { ThreatDetectedWebhook } from '@warden/shared/alerts/payload';
import { answerErrorsInContract } from '@warden/shared/http/answers';
import { openApiPlugin } from '@warden/shared/http/openapi';
import { typeBoxValidatorCompiler } from '@warden/shared/http/validation';
import type { KeyAuthenticator } from '@warden/shared/keys/index';
import type { SignupMode } from '@warden/shared/config';
import type { Logger } from '@warden/shared/logger';
import type { PostgresPool } from '@warden/shared/postgres/client';
import { SessionStore, UserDirectory } from '@warden/shared/users/index';
import { guard, SESSION_COOKIE } from './caller';
import { apiErrorOf } from './errors';
import { createThrottle } from './throttle';
import { dashboardPlugin } from './plugins/dashboard';
import { accountRoutes } from './routes/account';
import { alertsRoutes } from './routes/alerts';
import { analyticsRoutes } from './routes/analytics';
import { authRoutes } from './routes/auth';
import { invitationsRoutes } from './routes/invitations';
import { agentsRoutes } from './routes/agents';
import { exportRoutes } from './routes/export';
import { interactionsRoutes } from './routes/interactions';
import { keysRoutes } from './routes/keys';
import { membersRoutes } from './routes/members';
import { projectsRoutes } from './routes/projects';
import { topRoutes } from './routes/top';

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
  /** WARDEN_SIGNUP (default invite): who may sign up without an invitation. */
  signup?: SignupMode;
  /** The built dashboard (web/dist), served at / with a fallback to index.html for page URLs. */
  dashboardRoot?: string;
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
  await app.register(openApiPlugin, {
    title: 'Warden management and analytics API',
    description:
      'Sessions, API keys and security analytics of one project (X-Warden-Project, or the key’s own). ' +
      'Requests that change state with a session must echo the `warden_csrf` cookie in `x-csrf-token`.',
    securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE } },
    // What Warden sends to a project's endpoints (docs/alerts.md: headers, signing, retries).
    webhooks: {
      threat_detected: {
        post: {
          summary: 'A threat matched an alert rule (first detection, then one update with the count).',
          description:
            'Signed per Standard Webhooks: webhook-id (the same on every retry), webhook-timestamp, ' +
            'webhook-signature (`v1,` base64 HMAC-SHA256 of `id.timestamp.body` with the endpoint secret; two during a rotation).',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ThreatDetectedWebhook } },
          },
          responses: {
            '2XX': { description: 'Delivered; anything else is retried (410 disables the endpoint).' },
          },
        },
      },
    },
  });

  const redisPrefix = deps.redisPrefix ?? 'warden:';
  const sessions = new SessionStore(deps.pool);
  app.decorateRequest('principal');
  app.decorateRequest('projectId', '');
  // One hook for every route: it acts on routes that declare `config.permission` (caller.ts).
  app.addHook('onRequest', guard({ sessions, keys: deps.keys, pool: deps.pool }));

  // Probes ask every few seconds: their requests are not logged unless something goes wrong.
  app.get('/healthz', { schema: { hide: true }, logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true }, logLevel: 'warn' }, async (_req, reply) => {
    const ready = await deps.pool.query('SELECT 1').then(
      () => true,
      () => false,
    );
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready' });
  });

  // One budget for every unauthenticated request that hashes a password (sign-in, sign-up, accepting
  // an invitation, reset) and for password changes, each counted under its own key.
  const throttle = createThrottle({
    redis: deps.redis,
    ratePerMinute: deps.loginAttemptsPerMinute ?? 5,
    ...(deps.logger ? { logger: deps.logger } : {}),
  });
  const cookies = {
    sessions,
    sessionTtlMs: deps.sessionTtlMs ?? 7 * 86_400_000,
    cookieSecure: deps.cookieSecure ?? 'auto',
  };
  await app.register(
    async (v1) => {
      await v1.register(authRoutes, {
        ...cookies,
        pool: deps.pool,
        users: new UserDirectory(deps.pool, 'api'),
        redis: deps.redis,
        redisPrefix,
        throttle,
        ...(deps.logger ? { logger: deps.logger } : {}),
      });
      await v1.register(keysRoutes, { pool: deps.pool, redis: deps.redis, redisPrefix });
      await v1.register(analyticsRoutes, { clickhouse: deps.clickhouse, database: deps.database });
      await v1.register(topRoutes, { clickhouse: deps.clickhouse, database: deps.database });
      await v1.register(projectsRoutes, { pool: deps.pool, redis: deps.redis, redisPrefix });
      await v1.register(membersRoutes, { pool: deps.pool });
      await v1.register(invitationsRoutes, { ...cookies, pool: deps.pool, throttle, redisPrefix });
      await v1.register(accountRoutes, {
        ...cookies,
        pool: deps.pool,
        redis: deps.redis,
        redisPrefix,
        signup: deps.signup ?? 'invite',
        throttle,
      });
      await v1.register(agentsRoutes, {
        clickhouse: deps.clickhouse,
        database: deps.database,
        pool: deps.pool,
        redis: deps.redis,
        redisPrefix,
      });
      await v1.register(interactionsRoutes, { clickhouse: deps.clickhouse, database: deps.database });
      await v1.register(exportRoutes, { clickhouse: deps.clickhouse, database: deps.database });
      await v1.register(alertsRoutes, {
        pool: deps.pool,
        allowPrivate: deps.webhookAllowPrivate ?? false,
        ...(deps.secretKey ? { secretKey: deps.secretKey } : {}),
      });
    },
    { prefix: '/api/v1' },
  );
  if (deps.dashboardRoot) await app.register(dashboardPlugin, { root: deps.dashboardRoot });
  return app;
}
