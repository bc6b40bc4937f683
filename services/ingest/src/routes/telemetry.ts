import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { normalizePlatformPayload, platforms } from '@warden/shared/platforms/index';
import { InteractionRecord } from '@warden/shared/schemas/interaction';
import { admitEvent, admitRecord, checkedRecord, type Source } from '../admit';
import { ApiError } from '../errors';
import type { Caller, Guards, StoredAnswer } from '../guards';
import { bodyText } from '../json-body';
import { authPlugin } from '../plugins/auth';
import { idempotencyPlugin } from '../plugins/idempotency';
import { rateLimitPlugin } from '../plugins/rate-limit';
import type { EncodedEnvelope, EnvelopePublisher } from '../publish';
import {
  BatchBody,
  BatchEnvelope,
  BatchResult,
  commonErrors,
  DeliveryQuery,
  errorResponses,
  IdempotencyHeaders,
  IngestSuccess,
  PlatformBody,
  PlatformParams,
  security,
} from '../schemas';
import { storeOnce, type Admitted } from '../store-once';
import { validatingBodyWith } from '../validation';

export interface TelemetryOptions {
  publisher: EnvelopePublisher;
  guards: Guards;
  maxRecordBytes: number;
  maxBatchRecords: number;
  maxBatchBytes: number;
}

const source = (req: FastifyRequest, endpoint: string, platform: string): Source => ({
  accountId: req.caller.accountId,
  endpoint,
  platform,
});

/** Marks an answer for a record stored before (its client interactionId's first answer). */
const replayed = { 'idempotent-replayed': 'true' };

