import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Redis } from 'ioredis';
import type { SignupMode } from '@warden/shared/config';
import { ApiError } from '@warden/shared/http/errors';
import { randomBase62 } from '@warden/shared/keys/format';
import type { PostgresPool } from '@warden/shared/postgres/client';
import { UserDirectory } from '@warden/shared/users/index';
import { sessionOf } from '../caller';
import { keyStoreFor } from '../key-store';
import { errorResponses, LoginResult, security } from '../schemas';
import {
  AuthConfig,
  ChangePasswordBody,
  NoContent,
  ResetPasswordBody,
  SessionParams,
  SignupBody,
  UserSession,
} from '../schemas-management';
import { clearSessionCookies, startSession, type CookieOptions } from '../session-cookies';
import type { Throttle } from '../throttle';

export type AccountRoutesOptions = CookieOptions & {
  pool: PostgresPool;
  redis: Redis;
  redisPrefix: string;
  signup: SignupMode;
  throttle: Throttle;
};

/**
 * Sign-up (by WARDEN_SIGNUP, or the first user of a fresh install), the caller's own password and
 * sessions, and password reset by a token from `warden users reset-password`.
 */
export const accountRoutes: FastifyPluginAsyncTypebox<AccountRoutesOptions> = async (app, opts) => {
  const users = new UserDirectory(opts.pool, 'api');

  app.get(
    '/auth/config',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Which sign-up applies, for the sign-in page: open, invite or closed, and whether this is a fresh install.',
        response: { 200: AuthConfig, ...errorResponses([500]) },
      },
    },
    async () => ({ signup: opts.signup, firstUser: await users.isEmpty() }),
  );

  app.post(
    '/auth/signup',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Creates a user who owns a new organisation and its first project, and signs them in: when WARDEN_SIGNUP=open, or for the first user of a fresh install.',
        body: SignupBody,
        response: { 201: LoginResult, ...errorResponses([400, 403, 409, 415, 429, 500]) },
      },
    },
    async (req, reply) => {
      await opts.throttle.check(`${opts.redisPrefix}signup:${req.ip}`, 'sign-ups from your address');
      const firstUserOnly = opts.signup !== 'open';
      if (firstUserOnly && !(await users.isEmpty())) {
        throw new ApiError(
          'INSUFFICIENT_PERMISSIONS',
          opts.signup === 'invite'
            ? 'Sign-up is by invitation: ask an owner or admin of your organisation for an invitation link.'
            : 'Sign-up is closed here: an operator creates users with `npx warden users create`.',
        );
      }
      const created = await new UserDirectory(opts.pool, 'signup').createUser({
        email: req.body.email,
        password: req.body.password,
        organisation: req.body.organisation,
        role: 'owner',
        newOrganisation: true,
        firstUserOnly,
      });
      await keyStoreFor(opts, `user:${created.userId}`).createProject({
        accountId: `prj_${randomBase62(16)}`,
        name: 'Default',
        tier: 'free',
        organisationId: created.organisationId,
      });
      const signedIn = await startSession(opts, req, reply, created);
      return reply.code(201).send(signedIn);
    },
  );

  app.post(
    '/auth/reset',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Sets a new password with a one-time token from `npx warden users reset-password --email E`; every session of the user ends.',
        body: ResetPasswordBody,
        response: { 204: NoContent, ...errorResponses([400, 415, 429, 500]) },
      },
    },
    async (req, reply) => {
      await opts.throttle.check(`${opts.redisPrefix}reset:${req.ip}`, 'password resets from your address');
      if (!(await users.resetPassword(req.body.token, req.body.password))) {
        throw new ApiError(
          'INVALID_REQUEST',
          'This reset token is unknown, used or expired (tokens last an hour); run `npx warden users reset-password --email <email>` again.',
          { field: 'token' },
        );
      }
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/me/password',
    {
      config: { permission: 'org:read' },
      schema: {
        tags: ['account'],
        summary: "Changes the caller's password; every other session of theirs ends.",
        security,
        body: ChangePasswordBody,
        response: { 204: NoContent, ...errorResponses([400, 401, 403, 415, 429, 500, 503]) },
      },
    },
    async (req, reply) => {
      const s = sessionOf(req.principal);
      await opts.throttle.check(`${opts.redisPrefix}password:${s.userId}`, 'password change attempts');
      const changed = await users.changePassword({
        userId: s.userId,
        organisationId: s.organisationId,
        current: req.body.current,
        next: req.body.new,
        keepSessionId: s.sessionId,
      });
      if (!changed) {
        throw new ApiError('INVALID_REQUEST', 'The current password is wrong.', { field: 'current' });
      }
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/me/sessions',
    {
      config: { permission: 'org:read' },
      schema: {
        tags: ['account'],
        summary: "The caller's live sessions (this one marked current).",
        security,
        response: {
          200: Type.Object({ sessions: Type.Array(UserSession) }),
          ...errorResponses([401, 403, 500, 503]),
        },
      },
    },
    async (req) => {
      const s = sessionOf(req.principal);
      const sessions = await opts.sessions.listForUser(s.userId);
      return {
        sessions: sessions.map((x) => ({
          sessionId: x.sessionId,
          createdAt: x.createdAt.toISOString(),
          lastSeenAt: x.lastSeenAt.toISOString(),
          expiresAt: x.expiresAt.toISOString(),
          current: x.sessionId === s.sessionId,
          ...(x.address ? { address: x.address } : {}),
          ...(x.userAgent ? { userAgent: x.userAgent } : {}),
        })),
      };
    },
  );

  app.delete(
    '/me/sessions/:sessionId',
    {
      config: { permission: 'org:read' },
      schema: {
        tags: ['account'],
        summary: 'Revokes one of the caller’s sessions at once (revoking the current one signs out).',
        security,
        params: SessionParams,
        response: { 204: NoContent, ...errorResponses([400, 401, 403, 404, 500, 503]) },
      },
    },
    async (req, reply) => {
      const s = sessionOf(req.principal);
      if (!(await opts.sessions.revokeOwn(s.userId, req.params.sessionId))) {
        throw new ApiError('NOT_FOUND', `You have no live session ${JSON.stringify(req.params.sessionId)}.`);
      }
      if (req.params.sessionId === s.sessionId) clearSessionCookies(opts, req, reply);
      return reply.code(204).send(null);
    },
  );
};
