import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiError } from '@warden/shared/http/errors';
import type { PostgresPool } from '@warden/shared/postgres/client';
import { Members, type Member as StoredMember, type Role } from '@warden/shared/users/index';
import { sessionOf } from '../caller';
import { errorResponses, security } from '../schemas';
import { Member, MemberParams, NoContent, UpdateMemberBody } from '../schemas-management';

export interface MembersRoutesOptions {
  pool: PostgresPool;
}

const answer = (m: StoredMember) => ({
  userId: m.userId,
  email: m.email,
  role: m.role,
  joinedAt: m.joinedAt.toISOString(),
  ...(m.name ? { name: m.name } : {}),
});

/** Only an owner hands out or takes away the owner role; an admin manages everyone else. */
function assertMayTouch(actorRole: Role, targetRole: Role, newRole?: Role): void {
  if (actorRole !== 'owner' && (targetRole === 'owner' || newRole === 'owner')) {
    throw new ApiError(
      'INSUFFICIENT_PERMISSIONS',
      'Only an owner may grant, change or remove the owner role.',
    );
  }
}

/** The people of the caller's organisation; a user of another organisation is not found (404). */
export const membersRoutes: FastifyPluginAsyncTypebox<MembersRoutesOptions> = async (app, opts) => {
  const members = new Members(opts.pool);

  app.get(
    '/members',
    {
      config: { permission: 'org:read' },
      schema: {
        tags: ['members'],
        summary: "The organisation's members and their roles.",
        security,
        response: {
          200: Type.Object({ members: Type.Array(Member) }),
          ...errorResponses([401, 403, 500, 503]),
        },
      },
    },
    async (req) => ({
      members: (await members.list(sessionOf(req.principal).organisationId)).map(answer),
    }),
  );

  app.patch(
    '/members/:userId',
    {
      config: { permission: 'org:manage' },
      schema: {
        tags: ['members'],
        summary: "Changes a member's role (owner or admin; the last owner cannot be demoted).",
        security,
        params: MemberParams,
        body: UpdateMemberBody,
        response: { 200: Member, ...errorResponses([400, 401, 403, 404, 409, 415, 500, 503]) },
      },
    },
    async (req) => {
      const s = sessionOf(req.principal);
      const current = await members.roleOf(s.organisationId, req.params.userId);
      assertMayTouch(s.role, current, req.body.role);
      return answer(
        await members.setRole(s.organisationId, req.params.userId, req.body.role, `user:${s.userId}`),
      );
    },
  );

  app.delete(
    '/members/:userId',
    {
      config: { permission: 'org:manage' },
      schema: {
        tags: ['members'],
        summary: 'Removes a member; their sessions in the organisation end at once. Never the last owner.',
        security,
        params: MemberParams,
        response: { 204: NoContent, ...errorResponses([400, 401, 403, 404, 409, 500, 503]) },
      },
    },
    async (req, reply) => {
      const s = sessionOf(req.principal);
      const current = await members.roleOf(s.organisationId, req.params.userId);
      assertMayTouch(s.role, current);
      await members.remove(s.organisationId, req.params.userId, `user:${s.userId}`);
      return reply.code(204).send(null);
    },
  );
};
