import { randomBase62 } from '../keys/format';
import { inTransaction, type PostgresClient, type PostgresPool } from '../postgres/client';
import type { Severity } from '../schemas/detection';
import type { WebhookFormat } from './endpoints';
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
  /** Detections of a project that is not in PostgreSQL: nothing to alert. */
  unknownProject: number;
  deliveries: number;
}

/**
 * Groups the alerts of one batch and writes the deliveries they make due, in one transaction: when
 * it commits, every alert is either counted in an open group or durably in the outbox, so the
 * caller may commit its offsets. Each interaction counts once per dedup key (a replay changes
 * nothing); a per-key advisory lock keeps two partitions from opening the same group twice. Windows
 * are on the clock, not the transaction's start (now()): a transaction that waited for the lock
 * must not find open a window that closed while it waited.
 *
 * A constant number of statements per batch, whatever its size: what is already counted and which
 * groups are open is read for every key at once, the batch is then grouped in order here (an alert
 * opened by this batch takes its later repeats), and the new alerts, counts and deliveries are
 * written with one statement each.
 */
export async function recordAlerts(
  pool: PostgresPool,
  alerts: readonly RaisedAlert[],
  dashboardUrl: string,
): Promise<RecordResult> {
  const result: RecordResult = { raised: 0, grouped: 0, repeated: 0, unknownProject: 0, deliveries: 0 };
  if (alerts.length === 0) return result;
  return inTransaction(pool, async (client) => {
    // Locks in one order, so two batches sharing keys never deadlock.
    const keys = [...new Set(alerts.map((a) => a.dedupKey))].sort();
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended(k, 5)) FROM unnest($1::text[]) AS k', [
      keys,
    ]);
    const pair = (key: string, interactionId: string) => `${key}\u0000${interactionId}`;
    // One client runs one statement at a time: three round trips, whatever the batch's size.
    const projects = await client.query<{ id: string }>('SELECT id FROM projects WHERE id = ANY($1)', [
      [...new Set(alerts.map((a) => a.projectId))],
    ]);
    const known = new Set(projects.rows.map((r) => r.id));
    const counted = await client.query<{ dedup_key: string; interaction_id: string }>(
      `SELECT dedup_key, interaction_id FROM alert_interactions
       WHERE (dedup_key, interaction_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
      [alerts.map((a) => a.dedupKey), alerts.map((a) => a.interactionId)],
    );
    const open = await client.query<{ dedup_key: string; id: string }>(
      `SELECT DISTINCT ON (dedup_key) dedup_key, id FROM alerts
       WHERE dedup_key = ANY($1) AND window_ends_at > clock_timestamp() ORDER BY dedup_key, first_at DESC`,
      [keys],
    );
    const endpointRows = await client.query<{ project_id: string; id: string }>(
      `SELECT project_id, id FROM webhook_endpoints
       WHERE project_id = ANY($1) AND disabled_at IS NULL AND 'threat_detected' = ANY(events)`,
      [[...known]],
    );
    const seen = new Set(counted.rows.map((r) => pair(r.dedup_key, r.interaction_id)));
    const openGroup = new Map(open.rows.map((r) => [r.dedup_key, r.id]));
    const targetsOf = new Map<string, string[]>();
    for (const r of endpointRows.rows)
      targetsOf.set(r.project_id, [...(targetsOf.get(r.project_id) ?? []), r.id]);

    const raised: { id: string; alert: RaisedAlert }[] = [];
    const interactions: { alertId: string; key: string; interactionId: string }[] = [];
    const added = new Map<string, number>();
    const deliveries: { id: string; endpointId: string; alertId: string; body: string }[] = [];
    for (const a of alerts) {
      // A project the control plane does not know (deleted, or never registered in PostgreSQL) has
      // no endpoints and no rules of its own: its detections are counted, not stored as alerts.
      if (!known.has(a.projectId)) {
        result.unknownProject++;
        continue;
      }
      const key = pair(a.dedupKey, a.interactionId);
      if (seen.has(key)) {
        result.repeated++;
        continue;
      }
      seen.add(key);
      const group = openGroup.get(a.dedupKey);
      if (group) {
        interactions.push({ alertId: group, key: a.dedupKey, interactionId: a.interactionId });
        added.set(group, (added.get(group) ?? 0) + 1);
        result.grouped++;
        continue;
      }
      const alertId = `alr_${randomBase62(20)}`;
      raised.push({ id: alertId, alert: a });
      interactions.push({ alertId, key: a.dedupKey, interactionId: a.interactionId });
      if (a.rule.windowSeconds > 0) openGroup.set(a.dedupKey, alertId);
      const body = JSON.stringify(threatPayload(a, 1, dashboardUrl));
      for (const endpointId of targetsOf.get(a.projectId) ?? [])
        deliveries.push({ id: newDeliveryId(), endpointId, alertId, body });
      result.raised++;
    }
    result.deliveries = deliveries.length;

    if (raised.length > 0)
      await client.query(
        `INSERT INTO alerts (id, project_id, dedup_key, rule_id, agent_id, threat_type, severity, interaction_id,
           alert, window_ends_at)
         SELECT id, project_id, dedup_key, rule_id, agent_id, threat_type, severity, interaction_id, alert,
           clock_timestamp() + make_interval(secs => window_seconds)
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
           $9::jsonb[], $10::int[])
           AS t(id, project_id, dedup_key, rule_id, agent_id, threat_type, severity, interaction_id, alert, window_seconds)`,
        [
          raised.map((r) => r.id),
          raised.map((r) => r.alert.projectId),
          raised.map((r) => r.alert.dedupKey),
          raised.map((r) => r.alert.rule.id),
          raised.map((r) => r.alert.agentId),
          raised.map((r) => r.alert.threatType),
          raised.map((r) => r.alert.severity),
          raised.map((r) => r.alert.interactionId),
          raised.map((r) => JSON.stringify(r.alert)),
          raised.map((r) => r.alert.rule.windowSeconds),
        ],
      );
    if (interactions.length > 0)
      await client.query(
        `INSERT INTO alert_interactions (alert_id, dedup_key, interaction_id)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[])`,
        [
          interactions.map((x) => x.alertId),
          interactions.map((x) => x.key),
          interactions.map((x) => x.interactionId),
        ],
      );
    if (added.size > 0)
      await client.query(
        `UPDATE alerts SET count = count + t.n, last_at = clock_timestamp()
         FROM unnest($1::text[], $2::int[]) AS t(id, n) WHERE alerts.id = t.id`,
        [[...added.keys()], [...added.values()]],
      );
    if (deliveries.length > 0)
      await client.query(
        `INSERT INTO webhook_deliveries (id, endpoint_id, alert_id, event, body)
         SELECT id, endpoint_id, alert_id, 'threat_detected', body
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(id, endpoint_id, alert_id, body)`,
        [
          deliveries.map((d) => d.id),
          deliveries.map((d) => d.endpointId),
          deliveries.map((d) => d.alertId),
          deliveries.map((d) => d.body),
        ],
      );
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
  format: WebhookFormat;
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
    format: WebhookFormat;
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
     SELECT l.*, e.url, e.secret, e.format,
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
    format: r.format,
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
 * Logs a set of finished attempts and moves their deliveries on, in one statement (the delivery
 * loop records what finished in the last few milliseconds together: one round trip for many
 * deliveries). An endpoint's row changes only on a failure, or on the first success after
 * failures, taking the newest outcome of the set: one statement, so atomic without a transaction.
 */
export async function recordAttempts(
  pool: PostgresPool,
  finished: { delivery: ClaimedDelivery; outcome: AttemptOutcome }[],
): Promise<void> {
  if (finished.length === 0) return;
  const column = <T>(pick: (f: (typeof finished)[number]) => T) => finished.map(pick);
  const endpointChanges = new Map<string, { ok: boolean; disable: string | null }>();
  for (const { delivery, outcome } of finished)
    endpointChanges.set(delivery.endpointId, { ok: outcome.ok, disable: outcome.disable });
  const changed = [...endpointChanges];
  await pool.query(
    `WITH done AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[],
         $8::timestamptz[]) AS t(id, endpoint_id, status_code, latency_ms, error, excerpt, status, retry_at)
     ), attempt AS (
       INSERT INTO webhook_attempts (delivery_id, endpoint_id, status_code, latency_ms, error, response_excerpt)
       SELECT id, endpoint_id, status_code, latency_ms, error, excerpt FROM done
     ), delivery AS (
       UPDATE webhook_deliveries d SET status = done.status, attempts = d.attempts + 1,
         next_at = COALESCE(done.retry_at, d.next_at), lease_until = '-infinity',
         last_status = done.status_code, last_error = done.error,
         delivered_at = CASE WHEN done.status = 'delivered' THEN now() END
       FROM done WHERE d.id = done.id
     ), change AS (
       SELECT * FROM unnest($9::text[], $10::boolean[], $11::text[]) AS c(endpoint_id, ok, disable)
     )
     UPDATE webhook_endpoints e SET
       failing_since = CASE WHEN change.ok THEN NULL ELSE COALESCE(e.failing_since, now()) END,
       disabled_at = CASE WHEN change.disable IS NOT NULL THEN COALESCE(e.disabled_at, now()) ELSE e.disabled_at END,
       disabled_reason = CASE WHEN change.disable IS NOT NULL AND e.disabled_at IS NULL THEN change.disable
         ELSE e.disabled_reason END,
       updated_at = CASE WHEN change.disable IS NOT NULL THEN now() ELSE e.updated_at END
     FROM change
     WHERE e.id = change.endpoint_id AND (NOT change.ok OR e.failing_since IS NOT NULL OR change.disable IS NOT NULL)`,
    [
      column((f) => f.delivery.id),
      column((f) => f.delivery.endpointId),
      column((f) => f.outcome.statusCode),
      column((f) => f.outcome.latencyMs),
      column((f) => f.outcome.error),
      column((f) => f.outcome.responseExcerpt),
      column((f) => (f.outcome.ok ? 'delivered' : f.outcome.retryAt ? 'pending' : 'failed')),
      column((f) => f.outcome.retryAt),
      changed.map(([id]) => id),
      changed.map(([, c]) => c.ok),
      changed.map(([, c]) => c.disable),
    ],
  );
}
