import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Redis } from 'ioredis';
import { ApiError } from '@warden/shared/http/errors';
import type { Logger } from '@warden/shared/logger';
import {
  hashPassword,
  recordAudit,
  sha256Hex,
  verifyPassword,
  type SessionStore,
  type UserDirectory,
} from '@warden/shared/users/index';
import type { PostgresPool } from '@warden/shared/postgres/client';
import { clearSessionCookies, startSession } from '../session-cookies';
import type { Throttle } from '../throttle';
import { errorResponses, LoginBody, LoginResult, Me, security } from '../schemas';

export interface AuthRoutesOptions {
  pool: PostgresPool;
  sessions: SessionStore;
  users: UserDirectory;
  redis: Redis;
  redisPrefix: string;
  sessionTtlMs: number;
  cookieSecure: 'auto' | boolean;
  /** Sign-in attempts per email and address (WARDEN_LOGIN_ATTEMPTS_PER_MINUTE). */
  throttle: Throttle;
  logger?: Logger;
}

export const authRoutes: FastifyPluginAsyncTypebox<AuthRoutesOptions> = async (app, opts) => {
  const throttle = opts.throttle;
  // Verified when the email is unknown, so a miss costs what a wrong password costs and answer times
  // do not tell which emails have accounts: the hash of a random string nobody knows.
  const dummyHash = hashPassword(randomBytes(24).toString('base64url'));

  /** Sign-in attempts are counted per email and client address. */
  const throttleKey = (email: string, address: string) =>
    `${opts.redisPrefix}login:${sha256Hex(email.trim().toLowerCase())}:${address}`;

  app.post(
    '/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in: sets the HttpOnly session cookie and the page-readable warden_csrf cookie.',
        body: LoginBody,
        response: { 200: LoginResult, ...errorResponses([400, 401, 415, 429, 500]) },
      },
    },
    async (req, reply) => {
      const { email, password } = req.body;
      const attempts = throttleKey(email, req.ip);
      await throttle.check(attempts, 'sign-in attempts for this email from your address');
      const stored = await opts.users.passwordHashOf(email);
      const verified = await verifyPassword(stored?.passwordHash ?? (await dummyHash), password);
      const membership = stored && verified ? await opts.sessions.membershipOf(stored.userId) : undefined;
      if (!stored || !verified || !membership) {
        // A failed sign-in of a known user is a security event of their organisation; an unknown
        // email has no organisation to tell (and its text is not kept: it may be a mistyped password).
        const organisationId = stored
          ? (await opts.sessions.membershipOf(stored.userId))?.organisationId
          : undefined;
        await recordAudit(opts.pool, {
          organisationId: organisationId ?? null,
          actor: 'anonymous',
          action: 'session.sign_in_failed',
          ...(stored ? { target: stored.userId } : {}),
          details: { address: req.ip, knownUser: Boolean(stored) },
        }).catch((err: unknown) => opts.logger?.warn({ err }, 'audit: failed sign-in not recorded'));
        throw new ApiError('INVALID_CREDENTIALS', 'Email or password is wrong.');
      }
      // Whoever knows the password needs no throttling: a success rests the email and address again.
      await opts.redis.del(attempts).catch(() => undefined);
      return startSession(opts, req, reply, {
        userId: stored.userId,
        email: email.trim(),
        organisationId: membership.organisationId,
        role: membership.role,
      });
    },
  );

  app.post(
    '/auth/logout',
    {
      config: { permission: 'caller' },
      schema: {
        tags: ['auth'],
        summary: 'Sign out: the session is revoked for every API process at once and its cookies cleared.',
        security,
        response: { 204: { type: 'null', description: 'Signed out.' }, ...errorResponses([401, 403, 500]) },
      },
    },
    async (req, reply) => {
      if (req.principal.kind !== 'session') {
        throw new ApiError(
          'UNAUTHENTICATED',
          'Sign-out ends a session; an API key is revoked with DELETE /api/v1/keys/{keyId}.',
        );
      }
      await opts.sessions.revoke(req.principal.session.sessionId, `user:${req.principal.session.userId}`);
      clearSessionCookies(opts, req, reply);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/me',
    {
      config: { permission: 'caller' },
      schema: {
        tags: ['auth'],
        summary: 'Who is calling: the signed-in user and role, or the API key and its project.',
        security,
        response: { 200: Me, ...errorResponses([401, 500, 503]) },
      },
    },
    async (req) => {
      const caller = req.principal;
      if (caller.kind === 'key') {
        return {
          kind: 'key' as const,
          key: { keyId: caller.keyId, projectId: caller.projectId, scopes: caller.scopes },
        };
      }
      const s = caller.session;
      return {
        kind: 'session' as const,
        user: { userId: s.userId, email: s.email },
        organisationId: s.organisationId,
        role: s.role,
        sessionExpiresAt: s.expiresAt.toISOString(),
      };
    },
  );
};
