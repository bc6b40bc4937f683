import type { ClickHouseClient } from '@clickhouse/client';
import { selectRows } from '../clickhouse/client';
import { SEVERITIES, type Severity } from '../schemas/detection';
import { scopeSql, sqlLimit, type AccountRange } from './scope';

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

/** Dashboard headline numbers, from the hourly rollups only (no raw scans, no FINAL). */
export async function overview(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange,
): Promise<Overview> {
  const s = scopeSql(database, scope);
  const rollupWhere = `${s.account} AND ${s.hours}`;
  // Every interaction, and every finding, falls in exactly one (hour, agent) group of the rollups:
  // the range's distinct counts are the sums of each group's, and merging many small sets is far
  // cheaper than one set of every id in the range (measured in bench:api).
  const [[usage], [totals], severities, threats] = await Promise.all([
    selectRows<{
      interactions: number;
      tokens: number;
      tool_calls: number;
      tool_errors: number;
      failing: number;
      agents: number;
    }>(
      client,
      `SELECT sum(interactions) AS interactions, sum(tokens) AS tokens, sum(tool_calls) AS tool_calls,
         sum(tool_errors) AS tool_errors, sum(failing) AS failing, uniqExact(agent_id) AS agents
       FROM (
         SELECT agent_id, uniqExactMerge(interaction_ids) AS interactions, sumMerge(tokens_sum) AS tokens,
           sumMerge(tool_calls_sum) AS tool_calls, sumMerge(tool_errors_sum) AS tool_errors,
           uniqExactIfMerge(failing_interaction_ids) AS failing
         FROM ${s.db}.agent_hourly WHERE ${rollupWhere} GROUP BY hour, agent_id
       )`,
    ),
    selectRows<{ findings: number; interactions: number }>(
      client,
      `SELECT sum(findings) AS findings, sum(interactions) AS interactions
       FROM (
         SELECT uniqExactMerge(finding_ids) AS findings, uniqExactMerge(interaction_ids) AS interactions
         FROM ${s.db}.detection_hourly WHERE ${rollupWhere} GROUP BY hour, agent_id
       )`,
    ),
    selectRows<{ severity: Severity; findings: number }>(
      client,
      `SELECT severity, sum(findings) AS findings
       FROM (
         SELECT severity, uniqExactMerge(finding_ids) AS findings
         FROM ${s.db}.detection_hourly WHERE ${rollupWhere} GROUP BY severity, hour, agent_id
       )
       GROUP BY severity`,
    ),
    selectRows<{ threat_type: string; findings: number; interactions: number }>(
      client,
      `SELECT threat_type, sum(findings) AS findings, sum(interactions) AS interactions
       FROM (
         SELECT threat_type, uniqExactMerge(finding_ids) AS findings, uniqExactMerge(interaction_ids) AS interactions
         FROM ${s.db}.detection_hourly WHERE ${rollupWhere} GROUP BY threat_type, hour, agent_id
       )
       GROUP BY threat_type ORDER BY findings DESC, threat_type`,
    ),
  ]);
  const bySeverity = Object.fromEntries(SEVERITIES.map((sev) => [sev, 0])) as Record<Severity, number>;
  for (const row of severities) bySeverity[row.severity] = Number(row.findings);
  return {
    interactions: Number(usage?.interactions ?? 0),
    tokens: Number(usage?.tokens ?? 0),
    toolCalls: Number(usage?.tool_calls ?? 0),
    toolErrors: Number(usage?.tool_errors ?? 0),
    interactionsWithToolErrors: Number(usage?.failing ?? 0),
    activeAgents: Number(usage?.agents ?? 0),
    findings: Number(totals?.findings ?? 0),
    flaggedInteractions: Number(totals?.interactions ?? 0),
    bySeverity,
    byThreatType: threats.map((r) => ({
      threatType: r.threat_type,
      findings: Number(r.findings),
      interactions: Number(r.interactions),
    })),
  };
}

export interface HourlyActivity {
  /** `YYYY-MM-DD hh:00:00` UTC */
  hour: string;
  interactions: number;
  tokens: number;
  findings: number;
}

/** Interactions, tokens and findings per hour (rollups); hours without traffic are absent. */
export async function hourlyActivity(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange,
): Promise<HourlyActivity[]> {
  const s = scopeSql(database, scope);
  const where = `${s.account} AND ${s.hours}`;
  const usage = await selectRows<{ hour: string; interactions: number; tokens: number }>(
    client,
    `SELECT hour, sum(interactions) AS interactions, sum(tokens) AS tokens
     FROM (
       SELECT hour, uniqExactMerge(interaction_ids) AS interactions, sumMerge(tokens_sum) AS tokens
       FROM ${s.db}.agent_hourly WHERE ${where} GROUP BY hour, agent_id
     )
     GROUP BY hour ORDER BY hour`,
  );
  const found = await selectRows<{ hour: string; findings: number }>(
    client,
    `SELECT hour, sum(findings) AS findings
     FROM (
       SELECT hour, uniqExactMerge(finding_ids) AS findings
       FROM ${s.db}.detection_hourly WHERE ${where} GROUP BY hour, agent_id
     )
     GROUP BY hour ORDER BY hour`,
  );
  const byHour = new Map<string, HourlyActivity>();
  for (const r of usage)
    byHour.set(r.hour, {
      hour: r.hour,
      interactions: Number(r.interactions),
      tokens: Number(r.tokens),
      findings: 0,
    });
  for (const r of found) {
    const row = byHour.get(r.hour) ?? { hour: r.hour, interactions: 0, tokens: 0, findings: 0 };
    row.findings = Number(r.findings);
    byHour.set(r.hour, row);
  }
  return [...byHour.values()].sort((a, b) => a.hour.localeCompare(b.hour));
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
