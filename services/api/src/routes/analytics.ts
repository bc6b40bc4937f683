import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ClickHouseClient } from '@clickhouse/client';
import {
  detectionsForInteraction,
  detectionsPage,
  interactionById,
  overviewWithActivity,
  type HourlyActivity,
  type DetectionCursor,
} from '@warden/shared/analytics/index';
import { ApiError } from '@warden/shared/http/errors';
import { SEVERITIES } from '@warden/shared/schemas/detection';
import { decodeCursor, detectionFilters, encodeCursor, iso, pageLimit, rangeOf } from '../query';
import {
  DetectionsPage,
  DetectionsQuery,
  errorResponses,
  InteractionParams,
  InteractionResult,
  OverviewQuery,
  OverviewResult,
  ProjectHeader,
  security,
} from '../schemas';

export interface AnalyticsRoutesOptions {
  clickhouse: ClickHouseClient;
  database: string;
}

function detectionCursor(text: string): DetectionCursor {
  const [receivedMs, interactionId = '', findingId = ''] = decodeCursor(text, 2);
  return { receivedMs, interactionId, findingId };
}

/**
 * Security analytics of the request's project, from the queries in shared/src/analytics. The
 * project comes from the credential (caller.ts), never from the request alone, and every query
 * takes it as its account: another project's ids simply match nothing.
 */
export const analyticsRoutes: FastifyPluginAsyncTypebox<AnalyticsRoutesOptions> = async (app, opts) => {
  const { clickhouse, database } = opts;

  app.get(
    '/analytics/overview',
    {
      config: { permission: 'analytics:read' },
      schema: {
        tags: ['analytics'],
        summary:
          'Interactions, tokens, tool errors and findings by severity and threat type, with a time series.',
        description: 'From the hourly rollups: ranges are widened to whole hours.',
        security,
        headers: ProjectHeader,
        querystring: OverviewQuery,
        response: { 200: OverviewResult, ...errorResponses([400, 401, 403, 404, 500, 503]) },
      },
    },
    async (req) => {
      const { fromMs, toMs } = rangeOf(req.query);
      const interval = req.query.interval ?? 'hour';
      const { overview: totals, hours } = await overviewWithActivity(
        clickhouse,
        database,
        { accountId: req.projectId, from: fromMs, to: toMs },
        { onCacheError: (err) => req.log.warn({ err }, 'overview: an hour summary was not stored') },
      );
      // An interaction and a finding each fall in one hour, so hours add up to days exactly.
      const buckets = new Map<string, Omit<HourlyActivity, 'hour'> & { bucket: string }>();
      for (const h of hours) {
        const bucket = interval === 'day' ? `${h.hour.slice(0, 10)} 00:00:00` : h.hour;
        const b = buckets.get(bucket) ?? {
          bucket,
          interactions: 0,
          tokens: 0,
          findings: 0,
          bySeverity: { low: 0, medium: 0, high: 0, critical: 0 },
        };
        b.interactions += h.interactions;
        b.tokens += h.tokens;
        b.findings += h.findings;
        for (const sev of SEVERITIES) b.bySeverity[sev] += h.bySeverity[sev];
        buckets.set(bucket, b);
      }
      return {
        projectId: req.projectId,
        from: iso(fromMs),
        to: iso(toMs),
        interval,
        totals,
        series: [...buckets.values()],
      };
    },
  );

  app.get(
    '/detections',
    {
      config: { permission: 'analytics:read' },
      schema: {
        tags: ['analytics'],
        summary: 'Current findings, newest first, a page at a time (follow nextCursor).',
        security,
        headers: ProjectHeader,
        querystring: DetectionsQuery,
        response: { 200: DetectionsPage, ...errorResponses([400, 401, 403, 404, 500, 503]) },
      },
    },
    async (req) => {
      const { fromMs, toMs } = rangeOf(req.query);
      const q = req.query;
      const limit = pageLimit(q.limit);
      const page = await detectionsPage(clickhouse, database, {
        accountId: req.projectId,
        from: fromMs,
        to: toMs,
        limit,
        ...(q.cursor ? { cursor: detectionCursor(q.cursor) } : {}),
        ...detectionFilters(q),
      });
      return {
        items: page.items.map(({ receivedMs, ...rest }) => ({ ...rest, receivedAt: iso(receivedMs) })),
        ...(page.next
          ? {
              nextCursor: encodeCursor([page.next.receivedMs, page.next.interactionId, page.next.findingId]),
            }
          : {}),
      };
    },
  );

  app.get(
    '/interactions/:interactionId',
    {
      config: { permission: 'analytics:read' },
      schema: {
        tags: ['analytics'],
        summary: 'One interaction with its current findings (field, span, explanation, masked value).',
        security,
        headers: ProjectHeader,
        params: InteractionParams,
        response: { 200: InteractionResult, ...errorResponses([401, 403, 404, 500, 503]) },
      },
    },
    async (req) => {
      const key = { accountId: req.projectId, interactionId: req.params.interactionId };
      const [interaction, findings] = await Promise.all([
        interactionById(clickhouse, database, key),
        detectionsForInteraction(clickhouse, database, key),
      ]);
      if (!interaction)
        throw new ApiError('NOT_FOUND', `No interaction ${req.params.interactionId} in this project.`);
      const { receivedMs, ...rest } = interaction;
      return { ...rest, receivedAt: iso(receivedMs), findings };
    },
  );
};
