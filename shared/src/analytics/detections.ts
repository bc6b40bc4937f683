import type { ClickHouseClient } from '@clickhouse/client';
import { selectRows } from '../clickhouse/client';
import { sqlIdentifier, sqlString } from '../clickhouse/escape';
import type { DetectionRow } from '../clickhouse/rows';
import type { Finding, Severity } from '../schemas/detection';
import { rangeMs } from '../clickhouse/range';
import { INJECTION_THREATS, scopeSql, sqlLimit, type AccountRange } from './scope';

/*
 * Drill-downs over raw `detections`, always restricted to current findings (the newest analysis of
 * each interaction, `ScopeSql.current`) and counted with uniqExact(finding_id / interaction_id), so
 * neither a re-inserted block nor a replay before its cleanup shows twice or stale.
 */

export interface PiiLeakBucket {
  /** Start of the hour or day, `YYYY-MM-DD hh:mm:ss` UTC. */
  bucket: string;
  entityType: string;
  findings: number;
  interactions: number;
}

export async function piiLeaksByType(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange & { bucket?: 'hour' | 'day' },
): Promise<PiiLeakBucket[]> {
  const s = scopeSql(database, scope);
  const bucket = scope.bucket === 'hour' ? 'toStartOfHour(received_at)' : 'toStartOfDay(received_at)';
  const rows = await selectRows<{
    bucket: string;
    entity_type: string;
    findings: number;
    interactions: number;
  }>(
    client,
    `SELECT ${bucket} AS bucket, entity_type, uniqExact(finding_id) AS findings,
       uniqExact(interaction_id) AS interactions
     FROM ${s.db}.detections
     WHERE ${s.account} AND ${s.received} AND threat_type = 'pii_leak' AND ${s.current}
     GROUP BY bucket, entity_type ORDER BY bucket, entity_type`,
  );
  return rows.map((r) => ({
    bucket: r.bucket,
    entityType: r.entity_type,
    findings: Number(r.findings),
    interactions: Number(r.interactions),
  }));
}

export interface InjectionAttempts {
  /** user_id or session_id; '' groups interactions that carried none. */
  key: string;
  /** Interactions with at least one injection or jailbreak finding. */
  attempts: number;
  findings: number;
  maxSeverity: Severity;
  firstSeen: string;
  lastSeen: string;
}

async function injectionAttemptsBy(
  column: 'user_id' | 'session_id',
  client: ClickHouseClient,
  database: string,
  scope: AccountRange & { limit?: number },
): Promise<InjectionAttempts[]> {
  const s = scopeSql(database, scope);
  const threats = INJECTION_THREATS.map(sqlString).join(', ');
  const rows = await selectRows<{
    key: string;
    attempts: number;
    findings: number;
    max_severity: Severity;
    first_seen: string;
    last_seen: string;
  }>(
    client,
    `SELECT ${column} AS key, uniqExact(interaction_id) AS attempts, uniqExact(finding_id) AS findings,
       max(severity) AS max_severity, min(received_at) AS first_seen, max(received_at) AS last_seen
     FROM ${s.db}.detections
     WHERE ${s.account} AND ${s.received} AND threat_type IN (${threats}) AND ${s.current}
     GROUP BY key ORDER BY attempts DESC, key LIMIT ${sqlLimit(scope.limit, 100)}`,
  );
  return rows.map((r) => ({
    key: r.key,
    attempts: Number(r.attempts),
    findings: Number(r.findings),
    maxSeverity: r.max_severity,
    firstSeen: r.first_seen,
    lastSeen: r.last_seen,
  }));
}

/** Prompt-injection and jailbreak attempts per end user. */
export function injectionAttemptsByUser(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange & { limit?: number },
): Promise<InjectionAttempts[]> {
  return injectionAttemptsBy('user_id', client, database, scope);
}

/** Prompt-injection and jailbreak attempts per session. */
export function injectionAttemptsBySession(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange & { limit?: number },
): Promise<InjectionAttempts[]> {
  return injectionAttemptsBy('session_id', client, database, scope);
}

/** A stored finding: the detector's Finding (empty strings where it had no entity or mask) plus its ids. */
export type FindingRow = Required<Finding> & { findingId: string; analyzedMs: number };

