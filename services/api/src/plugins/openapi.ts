import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { SESSION_COOKIE } from '../caller';

/**
 * OpenAPI 3.1 from the routes' TypeBox schemas, as ingest publishes its own: the same error body,
 * the same key schemes, plus the session cookie. Served at `/api/v1/openapi.json`, browsable at `/docs`.
 */
export const openApiPlugin = fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Warden management and analytics API',
        version: '1.0.0',
        description:
          'Sessions, API keys and security analytics of one project (X-Warden-Project, or the key’s own). ' +
          'Every answer other than 2xx carries `{"error": {"code", "message", "details"?}}`. Requests that ' +
          'change state with a session must echo the `warden_csrf` cookie in `x-csrf-token`.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer wdn_live_…' },
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
