import { materializedView, mergeTreeTable, storedTable } from '../cluster';
import { lowCardinalityString } from '../dialect';
import { agentHourlySelect, detectionHourlySelect } from '../rollups';
import type { Migration } from './types';

/**
 * Hourly rollups the overview reads instead of scanning raw rows. The views start counting at
 * creation; rows already in the raw tables are folded in with `rebuildRollups` (idempotent), not here.
 * On a cluster the views read each server's stored rows and write its replicated rollup tables.
 */
export const rollups: Migration = {
  id: 6,
  name: 'rollups',
  statements: (ctx) => {
    const { dialect, retentionDays } = ctx;
    const lc = lowCardinalityString(dialect);
    const ttl = dialect.ttl ? `TTL hour + INTERVAL ${retentionDays} DAY` : '';
    return [
      ...mergeTreeTable(ctx, {
        name: 'agent_hourly',
        columns: `
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
      `,
        engine: 'AggregatingMergeTree',
        layout: `PARTITION BY toYYYYMM(hour)
      ORDER BY (account_id, hour, agent_id, platform, model)
      ${ttl}`,
        shardingKey: 'cityHash64(account_id, agent_id)',
      }),
      materializedView(
        ctx,
        'agent_hourly_mv',
        'agent_hourly',
        agentHourlySelect(storedTable(ctx, 'interactions')),
      ),
      ...mergeTreeTable(ctx, {
        name: 'detection_hourly',
        columns: `
        account_id String,
        hour DateTime('UTC'),
        threat_type ${lc},
        severity Enum8('low' = 1, 'medium' = 2, 'high' = 3, 'critical' = 4),
        agent_id String,
        platform ${lc},
        finding_ids AggregateFunction(uniqExact, String),
        interaction_ids AggregateFunction(uniqExact, String)
      `,
        engine: 'AggregatingMergeTree',
        layout: `PARTITION BY toYYYYMM(hour)
      ORDER BY (account_id, hour, threat_type, severity, agent_id, platform)
      ${ttl}`,
        shardingKey: 'cityHash64(account_id, agent_id)',
      }),
      materializedView(
        ctx,
        'detection_hourly_mv',
        'detection_hourly',
        detectionHourlySelect(storedTable(ctx, 'detections')),
      ),
    ];
  },
};
