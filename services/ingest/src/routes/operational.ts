import type { FastifyPluginAsync } from 'fastify';
import type { Registry } from '@warden/shared/metrics';

export interface OperationalOptions {
  metrics: Registry;
  ready: () => boolean;
}

/** Liveness, readiness and Prometheus metrics, outside the versioned API. */
export const operationalRoutes: FastifyPluginAsync<OperationalOptions> = async (app, opts) => {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const ready = opts.ready();
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready' });
  });
  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) =>
    reply.type(opts.metrics.contentType).send(await opts.metrics.metrics()),
  );
};
