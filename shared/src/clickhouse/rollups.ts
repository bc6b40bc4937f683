import { timeFilter } from './range';

/**
 * The rollup SELECTs, written once: the materialized views run them on every inserted block, and
 * `rebuildRollups` runs them over the raw tables' current rows for a range of hours.
 *
 * Counting rules (see docs/analytics.md "How to count correctly"):
 * - interactions and findings are counted as sets (`uniqExactState` of the id), so a block that the
 *   sink inserts twice (crash after insert, before the offset commit) or a replayed finding with the
 *   same `finding_id` adds nothing.
 * - tokens, tool calls and tool errors are plain sums: a re-inserted block adds them again. That is the
 *   one overcount the rollups can carry; `rebuildRollups` over the affected hours removes it, because
 *   it re-aggregates from `interactions FINAL` (one row per interaction).
 * State columns are named for what they hold (`interaction_ids`, `tokens_sum`) and never like a
 * source column or a query alias: 18.16 substitutes aliases inside aggregates, so `sumMerge(tokens) AS
 * tokens` next to another aggregate of `tokens` fails with "aggregate function inside another".
 */
export function agentHourlySelect(source: string, where?: string): string {
  return `SELECT
    account_id,
    toStartOfHour(received_at) AS hour,
    agent_id,
    platform,
    model,
    uniqExactState(interaction_id) AS interaction_ids,
    uniqExactIfState(interaction_id, tool_failures > 0) AS failing_interaction_ids,
    sumState(tokens_used) AS tokens_sum,
    sumState(tool_call_count) AS tool_calls_sum,
    sumState(tool_failures) AS tool_errors_sum
  FROM ${source}${where ? `\n  WHERE ${where}` : ''}
  GROUP BY account_id, hour, agent_id, platform, model`;
}

export function detectionHourlySelect(source: string, where?: string): string {
  return `SELECT
    account_id,
    toStartOfHour(received_at) AS hour,
    threat_type,
    severity,
    agent_id,
    platform,
    uniqExactState(finding_id) AS finding_ids,
    uniqExactState(interaction_id) AS interaction_ids
  FROM ${source}${where ? `\n  WHERE ${where}` : ''}
  GROUP BY account_id, hour, threat_type, severity, agent_id, platform`;
}

/**
 * Rows of `rollup_versions` (migration 7): `writes` added to each (account, hour) a block touches.
 * `hourColumn` names a column that already holds the hour (the rollups); raw tables derive it.
 */
export function rollupVersionsSelect(source: string, writes: string, hourColumn?: string): string {
  const hour = hourColumn ?? 'toStartOfHour(received_at)';
  return `SELECT account_id, ${hour} AS hour, ${writes} AS writes
  FROM ${source}
  GROUP BY account_id, hour`;
}

/**
 * First/last seen are min/max: idempotent, so the `agents` table needs no rebuild after retries.
 * The CAST keeps the state type `groupUniqArray(String)` where `platform` is LowCardinality.
 */
export function agentsSelect(source: string): string {
  return `SELECT
    account_id,
    agent_id,
    minState(received_ms) AS first_seen,
    maxState(received_ms) AS last_seen,
    groupUniqArrayState(CAST(platform, 'String')) AS platform_set
  FROM ${source}
  GROUP BY account_id, agent_id`;
}

/**
 * "Current" findings: the rows written by the newest analysis of their interaction. An analysis with
 * zero findings is newest too, which is how a replay clears an interaction. `db` is a validated
 * identifier; `accountFilter` is empty or `account_id = <sqlString literal>`.
 *
 * The set ClickHouse builds for the IN holds only interactions that some analysis found something in
 * (the others have no finding rows to select), and, within one account, no account column: at
 * 1,000,000 analyses, a third with findings, a top list took 1.5 s instead of 7.5 s on 18.16.
 */
export function currentDetectionsCondition(
  db: string,
  range: { fromMs: number; toMs: number },
  accountFilter = '',
): string {
  const where = [accountFilter, timeFilter('received_at', range.fromMs, range.toMs)]
    .filter(Boolean)
    .join(' AND ');
  // Interaction ids are unique within an account only: across accounts the account is part of the key.
  const interaction = accountFilter ? 'interaction_id' : 'account_id, interaction_id';
  return `(${interaction}, analyzed_ms) IN (
    SELECT ${interaction}, max(analyzed_ms)
    FROM ${db}.analyses
    WHERE ${where}
    GROUP BY ${interaction}
    HAVING max(finding_count) > 0)`;
}
