import { randomBase62 } from '../keys/format';
import type { PostgresPool } from '../postgres/client';
import { newDeliveryId } from './outbox';
import { encryptSecret, generateWebhookSecret } from './secrets';

/** A webhook endpoint as the API shows it: never its secret (that is shown once, when made). */
export interface WebhookEndpoint {
  id: string;
  projectId: string;
  url: string;
  description: string | null;
  events: string[];
  /** `standard`: the JSON payload; `slack`: a Slack incoming-webhook message. */
  format: WebhookFormat;
  enabled: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  failingSince: string | null;
  /** Until when the previous secret still signs beside the current one (after a rotation). */
  previousSecretUntil: string | null;
  createdAt: string;
}

interface EndpointRow {
  id: string;
  project_id: string;
  url: string;
  description: string | null;
  events: string[];
  format: WebhookFormat;
  disabled_at: Date | null;
  disabled_reason: string | null;
  failing_since: Date | null;
  previous_secret_until: Date | null;
  created_at: Date;
}

const COLUMNS = `id, project_id, url, description, events, format, disabled_at, disabled_reason, failing_since,
  previous_secret_until, created_at`;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function endpointOf(r: EndpointRow): WebhookEndpoint {
  return {
    id: r.id,
    projectId: r.project_id,
    url: r.url,
    description: r.description,
    events: r.events,
    format: r.format,
    enabled: r.disabled_at === null,
    disabledAt: iso(r.disabled_at),
    disabledReason: r.disabled_reason,
    failingSince: iso(r.failing_since),
    previousSecretUntil: iso(r.previous_secret_until),
    createdAt: r.created_at.toISOString(),
  };
}

export const WEBHOOK_EVENTS = ['threat_detected'] as const;
export const WEBHOOK_FORMATS = ['standard', 'slack'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** Creates an endpoint with a new `whsec_` secret; the secret is returned this once and stored encrypted. */
export async function createEndpoint(
  pool: PostgresPool,
  key: Buffer,
  input: { projectId: string; url: string; description?: string; events?: string[]; format?: WebhookFormat },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const id = `whe_${randomBase62(20)}`;
  const secret = generateWebhookSecret();
  const { rows } = await pool.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (id, project_id, url, description, events, secret, format)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
    [
      id,
      input.projectId,
      input.url,
      input.description ?? null,
      input.events ?? [...WEBHOOK_EVENTS],
      encryptSecret(key, secret, id),
      input.format ?? 'standard',
    ],
  );
  return { endpoint: endpointOf(rows[0]!), secret };
}

export async function listEndpoints(pool: PostgresPool, projectId: string): Promise<WebhookEndpoint[]> {
  const { rows } = await pool.query<EndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE project_id = $1 ORDER BY created_at`,
    [projectId],
  );
  return rows.map(endpointOf);
}

export async function getEndpoint(
  pool: PostgresPool,
  projectId: string,
  id: string,
): Promise<WebhookEndpoint | undefined> {
  const { rows } = await pool.query<EndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE project_id = $1 AND id = $2`,
    [projectId, id],
  );
  return rows[0] && endpointOf(rows[0]);
}

/** Changes url, description, events, or enables/disables the endpoint (enabling clears the reason and the failure streak). */
export async function updateEndpoint(
  pool: PostgresPool,
  projectId: string,
  id: string,
  change: {
    url?: string;
    description?: string | null;
    events?: string[];
    format?: WebhookFormat;
    enabled?: boolean;
  },
): Promise<WebhookEndpoint | undefined> {
  const { rows } = await pool.query<EndpointRow>(
    `UPDATE webhook_endpoints SET
       url = COALESCE($3, url),
       description = CASE WHEN $4::boolean THEN $5 ELSE description END,
       events = COALESCE($6, events),
       disabled_at = CASE WHEN $7::boolean IS NULL THEN disabled_at WHEN $7 THEN NULL ELSE COALESCE(disabled_at, now()) END,
       disabled_reason = CASE WHEN $7::boolean IS NULL THEN disabled_reason WHEN $7 THEN NULL
                              ELSE COALESCE(disabled_reason, 'disabled by a user') END,
       failing_since = CASE WHEN $7::boolean THEN NULL ELSE failing_since END,
       format = COALESCE($8, format),
       updated_at = now()
     WHERE project_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [
      projectId,
      id,
      change.url ?? null,
      change.description !== undefined,
      change.description ?? null,
      change.events ?? null,
      change.enabled ?? null,
      change.format ?? null,
    ],
  );
  return rows[0] && endpointOf(rows[0]);
}

export async function deleteEndpoint(pool: PostgresPool, projectId: string, id: string): Promise<boolean> {
  const { rowCount } = await pool.query('DELETE FROM webhook_endpoints WHERE project_id = $1 AND id = $2', [
    projectId,
    id,
  ]);
  return (rowCount ?? 0) > 0;
}

/**
 * A new secret; the old one keeps signing beside it (two `v1,` signatures) for `graceMs`, so a
 * receiver can switch without dropping a delivery. Returns the new secret, shown this once.
 */
export async function rotateSecret(
  pool: PostgresPool,
  key: Buffer,
  projectId: string,
  id: string,
  graceMs: number,
): Promise<{ endpoint: WebhookEndpoint; secret: string } | undefined> {
  const secret = generateWebhookSecret();
  const { rows } = await pool.query<EndpointRow>(
    `UPDATE webhook_endpoints SET previous_secret = secret, secret = $3,
       previous_secret_until = now() + make_interval(secs => $4::double precision / 1000), updated_at = now()
     WHERE project_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [projectId, id, encryptSecret(key, secret, id), graceMs],
  );
  return rows[0] && { endpoint: endpointOf(rows[0]), secret };
}

