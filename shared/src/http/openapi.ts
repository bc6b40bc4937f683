import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

/** What differs between Warden's HTTP services' OpenAPI documents. */
export interface OpenApiDocument {
  title: string;
  description: string;
  /** Security schemes beyond the API key ones every service accepts. */
  securitySchemes?: Record<string, Record<string, unknown>>;
  /** The OpenAPI 3.1 `webhooks` section: requests Warden sends, not ones it answers. */
  webhooks?: Record<string, unknown>;
}

/** Every service's answers other than 2xx carry this body; its description says so once. */
const errorBodyNote = 'Every answer other than 2xx carries `{"error": {"code", "message", "details"?}}`.';

/**
 * OpenAPI 3.1 from the routes' TypeBox schemas (the same ones that validate), served at
 * `/api/v1/openapi.json` with a browsable page at `/docs`: one document family for ingest and the
 * API, with the same error body and the same key schemes.
 */
export const openApiPlugin = fp<OpenApiDocument>(async (app, doc) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: doc.title, version: '1.0.0', description: `${doc.description} ${errorBodyNote}` },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer wdn_live_…' },
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          ...doc.securitySchemes,
        },
      },
      ...(doc.webhooks ? { webhooks: doc.webhooks } : {}),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
