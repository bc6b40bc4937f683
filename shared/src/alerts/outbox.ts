import { randomBase62 } from '../keys/format';
import { inTransaction, type PostgresClient, type PostgresPool } from '../postgres/client';
import type { Severity } from '../schemas/detection';
import { DEFAULT_RULE, threatPayload, type AlertRule, type RaisedAlert } from './payload';

/** A webhook-id: the same on every attempt of one delivery, so a receiver can drop repeats. */
export const newDeliveryId = () => `msg_${randomBase62(24)}`;

interface RuleRow {
  id: string;
  project_id: string;
  min_severity: Severity;
  threat_types: string[];
  agents: string[];
  window_seconds: number;
}

/** Each project's enabled rules; a project with none gets DEFAULT_RULE. */
export async function rulesOf(pool: PostgresPool, projectIds: string[]): Promise<Map<string, AlertRule[]>> {
  const { rows } = await pool.query<RuleRow>(
    `SELECT id, project_id, min_severity, threat_types, agents, window_seconds FROM alert_rules
     WHERE project_id = ANY($1) AND enabled ORDER BY created_at`,
    [projectIds],
  );
  const out = new Map<string, AlertRule[]>(projectIds.map((p) => [p, []]));
  for (const r of rows) {
    out.get(r.project_id)!.push({
      id: r.id,
      minSeverity: r.min_severity,
      threatTypes: r.threat_types,
      agents: r.agents,
      windowSeconds: r.window_seconds,
    });
  }
  for (const [p, rules] of out) if (rules.length === 0) out.set(p, [DEFAULT_RULE]);
  return out;
}

/** The enabled endpoints of a project that take `event`. */
async function endpointsFor(client: PostgresClient, projectId: string, event: string): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>(
    `SELECT id FROM webhook_endpoints WHERE project_id = $1 AND disabled_at IS NULL AND $2 = ANY(events)`,
    [projectId, event],
  );
  return rows.map((r) => r.id);
}

