import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Redis } from 'ioredis';
import { AgentRegistry } from '@warden/shared/agents/index';
import { ApiError } from '@warden/shared/http/errors';
import { randomBase62 } from '@warden/shared/keys/format';
import { PostgresKeys, resolveLimits, type ProjectListing, type TierLimits } from '@warden/shared/keys/index';
import type { PostgresPool } from '@warden/shared/postgres/client';
import { recordAudit } from '@warden/shared/users/index';
import { actorOf, type Caller } from '../caller';
import { keyStoreFor } from '../key-store';
import { errorResponses, security } from '../schemas';
import { CreateProjectBody, Project, ProjectParams, UpdateProjectBody } from '../schemas-management';

export interface ProjectsRoutesOptions {
  pool: PostgresPool;
  redis: Redis;
  redisPrefix: string;
}

/** Settings are the dashboard's to keep, not a store: bounded so one project cannot bloat the row. */
const MAX_SETTINGS_BYTES = 16 * 1024;

const answer = (p: ProjectListing, agents: number) => ({
  projectId: p.projectId,
  name: p.name,
  tier: p.tier,
  settings: p.settings ?? {},
  createdAt: p.createdAt,
  activeKeys: p.activeKeys,
  ...(p.limits ? { limits: p.limits } : {}),
  effectiveLimits: resolveLimits(p.tier, p.limits),
  usage: { agents, activeKeys: p.activeKeys },
});

/** Who may change the tier and limits: an owner or admin, or an `admin` key. */
const mayChangePlan = (caller: Caller) =>
  caller.kind === 'key' ? caller.scopes.includes('admin') : ['owner', 'admin'].includes(caller.session.role);

/**
 * Projects of the caller's organisation (a key sees its own project only). Tier and limit changes go
 * through the KeyStore, so the key cache and every ingest process learn them within seconds.
 */
export const projectsRoutes: FastifyPluginAsyncTypebox<ProjectsRoutesOptions> = async (app, opts) => {
  const storeFor = (caller: Caller) => keyStoreFor(opts, actorOf(caller));
  const registry = new AgentRegistry({ redis: opts.redis, prefix: opts.redisPrefix });
  /** The listing with its usage against the limits (agents counted as ingest counts them). */
  const withUsage = async (p: ProjectListing) => answer(p, await registry.counted(p.projectId));

  /** The projects the caller can see: the organisation's, or the key's own. */
  const visible = async (caller: Caller): Promise<ProjectListing[]> => {
    const source = new PostgresKeys(opts.pool);
    if (caller.kind === 'session') return source.listProjects(caller.session.organisationId);
    const [own] = (await source.listProjects()).filter((p) => p.projectId === caller.projectId);
    return own ? [own] : [];
  };

  /** One visible project; 404 for any other id, whoever owns it. */
  const visibleProject = async (caller: Caller, projectId: string): Promise<ProjectListing> => {
    const found = (await visible(caller)).find((p) => p.projectId === projectId);
    if (!found) {
      throw new ApiError('NOT_FOUND', `No project ${JSON.stringify(projectId)} is visible to you.`);
    }
    return found;
  };

  app.get(
    '/projects',
    {
      config: { permission: 'projects:read' },
      schema: {
        tags: ['projects'],
        summary: "The organisation's projects (an API key sees its own project only).",
        security,
        response: {
          200: Type.Object({ projects: Type.Array(Project) }),
          ...errorResponses([401, 403, 500, 503]),
        },
      },
    },
    async (req) => ({ projects: await Promise.all((await visible(req.principal)).map(withUsage)) }),
  );

  app.post(
    '/projects',
    {
      config: { permission: 'org:manage' },
      schema: {
        tags: ['projects'],
        summary: 'Creates a project in the organisation (owner or admin).',
        security,
        body: CreateProjectBody,
        response: { 201: Project, ...errorResponses([400, 401, 403, 415, 500, 503]) },
      },
    },
    async (req, reply) => {
      const caller = req.principal;
      if (caller.kind !== 'session') throw new ApiError('INSUFFICIENT_PERMISSIONS', 'Sign in first.');
      const tier = req.body.tier ?? 'free';
      const account = await storeFor(caller).createProject({
        accountId: `prj_${randomBase62(16)}`,
        name: req.body.name.trim(),
        tier,
        organisationId: caller.session.organisationId,
        ...(req.body.limits ? { limits: req.body.limits } : {}),
      });
      return reply.code(201).send(await withUsage(await visibleProject(caller, account.accountId)));
    },
  );

  app.get(
    '/projects/:projectId',
    {
      config: { permission: 'projects:read' },
      schema: {
        tags: ['projects'],
        summary: 'One project of the organisation.',
        security,
        params: ProjectParams,
        response: { 200: Project, ...errorResponses([400, 401, 403, 404, 500, 503]) },
      },
    },
    async (req) => withUsage(await visibleProject(req.principal, req.params.projectId)),
  );

  app.patch(
    '/projects/:projectId',
    {
      config: { permission: 'projects:write' },
      schema: {
        tags: ['projects'],
        summary:
          'Renames a project or replaces its settings; its tier and limit overrides change only by an owner or admin.',
        security,
        params: ProjectParams,
        body: UpdateProjectBody,
        response: { 200: Project, ...errorResponses([400, 401, 403, 404, 415, 500, 503]) },
      },
    },
    async (req) => {
      const caller = req.principal;
      const project = await visibleProject(caller, req.params.projectId);
      const { name, settings, tier, limits } = req.body;
      if ((tier !== undefined || limits !== undefined) && !mayChangePlan(caller)) {
        throw new ApiError(
          'INSUFFICIENT_PERMISSIONS',
          "Only an owner or admin may change a project's tier or limits; ask one of them.",
        );
      }
      if (settings !== undefined && Buffer.byteLength(JSON.stringify(settings)) > MAX_SETTINGS_BYTES) {
        throw new ApiError('INVALID_REQUEST', 'settings may hold at most 16 KiB of JSON.', {
          field: 'settings',
          expected: 'object of at most 16 KiB',
          received: 'larger object',
        });
      }
      if (tier !== undefined || limits !== undefined) {
        const nextTier = tier ?? project.tier;
        try {
          resolveLimits(nextTier, limits as Partial<TierLimits> | undefined);
        } catch (err) {
          throw new ApiError('INVALID_REQUEST', (err as Error).message, { field: 'limits' });
        }
        await storeFor(caller).setAccount({
          accountId: project.projectId,
          tier: nextTier,
          ...(limits ? { limits } : {}),
        });
      }
      if (name !== undefined || settings !== undefined) {
        await opts.pool.query(
          `UPDATE projects SET name = COALESCE($2, name), settings = COALESCE($3::jsonb, settings), updated_at = now()
           WHERE id = $1`,
          [project.projectId, name?.trim() ?? null, settings ? JSON.stringify(settings) : null],
        );
        await recordAudit(opts.pool, {
          organisationId: project.organisationId ?? null,
          projectId: project.projectId,
          actor: actorOf(caller),
          action: 'project.updated',
          target: project.projectId,
          details: { ...(name !== undefined ? { name } : {}), settingsChanged: settings !== undefined },
        });
      }
      return withUsage(await visibleProject(caller, project.projectId));
    },
  );
};
