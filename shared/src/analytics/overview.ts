import type { ClickHouseClient } from '@clickhouse/client';
import { selectRows } from '../clickhouse/client';
import { SEVERITIES, type Severity } from '../schemas/detection';
import { sqlDateTime } from '../clickhouse/range';
import { scopeSql, sqlLimit, type AccountRange, type ScopeSql } from './scope';

export interface Overview {
  interactions: number;
  /** Plain sum: can run high after a re-inserted block until `rebuildRollups` (docs/analytics.md). */
  tokens: number;
  toolCalls: number;
  toolErrors: number;
  interactionsWithToolErrors: number;
  activeAgents: number;
  findings: number;
  flaggedInteractions: number;
  bySeverity: Record<Severity, number>;
  byThreatType: { threatType: string; findings: number; interactions: number }[];
}

/** Findings per severity, and findings and flagged interactions per threat type, of a span of time. */
interface Findings {
  flaggedInteractions: number;
  bySeverity: Record<Severity, number>;
  byThreat: Map<string, { findings: number; interactions: number }>;
}

/** One hour of the overview: every figure is a distinct count or a sum over that hour alone. */
interface HourSummary extends Findings {
  /** `YYYY-MM-DD hh:00:00` UTC */
  hour: string;
  interactions: number;
  failing: number;
  tokens: number;
  toolCalls: number;
  toolErrors: number;
}

function emptyHour(hour: string): HourSummary {
  return {
    hour,
    interactions: 0,
    failing: 0,
    tokens: 0,
    toolCalls: 0,
    toolErrors: 0,
    flaggedInteractions: 0,
    bySeverity: Object.fromEntries(SEVERITIES.map((sev) => [sev, 0])) as Record<Severity, number>,
    byThreat: new Map(),
  };
}

const hourMs = (hour: string) => Date.parse(`${hour.replace(' ', 'T')}Z`);

/**
 * Hours summed from the rollup states. Every interaction and every finding falls in exactly one
 * (hour, agent) group, so an hour's distinct counts are the sums of its groups'. `hoursWhere` narrows
 * the account's rows to the hours wanted.
 */
async function hoursFromStates(
  client: ClickHouseClient,
  db: string,
  where: string,
): Promise<Map<string, HourSummary>> {
  const [usage, findings, threats, flagged] = await Promise.all([
    selectRows<{
      hour: string;
      interactions: number;
      failing: number;
      tokens: number;
      calls: number;
      errors: number;
    }>(
      client,
      `SELECT hour, sum(interactions) AS interactions, sum(failing) AS failing, sum(tokens) AS tokens,
         sum(tool_calls) AS calls, sum(tool_errors) AS errors
       FROM (
         SELECT hour, uniqExactMerge(interaction_ids) AS interactions,
           uniqExactIfMerge(failing_interaction_ids) AS failing, sumMerge(tokens_sum) AS tokens,
           sumMerge(tool_calls_sum) AS tool_calls, sumMerge(tool_errors_sum) AS tool_errors
         FROM ${db}.agent_hourly WHERE ${where} GROUP BY hour, agent_id
       )
       GROUP BY hour`,
    ),
    selectRows<{ hour: string; severity: Severity; threat_type: string; findings: number }>(
      client,
      `SELECT hour, severity, threat_type, sum(findings) AS findings
       FROM (
         SELECT hour, severity, threat_type, uniqExactMerge(finding_ids) AS findings
         FROM ${db}.detection_hourly WHERE ${where} GROUP BY hour, agent_id, threat_type, severity
       )
       GROUP BY hour, severity, threat_type`,
    ),
    selectRows<{ hour: string; threat_type: string; interactions: number }>(
      client,
      `SELECT hour, threat_type, sum(interactions) AS interactions
       FROM (
         SELECT hour, threat_type, uniqExactMerge(interaction_ids) AS interactions
         FROM ${db}.detection_hourly WHERE ${where} GROUP BY hour, agent_id, threat_type
       )
       GROUP BY hour, threat_type`,
    ),
    selectRows<{ hour: string; interactions: number }>(
      client,
      `SELECT hour, sum(interactions) AS interactions
       FROM (
         SELECT hour, uniqExactMerge(interaction_ids) AS interactions
         FROM ${db}.detection_hourly WHERE ${where} GROUP BY hour, agent_id
       )
       GROUP BY hour`,
    ),
  ]);
  const hours = new Map<string, HourSummary>();
  const at = (hour: string) => {
    let h = hours.get(hour);
    if (!h) hours.set(hour, (h = emptyHour(hour)));
    return h;
  };
  for (const r of usage)
    Object.assign(at(r.hour), {
      interactions: Number(r.interactions),
      failing: Number(r.failing),
      tokens: Number(r.tokens),
      toolCalls: Number(r.calls),
      toolErrors: Number(r.errors),
    });
  for (const r of findings) {
    const h = at(r.hour);
    h.bySeverity[r.severity] += Number(r.findings);
    const t = h.byThreat.get(r.threat_type) ?? { findings: 0, interactions: 0 };
    t.findings += Number(r.findings);
    h.byThreat.set(r.threat_type, t);
  }
  for (const r of threats) {
    const t = at(r.hour).byThreat.get(r.threat_type) ?? { findings: 0, interactions: 0 };
    t.interactions += Number(r.interactions);
    at(r.hour).byThreat.set(r.threat_type, t);
  }
  for (const r of flagged) at(r.hour).flaggedInteractions = Number(r.interactions);
  return hours;
}