/** Puts one delivery per endpoint into the outbox, in one statement. */
async function enqueue(
  client: PostgresClient,
  endpointIds: string[],
  alertId: string | null,
  event: string,
  body: string,
): Promise<number> {
  if (endpointIds.length === 0) return 0;
  await client.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, alert_id, event, body)
     SELECT unnest($1::text[]), unnest($2::text[]), $3, $4, $5`,
    [endpointIds.map(() => newDeliveryId()), endpointIds, alertId, event, body],
  );
  return endpointIds.length;
}

export interface RecordResult {
  /** New alerts, each with its deliveries in the outbox. */
  raised: number;
  /** Detections added to an alert whose window is still open. */
  grouped: number;
  /** Detections already counted (a replay after a crash). */
  repeated: number;
  deliveries: number;
}

/**
 * Groups the alerts of one batch and writes the deliveries they make due, in one transaction: when
 * it commits, every alert is either counted in an open group or durably in the outbox, so the
 * caller may commit its offsets. Each interaction counts once per dedup key (a replay changes
 * nothing); a per-key advisory lock keeps two partitions from opening the same group twice. Windows
 * are on the clock, not the transaction's start (now()): a transaction that waited for the lock
 * must not find open a window that closed while it waited. Two
 * statements per alert: its group's state, then the alert with its deliveries (or the count).
 */
export async function recordAlerts(
  pool: PostgresPool,
  alerts: readonly RaisedAlert[],
  dashboardUrl: string,
): Promise<RecordResult> {
  const result: RecordResult = { raised: 0, grouped: 0, repeated: 0, deliveries: 0 };
  if (alerts.length === 0) return result;
  return inTransaction(pool, async (client) => {
    // Locks in one order, so two batches sharing keys never deadlock.
    const keys = [...new Set(alerts.map((a) => a.dedupKey))].sort();
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended(k, 5)) FROM unnest($1::text[]) AS k', [
      keys,
    ]);
    const endpoints = new Map<string, string[]>();
    for (const a of alerts) {
      const { rows } = await client.query<{ counted: boolean | null; open: string | null }>(
        `SELECT (SELECT true FROM alert_interactions WHERE dedup_key = $1 AND interaction_id = $2) AS counted,
           (SELECT id FROM alerts WHERE dedup_key = $1 AND window_ends_at > clock_timestamp()
             ORDER BY first_at DESC LIMIT 1) AS open`,
        [a.dedupKey, a.interactionId],
      );
      const state = rows[0]!;
      if (state.counted) {
        result.repeated++;
        continue;
      }
      if (state.open) {
        await client.query(
          `WITH counted AS (
             INSERT INTO alert_interactions (alert_id, dedup_key, interaction_id) VALUES ($1, $2, $3)
           )
           UPDATE alerts SET count = count + 1, last_at = clock_timestamp() WHERE id = $1`,
          [state.open, a.dedupKey, a.interactionId],
        );
        result.grouped++;
        continue;
      }
      let targets = endpoints.get(a.projectId);
      if (!targets) {
        targets = await endpointsFor(client, a.projectId, 'threat_detected');
        endpoints.set(a.projectId, targets);
      }
      const alertId = `alr_${randomBase62(20)}`;
      await client.query(
        `WITH alert AS (
           INSERT INTO alerts (id, project_id, dedup_key, rule_id, agent_id, threat_type, severity, interaction_id,
             alert, window_ends_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, clock_timestamp() + make_interval(secs => $10))
         ), counted AS (
           INSERT INTO alert_interactions (alert_id, dedup_key, interaction_id) VALUES ($1, $3, $8)
         )
         INSERT INTO webhook_deliveries (id, endpoint_id, alert_id, event, body)
         SELECT unnest($11::text[]), unnest($12::text[]), $1, 'threat_detected', $13`,
        [
          alertId,
          a.projectId,
          a.dedupKey,
          a.rule.id,
          a.agentId,
          a.threatType,
          a.severity,
          a.interactionId,
          JSON.stringify(a),
          a.rule.windowSeconds,
          targets.map(() => newDeliveryId()),
          targets,
          JSON.stringify(threatPayload(a, 1, dashboardUrl)),
        ],
      );
      result.raised++;
      result.deliveries += targets.length;
    }
    return result;
  });
}

/**
 * Alerts whose window closed with more detections than were sent: one update each (same
 * dedupKey, the total count) goes into the outbox. Returns how many alerts were updated.
 */
export function closeWindows(pool: PostgresPool, dashboardUrl: string): Promise<number> {
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{
      id: string;
      project_id: string;
      alert: RaisedAlert;
      count: number;
    }>(
      `SELECT id, project_id, alert, count FROM alerts WHERE count > notified_count AND window_ends_at <= now()
       ORDER BY window_ends_at LIMIT 100 FOR UPDATE SKIP LOCKED`,
    );
    for (const r of rows) {
      const body = JSON.stringify(threatPayload(r.alert, r.count, dashboardUrl));
      await enqueue(
        client,
        await endpointsFor(client, r.project_id, 'threat_detected'),
        r.id,
        'threat_detected',
        body,
      );
      await client.query('UPDATE alerts SET notified_count = $2 WHERE id = $1', [r.id, r.count]);
    }
    return rows.length;
  });
}

/** A delivery the loop has claimed, with what sending it needs. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  event: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  failingSince: Date | null;
}

/** Endpoints (enabled) with deliveries due now and not leased. */
export async function endpointsDue(pool: PostgresPool): Promise<string[]> {
  const { rows } = await pool.query<{ endpoint_id: string }>(
    `SELECT DISTINCT d.endpoint_id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
     WHERE d.status = 'pending' AND d.next_at <= now() AND d.lease_until < now() AND e.disabled_at IS NULL`,
  );
  return rows.map((r) => r.endpoint_id);
}

/**
 * Leases up to `limit` due deliveries of one endpoint for `leaseMs` (longer than an attempt may
 * take): rows another alerter holds are skipped, and a lease a killed alerter left runs out, after
 * which the delivery is sent again under the same webhook-id.
 */
export async function claimDue(
  pool: PostgresPool,
  endpointId: string,
  limit: number,
  leaseMs: number,
): Promise<ClaimedDelivery[]> {
  const { rows } = await pool.query<{
    id: string;
    endpoint_id: string;
    event: string;
    body: string;
    attempts: number;
    url: string;
    secret: string;
    previous_secret: string | null;
    failing_since: Date | null;
  }>(
    `WITH due AS (
       SELECT id FROM webhook_deliveries
       WHERE endpoint_id = $1 AND status = 'pending' AND next_at <= now() AND lease_until < now()
       ORDER BY next_at LIMIT $2 FOR UPDATE SKIP LOCKED
     ), leased AS (
       UPDATE webhook_deliveries d SET lease_until = now() + make_interval(secs => $3::double precision / 1000)
       FROM due WHERE d.id = due.id
       RETURNING d.id, d.endpoint_id, d.event, d.body, d.attempts, d.created_at
     )
     SELECT l.*, e.url, e.secret,
       CASE WHEN e.previous_secret_until > now() THEN e.previous_secret END AS previous_secret, e.failing_since
     FROM leased l JOIN webhook_endpoints e ON e.id = l.endpoint_id
     WHERE e.disabled_at IS NULL ORDER BY l.created_at`,
    [endpointId, limit, leaseMs],
  );
  return rows.map((r) => ({
    id: r.id,
    endpointId: r.endpoint_id,
    event: r.event,
    body: r.body,
    attempts: r.attempts,
    url: r.url,
    secret: r.secret,
    previousSecret: r.previous_secret,
    failingSince: r.failing_since,
  }));
}

/** What one attempt came to. */
export interface AttemptOutcome {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
  /** Delivered (2xx). */
  ok: boolean;
  /** When to try again; null: the schedule is spent (or the endpoint is being disabled). */
  retryAt: Date | null;
  /** Disable the endpoint with this reason (410, or failing too long). */
  disable: string | null;
}

/**
 * Logs the attempt and moves the delivery (and, on success or a disabling failure, the endpoint)
 * on: one statement, so atomic without a transaction's extra round trips.
 */
export async function recordAttempt(
  pool: PostgresPool,
  d: ClaimedDelivery,
  o: AttemptOutcome,
): Promise<void> {
  const status = o.ok ? 'delivered' : o.retryAt ? 'pending' : 'failed';
  await pool.query(
    `WITH attempt AS (
       INSERT INTO webhook_attempts (delivery_id, endpoint_id, status_code, latency_ms, error, response_excerpt)
       VALUES ($1, $2, $3, $4, $5, $6)
     ), delivery AS (
       UPDATE webhook_deliveries SET status = $7, attempts = attempts + 1, next_at = COALESCE($8, next_at),
         lease_until = '-infinity', last_status = $3, last_error = $5,
         delivered_at = CASE WHEN $7 = 'delivered' THEN now() END
       WHERE id = $1
     )
     UPDATE webhook_endpoints SET
       failing_since = CASE WHEN $9 THEN NULL ELSE COALESCE(failing_since, now()) END,
       disabled_at = CASE WHEN $10::text IS NOT NULL THEN COALESCE(disabled_at, now()) ELSE disabled_at END,
       disabled_reason = CASE WHEN $10::text IS NOT NULL AND disabled_at IS NULL THEN $10 ELSE disabled_reason END,
       updated_at = CASE WHEN $10::text IS NOT NULL THEN now() ELSE updated_at END
     WHERE id = $2 AND (NOT $9 OR failing_since IS NOT NULL)`,
    [
      d.id,
      d.endpointId,
      o.statusCode,
      o.latencyMs,
      o.error,
      o.responseExcerpt,
      status,
      o.retryAt,
      o.ok,
      o.disable,
    ],
  );
}
