import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { noControlCharacters } from '../schemas/interaction';

/** The error codes of the contract plus the ones DESIGN.md adds, each with its one status. */
export const errorStatus = {
  INVALID_REQUEST: 400,
  MISSING_REQUIRED_FIELD: 400,
  INVALID_FIELD_TYPE: 400,
  INVALID_API_KEY: 401,
  /** API: no session and no key, or the session expired or was revoked. */
  UNAUTHENTICATED: 401,
  /** API sign-in: unknown email or wrong password (never says which). */
  INVALID_CREDENTIALS: 401,
  INSUFFICIENT_PERMISSIONS: 403,
  AGENT_LIMIT_EXCEEDED: 403,
  /** A state-changing request made with a session lacks the x-csrf-token its cookie holds. */
  CSRF_TOKEN_INVALID: 403,
  NOT_FOUND: 404,
  REQUEST_TIMEOUT: 408,
  IDEMPOTENCY_CONFLICT: 409,
  /** The resource's state forbids the change (e.g. rotating a revoked key). */
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMIT_EXCEEDED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface ErrorDetails {
  field?: string;
  expected?: string;
  received?: string;
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: ErrorDetails };
}

/** The one error type routes throw; the error handler turns it into the contract's body. */
export class ApiError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = errorStatus[code];
  }

  toBody(): ErrorBody {
    return {
      error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) },
    };
  }
}

/** `/toolCalls/0/name` → `toolCalls[0].name`, the way a client writes the field. */
export function fieldName(pointer: string, prefix = ''): string {
  const parts = pointer.split('/').slice(1);
  let out = prefix;
  for (const raw of parts) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out === '' ? part : `.${part}`;
  }
  return out;
}

/** JSON type name of a value as a client would say it. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function expectedOf(error: ValueError): string {
  const schema = error.schema as {
    type?: unknown;
    minLength?: number;
    maxLength?: number;
    minimum?: number;
    minItems?: number;
    maxItems?: number;
    pattern?: string;
    anyOf?: Array<{ const?: unknown }>;
  };
  const literals = schema.anyOf?.map((s) => s.const).filter((c) => typeof c === 'string');
  if (literals && literals.length > 0 && literals.length === schema.anyOf?.length)
    return `one of ${literals.join(', ')}`;
  const type = typeof schema.type === 'string' ? schema.type : 'value';
  switch (error.type) {
    case ValueErrorType.ArrayMinItems:
      return `${type} of at least ${schema.minItems} item(s)`;
    case ValueErrorType.ArrayMaxItems:
      return `${type} of at most ${schema.maxItems} items`;
    case ValueErrorType.StringMinLength:
      return `${type} of at least ${schema.minLength} character(s)`;
    case ValueErrorType.StringMaxLength:
      return `${type} of at most ${schema.maxLength} characters`;
    case ValueErrorType.StringPattern:
      return schema.pattern === noControlCharacters
        ? `${type} without control characters`
        : `${type} matching ${schema.pattern}`;
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return `${type} >= ${schema.minimum}`;
    default:
      return type;
  }
}

/** Turns the first TypeBox validation error into the contract's error, naming the field. */
export function validationError(errors: Iterable<ValueError>, prefix = ''): ApiError {
  const first = errors[Symbol.iterator]().next();
  if (first.done) return new ApiError('INVALID_REQUEST', 'The request body is invalid.');
  const error = first.value;
  const field = fieldName(error.path, prefix);
  if (error.path === '' && !prefix) {
    return new ApiError(
      'INVALID_REQUEST',
      `The request body must be a JSON object, got ${jsonType(error.value)}.`,
      {
        field: '(body)',
        expected: 'object',
        received: jsonType(error.value),
      },
    );
  }
  if (error.type === ValueErrorType.ObjectRequiredProperty || error.value === undefined) {
    return new ApiError('MISSING_REQUIRED_FIELD', `Missing required field: ${field}.`, {
      field,
      expected: expectedOf(error),
      received: 'undefined',
    });
  }
  const expected = expectedOf(error);
  const received = jsonType(error.value);
  if (error.type === ValueErrorType.ArrayMaxItems) {
    const count = Array.isArray(error.value) ? error.value.length : 0;
    return new ApiError(
      'PAYLOAD_TOO_LARGE',
      `Field ${field} holds ${count} items; ${expected} are accepted.`,
      {
        field,
        expected,
        received: `${count} items`,
      },
    );
  }
  if (error.type === ValueErrorType.ArrayMinItems) {
    return new ApiError('INVALID_REQUEST', `Field ${field} must not be empty.`, {
      field,
      expected,
      received: 'empty array',
    });
  }
  if (error.type === ValueErrorType.StringPattern) {
    return new ApiError('INVALID_REQUEST', `Field ${field} must be ${withArticle(expected)}.`, {
      field,
      expected,
      received: 'string with characters outside it',
    });
  }
  if (typeof error.value === 'string' && expected.startsWith('one of ')) {
    return new ApiError(
      'INVALID_REQUEST',
      `Field ${field} must be ${expected}; got "${error.value.slice(0, 64)}".`,
      {
        field,
        expected,
        received: 'string',
      },
    );
  }
  return new ApiError(
    'INVALID_FIELD_TYPE',
    `Field ${field} must be ${withArticle(expected)}, got ${received}.`,
    {
      field,
      expected,
      received,
    },
  );
}

function withArticle(noun: string): string {
  return /^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`;
}