/** Puts a signed test event for one endpoint into the outbox; the alerter sends it like any alert. */
export async function enqueueTestDelivery(
  pool: PostgresPool,
  endpointId: string,
  projectId: string,
): Promise<string> {
  const id = newDeliveryId();
  const body = JSON.stringify({
    event: 'test',
    projectId,
    endpointId,
    timestamp: new Date().toISOString(),
    details: { description: 'A test delivery from Warden: verify its signature as you would an alert.' },
  });
  await pool.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event, body) VALUES ($1, $2, 'test', $3)`,
    [id, endpointId, body],
  );
  return id;
}

export interface DeliveryLogEntry {
  id: string;
  event: string;
  status: string;
  attempts: number;
  nextAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  log: {
    at: string;
    statusCode: number | null;
    latencyMs: number;
    error: string | null;
    responseExcerpt: string | null;
  }[];
}

/** An endpoint's deliveries, newest first, each with its attempts. */
export async function listDeliveries(
  pool: PostgresPool,
  endpointId: string,
  limit = 50,
): Promise<DeliveryLogEntry[]> {
  const { rows } = await pool.query<{
    id: string;
    event: string;
    status: string;
    attempts: number;
    next_at: Date;
    created_at: Date;
    delivered_at: Date | null;
    last_status: number | null;
    last_error: string | null;
    log: {
      at: string;
      status_code: number | null;
      latency_ms: number;
      error: string | null;
      response_excerpt: string | null;
    }[];
  }>(
    `SELECT d.id, d.event, d.status, d.attempts, d.next_at, d.created_at, d.delivered_at, d.last_status, d.last_error,
       COALESCE((SELECT json_agg(a ORDER BY a.at) FROM (SELECT at, status_code, latency_ms, error, response_excerpt
                 FROM webhook_attempts WHERE delivery_id = d.id) a), '[]') AS log
     FROM webhook_deliveries d WHERE d.endpoint_id = $1 ORDER BY d.created_at DESC LIMIT $2`,
    [endpointId, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    event: r.event,
    status: r.status,
    attempts: r.attempts,
    nextAt: r.status === 'pending' ? r.next_at.toISOString() : null,
    createdAt: r.created_at.toISOString(),
    deliveredAt: iso(r.delivered_at),
    lastStatus: r.last_status,
    lastError: r.last_error,
    log: r.log.map((a) => ({
      at: new Date(a.at).toISOString(),
      statusCode: a.status_code,
      latencyMs: a.latency_ms,
      error: a.error,
      responseExcerpt: a.response_excerpt,
    })),
  }));
}

/**
 * Sends a delivery again now, whatever became of it (failed, or delivered but lost by the
 * receiver), under its webhook-id; false when the endpoint has no such delivery.
 */
export async function retryDelivery(
  pool: PostgresPool,
  endpointId: string,
  deliveryId: string,
): Promise<boolean> {
  const { rowCount } = await pool.query(
    `UPDATE webhook_deliveries SET status = 'pending', next_at = now(), lease_until = '-infinity'
     WHERE id = $1 AND endpoint_id = $2`,
    [deliveryId, endpointId],
  );
  return (rowCount ?? 0) > 0;
}
