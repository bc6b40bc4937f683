import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { platforms } from '@warden/shared/platforms/index';
import { InteractionRecord, noControlCharacters } from '@warden/shared/schemas/interaction';
import { ErrorResponse } from '@warden/shared/http/error-schema';

// The request and answer schemas of ingest's routes: each one validates, types and documents.

export { ErrorResponse, errorResponses } from '@warden/shared/http/error-schema';

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
export type BatchResult = Static<typeof BatchResult>;

export const commonErrors = [400, 401, 403, 409, 413, 415, 429, 500, 503];
export const security: Array<Record<string, string[]>> = [{ bearer: [] }, { apiKey: [] }];

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description: 'Retries with the same key within 24 h return the first answer and store nothing new.',
    }),
  ),
});

const batchInteractions = <T extends TSchema>(maxItems: number, items: T) =>
  Type.Array(items, {
    minItems: 1,
    maxItems,
    description:
      'Interaction records. The route validates the envelope (this array, 1 to the limit) as a whole and ' +
      'each record on its own with the same compiled InteractionRecord check, so a bad record is ' +
      'rejected in its own result of a 207 and never fails the others.',
  });

/** The batch body as documented: up to `maxItems` interaction records. */
export const BatchBody = (maxItems: number) =>
  Type.Object({ interactions: batchInteractions(maxItems, InteractionRecord) });

/**
 * What the batch route's body validator checks: the envelope only. Each record is checked on its own
 * (see BatchBody's description), which a 400 for the whole body would not allow.
 */
export const BatchEnvelope = (maxItems: number) =>
  Type.Object({ interactions: batchInteractions(maxItems, Type.Unknown()) });

export const PlatformParams = Type.Object({ platform: Type.Union(platforms.map((p) => Type.Literal(p))) });

export const DeliveryQuery = Type.Object({
  agentId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 256,
      pattern: noControlCharacters,
      description: 'The agent for a webhook delivery without one: 1-256 characters, no control characters.',
    }),
  ),
});

export const PlatformBody = Type.Object(
  {},
  { additionalProperties: true, description: 'Canonical record or the platform’s native payload.' },
);
