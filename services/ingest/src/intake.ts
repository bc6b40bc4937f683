import { TypeCompiler } from '@sinclair/typebox/compiler';
import { KafkaUnavailableError } from '@warden/shared/kafka/durable-writer';
import {
  buildEnvelope,
  buildEventEnvelope,
  type EventEnvelope,
  type InteractionEnvelope,
  type TopicEnvelope,
} from '@warden/shared/schemas/envelope';
import { InteractionRecord, liftMetadataIds, PlatformEvent } from '@warden/shared/schemas/interaction';
import { ApiError, validationError } from './errors';
import { storeRecordAsSent } from '@warden/shared/codec/index';
import type { EnvelopePublisher } from './publish';

const checkRecord = TypeCompiler.Compile(InteractionRecord);
const checkEvent = TypeCompiler.Compile(PlatformEvent);

/** A client may name its own interaction id (for idempotent retries); it must be a safe token. */
const clientIdPattern = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export interface Source {
  accountId: string;
  endpoint: string;
  platform: string;
}

/** Validates one record (schema, size, client id) and wraps it in its envelope; throws ApiError. */
export function admitRecord(
  raw: unknown,
  source: Source,
  opts: {
    maxRecordBytes: number;
    fieldPrefix?: string;
    bodyBytes?: number;
    /** The JSON text `raw` was parsed from, when it is a whole request body. */
    text?: string;
  },
): InteractionEnvelope {
  if (!checkRecord.Check(raw)) throw validationError(checkRecord.Errors(raw), opts.fieldPrefix);
  // A record inside a body no larger than the limit cannot exceed it: skip serialising it again.
  const bytes =
    opts.bodyBytes !== undefined && opts.bodyBytes <= opts.maxRecordBytes
      ? 0
      : Buffer.byteLength(JSON.stringify(raw));
  if (bytes > opts.maxRecordBytes) {
    throw new ApiError(
      'PAYLOAD_TOO_LARGE',
      `The record is ${bytes} bytes; at most ${opts.maxRecordBytes} are accepted.`,
      {
        field: opts.fieldPrefix || '(record)',
        expected: `at most ${opts.maxRecordBytes} bytes`,
        received: `${bytes} bytes`,
      },
    );
  }
  const record = liftMetadataIds(raw);
  const clientId = (raw as { interactionId?: unknown }).interactionId;
  if (clientId !== undefined && (typeof clientId !== 'string' || !clientIdPattern.test(clientId))) {
    const field = opts.fieldPrefix ? `${opts.fieldPrefix}.interactionId` : 'interactionId';
    throw new ApiError(
      'INVALID_FIELD_TYPE',
      `Field ${field} must be 1-128 characters of letters, digits and ._:-`,
      {
        field,
        expected: 'string matching [A-Za-z0-9][A-Za-z0-9._:-]{0,127}',
        received: typeof clientId === 'string' ? 'string' : typeof clientId,
      },
    );
  }
  const envelope = buildEnvelope(record, {
    ...source,
    platform:
      source.platform === 'custom' && typeof record.metadata?.platform === 'string'
        ? record.metadata.platform
        : source.platform,
    ...(typeof clientId === 'string' ? { interactionId: clientId } : {}),
  });
  // Nothing was lifted: the record is the body as sent, and its text goes to Kafka as it came.
  if (opts.text !== undefined && record === raw) storeRecordAsSent(envelope, opts.text);
  return envelope;
}

export function admitEvent(raw: unknown, source: Source): EventEnvelope {
  if (!checkEvent.Check(raw)) throw validationError(checkEvent.Errors(raw));
  return buildEventEnvelope(raw, source);
}

/** Retry-After for a Kafka outage: long enough for a broker restart, short enough to catch up. */
const kafkaRetryAfterSeconds = 5;

/** Publishes and maps "Kafka did not acknowledge" to 503 with Retry-After: never a 200. */
export async function publishOrUnavailable(
  publisher: EnvelopePublisher,
  envelopes: TopicEnvelope[],
): Promise<void> {
  try {
    await publisher.publish(envelopes);
  } catch (err) {
    if (err instanceof KafkaUnavailableError) {
      throw new ApiError(
        'SERVICE_UNAVAILABLE',
        'The record could not be stored right now and was not accepted. Retry with backoff.',
        undefined,
        { 'retry-after': String(kafkaRetryAfterSeconds) },
      );
    }
    throw err;
  }
}
