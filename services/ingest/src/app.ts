import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { defaultIngestTimeouts, type IngestTimeouts } from '@warden/shared/config';
import type { Logger } from '@warden/shared/logger';
import { Histogram, type Registry } from '@warden/shared/metrics';
import { defaultJsonLimits } from '@warden/shared/schemas/json-limits';
import { answerClientError, answerFrameworkError, toApiError } from './framework-errors';
import { jsonBodyText, parseJsonBody } from './json-body';
import type { Guards } from './guards';
import { bodyEncodingPlugin } from './plugins/body-encoding';
import type { EnvelopePublisher } from './publish';
import { telemetryRoutes } from './routes/telemetry';
import { operationalRoutes } from './routes/operational';
import { answerErrorsInContract } from '@warden/shared/http/answers';
import { openApiPlugin } from '@warden/shared/http/openapi';
import { typeBoxValidatorCompiler } from './validation';

export interface IngestLimits {
  /** Largest request body, in bytes (batch requests). */
  maxBodyBytes: number;
  /** Largest record or event as stored: its Kafka message value, envelope included, in bytes. */
  maxRecordBytes: number;
  maxBatchRecords: number;
  maxDepth: number;
}

export const defaultLimits: IngestLimits = {
  maxBodyBytes: 5 * 1024 * 1024,
  maxRecordBytes: 1024 * 1024,
  maxBatchRecords: 1000,
  maxDepth: defaultJsonLimits.maxDepth,
};

export interface IngestDeps {
  publisher: EnvelopePublisher;
  /** Where the app's request metrics go; served on a port of their own (server.ts), not by the app. */
  metrics: Registry;
  logger?: Logger | false;
  limits?: Partial<IngestLimits>;
  /** How long a client may take to send a request (loadIngestConfig reads them). */
  timeouts?: Partial<IngestTimeouts>;
  /** Readiness of hard dependencies (Kafka producer connected). */
  ready?: () => boolean;
  /** Authentication, limits and idempotency (Redis-backed in production). */
  guards: Guards;
}

/** Builds the ingest HTTP app without listening, so tests drive it with `inject()` or a real port. */
export async function buildApp(deps: IngestDeps): Promise<FastifyInstance> {
  const limits = { ...defaultLimits, ...deps.limits };
  const timeouts = { ...defaultIngestTimeouts, ...deps.timeouts };
  // Request ids (logs only) are this app's random prefix and a sequence: unique without a UUID each.
  const idPrefix = crypto.randomUUID().slice(0, 8);
  let sequence = 0;
  const app = Fastify({
    // Per-request info logs would dominate at thousands of requests a second; warnings and errors stay.
    // Requests share the app's logger instead of a child each (about 10 µs of a ~160 µs request):
    // the error handler names the request id itself.
    ...(deps.logger
      ? {
          loggerInstance: deps.logger.child({}, { level: 'warn' }) as FastifyBaseLogger,
          childLoggerFactory: (logger: FastifyBaseLogger) => logger,
        }
      : { logger: false }),
    bodyLimit: limits.maxBodyBytes,
    // A request must arrive whole within requestTimeout, its headers within headersTimeout (408
    // otherwise); Node looks for overdue requests every connectionsCheckingInterval.
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      headersTimeout: timeouts.headersMs,
      connectionsCheckingInterval: Math.min(1000, Math.ceil(timeouts.headersMs / 4)),
    },
    // Ids in logs and answers come from Warden, never from the client.
    genReqId: () => `${idPrefix}-${(++sequence).toString(36)}`,
    // What the router and Node's HTTP parser refuse is answered in the contract's body too.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // A request that arrives while the app closes is handled (Kafka is still open until it has
    // closed) rather than answered with Fastify's own 503 body.
    return503OnClosing: false,
  });

  // JSON only: everything else is 415, and the JSON parser rejects hostile structure with 400. The
  // body arrives as bytes (decoded first when compressed: see bodyEncodingPlugin) and must be UTF-8.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(jsonBodyText(body as Buffer), limits));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  await app.register(bodyEncodingPlugin);

  // TypeBox is the single source of validation; its errors become the contract's error bodies.
  app.setValidatorCompiler(typeBoxValidatorCompiler);

  const latency = new Histogram({
    name: 'warden_http_request_duration_seconds',
    help: 'HTTP request latency by route and status.',
    labelNames: ['route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [deps.metrics],
  });
  // One labelled child per route and status, looked up instead of hashing the labels per answer.
  const latencyBy = new Map<string, { observe(seconds: number): void }>();
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unknown';
    const key = `${reply.statusCode} ${route}`;
    let child = latencyBy.get(key);
    if (!child) {
      child = latency.labels({ route, status: String(reply.statusCode) });
      latencyBy.set(key, child);
    }
    child.observe(reply.elapsedTime / 1000);
    done();
  });

  answerErrorsInContract(app, toApiError);

  await app.register(openApiPlugin, {
    title: 'Warden ingestion API',
    description: 'Telemetry ingestion for AI-agent security monitoring.',
  });
  await app.register(operationalRoutes, { ready: deps.ready ?? (() => true) });
  await app.register(telemetryRoutes, {
    prefix: '/api/v1',
    publisher: deps.publisher,
    guards: deps.guards,
    maxRecordBytes: limits.maxRecordBytes,
    maxBatchRecords: limits.maxBatchRecords,
    maxBatchBytes: limits.maxBodyBytes,
  });
  return app;
}
