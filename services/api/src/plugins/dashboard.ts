import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { ApiError } from '@warden/shared/http/errors';

export interface DashboardOptions {
  /** The built single-page app (web/dist): index.html and assets/. */
  root: string;
}

/**
 * The dashboard on the API's own origin (cookie sessions, no CORS): the built files at their paths,
 * and index.html for every other GET outside /api/, so a page URL such as /detections?severity=high
 * loads the app, which routes it. Paths under /api/ that match no route stay the contract's JSON 404.
 */
export const dashboardPlugin = fp<DashboardOptions>(async (app, opts) => {
  if (!existsSync(join(opts.root, 'index.html'))) {
    app.log.warn({ root: opts.root }, 'dashboard not built: run `npm run build` to serve it at /');
    app.get('/', { schema: { hide: true } }, async () => {
      throw new ApiError(
        'NOT_FOUND',
        'The dashboard is not built: run `npm run build`, then restart the API.',
      );
    });
    return;
  }
  await app.register(fastifyStatic, {
    root: opts.root,
    wildcard: false,
    // The build writes a .gz beside each asset; it is sent to clients that accept gzip.
    preCompressed: true,
    // Hashed file names never change content; index.html is asked for again on each load.
    setHeaders: (reply, path) =>
      reply.header(
        'cache-control',
        path.endsWith('index.html') ? 'no-cache' : 'public, max-age=31536000, immutable',
      ),
  });
  app.get('/*', { schema: { hide: true } }, async (req, reply) => {
    const path = req.url.split('?')[0] ?? '/';
    if (path.startsWith('/api/') || path === '/api') {
      throw new ApiError('NOT_FOUND', `No route ${req.method} ${path}.`);
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
});
