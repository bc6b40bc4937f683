import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { requestFingerprint, validateIdempotencyKey } from '@warden/shared/idempotency/index';
import { normalizePlatformPayload, platforms, type Platform } from '@warden/shared/platforms/index';
import { InteractionRecord } from '@warden/shared/schemas/interaction';
import type { InteractionEnvelope, TopicEnvelope } from '@warden/shared/schemas/envelope';
import { ApiError, errorStatus } from '../errors';
import type { Caller, Guards } from '../guards';
import { admitEvent, admitRecord, type Source } from '../admit';
import { bodyText } from '../json-body';
import type { EnvelopePublisher } from '../publish';
import { publishOrUnavailable } from '../store';

export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      code: Type.Union(Object.keys(errorStatus).map((c) => Type.Literal(c))),
      message: Type.String(),
      details: Type.Optional(
        Type.Object({
          field: Type.Optional(Type.String()),
          expected: Type.Optional(Type.String()),
          received: Type.Optional(Type.String()),
        }),
      ),
    }),
  },
  { $id: 'Error' },
);

export const IngestSuccess = Type.Object(
  {
    status: Type.Literal('success'),
    message: Type.String(),
    agentId: Type.String(),
    interactionId: Type.String({
      description: 'UUIDv7 assigned to the stored interaction (or the client-supplied id).',
    }),
    kind: Type.Optional(Type.Union([Type.Literal('interaction'), Type.Literal('event')])),
  },
  { $id: 'IngestSuccess' },
);
export type IngestSuccess = Static<typeof IngestSuccess>;

const BatchItem = Type.Union([
  Type.Object({
    index: Type.Integer(),
    status: Type.Literal('accepted'),
    interactionId: Type.String(),
    agentId: Type.String(),
  }),
  Type.Object({
    index: Type.Integer(),
    status: Type.Literal('rejected'),
    error: ErrorResponse.properties.error,
  }),
]);

export const BatchResult = Type.Object(
  {
    status: Type.Union([Type.Literal('success'), Type.Literal('partial')]),
    message: Type.String(),
    accepted: Type.Integer(),
    rejected: Type.Integer(),
    results: Type.Array(BatchItem),
  },
  { $id: 'BatchResult' },
);
type BatchResult = Static<typeof BatchResult>;

export interface TelemetryOptions {
  publisher: EnvelopePublisher;
  guards: Guards;
  maxRecordBytes: number;
  maxBatchRecords: number;
  maxBatchBytes: number;
}

const errorResponses = (codes: number[]) =>
  Object.fromEntries(codes.map((c) => [c, { ...ErrorResponse, description: describeStatus(c) }])) as Record<
    number,
    TSchema
  >;

function describeStatus(status: number): string {
  const codes = Object.entries(errorStatus)
    .filter(([, s]) => s === status)
    .map(([c]) => c);
  return codes.join(', ');
}

const commonErrors = [400, 401, 403, 409, 413, 415, 429, 500, 503];
const security: Array<Record<string, string[]>> = [{ bearer: [] }, { apiKey: [] }];
const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description: 'Retries with the same key within 24 h return the first answer and store nothing new.',
    }),
  ),
});

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
}