export const telemetryRoutes: FastifyPluginAsyncTypebox<TelemetryOptions> = async (app, opts) => {
  const { guards, publisher } = opts;

  // Authentication, then the rate limit, before the body is read; then Idempotency-Key per route.
  await app.register(authPlugin, { guards, scope: 'ingest' });
  await app.register(rateLimitPlugin, { guards });
  await app.register(idempotencyPlugin, { guards });

  /** `record`: the record as sent, for its client-supplied interactionId (see storeOnce). */
  async function acceptOne(
    caller: Caller,
    envelope: EncodedEnvelope,
    kind: 'interaction' | 'event',
    record?: unknown,
  ): Promise<StoredAnswer> {
    const { agentId } = envelope;
    await guards.admitAgent(caller, agentId);
    const [outcome] = await storeOnce(guards, publisher, caller, [{ envelope, record }]);
    if (outcome instanceof ApiError) throw outcome;
    if (outcome === 'stored') guards.recordUsage(caller, 1);
    const body: IngestSuccess = {
      status: 'success',
      message: kind === 'event' ? 'Event received and stored.' : 'Telemetry received and stored.',
      agentId,
      interactionId: envelope.interactionId,
      ...(kind === 'event' ? { kind } : {}),
    };
    return { status: 200, body, ...(outcome === 'replayed' ? { headers: replayed } : {}) };
  }

  app.post(
    '/telemetry/ingest',
    {
      bodyLimit: opts.maxRecordBytes + 64 * 1024,
      schema: {
        summary: 'Ingest one interaction',
        description: 'Answers 200 only after the record is durably stored in Kafka (acks=all).',
        tags: ['telemetry'],
        security,
        headers: IdempotencyHeaders,
        body: InteractionRecord,
        response: { 200: IngestSuccess, ...errorResponses(commonErrors) },
      },
    },
    async (req, reply) =>
      reply.idempotent(() =>
        acceptOne(
          req.caller,
          admitRecord(req.body, source(req, '/telemetry/ingest', 'custom'), {
            maxRecordBytes: opts.maxRecordBytes,
            text: bodyText(req.body),
          }),
          'interaction',
          req.body,
        ),
      ),
  );

  app.post(
    '/telemetry/batch',
    {
      bodyLimit: opts.maxBatchBytes,
      schema: {
        summary: 'Ingest up to 1,000 interactions',
        description:
          '200 when every record was stored; 207 with a result per index when some were rejected ' +
          '(the accepted ones are stored); 400 when the envelope itself is invalid.',
        tags: ['telemetry'],
        security,
        headers: IdempotencyHeaders,
        body: BatchBody(opts.maxBatchRecords),
        response: { 200: BatchResult, 207: BatchResult, ...errorResponses(commonErrors) },
      },
      // The body validator checks the envelope; each record is checked in the handler (see BatchBody).
      validatorCompiler: validatingBodyWith(BatchEnvelope(opts.maxBatchRecords)),
    },
    async (req, reply) =>
      reply.idempotent(async () => {
        const caller = req.caller;
        // Items are checked one by one below: until then they are only what JSON gave.
        const interactions: readonly unknown[] = req.body.interactions;
        // A batch costs the records it carries (its first was charged on arrival).
        await reply.chargeRecords(interactions.length);
        const src = source(req, '/telemetry/batch', 'custom');
        const results: BatchResult['results'] = [];
        const admitted: (Admitted & { index: number })[] = [];
        for (let index = 0; index < interactions.length; index++) {
          try {
            const fieldPrefix = `interactions[${index}]`;
            const envelope = admitRecord(checkedRecord(interactions[index], fieldPrefix), src, {
              maxRecordBytes: opts.maxRecordBytes,
              fieldPrefix,
            });
            await guards.admitAgent(caller, envelope.agentId);
            admitted.push({
              envelope,
              record: interactions[index],
              field: `${fieldPrefix}.interactionId`,
              index,
            });
            results.push({
              index,
              status: 'accepted',
              interactionId: envelope.interactionId,
              agentId: envelope.agentId,
            });
          } catch (err) {
            if (!(err instanceof ApiError) || err.statusCode >= 500) throw err;
            results.push({ index, status: 'rejected', error: err.toBody().error });
          }
        }
        let written = 0;
        (await storeOnce(guards, publisher, caller, admitted)).forEach((outcome, k) => {
          const { index } = admitted[k]!;
          if (outcome === 'stored') written++;
          else if (outcome instanceof ApiError)
            results[index] = { index, status: 'rejected', error: outcome.toBody().error };
        });
        guards.recordUsage(caller, written);
        const accepted = results.filter((r) => r.status === 'accepted').length;
        const rejected = interactions.length - accepted;
        const body: BatchResult = {
          status: rejected === 0 ? 'success' : 'partial',
          message: `${accepted} stored, ${rejected} rejected.`,
          accepted,
          rejected,
          results,
        };
        // Kept for an idempotent retry instead of `body` when the per-item results are too large.
        const summary: BatchResult = {
          ...body,
          message: `${body.message} Per-item results are not replayed: the first answer was too large to keep.`,
          results: [],
        };
        return { status: rejected === 0 ? 200 : 207, body, summary };
      }),
  );

  // Only the known platforms are routes: any other segment is a path that does not exist (404, like
  // every unknown path), not a bad parameter of this one.
  app.post(
    `/integrations/:platform(^(?:${platforms.join('|')})$)/telemetry`,
    {
      bodyLimit: opts.maxRecordBytes + 64 * 1024,
      schema: {
        summary: 'Ingest from Flowise, n8n, Dify or a custom sender',
        description:
          'Accepts the canonical record with platform ids, and the native payloads each platform sends. ' +
          'Lifecycle events without prompt/response are stored as events. `?agentId=` names the agent for webhook deliveries.',
        tags: ['integrations'],
        security,
        headers: IdempotencyHeaders,
        params: PlatformParams,
        querystring: DeliveryQuery,
        body: PlatformBody,
        response: { 200: IngestSuccess, ...errorResponses(commonErrors) },
      },
    },
    async (req, reply) =>
      reply.idempotent(async () => {
        const { platform } = req.params;
        const normalized = normalizePlatformPayload(platform, req.body, req.query);
        const src = source(req, `/integrations/${platform}/telemetry`, platform);
        if (normalized.kind === 'event')
          return acceptOne(
            req.caller,
            admitEvent(normalized.event, src, { maxRecordBytes: opts.maxRecordBytes }),
            'event',
          );
        return acceptOne(
          req.caller,
          admitRecord(checkedRecord(normalized.record), src, { maxRecordBytes: opts.maxRecordBytes }),
          'interaction',
          normalized.record,
        );
      }),
  );
};
