import { materializedView, mergeTreeTable, storedTable } from '../cluster';
import { rollupVersionsSelect } from '../rollups';
import type { Migration } from './types';

/**
 * The overview's cache of finished hours (shared/src/analytics/overview.ts).
 *
 * `rollup_versions` counts the raw rows written into each (account, hour): every insert into
 * `interactions` or `detections` adds to it, after the rollup views have written their states
 * (ClickHouse runs a table's views in the order of their names, and `rollup_versions_from_*` sorts
 * after `agent_hourly_mv` and `detection_hourly_mv`), and `rebuildRollups` adds to every hour it
 * rebuilds. An hour's version therefore only grows, and grows whenever its rollup states can change.
 *
 * `hourly_summaries` holds one hour's distinct counts as read from the rollup states, with the
 * version they were read at. A summary whose version is the hour's current one is exact; any other is
 * ignored and recomputed. Hours written before this migration have rollup rows and no version: the
 * overview reads them as version 0 until their next write.
 */
export const hourlySummaries: Migration = {
  id: 7,
  name: 'hourly_summaries',
  statements: (ctx) => {
    const ttl = ctx.dialect.ttl ? `TTL hour + INTERVAL ${ctx.retentionDays} DAY` : '';
    return [
      ...mergeTreeTable(ctx, {
        name: 'rollup_versions',
        columns: `
        account_id String,
        hour DateTime('UTC'),
        writes UInt64
      `,
        engine: 'SummingMergeTree',
        layout: `PARTITION BY toYYYYMM(hour)
      ORDER BY (account_id, hour)
      ${ttl}`,
        shardingKey: 'cityHash64(account_id)',
      }),
      materializedView(
        ctx,
        'rollup_versions_from_interactions',
        'rollup_versions',
        rollupVersionsSelect(storedTable(ctx, 'interactions'), 'count()'),
      ),
      materializedView(
        ctx,
        'rollup_versions_from_detections',
        'rollup_versions',
        rollupVersionsSelect(storedTable(ctx, 'detections'), 'count()'),
      ),
      ...mergeTreeTable(ctx, {
        name: 'hourly_summaries',
        columns: `
        account_id String,
        hour DateTime('UTC'),
        version UInt64,
        interactions UInt64,
        failing_interactions UInt64,
        tokens UInt64,
        tool_calls UInt64,
        tool_errors UInt64,
        flagged_interactions UInt64,
        severity_findings Array(UInt64),
        threat_types Array(String),
        threat_findings Array(UInt64),
        threat_interactions Array(UInt64)
      `,
        engine: 'ReplacingMergeTree',
        engineArgs: 'version',
        layout: `PARTITION BY toYYYYMM(hour)
      ORDER BY (account_id, hour)
      ${ttl}`,
        shardingKey: 'cityHash64(account_id)',
      }),
    ];
  },
};
