import type { FastifyError } from 'fastify';
import { ApiError } from '@warden/shared/http/errors';
import { KeysError } from '@warden/shared/keys/index';

/**
 * Whatever a route or Fastify threw, as the one error body: ApiError as is, the key store's refusals
 * by their meaning, Fastify's own 4xx by status; anything else is a 500 that leaks nothing.
 */
export function apiErrorOf(err: FastifyError | Error): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof KeysError) {
    const code =
      err.code === 'NOT_FOUND' ? 'NOT_FOUND' : err.code === 'CONFLICT' ? 'CONFLICT' : 'INVALID_REQUEST';
    return new ApiError(code, err.message);
  }
  const status = (err as FastifyError).statusCode;
  if (status === 413) return new ApiError('PAYLOAD_TOO_LARGE', 'The request body is too large.');
  if (status === 415)
    return new ApiError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the body as JSON with Content-Type: application/json.',
    );
  if (status === 400) return new ApiError('INVALID_REQUEST', 'The request is malformed.');
  return new ApiError('INTERNAL_ERROR', 'An internal error occurred; retry later.');
}
