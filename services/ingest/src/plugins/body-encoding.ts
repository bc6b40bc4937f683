import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { createGunzip, createInflate, type Gunzip, type Inflate } from 'node:zlib';
import fp from 'fastify-plugin';
import { ApiError } from '../errors';

/** The compressions a body may arrive in (`Content-Encoding`), each with its decoder. */
const decoders: Record<string, () => Gunzip | Inflate> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
};

/**
 * How a request body may be encoded, checked before it is read. `Content-Encoding: gzip` or
 * `deflate` is decoded as it arrives, and the route's body limit counts the decoded bytes: a zip
 * bomb is cut off at the limit (413). Any other encoding is 415, and so is a charset other than
 * UTF-8. A body with neither header costs two header lookups.
 */
export const bodyEncodingPlugin = fp(
  async (app) => {
    app.addHook('preParsing', (req, _reply, payload, done) => {
      const refusal = charsetRefusal(req.headers['content-type']);
      if (refusal) return done(refusal);
      const encoding = req.headers['content-encoding'];
      // GET and HEAD bodies are never read: nothing to decode.
      if (encoding === undefined || req.method === 'GET' || req.method === 'HEAD') return done(null, payload);
      try {
        done(null, decodedBody(payload, encoding, req.routeOptions.bodyLimit));
      } catch (err) {
        done(err as ApiError);
      }
    });
  },
  { name: 'warden-body-encoding' },
);

/** `application/json` alone (16 characters) has no parameters: the common case is one length test. */
function charsetRefusal(contentType: string | undefined): ApiError | undefined {
  if (contentType === undefined || contentType.length <= 16) return undefined;
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType)?.[1];
  if (charset === undefined || /^utf-?8$/i.test(charset)) return undefined;
  return new ApiError(
    'UNSUPPORTED_MEDIA_TYPE',
    `The charset "${charset.slice(0, 32)}" is not accepted; send the body as UTF-8 (charset=utf-8, or no charset).`,
  );
}

/**
 * The body decoded as it arrives, cut off once it is over `limit` bytes decoded (the decoder is
 * stopped there, not run to the end). It reports the bytes received as sent, which Fastify holds to
 * Content-Length.
 */
function decodedBody(payload: Readable, header: string, limit: number): Readable {
  const encoding = header.trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return payload;
  if (!Object.hasOwn(decoders, encoding)) {
    throw new ApiError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Content-Encoding "${encoding.slice(0, 32)}" is not accepted; send the body uncompressed, or as gzip or deflate.`,
    );
  }
  const decoder = decoders[encoding]!();
  let decodedBytes = 0;
  const body = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      decodedBytes += chunk.length;
      if (decodedBytes <= limit) return next(null, chunk);
      payload.unpipe(decoder);
      decoder.destroy();
      next(
        new ApiError(
          'PAYLOAD_TOO_LARGE',
          `The request body is over ${limit} bytes once decompressed; send less in one request.`,
        ),
      );
    },
  }) as Transform & { receivedEncodedLength: number };
  body.receivedEncodedLength = 0;
  payload.on('data', (chunk: Buffer) => (body.receivedEncodedLength += chunk.length));
  payload.on('error', (err) => body.destroy(err));
  decoder.on('error', () =>
    body.destroy(
      new ApiError(
        'INVALID_REQUEST',
        `The request body is not valid ${encoding} data; compress it with ${encoding}, or send it without Content-Encoding.`,
      ),
    ),
  );
  // Fastify listens for the body's error while it reads; one raised after it stopped reading (the
  // request already answered) must not reach the process as an unhandled 'error' event.
  body.on('error', () => undefined);
  payload.pipe(decoder).pipe(body);
  return body;
}
