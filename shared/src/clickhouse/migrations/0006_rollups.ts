import { lowCardinalityString } from '../dialect';
import { agentHourlySelect, detectionHourlySelect } from '../rollups';
import type { Migration } from './types';

/**
 * Hourly rollups the overview reads instead of scanning raw rows. The views start counting at
 * creation; rows already in the raw tables are folded in with `rebuildRollups` (idempotent), not here.
 */
export const rollups: Migration = {
  id: 6,
  name: 'rollups',
  statements: ({ db, dialect, retentionDays }) => {
    const lc = lowCardinalityString(dialect);
    const ttl = dialect.ttl ? `TTL hour + INTERVAL ${retentionDays} DAY` : '';
    return [
      `CREATE TABLE IF NOT EXISTS ${db}.agent_hourly (
        account_id String,
        hour DateTime('UTC'),
        agent_id String,
        platform ${lc},
        model ${lc},
        interaction_ids AggregateFunction(uniqExact, String),
        failing_interaction_ids AggregateFunction(uniqExactIf, String, UInt8),
        tokens_sum AggregateFunction(sum, UInt32),
        tool_calls_sum AggregateFunction(sum, UInt16),
        tool_errors_sum AggregateFunction(sum, UInt16)
      ) ENGINE = AggregatingMergeTree
      PARTITION BY toYYYYMM(hour)
      ORDER BY (account_id, hour, agent_id, platform, model)
      ${ttl}`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.agent_hourly_mv TO ${db}.agent_hourly AS
      ${agentHourlySelect(`${db}.interactions`)}`,
      `CREATE TABLE IF NOT EXISTS ${db}.detection_hourly (
        account_id String,
        hour DateTime('UTC'),
        threat_type ${lc},
        severity Enum8('low' = 1, 'medium' = 2, 'high' = 3, 'critical' = 4),
        agent_id String,
        platform ${lc},
        finding_ids AggregateFunction(uniqExact, String),
        interaction_ids AggregateFunction(uniqExact, String)
      ) ENGINE = AggregatingMergeTree
      PARTITION BY toYYYYMM(hour)
      ORDER BY (account_id, hour, threat_type, severity, agent_id, platform)
      ${ttl}`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.detection_hourly_mv TO ${db}.detection_hourly AS
      ${detectionHourlySelect(`${db}.detections`)}`,
    ];
  },
};