export const telemetryRoutes: FastifyPluginAsync<TelemetryOptions> = async (app, opts) => {
  const { guards, publisher } = opts;

  // Authentication and the rate limit run before the body is read: a refused caller costs little.
  app.addHook('onRequest', async (req, reply) => {
    req.caller = await guards.authenticate(req, 'ingest');
    await guards.rateLimit(req.caller, reply, 1);
  });

  /** Runs `handle` at most once per Idempotency-Key; a retry gets the stored first answer. */
  async function idempotent<T>(
    req: FastifyRequest,
    reply: FastifyReply,
    handle: () => Promise<{ status: number; body: T }>,
  ): Promise<FastifyReply> {
    const caller = req.caller!;
    const header = req.headers['idempotency-key'];
    const key = typeof header === 'string' ? header.trim() : undefined;
    if (key === undefined) {
      const answer = await handle();
      return reply.code(answer.status).send(answer.body);
    }
    try {
      validateIdempotencyKey(key);
    } catch (err) {
      throw new ApiError('INVALID_REQUEST', (err as Error).message, {
        field: 'Idempotency-Key',
        expected: '1-255 printable ASCII characters',
        received: `${key.length} characters`,
      });
    }
    const fingerprint = requestFingerprint(`${req.url}\u0000${JSON.stringify(req.body)}`);
    const claim = await guards.claimIdempotency(caller, key, fingerprint);
    if (claim.state === 'replay') {
      return reply.code(claim.answer.status).header('idempotent-replayed', 'true').send(claim.answer.body);
    }
    if (claim.state === 'in_progress') {
      throw new ApiError(
        'IDEMPOTENCY_CONFLICT',
        'A request with this Idempotency-Key is still being processed; retry shortly.',
        undefined,
        {
          'retry-after': '1',
        },
      );
    }
    if (claim.state === 'mismatch') {
      throw new ApiError(
        'IDEMPOTENCY_CONFLICT',
        'This Idempotency-Key was already used with a different request body; use a new key.',
      );
    }
    try {
      const answer = await handle();
      await guards.completeIdempotency(caller, key, claim.token, answer, fingerprint);
      return reply.code(answer.status).send(answer.body);
    } catch (err) {
      await guards.abandonIdempotency(caller, key, claim.token).catch(() => undefined);
      throw err;
    }
  }

  async function acceptOne(caller: Caller, envelope: TopicEnvelope, kind: 'interaction' | 'event') {
    const agentId = 'record' in envelope ? envelope.record.agentId : envelope.event.agentId;
    await guards.admitAgent(caller, agentId);
    await publishOrUnavailable(publisher, [envelope]);
    guards.recordUsage(caller, 1);
    const body: IngestSuccess = {
      status: 'success',
      message: kind === 'event' ? 'Event received and stored.' : 'Telemetry received and stored.',
      agentId,
      interactionId: envelope.interactionId,
      ...(kind === 'event' ? { kind } : {}),
    };
    return { status: 200, body };
  }

  /** Content-Length, when the client sent one: lets small bodies skip a per-record size check. */
  const bodyBytes = (req: FastifyRequest) => {
    const n = Number(req.headers['content-length']);
    return Number.isFinite(n) && n > 0 ? n : undefined;
  };

  const source = (req: FastifyRequest, endpoint: string, platform: string): Source => ({
    accountId: req.caller!.accountId,
    endpoint,
    platform,
  });

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
        // Validation happens in admitRecord so single and batch records share one path.
        body: Type.Unsafe<InteractionRecord>({ ...InteractionRecord, $id: undefined }),
        response: { 200: IngestSuccess, ...errorResponses(commonErrors) },
      },
      validatorCompiler: () => (data) => ({ value: data }),
    },
    async (req, reply) =>
      idempotent(req, reply, () =>
        acceptOne(
          req.caller!,
          admitRecord(req.body, source(req, '/telemetry/ingest', 'custom'), {
            maxRecordBytes: opts.maxRecordBytes,
            bodyBytes: bodyBytes(req),
            text: bodyText(req.body),
          }),
          'interaction',
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
        body: Type.Object({
          interactions: Type.Array(Type.Unknown(), {
            minItems: 1,
            maxItems: opts.maxBatchRecords,
            description: 'Interaction records.',
          }),
        }),
        response: { 200: BatchResult, 207: BatchResult, ...errorResponses(commonErrors) },
      },
    },
    async (req, reply) =>
      idempotent(req, reply, async () => {
        const caller = req.caller!;
        const { interactions } = req.body as { interactions: unknown[] };
        const src = source(req, '/telemetry/batch', 'custom');
        const results: BatchResult['results'] = [];
        const accepted: InteractionEnvelope[] = [];
        for (let index = 0; index < interactions.length; index++) {
          try {
            const envelope = admitRecord(interactions[index], src, {
              maxRecordBytes: opts.maxRecordBytes,
              fieldPrefix: `interactions[${index}]`,
              bodyBytes: bodyBytes(req),
            });
            await guards.admitAgent(caller, envelope.record.agentId);
            accepted.push(envelope);
            results.push({
              index,
              status: 'accepted',
              interactionId: envelope.interactionId,
              agentId: envelope.record.agentId,
            });
          } catch (err) {
            if (!(err instanceof ApiError) || err.statusCode >= 500) throw err;
            results.push({ index, status: 'rejected', error: err.toBody().error });
          }
        }
        if (accepted.length > 0) await publishOrUnavailable(publisher, accepted);
        guards.recordUsage(caller, accepted.length);
        const rejected = interactions.length - accepted.length;
        const body: BatchResult = {
          status: rejected === 0 ? 'success' : 'partial',
          message: `${accepted.length} stored, ${rejected} rejected.`,
          accepted: accepted.length,
          rejected,
          results,
        };
        return { status: rejected === 0 ? 200 : 207, body };
      }),
  );

  app.post(
    '/integrations/:platform/telemetry',
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
        params: Type.Object({ platform: Type.Union(platforms.map((p) => Type.Literal(p))) }),
        querystring: Type.Object({ agentId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })) }),
        body: Type.Object(
          {},
          { additionalProperties: true, description: 'Canonical record or the platform’s native payload.' },
        ),
        response: { 200: IngestSuccess, ...errorResponses(commonErrors) },
      },
    },
    async (req, reply) =>
      idempotent(req, reply, async () => {
        const { platform } = req.params as { platform: Platform };
        const normalized = normalizePlatformPayload(
          platform,
          req.body as Record<string, unknown>,
          req.query as { agentId?: string },
        );
        const src = source(req, `/integrations/${platform}/telemetry`, platform);
        if (normalized.kind === 'event')
          return acceptOne(req.caller!, admitEvent(normalized.event, src), 'event');
        return acceptOne(
          req.caller!,
          admitRecord(normalized.record, src, {
            maxRecordBytes: opts.maxRecordBytes,
            bodyBytes: bodyBytes(req),
          }),
          'interaction',
        );
      }),
  );
};
