import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError } from './errors';

/**
 * What a route throws, and a path no route matches, answered in the contract's error body; a 5xx is
 * logged with its request id (its message to the client says nothing of the cause). Each service
 * passes how it maps errors it did not raise itself (Fastify's, the body parser's) to an ApiError.
 */
export function answerErrorsInContract(
  app: FastifyInstance,
  toApiError: (err: FastifyError | ApiError) => ApiError,
): void {
  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    const apiError = toApiError(err);
    if (apiError.statusCode >= 500) req.log.error({ err, reqId: req.id }, 'request failed');
    return reply.code(apiError.statusCode).headers(apiError.headers).send(apiError.toBody());
  });
  app.setNotFoundHandler((req, reply) =>
    reply
      .code(404)
      .send(new ApiError('NOT_FOUND', `No route ${req.method} ${req.url.split('?')[0]}.`).toBody()),
  );
}