/** A row of `hourly_summaries` (migration 7). */
interface StoredSummary {
  hour: string;
  stored_version: number;
  interactions: number;
  failing_interactions: number;
  tokens: number;
  tool_calls: number;
  tool_errors: number;
  flagged_interactions: number;
  severity_findings: number[];
  threat_types: string[];
  threat_findings: number[];
  threat_interactions: number[];
}

function fromStored(r: StoredSummary): HourSummary {
  const h = emptyHour(r.hour);
  Object.assign(h, {
    interactions: Number(r.interactions),
    failing: Number(r.failing_interactions),
    tokens: Number(r.tokens),
    toolCalls: Number(r.tool_calls),
    toolErrors: Number(r.tool_errors),
    flaggedInteractions: Number(r.flagged_interactions),
  });
  SEVERITIES.forEach((sev, i) => (h.bySeverity[sev] = Number(r.severity_findings[i] ?? 0)));
  r.threat_types.forEach((t, i) =>
    h.byThreat.set(t, {
      findings: Number(r.threat_findings[i] ?? 0),
      interactions: Number(r.threat_interactions[i] ?? 0),
    }),
  );
  return h;
}

function toStored(accountId: string, version: number, h: HourSummary) {
  const threats = [...h.byThreat.entries()];
  return {
    account_id: accountId,
    hour: h.hour,
    version,
    interactions: h.interactions,
    failing_interactions: h.failing,
    tokens: h.tokens,
    tool_calls: h.toolCalls,
    tool_errors: h.toolErrors,
    flagged_interactions: h.flaggedInteractions,
    severity_findings: SEVERITIES.map((sev) => h.bySeverity[sev]),
    threat_types: threats.map(([t]) => t),
    threat_findings: threats.map(([, v]) => v.findings),
    threat_interactions: threats.map(([, v]) => v.interactions),
  };
}

/** Hours that started this long ago are summarised once and kept; younger ones are read live. */
const SETTLED_AFTER_MS = 2 * 3_600_000;
/** Above this many hours to recompute, one range query is cheaper than a list of hours. */
const HOUR_LIST_MAX = 48;

export interface OverviewOptions {
  /** A summary that could not be stored (the answer is still exact): the caller logs it. */
  onCacheError?: (err: unknown) => void;
  nowMs?: number;
}

/**
 * The range's hours, from `hourly_summaries` where an hour's stored summary was read at its current
 * version (`rollup_versions`), and from the rollup states otherwise. Recomputed hours that started
 * over two hours ago are stored for the next reader. The versions are read before the states, so a
 * stored summary holds at least what its version counts, and any later write raises the version.
 * An hour with rollup rows and no version yet (written before migration 7) is at version 0.
 */
