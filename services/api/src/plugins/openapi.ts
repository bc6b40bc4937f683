import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ThreatDetectedWebhook } from '@warden/shared/alerts/payload';
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
      // What Warden sends to a project's endpoints (docs/alerts.md: headers, signing, retries).
      webhooks: {
        threat_detected: {
          post: {
            summary: 'A threat matched an alert rule (first detection, then one update with the count).',
            description:
              'Signed per Standard Webhooks: webhook-id (the same on every retry), webhook-timestamp, ' +
              'webhook-signature (`v1,` base64 HMAC-SHA256 of `id.timestamp.body` with the endpoint secret; two during a rotation).',
            requestBody: {
              required: true,
              // TypeBox schemas are JSON Schema; the plugin's OpenAPI types do not know TypeBox's.
              content: { 'application/json': { schema: ThreatDetectedWebhook as object } },
            },
            responses: {
              '2XX': { description: 'Delivered; anything else is retried (410 disables the endpoint).' },
            },
          },
        },
      },
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
