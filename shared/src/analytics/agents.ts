import type { ClickHouseClient } from '@clickhouse/client';
import { selectRows } from '../clickhouse/client';
import { sqlString } from '../clickhouse/escape';
import { SEVERITIES, type Severity } from '../schemas/detection';
import { scopeSql, type AccountRange } from './scope';

export interface AgentSummary {
  agentId: string;
  /** ISO; from interactions and lifecycle events, over all retained time. */
  firstSeen: string;
  lastSeen: string;
  platforms: string[];
  /** In the requested range (rollups). */
  interactions: number;
  findings: number;
  /** Findings in the range per severity (rollups); every severity present, 0 when none. */
  bySeverity: Record<Severity, number>;
}

/** Every agent of the account ever seen (or only `agentId`), with its activity in the range. */
export async function agents(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange & { agentId?: string },
): Promise<AgentSummary[]> {
  const base = scopeSql(database, scope);
  const s =
    scope.agentId === undefined
      ? base
      : { ...base, account: `${base.account} AND agent_id = ${sqlString(scope.agentId)}` };
  const seen = await selectRows<{
    agent_id: string;
    first_seen_ms: number;
    last_seen_ms: number;
    platforms: string[];
  }>(
    client,
    `SELECT agent_id, minMerge(first_seen) AS first_seen_ms, maxMerge(last_seen) AS last_seen_ms,
       arraySort(groupUniqArrayMerge(platform_set)) AS platforms
     FROM ${s.db}.agents WHERE ${s.account}
     GROUP BY agent_id ORDER BY agent_id`,
  );
  const usage = await selectRows<{ agent_id: string; interactions: number }>(
    client,
    `SELECT agent_id, uniqExactMerge(interaction_ids) AS interactions
     FROM ${s.db}.agent_hourly WHERE ${s.account} AND ${s.hours} GROUP BY agent_id`,
  );
  // A finding has one severity, so the per-severity counts add up to the agent's findings.
  const found = await selectRows<{ agent_id: string; severity: Severity; findings: number }>(
    client,
    `SELECT agent_id, severity, uniqExactMerge(finding_ids) AS findings
     FROM ${s.db}.detection_hourly WHERE ${s.account} AND ${s.hours} GROUP BY agent_id, severity`,
  );
  const interactions = new Map(usage.map((r) => [r.agent_id, Number(r.interactions)]));
  const none = () => Object.fromEntries(SEVERITIES.map((sev) => [sev, 0])) as Record<Severity, number>;
  const severities = new Map<string, Record<Severity, number>>();
  for (const r of found) {
    const counts = severities.get(r.agent_id) ?? none();
    counts[r.severity] = Number(r.findings);
    severities.set(r.agent_id, counts);
  }
  return seen.map((r) => ({
    agentId: r.agent_id,
    firstSeen: new Date(Number(r.first_seen_ms)).toISOString(),
    lastSeen: new Date(Number(r.last_seen_ms)).toISOString(),
    platforms: r.platforms,
    interactions: interactions.get(r.agent_id) ?? 0,
    findings: Object.values(severities.get(r.agent_id) ?? {}).reduce((a, b) => a + b, 0),
    bySeverity: severities.get(r.agent_id) ?? none(),
  }));
}
