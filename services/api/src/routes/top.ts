import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ClickHouseClient } from '@clickhouse/client';
import { Type } from '@sinclair/typebox';
import { TOP_DIMENSIONS, topByDetections } from '@warden/shared/analytics/index';
import { ApiError } from '@warden/shared/http/errors';
import { iso, rangeOf } from '../query';
import { errorResponses, literals, ProjectHeader, security } from '../schemas';

export interface TopRoutesOptions {
  clickhouse: ClickHouseClient;
  database: string;
}

export const TopQuery = Type.Object({
  from: Type.Optional(Type.String({ description: 'ISO date-time, inclusive (default: 24 h before `to`).' })),
  to: Type.Optional(Type.String({ description: 'ISO date-time, exclusive (default: now).' })),
  by: literals(TOP_DIMENSIONS),
  limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: '1–100, default 10.' })),
  agentId: Type.Optional(
    Type.String({ minLength: 1, maxLength: 256, description: "Only this agent's findings." }),
  ),
});

const TopItem = Type.Object({
  key: Type.String({ description: 'The agent, rule, user or session id, or the threat type.' }),
  findings: Type.Integer({ description: 'Findings in the range.' }),
  flaggedInteractions: Type.Integer({ description: 'Interactions with at least one finding.' }),
  critical: Type.Integer({ description: 'Critical findings.' }),
  high: Type.Integer({ description: 'High findings.' }),
});

export const TopResult = Type.Object({
  projectId: Type.String(),
  from: Type.String(),
  to: Type.String(),
  by: literals(TOP_DIMENSIONS),
  items: Type.Array(TopItem),
});

/** `limit` of a top list: 1–100, default 10. */
function topLimit(text: string | undefined): number {
  const limit = text === undefined ? 10 : Number(text);
  if (!(Number.isInteger(limit) && limit >= 1 && limit <= 100)) {
    throw new ApiError('INVALID_REQUEST', 'limit must be between 1 and 100.', { field: 'limit' });
  }
  return limit;
}

/**
 * Top agents, rules, users or sessions of the request's project by detections. Like every analytics
 * route the project comes from the credential (caller.ts): another project's ids match nothing.
 */
export const topRoutes: FastifyPluginAsyncTypebox<TopRoutesOptions> = async (app, opts) => {
  app.get(
    '/analytics/top',
    {
      config: { permission: 'analytics:read' },
      schema: {
        tags: ['analytics'],
        summary:
          'Agents, rules, threat types, users or sessions with the most findings in the range, most first.',
        description:
          'Agents from the hourly rollups (ranges widened to whole hours, like the overview); rules, ' +
          'threat types, users and sessions from current findings (the newest analysis of each interaction). ' +
          'Findings without a user or session id rank in no user or session list.',
        security,
        headers: ProjectHeader,
        querystring: TopQuery,
        response: { 200: TopResult, ...errorResponses([400, 401, 403, 404, 500, 503]) },
      },
    },
    async (req) => {
      const q = req.query;
      const { fromMs, toMs } = rangeOf(q);
      const items = await topByDetections(opts.clickhouse, opts.database, {
        accountId: req.projectId,
        from: fromMs,
        to: toMs,
        by: q.by,
        limit: topLimit(q.limit),
        ...(q.agentId !== undefined ? { agentId: q.agentId } : {}),
      });
      return { projectId: req.projectId, from: iso(fromMs), to: iso(toMs), by: q.by, items };
    },
  );
};
