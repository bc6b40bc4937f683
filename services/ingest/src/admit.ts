import { envelopeMessage, recordAsSentMessage, type EnvelopeMessage } from '@warden/shared/codec/index';
import { buildEnvelope, buildEventEnvelope } from '@warden/shared/schemas/envelope';
import { liftMetadataIds, PlatformEvent, type InteractionRecord } from '@warden/shared/schemas/interaction';
import { ApiError, validationError } from './errors';
import type { EncodedEnvelope } from './publish';
import { compiledCheck, recordCheck } from './validation';

const eventCheck = compiledCheck(PlatformEvent);

/** A client may name its own interaction id (for idempotent retries); it must be a safe token. */
const clientIdPattern = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export interface Source {
  accountId: string;
  endpoint: string;
  platform: string;
}

/**
 * The schema check of a record that did not arrive as a route's whole body (batch items, platform
 * payloads): the route validator's own compiled check, its errors named under `fieldPrefix`.
 */
export function checkedRecord(raw: unknown, fieldPrefix?: string): InteractionRecord {
  if (!recordCheck.Check(raw)) throw validationError(recordCheck.Errors(raw), fieldPrefix);
  return raw;
}

/**
 * Admits one schema-valid record (client id, size) and encodes it in its envelope; throws ApiError.
 * The schema was checked before: by the route's body validator or by checkedRecord.
 */
export function admitRecord(
  raw: InteractionRecord,
  source: Source,
  opts: {
    maxRecordBytes: number;
    fieldPrefix?: string;
    /** The JSON text `raw` was parsed from, when it is a whole request body. */
    text?: string;
  },
): EncodedEnvelope {
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
  const message =
    opts.text !== undefined && record === raw
      ? recordAsSentMessage(envelope, opts.text)
      : envelopeMessage(envelope);
  checkSize(message, opts.maxRecordBytes, 'record', opts.fieldPrefix || '(record)');
  return { interactionId: envelope.interactionId, agentId: record.agentId, message };
}

export function admitEvent(raw: unknown, source: Source, opts: { maxRecordBytes: number }): EncodedEnvelope {
  if (!eventCheck.Check(raw)) throw validationError(eventCheck.Errors(raw));
  const envelope = buildEventEnvelope(raw, source);
  const message = envelopeMessage(envelope);
  checkSize(message, opts.maxRecordBytes, 'event', '(event)');
  return { interactionId: envelope.interactionId, agentId: raw.agentId, message };
}

/**
 * The size limit applies to what Kafka is given, the record in its envelope, measured on the value
 * encoded for it: a record re-serialised larger than it was sent (`1e20` is written
 * `100000000000000000000`) is measured as stored. A UTF-16 unit is 1-3 bytes of UTF-8, so only a
 * value longer than a third of the limit is counted.
 */
function checkSize(
  message: EnvelopeMessage,
  maxBytes: number,
  what: 'record' | 'event',
  field: string,
): void {
  const { value } = message;
  if (value.length * 3 <= maxBytes) return;
  const bytes = Buffer.byteLength(value);
  if (bytes <= maxBytes) return;
  throw new ApiError(
    'PAYLOAD_TOO_LARGE',
    `The ${what} is ${bytes} bytes as stored (in its envelope); at most ${maxBytes} are accepted. Send it in smaller parts.`,
    { field, expected: `at most ${maxBytes} bytes`, received: `${bytes} bytes` },
  );
}
