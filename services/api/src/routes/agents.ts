import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ClickHouseClient } from '@clickhouse/client';
import type { Redis } from 'ioredis';
import { AgentDirectory, AgentRegistry, type AgentProfile } from '@warden/shared/agents/index';
import { agents as agentActivity, type AgentSummary } from '@warden/shared/analytics/index';
import { ApiError } from '@warden/shared/http/errors';
import { PostgresKeys, resolveLimits } from '@warden/shared/keys/index';
import type { PostgresPool } from '@warden/shared/postgres/client';
import { SEVERITIES } from '@warden/shared/schemas/detection';
import { iso, rangeOf } from '../query';
import {
  Agent,
  AgentParams,
  AgentPatchBody,
  AgentsList,
  AgentsQuery,
  errorResponses,
  ProjectHeader,
  security,
} from '../schemas';

export interface AgentsRoutesOptions {
  clickhouse: ClickHouseClient;
  database: string;
  pool: PostgresPool;
  redis: Redis;
  redisPrefix: string;
}

const noFindings = () =>
  Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<(typeof SEVERITIES)[number], number>;

/** One agent as the API shows it: ClickHouse activity (when seen) merged with its PostgreSQL row. */
function agentOf(agentId: string, seen: AgentSummary | undefined, profile: AgentProfile | undefined) {
  return {
    agentId,
    canaries: profile?.canaries ?? [],
    archived: profile?.archivedAt !== undefined,
    ...(profile?.name !== undefined ? { name: profile.name } : {}),
    ...(profile?.description !== undefined ? { description: profile.description } : {}),
    ...(profile?.archivedAt !== undefined ? { archivedAt: profile.archivedAt } : {}),
    ...(seen ? { firstSeen: seen.firstSeen, lastSeen: seen.lastSeen } : {}),
    platforms: seen?.platforms ?? [],
    interactions: seen?.interactions ?? 0,
    findings: seen?.findings ?? 0,
    bySeverity: seen?.bySeverity ?? noFindings(),
  };
}

/**
 * The project's agents: activity from the ClickHouse rollups (first/last seen over all retained
 * time, interactions and findings by severity in the range) and what people said about them in
 * PostgreSQL. Archiving frees the agent's slot in the tier's agent limit (the ingest registry in
 * Redis); unarchiving takes one again, if the limit leaves one. An agent of another project, or one
 * never seen nor described, is not found.
 */
export const agentsRoutes: FastifyPluginAsyncTypebox<AgentsRoutesOptions> = async (app, opts) => {
  const { clickhouse, database } = opts;
  const directory = new AgentDirectory(opts.pool);
  const registry = new AgentRegistry({ redis: opts.redis, prefix: opts.redisPrefix });
  const projects = new PostgresKeys(opts.pool);

  const oneAgent = async (projectId: string, agentId: string, range: { fromMs: number; toMs: number }) => {
    const [[seen], profile] = await Promise.all([
      agentActivity(clickhouse, database, {
        accountId: projectId,
        from: range.fromMs,
        to: range.toMs,
        agentId,
      }),
      directory.get(projectId, agentId),
    ]);
    return seen || profile ? agentOf(agentId, seen, profile) : undefined;
  };
  const notFound = (agentId: string) =>
    new ApiError('NOT_FOUND', `No agent ${JSON.stringify(agentId.slice(0, 256))} in this project.`);

  app.get(
    '/agents',
    {
      config: { permission: 'analytics:read' },
      schema: {
        tags: ['agents'],
        summary:
          'Every agent of the project with its activity in the range and its name, description and state.',
        description: 'Activity comes from the hourly rollups: ranges are widened to whole hours.',
        security,
        headers: ProjectHeader,
        querystring: AgentsQuery,
        response: { 200: AgentsList, ...errorResponses([400, 401, 403, 404, 500, 503]) },
      },
    },
    async (req) => {
      const { fromMs, toMs } = rangeOf(req.query);
      const [seen, profiles] = await Promise.all([
        agentActivity(clickhouse, database, { accountId: req.projectId, from: fromMs, to: toMs }),
        directory.list(req.projectId),
      ]);
      const byId = new Map(seen.map((a) => [a.agentId, a]));
      const ids = [...new Set([...byId.keys(), ...profiles.keys()])].sort();
      return {
        projectId: req.projectId,
        from: iso(fromMs),
        to: iso(toMs),
        agents: ids.map((id) => agentOf(id, byId.get(id), profiles.get(id))),
      };
    },
  );

  app.get(
    '/agents/:agentId',
    {
      config: { permission: 'analytics:read' },
      schema: {
        tags: ['agents'],
        summary: 'One agent with its activity in the range.',
        security,
        headers: ProjectHeader,
        params: AgentParams,
        querystring: AgentsQuery,
        response: { 200: Agent, ...errorResponses([400, 401, 403, 404, 500, 503]) },
      },
    },
    async (req) => {
      const agent = await oneAgent(req.projectId, req.params.agentId, rangeOf(req.query));
      if (!agent) throw notFound(req.params.agentId);
      return agent;
    },
  );

  app.patch(
    '/agents/:agentId',
    {
      // Owners, admins and members, or a key with keys:manage/admin: the same people who manage keys.
      config: { permission: 'keys:manage' },
      schema: {
        tags: ['agents'],
        summary: 'Renames, describes, sets the canaries of, archives or unarchives an agent.',
        description:
          'Archiving frees the agent’s slot in the tier’s agent limit at once; ingest refuses its data ' +
          '(403 AGENT_LIMIT_EXCEEDED) within 10 s. Unarchiving needs a free slot (409 otherwise). ' +
          'The answer shows the last 24 hours of activity.',
        security,
        headers: ProjectHeader,
        params: AgentParams,
        body: AgentPatchBody,
        response: { 200: Agent, ...errorResponses([400, 401, 403, 404, 409, 415, 500, 503]) },
      },
    },
    async (req) => {
      const { projectId } = req;
      const { agentId } = req.params;
      const range = rangeOf({});
      if (!(await oneAgent(projectId, agentId, range))) throw notFound(agentId);
      const change = req.body;
      if (change.archived === false) {
        const project = await projects.getProject(projectId);
        const limit = project ? resolveLimits(project.tier, project.limits).agentLimit : 0;
        const slot = await registry.unarchive(projectId, agentId, limit);
        if (!slot.ok) {
          throw new ApiError(
            'CONFLICT',
            `The project's tier allows ${limit} agents and ${slot.count} are active; archive one or raise the tier before unarchiving "${agentId}".`,
          );
        }
      }
      // PostgreSQL is the record; the registry is told after, so a failure there is retried by
      // sending the same PATCH again.
      await directory.update(projectId, agentId, {
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(change.description !== undefined ? { description: change.description } : {}),
        ...(change.canaries !== undefined ? { canaries: change.canaries } : {}),
        ...(change.archived !== undefined ? { archived: change.archived } : {}),
      });
      if (change.archived === true) await registry.archive(projectId, agentId);
      const agent = await oneAgent(projectId, agentId, range);
      if (!agent) throw notFound(agentId);
      return agent;
    },
  );
};
