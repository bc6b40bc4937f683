import {
  buildEnvelope,
  buildEventEnvelope,
  type EventEnvelope,
  type InteractionEnvelope,
} from '@warden/shared/schemas/envelope';
import { liftMetadataIds, PlatformEvent, type InteractionRecord } from '@warden/shared/schemas/interaction';
import { ApiError, validationError } from './errors';
import { storeRecordAsSent } from '@warden/shared/codec/index';
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
 * Admits one schema-valid record (size, client id) and wraps it in its envelope; throws ApiError.
 * The schema was checked before: by the route's body validator or by checkedRecord.
 */
export function admitRecord(
  raw: InteractionRecord,
  source: Source,
  opts: {
    maxRecordBytes: number;
    fieldPrefix?: string;
    bodyBytes?: number;
    /** The JSON text `raw` was parsed from, when it is a whole request body. */
    text?: string;
  },
): InteractionEnvelope {
  // A record inside a body no larger than the limit is taken to fit it, without serialising it again.
  // (Only a number spelled shorter than JSON.stringify writes it, like `1e20`, breaks this: see
  // fast-paths.test.ts.)
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
  if (!eventCheck.Check(raw)) throw validationError(eventCheck.Errors(raw));
  return buildEventEnvelope(raw, source);
}
