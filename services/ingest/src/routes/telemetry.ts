import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { KafkaUnavailableError } from '@warden/shared/kafka/durable-writer';
import { buildEnvelope } from '@warden/shared/schemas/envelope';
import { InteractionRecord, liftMetadataIds } from '@warden/shared/schemas/interaction';
import { ApiError } from '../errors';
import type { EnvelopePublisher } from '../publish';

export const IngestSuccess = Type.Object(
  {
    status: Type.Literal('success'),
    message: Type.String(),
    agentId: Type.String(),
    interactionId: Type.String({ description: 'UUIDv7 assigned to the stored interaction.' }),
  },
  { $id: 'IngestSuccess' },
);
export type IngestSuccess = Static<typeof IngestSuccess>;

export interface TelemetryOptions {
  publisher: EnvelopePublisher;
  accountFor: () => string;
}

/** Retry-After for a Kafka outage: long enough for a broker restart, short enough to catch up. */
const kafkaRetryAfterSeconds = 5;

export const telemetryRoutes: FastifyPluginAsync<TelemetryOptions> = async (app, opts) => {
  app.post<{ Body: InteractionRecord }>(
    '/telemetry/ingest',
    { schema: { body: InteractionRecord } },
    async (req): Promise<IngestSuccess> => {
      const record = liftMetadataIds(req.body);
      const envelope = buildEnvelope(record, {
        accountId: opts.accountFor(),
        endpoint: '/telemetry/ingest',
        platform: typeof record.metadata?.platform === 'string' ? record.metadata.platform : 'custom',
      });
      try {
        await opts.publisher.publish([envelope]);
      } catch (err) {
        if (err instanceof KafkaUnavailableError) {
          throw new ApiError(
            'SERVICE_UNAVAILABLE',
            'The record could not be stored right now; it was not accepted. Retry with backoff.',
            undefined,
            { 'retry-after': String(kafkaRetryAfterSeconds) },
          );
        }
        throw err;
      }
      return {
        status: 'success',
        message: 'Telemetry received and stored.',
        agentId: record.agentId,
        interactionId: envelope.interactionId,
      };
    },
  );
};
