import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ClickHouseClient } from '@clickhouse/client';
import { interactionsPage } from '@warden/shared/analytics/index';
import { decodeCursor, encodeCursor, iso, pageLimit, rangeOf } from '../query';
import { errorResponses, InteractionsPage, InteractionsQuery, ProjectHeader, security } from '../schemas';

export interface InteractionsRoutesOptions {
  clickhouse: ClickHouseClient;
  database: string;
}

/**
 * The project's interactions newest first, a page at a time, like the detections page. Filters
 * only narrow the project's own rows: another project's agent, user or session ids match nothing.
 */
export const interactionsRoutes: FastifyPluginAsyncTypebox<InteractionsRoutesOptions> = async (app, opts) => {
  app.get(
    '/interactions',
    {
      config: { permission: 'analytics:read' },
      schema: {
        tags: ['analytics'],
        summary: 'Interactions, newest first, a page at a time (follow nextCursor).',
        security,
        headers: ProjectHeader,
        querystring: InteractionsQuery,
        response: { 200: InteractionsPage, ...errorResponses([400, 401, 403, 404, 500, 503]) },
      },
    },
    async (req) => {
      const q = req.query;
      const { fromMs, toMs } = rangeOf(q);
      const limit = pageLimit(q.limit);
      let cursor;
      if (q.cursor) {
        const [receivedMs, interactionId = ''] = decodeCursor(q.cursor, 1);
        cursor = { receivedMs, interactionId };
      }
      const page = await interactionsPage(opts.clickhouse, opts.database, {
        accountId: req.projectId,
        from: fromMs,
        to: toMs,
        limit,
        ...(cursor ? { cursor } : {}),
        ...(q.agentId !== undefined ? { agentId: q.agentId } : {}),
        ...(q.userId !== undefined ? { userId: q.userId } : {}),
        ...(q.sessionId !== undefined ? { sessionId: q.sessionId } : {}),
        ...(q.conversationId !== undefined ? { conversationId: q.conversationId } : {}),
      });
      return {
        items: page.items.map(({ receivedMs, ...rest }) => ({ ...rest, receivedAt: iso(receivedMs) })),
        ...(page.next ? { nextCursor: encodeCursor([page.next.receivedMs, page.next.interactionId]) } : {}),
      };
    },
  );
};
