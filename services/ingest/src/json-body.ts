import { isUtf8 } from 'node:buffer';
import { JsonLimitError, parseLimitedJson, type JsonLimits } from '@warden/shared/schemas/json-limits';
import { ApiError, fieldName } from './errors';

/** The text each parsed body object was parsed from (see bodyText). */
const texts = new WeakMap<object, string>();

/**
 * The JSON text a body object was parsed from, while nothing changed it: ingest stores a record
 * that is the whole body as that text instead of serialising it again.
 */
export function bodyText(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? texts.get(value) : undefined;
}

/**
 * A body's bytes as text. Invalid UTF-8 is refused rather than decoded to U+FFFD, which would store
 * something other than what was sent (isUtf8 is simdutf's validation: tens of GB/s).
 */
export function jsonBodyText(bytes: Buffer): string {
  if (!isUtf8(bytes))
    throw new ApiError('INVALID_REQUEST', 'The request body is not valid UTF-8; send JSON encoded as UTF-8.');
  return bytes.toString('utf8');
}

/**
 * Parses a request body within the JSON limits (see parseLimitedJson): nesting deeper than the
 * limit, prototype-pollution keys, NUL characters and lone UTF-16 surrogates are refused with 400.
 */
export function parseJsonBody(text: string, limits: JsonLimits): unknown {
  let value: unknown;
  try {
    value = parseLimitedJson(text, limits);
  } catch (err) {
    if (err instanceof JsonLimitError) throw jsonLimitRefusal(err, limits);
    throw new ApiError('INVALID_REQUEST', `The request body is not valid JSON: ${(err as Error).message}.`);
  }
  if (typeof value === 'object' && value !== null) texts.set(value, text);
  return value;
}

/** The contract's answer to JSON beyond the limits, naming the field. */
export function jsonLimitRefusal(err: JsonLimitError, limits: JsonLimits): ApiError {
  const field = fieldName(err.pointer) || '(body)';
  switch (err.problem) {
    case 'depth':
      return new ApiError(
        'INVALID_REQUEST',
        `The request body nests objects and arrays deeper than ${limits.maxDepth} levels; flatten it, or send deep structures as a JSON string.`,
        { field, expected: `at most ${limits.maxDepth} levels of nesting`, received: 'deeper nesting' },
      );
    case 'key':
      return new ApiError('INVALID_REQUEST', `The key "${err.key}" is not allowed (at ${field}).`, {
        field,
        expected: 'an ordinary key',
        received: err.key,
      });
    case 'nul':
      return new ApiError('INVALID_REQUEST', `Field ${field} contains a NUL character.`, {
        field,
        expected: 'string without NUL characters',
        received: 'string with NUL',
      });
    case 'surrogate':
      return new ApiError('INVALID_REQUEST', `Field ${field} contains a lone UTF-16 surrogate.`, {
        field,
        expected: 'well-formed Unicode string',
        received: 'string with a lone surrogate',
      });
  }
}
