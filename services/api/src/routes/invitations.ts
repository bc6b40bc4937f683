import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiError } from '@warden/shared/http/errors';
import type { PostgresPool } from '@warden/shared/postgres/client';
import { Invitations, type Invitation as StoredInvitation, type Role } from '@warden/shared/users/index';
import { sessionOf } from '../caller';
import { errorResponses, LoginResult, security } from '../schemas';
import {
  AcceptInvitationBody,
  CreateInvitationBody,
  CreatedInvitation,
  Invitation,
  InvitationParams,
  InvitationTokenParams,
  NoContent,
} from '../schemas-management';
import { startSession, type CookieOptions } from '../session-cookies';
import type { Throttle } from '../throttle';

export type InvitationsRoutesOptions = CookieOptions & {
  pool: PostgresPool;
  throttle: Throttle;
  redisPrefix: string;
};

const answer = (i: StoredInvitation) => ({
  invitationId: i.invitationId,
  email: i.email,
  role: i.role,
  createdAt: i.createdAt.toISOString(),
  expiresAt: i.expiresAt.toISOString(),
  status: i.status,
  ...(i.invitedBy ? { invitedBy: i.invitedBy } : {}),
});

/** Roles each role may invite: nobody hands out more than they hold, and only owners make owners. */
const INVITABLE: Record<Role, readonly Role[]> = {
  owner: ['owner', 'admin', 'member', 'viewer'],
  admin: ['admin', 'member', 'viewer'],
  member: ['member', 'viewer'],
  viewer: [],
};

/**
 * Invitations to the caller's organisation, and their acceptance. Accepting needs no session: the
 * token is the proof, and spending it creates the user, the membership and a session at once.
 */
export const invitationsRoutes: FastifyPluginAsyncTypebox<InvitationsRoutesOptions> = async (app, opts) => {
  const invitations = new Invitations(opts.pool);

  app.post(
    '/invitations',
    {
      config: { permission: 'org:invite' },
      schema: {
        tags: ['invitations'],
        summary:
          'Invites an email with a role: the answer holds the one-time token and its link (/invite/<token>), valid 7 days.',
        security,
        body: CreateInvitationBody,
        response: { 201: CreatedInvitation, ...errorResponses([400, 401, 403, 409, 415, 500, 503]) },
      },
    },
    async (req, reply) => {
      const s = sessionOf(req.principal);
      if (!INVITABLE[s.role].includes(req.body.role)) {
        throw new ApiError(
          'INSUFFICIENT_PERMISSIONS',
          `Your role (${s.role}) may invite only as ${INVITABLE[s.role].join(' or ') || 'nobody'}; ask an owner.`,
        );
      }
      const { invitation, token } = await invitations.create({
        organisationId: s.organisationId,
        email: req.body.email,
        role: req.body.role,
        invitedBy: s.userId,
      });
      return reply.code(201).send({ ...answer(invitation), token, link: `/invite/${token}` });
    },
  );

  app.get(
    '/invitations',
    {
      config: { permission: 'org:read' },
      schema: {
        tags: ['invitations'],
        summary: "The organisation's invitations, newest first (never their tokens).",
        security,
        response: {
          200: Type.Object({ invitations: Type.Array(Invitation) }),
          ...errorResponses([401, 403, 500, 503]),
        },
      },
    },
    async (req) => ({
      invitations: (await invitations.list(sessionOf(req.principal).organisationId)).map(answer),
    }),
  );

  app.delete(
    '/invitations/:invitationId',
    {
      config: { permission: 'org:invite' },
      schema: {
        tags: ['invitations'],
        summary: 'Revokes an invitation that was not accepted yet; its link stops working.',
        security,
        params: InvitationParams,
        response: { 204: NoContent, ...errorResponses([400, 401, 403, 404, 500, 503]) },
      },
    },
    async (req, reply) => {
      const s = sessionOf(req.principal);
      if (!(await invitations.revoke(s.organisationId, req.params.invitationId, `user:${s.userId}`))) {
        throw new ApiError(
          'NOT_FOUND',
          `No pending invitation ${JSON.stringify(req.params.invitationId)} in your organisation.`,
        );
      }
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/auth/invitations/:token/accept',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Accepts an invitation: creates the user with the invited email and role, and signs them in. Works once.',
        params: InvitationTokenParams,
        body: AcceptInvitationBody,
        response: { 200: LoginResult, ...errorResponses([400, 404, 409, 415, 429, 500]) },
      },
    },
    async (req, reply) => {
      await opts.throttle.check(
        `${opts.redisPrefix}accept:${req.ip}`,
        'invitation attempts from your address',
      );
      const joined = await invitations.accept(req.params.token, {
        password: req.body.password,
        ...(req.body.name ? { name: req.body.name.trim() } : {}),
      });
      if (!joined) {
        throw new ApiError(
          'NOT_FOUND',
          'This invitation link is unknown, used, revoked or expired; ask for a new invitation.',
        );
      }
      return startSession(opts, req, reply, joined);
    },
  );
};
