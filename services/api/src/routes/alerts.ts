import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  createEndpoint,
  deleteEndpoint,
  enqueueTestDelivery,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  retryDelivery,
  rotateSecret,
  updateEndpoint,
  WEBHOOK_EVENTS,
  WEBHOOK_FORMATS,
} from '@warden/shared/alerts/endpoints';
import { createRule, deleteRule, listRules, updateRule } from '@warden/shared/alerts/rules';
import { loadSecretKey } from '@warden/shared/alerts/secrets';
import { checkTargetUrl } from '@warden/shared/alerts/send';
import { ApiError } from '@warden/shared/http/errors';
import type { PostgresPool } from '@warden/shared/postgres/client';
import { SEVERITIES } from '@warden/shared/schemas/detection';
import { errorResponses, ProjectHeader, security } from '../schemas';

export interface AlertsRoutesOptions {
  pool: PostgresPool;
  /** WARDEN_SECRET_KEY (loadSecretKey when not given): webhook secrets are stored encrypted with it. */
  secretKey?: Buffer;
  /** WARDEN_WEBHOOK_ALLOW_PRIVATE=1: URLs on private, loopback and link-local addresses are accepted. */
  allowPrivate: boolean;
}

const Event = Type.Literal(WEBHOOK_EVENTS[0]);
const Format = Type.Union([Type.Literal(WEBHOOK_FORMATS[0]), Type.Literal(WEBHOOK_FORMATS[1])], {
  description:
    '`standard` (default): the JSON payload below; `slack`: a Slack incoming-webhook message (`{"text": …}`), signed the same way.',
});
const SeverityName = Type.Union([
  Type.Literal(SEVERITIES[0]),
  Type.Literal(SEVERITIES[1]),
  Type.Literal(SEVERITIES[2]),
  Type.Literal(SEVERITIES[3]),
]);

const Endpoint = Type.Object({
  id: Type.String(),
  projectId: Type.String(),
  url: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  events: Type.Array(Type.String()),
  format: Format,
  enabled: Type.Boolean(),
  disabledAt: Type.Union([Type.String(), Type.Null()]),
  disabledReason: Type.Union([Type.String(), Type.Null()], {
    description: 'Why Warden disabled it (410 Gone, failing for 5 days) or that a user did.',
  }),
  failingSince: Type.Union([Type.String(), Type.Null()]),
  previousSecretUntil: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
});

const WithSecret = Type.Object({
  endpoint: Endpoint,
  secret: Type.String({ description: 'whsec_…: shown in this answer only; verify deliveries with it.' }),
});

const EndpointBody = Type.Object(
  {
    url: Type.String({ maxLength: 2048, description: 'https://… (http allowed); never a private address.' }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    events: Type.Optional(Type.Array(Event, { minItems: 1, uniqueItems: true })),
    format: Type.Optional(Format),
  },
  { additionalProperties: false },
);

const EndpointPatch = Type.Object(
  {
    url: Type.Optional(Type.String({ maxLength: 2048 })),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
    events: Type.Optional(Type.Array(Event, { minItems: 1, uniqueItems: true })),
    format: Type.Optional(Format),
    enabled: Type.Optional(
      Type.Boolean({ description: 'true enables it again (clearing the reason), false disables it.' }),
    ),
  },
  { additionalProperties: false },
);

const RotateBody = Type.Object(
  {
    gracePeriodHours: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 168,
        description: 'How long the old secret keeps signing beside the new one (default 24).',
      }),
    ),
  },
  { additionalProperties: false },
);

