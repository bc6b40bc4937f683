import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

/**
 * OpenAPI 3.1 generated from the routes' TypeBox schemas (the same ones that validate), served at
 * `/api/v1/openapi.json`, with a browsable page at `/docs`.
 */
export const openApiPlugin = fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Warden ingestion API',
        version: '1.0.0',
        description:
          'Telemetry ingestion for AI-agent security monitoring. Every answer other than 2xx carries ' +
          '`{"error": {"code", "message", "details"?}}`.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer wdn_live_…' },
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
