import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ClickHouseClient } from '@clickhouse/client';
import { stringify } from 'csv-stringify';
import {
  streamDetectionLines,
  streamDetections,
  type DetectionListItem,
} from '@warden/shared/analytics/index';
import { detectionFilters, iso, rangeOf } from '../query';
import { errorResponses, ExportQuery, ProjectHeader, security } from '../schemas';

export interface ExportRoutesOptions {
  clickhouse: ClickHouseClient;
  database: string;
}

/** The export's columns, in order: the detections page's fields. */
const COLUMNS = [
  'findingId',
  'interactionId',
  'agentId',
  'receivedAt',
  'threatType',
  'severity',
  'ruleId',
  'detector',
  'detectorVersion',
  'confidence',
  'field',
  'start',
  'end',
  'entityType',
  'explanation',
  'masked',
  'userId',
  'sessionId',
  'conversationId',
] as const;

const record = ({ receivedMs, ...rest }: DetectionListItem) => ({ ...rest, receivedAt: iso(receivedMs) });

/** The 200 schema documents a text body; Fastify sends a stream as is (no serialisation). */
const asBody = (stream: Readable) => stream as unknown as string;

/**
 * Every current finding of the project matching the filters, newest first, streamed from ClickHouse
 * as JSON lines or CSV: nothing holds the whole result, so any size goes. A client that hangs up
 * cancels the query. CSV goes through csv-stringify (quoting, and cells that a spreadsheet would
 * run as formulas are escaped: masked values come from prompts).
 */
export const exportRoutes: FastifyPluginAsyncTypebox<ExportRoutesOptions> = async (app, opts) => {
  app.get(
    '/detections/export',
    {
      config: { permission: 'analytics:read' },
      schema: {
        tags: ['analytics'],
        summary: 'All findings matching the filters, streamed as JSON lines (default) or CSV.',
        description:
          'Same filters and order as GET /detections, without paging. Range defaults to the last 24 hours.',
        security,
        headers: ProjectHeader,
        querystring: ExportQuery,
        response: {
          200: {
            description: 'One finding per line (jsonl) or per row after a header row (csv).',
            content: {
              'application/x-ndjson': { schema: { type: 'string' } },
              'text/csv': { schema: { type: 'string' } },
            },
          },
          ...errorResponses([400, 401, 403, 404, 500, 503]),
        },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const { fromMs, toMs } = rangeOf(q);
      const format = q.format ?? 'jsonl';
      const abort = new AbortController();
      reply.raw.on('close', () => abort.abort());
      const scope = {
        accountId: req.projectId,
        from: fromMs,
        to: toMs,
        ...detectionFilters(q),
      };
      const name = `detections-${iso(fromMs).slice(0, 10)}-${iso(toMs).slice(0, 10)}.${format}`;
      reply.header('content-disposition', `attachment; filename="${name}"`);
      // The first chunk is awaited before the answer starts, so a failing query is still a clean 5xx.
      if (format === 'csv') {
        const rows = streamDetections(opts.clickhouse, opts.database, scope, abort.signal);
        const first = await rows.next();
        async function* all(): AsyncGenerator<DetectionListItem> {
          if (!first.done) yield first.value;
          yield* rows;
        }
        const csv = stringify({ header: true, columns: [...COLUMNS], escape_formulas: true });
        Readable.from(all(), { objectMode: true })
          .map(record)
          .on('error', (err) => csv.destroy(err))
          .pipe(csv);
        return reply.type('text/csv; charset=utf-8').send(asBody(csv));
      }
      const lines = streamDetectionLines(opts.clickhouse, opts.database, scope, abort.signal);
      const first = await lines.next();
      async function* text(): AsyncGenerator<string> {
        if (!first.done) yield first.value;
        yield* lines;
      }
      return reply.type('application/x-ndjson').send(asBody(Readable.from(text())));
    },
  );
};
