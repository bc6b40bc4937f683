import type { ClickHouseClient } from '@clickhouse/client';
import { selectRows } from '../clickhouse/client';
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
}

/** Every agent of the account ever seen, with its activity in the range. */
export async function agents(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange,
): Promise<AgentSummary[]> {
  const s = scopeSql(database, scope);
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
  const found = await selectRows<{ agent_id: string; findings: number }>(
    client,
    `SELECT agent_id, uniqExactMerge(finding_ids) AS findings
     FROM ${s.db}.detection_hourly WHERE ${s.account} AND ${s.hours} GROUP BY agent_id`,
  );
  const interactions = new Map(usage.map((r) => [r.agent_id, Number(r.interactions)]));
  const findings = new Map(found.map((r) => [r.agent_id, Number(r.findings)]));
  return seen.map((r) => ({
    agentId: r.agent_id,
    firstSeen: new Date(Number(r.first_seen_ms)).toISOString(),
    lastSeen: new Date(Number(r.last_seen_ms)).toISOString(),
    platforms: r.platforms,
    interactions: interactions.get(r.agent_id) ?? 0,
    findings: findings.get(r.agent_id) ?? 0,
  }));
}
