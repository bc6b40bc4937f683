import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './errors';

// Every answer Fastify or Node would otherwise write in their own shape, in the contract's body:
// errors of a route (toApiError, for the error handler), of the router (answerFrameworkError) and
// of Node's HTTP parser and timers, before there is a request (answerClientError).

/** Maps framework errors to the contract's codes; anything unknown is a 500 that leaks nothing. */
export function toApiError(err: FastifyError | ApiError): ApiError {
  if (err instanceof ApiError) return err;
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Send the body as JSON with Content-Type: application/json.',
      );
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('INVALID_REQUEST', 'The Content-Length header does not match the body.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(
        'PAYLOAD_TOO_LARGE',
        `The request body exceeds the limit for this endpoint (${err.message}).`,
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('INVALID_REQUEST', 'The request body is empty; send a JSON object.');
  }
  if (err.statusCode === 400 || err.statusCode === 415) {
    return new ApiError(
      err.statusCode === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'INVALID_REQUEST',
      'The request is malformed.',
    );
  }
  return new ApiError(
    'INTERNAL_ERROR',
    'An internal error occurred; the record was not stored. Retry later.',
  );
}

/** Fastify's `frameworkErrors`: what the router refuses before a route is found. */
export function answerFrameworkError(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const error =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new ApiError(
          'URI_TOO_LONG',
          'A segment of the URL path is too long; use one of the documented endpoints.',
        )
      : err.code === 'FST_ERR_BAD_URL'
        ? new ApiError(
            'INVALID_REQUEST',
            'The URL is malformed (a bad percent-encoding); encode it per RFC 3986.',
          )
        : toApiError(err);
  void reply.code(error.statusCode).send(error.toBody());
}

/**
 * Fastify's `clientErrorHandler`: Node's parser refused the request (malformed, headers or URL over
 * 16 KiB) or it did not arrive in time. There is no reply object: the answer is written to the
 * socket, which is then closed.
 */
export function answerClientError(err: ConnectionError, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // An answer already on its way (a refusal sent before the body was read) must not be corrupted.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const error = clientErrorOf(err);
    const body = JSON.stringify(error.toBody());
    socket.write(
      `HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

function clientErrorOf(err: ConnectionError): ApiError {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(
        'REQUEST_TIMEOUT',
        'The request did not arrive in time; send its headers and body without pausing.',
      );
    case 'HPE_HEADER_OVERFLOW':
      return urlOverflowed(err)
        ? new ApiError('URI_TOO_LONG', 'The URL is over 16 KiB; use one of the documented endpoints.')
        : new ApiError(
            'HEADERS_TOO_LARGE',
            'The request headers are over 16 KiB; send fewer or shorter ones.',
          );
    default:
      return new ApiError('INVALID_REQUEST', 'The request is not well-formed HTTP/1.1.');
  }
}

/**
 * llhttp stops at the end of the token that crossed the limit (`bytesParsed` into `rawPacket`, the
 * chunk being parsed): when that token is the URL, what follows is the request line's ` HTTP/1.1`.
 * Otherwise, or when unsure, the headers are to blame.
 */
function urlOverflowed(err: ConnectionError): boolean {
  // Node passes the chunk as a Buffer (Fastify's type describes its JSON form).
  const chunk = err.rawPacket as unknown as Buffer | undefined;
  if (!Buffer.isBuffer(chunk) || typeof err.bytesParsed !== 'number') return false;
  return chunk.subarray(err.bytesParsed, err.bytesParsed + 6).toString('latin1') === ' HTTP/';
}
