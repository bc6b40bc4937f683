import type { FastifyPluginAsync } from 'fastify';

export interface OperationalOptions {
  ready: () => boolean;
}

/**
 * Liveness and readiness, outside the versioned API. Metrics are not here: the API port is public,
 * so they have a port of their own (see server.ts).
 */
export const operationalRoutes: FastifyPluginAsync<OperationalOptions> = async (app, opts) => {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const ready = opts.ready();
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready' });
  });
};