/** The current findings of one interaction (its newest analysis), in field and offset order. */
export async function detectionsForInteraction(
  client: ClickHouseClient,
  database: string,
  params: { accountId: string; interactionId: string },
): Promise<FindingRow[]> {
  const db = sqlIdentifier(database);
  const key = `account_id = ${sqlString(params.accountId)} AND interaction_id = ${sqlString(params.interactionId)}`;
  const rows = await selectRows<
    Pick<
      DetectionRow,
      | 'finding_id'
      | 'detector'
      | 'detector_version'
      | 'rule_id'
      | 'threat_type'
      | 'severity'
      | 'confidence'
      | 'field'
      | 'span_start'
      | 'span_end'
      | 'view'
      | 'entity_type'
      | 'explanation'
      | 'masked'
      | 'analyzed_ms'
    >
  >(
    client,
    `SELECT finding_id, detector, detector_version, rule_id, threat_type, severity, confidence, field,
       span_start, span_end, view, entity_type, explanation, masked, analyzed_ms
     FROM ${db}.detections
     WHERE ${key} AND analyzed_ms = (SELECT max(analyzed_ms) FROM ${db}.analyses WHERE ${key})
     ORDER BY field, span_start, span_end, finding_id
     LIMIT 1 BY finding_id`,
  );
  return rows.map((r) => ({
    findingId: r.finding_id,
    detector: r.detector,
    detectorVersion: r.detector_version,
    ruleId: r.rule_id,
    threatType: r.threat_type,
    severity: r.severity,
    confidence: Number(r.confidence),
    field: r.field,
    start: Number(r.span_start),
    end: Number(r.span_end),
    view: r.view,
    entityType: r.entity_type,
    explanation: r.explanation,
    masked: r.masked,
    analyzedMs: Number(r.analyzed_ms),
  }));
}

export interface DetectorVersionCoverage {
  detectorVersion: string;
  interactions: number;
  findings: number;
}

/** Which detector version produced the current analysis of the range's interactions (replay check). */
export async function detectorVersions(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange,
): Promise<DetectorVersionCoverage[]> {
  const s = scopeSql(database, scope);
  const rows = await selectRows<{ detector_version: string; interactions: number; findings: number }>(
    client,
    `SELECT detector_version, count() AS interactions, sum(finding_count) AS findings
     FROM (
       SELECT interaction_id, argMax(detector_version, analyzed_ms) AS detector_version,
         argMax(finding_count, analyzed_ms) AS finding_count
       FROM ${s.db}.analyses WHERE ${s.account} AND ${s.received}
       GROUP BY interaction_id)
     GROUP BY detector_version ORDER BY detector_version`,
  );
  return rows.map((r) => ({
    detectorVersion: r.detector_version,
    interactions: Number(r.interactions),
    findings: Number(r.findings),
  }));
}

/** Where a page of detections ends: the last row's sort key, opaque to clients. */
export interface DetectionCursor {
  receivedMs: number;
  interactionId: string;
  findingId: string;
}

export interface DetectionListFilters {
  agentId?: string;
  threatType?: string;
  severity?: Severity;
  ruleId?: string;
  userId?: string;
  sessionId?: string;
  conversationId?: string;
}

export interface DetectionListItem {
  findingId: string;
  interactionId: string;
  agentId: string;
  receivedMs: number;
  threatType: string;
  severity: Severity;
  ruleId: string;
  detector: string;
  detectorVersion: string;
  confidence: number;
  field: string;
  start: number;
  end: number;
  entityType: string;
  explanation: string;
  masked: string;
  userId: string;
  sessionId: string;
  conversationId: string;
}

const FILTER_COLUMNS: Record<keyof DetectionListFilters, string> = {
  agentId: 'agent_id',
  threatType: 'threat_type',
  severity: 'severity',
  ruleId: 'rule_id',
  userId: 'user_id',
  sessionId: 'session_id',
  conversationId: 'conversation_id',
};

const LIST_COLUMNS = `finding_id, interaction_id, agent_id, received_ms, threat_type, severity, rule_id,
  detector, detector_version, confidence, field, span_start, span_end, entity_type, explanation, masked,
  user_id, session_id, conversation_id`;

type ListRow = Pick<
  DetectionRow,
  | 'finding_id'
  | 'interaction_id'
  | 'agent_id'
  | 'received_ms'
  | 'threat_type'
  | 'severity'
  | 'rule_id'
  | 'detector'
  | 'detector_version'
  | 'confidence'
  | 'field'
  | 'span_start'
  | 'span_end'
  | 'entity_type'
  | 'explanation'
  | 'masked'
  | 'user_id'
  | 'session_id'
  | 'conversation_id'
>;

const listItem = (r: ListRow): DetectionListItem => ({
  findingId: r.finding_id,
  interactionId: r.interaction_id,
  agentId: r.agent_id,
  receivedMs: Number(r.received_ms),
  threatType: r.threat_type,
  severity: r.severity,
  ruleId: r.rule_id,
  detector: r.detector,
  detectorVersion: r.detector_version,
  confidence: Number(r.confidence),
  field: r.field,
  start: Number(r.span_start),
  end: Number(r.span_end),
  entityType: r.entity_type,
  explanation: r.explanation,
  masked: r.masked,
  userId: r.user_id,
  sessionId: r.session_id,
  conversationId: r.conversation_id,
});

/**
 * The list query shared by the page and the export: current findings of the account in the range
 * matching the filters, after `cursor`, newest first, each finding once.
 */
