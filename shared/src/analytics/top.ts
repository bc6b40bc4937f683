import type { ClickHouseClient } from '@clickhouse/client';
import { selectRows } from '../clickhouse/client';
import { sqlString } from '../clickhouse/escape';
import { scopeSql, sqlLimit, type AccountRange } from './scope';

/** What a top list ranks by detections (`threat`: the threat type). */
export const TOP_DIMENSIONS = ['agent', 'rule', 'threat', 'user', 'session'] as const;
export type TopDimension = (typeof TOP_DIMENSIONS)[number];

export interface TopItem {
  /** The agent, rule, user or session id, or the threat type. */
  key: string;
  findings: number;
  /** Interactions with at least one finding. */
  flaggedInteractions: number;
  critical: number;
  high: number;
}

export interface TopScope extends AccountRange {
  by: TopDimension;
  /** 1–100, default 10. */
  limit?: number;
  /** Only this agent's findings. */
  agentId?: string;
}

const RAW_COLUMNS: Record<Exclude<TopDimension, 'agent'>, string> = {
  rule: 'rule_id',
  threat: 'threat_type',
  user: 'user_id',
  session: 'session_id',
};

/**
 * The keys with the most findings in the range, most first (ties by key), with their flagged
 * interactions and critical and high findings.
 *
 * - Agents come from the hourly rollup `detection_hourly` (like the overview's totals, so a top list
 *   adds up with its tiles): ranges are widened to whole hours, and finding and interaction ids are
 *   merged as sets, so a re-inserted block counts once.
 * - Rules, users and sessions are not in the rollups (threat types are, but an agent's page asks
 *   for them next to its rules, so they are counted the same way): they read raw `detections`, only current
 *   findings (the newest analysis of each interaction, `ScopeSql.current`), counted with uniqExact of
 *   the ids, so neither a duplicate row (before ReplacingMergeTree merges it away) nor a superseded
 *   analysis counts. Findings without a user or session id (`''`) rank in no user or session list.
 */
export async function topByDetections(
  client: ClickHouseClient,
  database: string,
  scope: TopScope,
): Promise<TopItem[]> {
  const s = scopeSql(database, scope);
  const limit = sqlLimit(scope.limit, 10);
  if (limit > 100) throw new Error('limit must be between 1 and 100');
  const agent = scope.agentId === undefined ? '' : ` AND agent_id = ${sqlString(scope.agentId)}`;
  // 18.16 substitutes aliases inside aggregates: no alias below names a column it aggregates.
  const query =
    scope.by === 'agent'
      ? `SELECT agent_id AS key, uniqExactMerge(finding_ids) AS findings,
           uniqExactMerge(interaction_ids) AS flagged,
           uniqExactMergeIf(finding_ids, severity = 'critical') AS critical_findings,
           uniqExactMergeIf(finding_ids, severity = 'high') AS high_findings
         FROM ${s.db}.detection_hourly
         WHERE ${s.account} AND ${s.hours}${agent}
         GROUP BY agent_id ORDER BY findings DESC, key LIMIT ${limit}`
      : `SELECT ${RAW_COLUMNS[scope.by]} AS key, uniqExact(finding_id) AS findings,
           uniqExact(interaction_id) AS flagged,
           uniqExactIf(finding_id, severity = 'critical') AS critical_findings,
           uniqExactIf(finding_id, severity = 'high') AS high_findings
         FROM ${s.db}.detections
         WHERE ${s.account} AND ${s.received}${agent} AND ${RAW_COLUMNS[scope.by]} != '' AND ${s.current}
         GROUP BY key ORDER BY findings DESC, key LIMIT ${limit}`;
  const rows = await selectRows<{
    key: string;
    findings: number;
    flagged: number;
    critical_findings: number;
    high_findings: number;
  }>(client, query);
  return rows.map((r) => ({
    key: r.key,
    findings: Number(r.findings),
    flaggedInteractions: Number(r.flagged),
    critical: Number(r.critical_findings),
    high: Number(r.high_findings),
  }));
}