async function summarisedHours(
  client: ClickHouseClient,
  s: ScopeSql,
  accountId: string,
  opts: OverviewOptions,
): Promise<HourSummary[]> {
  const where = `${s.account} AND ${s.hours}`;
  const [versions, stored] = await Promise.all([
    selectRows<{ hour: string; version: number }>(
      client,
      `SELECT hour, sum(writes) AS version FROM (
         SELECT hour, writes FROM ${s.db}.rollup_versions WHERE ${where}
         UNION ALL SELECT DISTINCT hour, toUInt64(0) AS writes FROM ${s.db}.agent_hourly WHERE ${where}
         UNION ALL SELECT DISTINCT hour, toUInt64(0) AS writes FROM ${s.db}.detection_hourly WHERE ${where}
       )
       GROUP BY hour`,
    ),
    selectRows<StoredSummary>(
      client,
      `SELECT hour, max(version) AS stored_version, ${[
        'interactions',
        'failing_interactions',
        'tokens',
        'tool_calls',
        'tool_errors',
        'flagged_interactions',
        'severity_findings',
        'threat_types',
        'threat_findings',
        'threat_interactions',
      ]
        .map((c) => `argMax(${c}, version) AS ${c}`)
        .join(', ')}
       FROM ${s.db}.hourly_summaries WHERE ${where} GROUP BY hour`,
    ),
  ]);
  const cached = new Map(stored.map((r) => [r.hour, r]));
  const result = new Map<string, HourSummary>();
  const stale: { hour: string; version: number }[] = [];
  for (const v of versions) {
    const hit = cached.get(v.hour);
    if (hit && Number(hit.stored_version) === Number(v.version)) result.set(v.hour, fromStored(hit));
    else stale.push(v);
  }
  if (stale.length) {
    const narrowed =
      stale.length > HOUR_LIST_MAX
        ? where
        : `${s.account} AND hour IN (${stale.map((v) => sqlDateTime(hourMs(v.hour))).join(', ')})`;
    const live = await hoursFromStates(client, s.db, narrowed);
    const settled = (opts.nowMs ?? Date.now()) - SETTLED_AFTER_MS;
    const rows = [];
    for (const v of stale) {
      const h = live.get(v.hour) ?? emptyHour(v.hour);
      result.set(v.hour, h);
      if (hourMs(v.hour) < settled) rows.push(toStored(accountId, Number(v.version), h));
    }
    if (rows.length)
      await client
        .insert({ table: `${s.db}.hourly_summaries`, values: rows, format: 'JSONEachRow' })
        .catch((err: unknown) => opts.onCacheError?.(err));
  }
  return [...result.values()].filter((h) => h.interactions > 0 || totalFindings(h) > 0);
}

function totalFindings(f: Findings): number {
  return SEVERITIES.reduce((n, sev) => n + f.bySeverity[sev], 0);
}

export interface HourlyActivity {
  /** `YYYY-MM-DD hh:00:00` UTC */
  hour: string;
  interactions: number;
  tokens: number;
  findings: number;
  bySeverity: Record<Severity, number>;
}

export interface OverviewWithActivity {
  overview: Overview;
  /** Hours without interactions or findings are absent. */
  hours: HourlyActivity[];
}

function combine(hours: HourSummary[], activeAgents: number): OverviewWithActivity {
  const total = emptyHour('');
  for (const h of hours) {
    total.interactions += h.interactions;
    total.failing += h.failing;
    total.tokens += h.tokens;
    total.toolCalls += h.toolCalls;
    total.toolErrors += h.toolErrors;
    total.flaggedInteractions += h.flaggedInteractions;
    for (const sev of SEVERITIES) total.bySeverity[sev] += h.bySeverity[sev];
    for (const [t, v] of h.byThreat) {
      const sum = total.byThreat.get(t) ?? { findings: 0, interactions: 0 };
      sum.findings += v.findings;
      sum.interactions += v.interactions;
      total.byThreat.set(t, sum);
    }
  }
  return {
    overview: {
      interactions: total.interactions,
      tokens: total.tokens,
      toolCalls: total.toolCalls,
      toolErrors: total.toolErrors,
      interactionsWithToolErrors: total.failing,
      activeAgents,
      findings: totalFindings(total),
      flaggedInteractions: total.flaggedInteractions,
      bySeverity: total.bySeverity,
      byThreatType: [...total.byThreat.entries()]
        .map(([threatType, v]) => ({ threatType, ...v }))
        .sort((a, b) => b.findings - a.findings || a.threatType.localeCompare(b.threatType)),
    },
    hours: hours
      .map((h) => ({
        hour: h.hour,
        interactions: h.interactions,
        tokens: h.tokens,
        findings: totalFindings(h),
        bySeverity: h.bySeverity,
      }))
      .sort((a, b) => a.hour.localeCompare(b.hour)),
  };
}

async function activeAgents(client: ClickHouseClient, s: ScopeSql): Promise<number> {
  const [row] = await selectRows<{ agents: number }>(
    client,
    `SELECT uniqExact(agent_id) AS agents FROM ${s.db}.agent_hourly WHERE ${s.account} AND ${s.hours}`,
  );
  return Number(row?.agents ?? 0);
}