const Delivery = Type.Object({
  id: Type.String({ description: 'The webhook-id, the same on every attempt.' }),
  event: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  nextAt: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  deliveredAt: Type.Union([Type.String(), Type.Null()]),
  lastStatus: Type.Union([Type.Integer(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  log: Type.Array(
    Type.Object({
      at: Type.String(),
      statusCode: Type.Union([Type.Integer(), Type.Null()]),
      latencyMs: Type.Integer(),
      error: Type.Union([Type.String(), Type.Null()]),
      responseExcerpt: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});

const Rule = Type.Object({
  id: Type.String(),
  name: Type.String(),
  minSeverity: SeverityName,
  threatTypes: Type.Array(Type.String()),
  agents: Type.Array(Type.String()),
  windowSeconds: Type.Integer(),
  enabled: Type.Boolean(),
  createdAt: Type.String(),
});

const RuleFields = {
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  minSeverity: Type.Optional(SeverityName),
  threatTypes: Type.Optional(
    Type.Array(Type.String({ maxLength: 64 }), { maxItems: 16, description: 'Empty: every threat type.' }),
  ),
  agents: Type.Optional(
    Type.Array(Type.String({ maxLength: 256 }), { maxItems: 100, description: 'Empty: every agent.' }),
  ),
  windowSeconds: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 86_400, description: 'Grouping window (default 600).' }),
  ),
  enabled: Type.Optional(Type.Boolean()),
};
const RuleBody = Type.Object(RuleFields, { additionalProperties: false });

const EndpointParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const DeliveryParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  deliveryId: Type.String({ maxLength: 64 }),
});

const notFound = (what: string, id: string) =>
  new ApiError('NOT_FOUND', `No ${what} ${JSON.stringify(id.slice(0, 64))} in this project.`);

/**
 * Webhook endpoints and alert rules of the request's project. The secret is in the create and
 * rotate answers only; it is stored encrypted with WARDEN_SECRET_KEY. Tests and retries go into
 * the alerter's outbox, which sends them signed like any alert.
 */
export const alertsRoutes: FastifyPluginAsyncTypebox<AlertsRoutesOptions> = async (app, opts) => {
  const { pool } = opts;
  let key = opts.secretKey;
  const secretKey = () => (key ??= loadSecretKey());
  const checkUrl = (url: string) => {
    const problem = checkTargetUrl(url, opts.allowPrivate);
    if (problem)
      throw new ApiError('INVALID_REQUEST', `url ${problem}.`, {
        field: 'url',
        expected: 'a public http(s) URL',
        received: 'string',
      });
  };
  const ownEndpoint = async (projectId: string, id: string) => {
    const endpoint = await getEndpoint(pool, projectId, id);
    if (!endpoint) throw notFound('webhook endpoint', id);
    return endpoint;
  };
  const read = { permission: 'alerts:read' as const };
  const manage = { permission: 'alerts:manage' as const };
  const tags = ['webhooks'];

  app.get(
    '/webhooks',
    {
      config: read,
      schema: {
        tags,
        summary: "The project's webhook endpoints (never their secrets).",
        security,
        headers: ProjectHeader,
        response: {
          200: Type.Object({ endpoints: Type.Array(Endpoint) }),
          ...errorResponses([401, 403, 404, 500]),
        },
      },
    },
    async (req) => ({ endpoints: await listEndpoints(pool, req.projectId) }),
  );

  app.post(
    '/webhooks',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Registers an endpoint; the answer is the only time its whsec_ secret is shown.',
        security,
        headers: ProjectHeader,
        body: EndpointBody,
        response: { 201: WithSecret, ...errorResponses([400, 401, 403, 404, 415, 500]) },
      },
    },
    async (req, reply) => {
      checkUrl(req.body.url);
      const created = await createEndpoint(pool, secretKey(), { projectId: req.projectId, ...req.body });
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/webhooks/:id',
    {
      config: read,
      schema: {
        tags,
        summary: 'One endpoint, with why it is disabled if it is.',
        security,
        headers: ProjectHeader,
        params: EndpointParams,
        response: { 200: Endpoint, ...errorResponses([401, 403, 404, 500]) },
      },
    },
    async (req) => ownEndpoint(req.projectId, req.params.id),
  );

  app.patch(
    '/webhooks/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Changes the URL, description or events; `enabled: true` enables it again.',
        security,
        headers: ProjectHeader,
        params: EndpointParams,
        body: EndpointPatch,
        response: { 200: Endpoint, ...errorResponses([400, 401, 403, 404, 415, 500]) },
      },
    },
    async (req) => {
      if (req.body.url !== undefined) checkUrl(req.body.url);
      const updated = await updateEndpoint(pool, req.projectId, req.params.id, req.body);
      if (!updated) throw notFound('webhook endpoint', req.params.id);
      return updated;
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Deletes the endpoint, its pending deliveries and its log.',
        security,
        headers: ProjectHeader,
        params: EndpointParams,
        response: { 204: Type.Null(), ...errorResponses([401, 403, 404, 500]) },
      },
    },
    async (req, reply) => {
      if (!(await deleteEndpoint(pool, req.projectId, req.params.id)))
        throw notFound('webhook endpoint', req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    {
      config: manage,
      schema: {
        tags,
        summary:
          'A new secret, shown once; the old one keeps signing beside it (two v1 signatures) for the grace period.',
        security,
        headers: ProjectHeader,
        params: EndpointParams,
        body: Type.Optional(RotateBody),
        response: { 200: WithSecret, ...errorResponses([400, 401, 403, 404, 415, 500]) },
      },
    },
    async (req) => {
      const graceMs = (req.body?.gracePeriodHours ?? 24) * 3_600_000;
      const rotated = await rotateSecret(pool, secretKey(), req.projectId, req.params.id, graceMs);
      if (!rotated) throw notFound('webhook endpoint', req.params.id);
      return rotated;
    },
  );

  app.post(
    '/webhooks/:id/test',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Sends a signed `test` event through the alerter; follow it in the deliveries log.',
        security,
        headers: ProjectHeader,
        params: EndpointParams,
        response: {
          202: Type.Object({ deliveryId: Type.String() }),
          ...errorResponses([401, 403, 404, 500]),
        },
      },
    },
    async (req, reply) => {
      const endpoint = await ownEndpoint(req.projectId, req.params.id);
      return reply
        .code(202)
        .send({ deliveryId: await enqueueTestDelivery(pool, endpoint.id, req.projectId) });
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      config: read,
      schema: {
        tags,
        summary:
          "The endpoint's latest 50 deliveries, each with its attempts (status, latency, answer excerpt).",
        security,
        headers: ProjectHeader,
        params: EndpointParams,
        response: {
          200: Type.Object({ deliveries: Type.Array(Delivery) }),
          ...errorResponses([401, 403, 404, 500]),
        },
      },
    },
    async (req) => {
      const endpoint = await ownEndpoint(req.projectId, req.params.id);
      return { deliveries: (await listDeliveries(pool, endpoint.id)) as Array<typeof Delivery.static> };
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/retry',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Sends a delivery again now, under the same webhook-id.',
        security,
        headers: ProjectHeader,
        params: DeliveryParams,
        response: {
          202: Type.Object({ deliveryId: Type.String() }),
          ...errorResponses([401, 403, 404, 500]),
        },
      },
    },
    async (req, reply) => {
      const endpoint = await ownEndpoint(req.projectId, req.params.id);
      if (!(await retryDelivery(pool, endpoint.id, req.params.deliveryId)))
        throw notFound('delivery', req.params.deliveryId);
      return reply.code(202).send({ deliveryId: req.params.deliveryId });
    },
  );

  app.get(
    '/alert-rules',
    {
      config: read,
      schema: {
        tags,
        summary:
          "The project's alert rules; with none, high and critical threats alert, grouped over 10 min.",
        security,
        headers: ProjectHeader,
        response: { 200: Type.Object({ rules: Type.Array(Rule) }), ...errorResponses([401, 403, 404, 500]) },
      },
    },
    async (req) => ({ rules: await listRules(pool, req.projectId) }),
  );

  app.post(
    '/alert-rules',
    {
      config: manage,
      schema: {
        tags,
        summary:
          'Adds a rule: which threats alert (minimum severity, threat types, agents) and the grouping window.',
        security,
        headers: ProjectHeader,
        body: RuleBody,
        response: { 201: Rule, ...errorResponses([400, 401, 403, 404, 415, 500]) },
      },
    },
    async (req, reply) => reply.code(201).send(await createRule(pool, req.projectId, req.body)),
  );

  app.patch(
    '/alert-rules/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Changes a rule.',
        security,
        headers: ProjectHeader,
        params: EndpointParams,
        body: RuleBody,
        response: { 200: Rule, ...errorResponses([400, 401, 403, 404, 415, 500]) },
      },
    },
    async (req) => {
      const updated = await updateRule(pool, req.projectId, req.params.id, req.body);
      if (!updated) throw notFound('alert rule', req.params.id);
      return updated;
    },
  );

  app.delete(
    '/alert-rules/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Deletes a rule (with no rule left, the default applies).',
        security,
        headers: ProjectHeader,
        params: EndpointParams,
        response: { 204: Type.Null(), ...errorResponses([401, 403, 404, 500]) },
      },
    },
    async (req, reply) => {
      if (!(await deleteRule(pool, req.projectId, req.params.id)))
        throw notFound('alert rule', req.params.id);
      return reply.code(204).send(null);
    },
  );
};
