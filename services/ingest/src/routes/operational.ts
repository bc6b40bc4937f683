import type { FastifyPluginAsync } from 'fastify';
import type { Registry } from '@warden/shared/metrics';

export interface OperationalOptions {
  metrics: Registry;
  ready: () => boolean;
}

/** Liveness, readiness and Prometheus metrics, outside the versioned API. */
export const operationalRoutes: FastifyPluginAsync<OperationalOptions> = async (app, opts) => {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    const ready = opts.ready();
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready' });
  });
  app.get('/metrics', async (_req, reply) =>
    reply.type(opts.metrics.contentType).send(await opts.metrics.metrics()),
  );
};