/**
 * The dashboard's headline numbers and their hourly series, from the hourly rollups only (no raw
 * scans, no FINAL), with finished hours served from their stored summaries (migration 7): a 30-day
 * overview merges the states of the last hours only. Exact: see `summarisedHours`.
 */
export async function overviewWithActivity(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange,
  opts: OverviewOptions = {},
): Promise<OverviewWithActivity> {
  const s = scopeSql(database, scope);
  const [hours, agents] = await Promise.all([
    summarisedHours(client, s, scope.accountId, opts),
    activeAgents(client, s),
  ]);
  return combine(hours, agents);
}

/** The same answer read from the rollup states alone, every hour merged again (the bench's baseline). */
export async function overviewFromStates(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange,
): Promise<OverviewWithActivity> {
  const s = scopeSql(database, scope);
  const [hours, agents] = await Promise.all([
    hoursFromStates(client, s.db, `${s.account} AND ${s.hours}`),
    activeAgents(client, s),
  ]);
  return combine([...hours.values()], agents);
}

/** Dashboard headline numbers (see `overviewWithActivity`). */
export async function overview(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange,
  opts?: OverviewOptions,
): Promise<Overview> {
  return (await overviewWithActivity(client, database, scope, opts)).overview;
}

/** Interactions, tokens and findings per hour (see `overviewWithActivity`). */
export async function hourlyActivity(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange,
  opts?: OverviewOptions,
): Promise<HourlyActivity[]> {
  return (await overviewWithActivity(client, database, scope, opts)).hours;
}

export interface AgentDetections {
  agentId: string;
  findings: number;
  flaggedInteractions: number;
  critical: number;
}

/** Agents ranked by findings in the range (rollups). */
export async function topAgentsByDetections(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange & { limit?: number },
): Promise<AgentDetections[]> {
  const s = scopeSql(database, scope);
  const rows = await selectRows<{
    agent_id: string;
    findings: number;
    interactions: number;
    critical: number;
  }>(
    client,
    `SELECT agent_id, uniqExactMerge(finding_ids) AS findings, uniqExactMerge(interaction_ids) AS interactions,
       uniqExactMergeIf(finding_ids, severity = 'critical') AS critical
     FROM ${s.db}.detection_hourly WHERE ${s.account} AND ${s.hours}
     GROUP BY agent_id ORDER BY findings DESC, agent_id LIMIT ${sqlLimit(scope.limit, 10)}`,
  );
  return rows.map((r) => ({
    agentId: r.agent_id,
    findings: Number(r.findings),
    flaggedInteractions: Number(r.interactions),
    critical: Number(r.critical),
  }));
}

export interface ModelTokens {
  model: string;
  interactions: number;
  tokens: number;
}

/** Token use per model (rollups; `model` is '' where the client did not say). */
export async function tokensByModel(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange,
): Promise<ModelTokens[]> {
  const s = scopeSql(database, scope);
  const rows = await selectRows<{ model: string; interactions: number; tokens: number }>(
    client,
    `SELECT model, uniqExactMerge(interaction_ids) AS interactions, sumMerge(tokens_sum) AS tokens
     FROM ${s.db}.agent_hourly WHERE ${s.account} AND ${s.hours}
     GROUP BY model ORDER BY tokens DESC, model`,
  );
  return rows.map((r) => ({
    model: r.model,
    interactions: Number(r.interactions),
    tokens: Number(r.tokens),
  }));
}

export interface PlatformDetections {
  platform: string;
  threatType: string;
  findings: number;
  flaggedInteractions: number;
}

/** Findings per platform and threat type (rollups). */
export async function detectionsByPlatform(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange,
): Promise<PlatformDetections[]> {
  const s = scopeSql(database, scope);
  const rows = await selectRows<{
    platform: string;
    threat_type: string;
    findings: number;
    interactions: number;
  }>(
    client,
    `SELECT platform, threat_type, uniqExactMerge(finding_ids) AS findings,
       uniqExactMerge(interaction_ids) AS interactions
     FROM ${s.db}.detection_hourly WHERE ${s.account} AND ${s.hours}
     GROUP BY platform, threat_type ORDER BY platform, threat_type`,
  );
  return rows.map((r) => ({
    platform: r.platform,
    threatType: r.threat_type,
    findings: Number(r.findings),
    flaggedInteractions: Number(r.interactions),
  }));
}