function detectionsQuery(
  database: string,
  scope: AccountRange & DetectionListFilters & { cursor?: DetectionCursor },
): string {
  const s = scopeSql(database, scope);
  const where = [s.account, s.received, s.current];
  for (const [name, column] of Object.entries(FILTER_COLUMNS) as [keyof DetectionListFilters, string][]) {
    const value = scope[name];
    if (value !== undefined) where.push(`${column} = ${sqlString(value)}`);
  }
  if (scope.cursor) {
    const c = scope.cursor;
    const ms = Math.floor(c.receivedMs);
    if (!Number.isSafeInteger(ms) || ms < 0)
      throw new Error('cursor: receivedMs must be a non-negative integer');
    const i = sqlString(c.interactionId);
    const f = sqlString(c.findingId);
    where.push(
      `(received_ms < ${ms} OR (received_ms = ${ms} AND (interaction_id < ${i} OR (interaction_id = ${i} AND finding_id < ${f}))))`,
    );
  }
  return `SELECT ${LIST_COLUMNS}
     FROM ${s.db}.detections
     WHERE ${where.join(' AND ')}
     ORDER BY received_ms DESC, interaction_id DESC, finding_id DESC
     LIMIT 1 BY interaction_id, finding_id`;
}

/**
 * Current findings newest first (receive time, then interaction and finding id), `limit` at a time,
 * continuing after `cursor`. Keyset pagination: a page costs the same wherever it is, and rows that
 * arrive meanwhile never shift later pages. The tuple comparison is spelled out (18.16 lacks it).
 */
export async function detectionsPage(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange & DetectionListFilters & { cursor?: DetectionCursor; limit?: number },
): Promise<{ items: DetectionListItem[]; next?: DetectionCursor }> {
  const limit = sqlLimit(scope.limit, 50);
  const { fromMs, toMs } = rangeMs(scope);
  const top = scope.cursor ? Math.min(toMs, Math.floor(scope.cursor.receivedMs) + 1) : toMs;
  if (top <= fromMs) return { items: [] };
  // Newest first: look in the last hour before the cursor, then 4, 16, … hours, until a page is
  // full or the range is covered. Every row outside a window is older than every row inside it, so
  // the page is the one the whole range would give, while the current-analysis subquery only reads
  // the window's analyses instead of the whole range's.
  let rows: ListRow[];
  for (let span = 3_600_000; ; span *= 4) {
    const start = Math.max(fromMs, top - span);
    rows = await selectRows<ListRow>(
      client,
      `${detectionsQuery(database, { ...scope, from: start, to: top })}
     LIMIT ${limit + 1}`,
    );
    if (rows.length > limit || start === fromMs) break;
  }
  const items = rows.slice(0, limit).map(listItem);
  const last = items.at(-1);
  return rows.length > limit && last
    ? {
        items,
        next: { receivedMs: last.receivedMs, interactionId: last.interactionId, findingId: last.findingId },
      }
    : { items };
}

/**
 * Every finding `detectionsPage` would list, in the same order, as they arrive from ClickHouse: rows
 * are parsed one network chunk at a time, so memory stays flat whatever the size. Breaking out of
 * the loop (a client that went away) ends the query.
 */
export async function* streamDetections(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange & DetectionListFilters,
  signal?: AbortSignal,
): AsyncGenerator<DetectionListItem> {
  const rs = await client.query({
    query: detectionsQuery(database, scope),
    format: 'JSONEachRow',
    ...(signal ? { abort_signal: signal } : {}),
  });
  const stream = rs.stream<ListRow>();
  try {
    for await (const rows of stream) {
      for (const row of rows) yield listItem(row.json());
    }
  } finally {
    stream.destroy();
  }
}

/** The list row as the API shows it, computed by ClickHouse (receivedAt ISO from received_ms). */
const API_FIELDS = `finding_id AS findingId, interaction_id AS interactionId, agent_id AS agentId,
  concat(replaceOne(toString(toDateTime(intDiv(received_ms, 1000), 'UTC')), ' ', 'T'), '.',
    substring(toString(1000 + received_ms % 1000), 2, 3), 'Z') AS receivedAt,
  threat_type AS threatType, toString(severity) AS severity, rule_id AS ruleId, detector,
  detector_version AS detectorVersion, confidence, field, span_start AS start, span_end AS \`end\`,
  entity_type AS entityType, explanation, masked, user_id AS userId, session_id AS sessionId,
  conversation_id AS conversationId`;

/**
 * The same findings as `streamDetections`, already as the API's JSON lines: ClickHouse writes each
 * line, Node only passes text through (no parse, no stringify), in chunks of about 64 KB.
 */
export async function* streamDetectionLines(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange & DetectionListFilters,
  signal?: AbortSignal,
): AsyncGenerator<string> {
  const rs = await client.query({
    query: `SELECT ${API_FIELDS} FROM (${detectionsQuery(database, scope)})`,
    format: 'JSONEachRow',
    ...(signal ? { abort_signal: signal } : {}),
  });
  const stream = rs.stream();
  let chunk = '';
  try {
    for await (const rows of stream) {
      for (const row of rows as { text: string }[]) chunk += `${row.text}\n`;
      if (chunk.length >= 65_536) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  } finally {
    stream.destroy();
  }
}
