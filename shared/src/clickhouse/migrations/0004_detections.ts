import { mergeTreeTable } from '../cluster';
import { lowCardinalityString } from '../dialect';
import { byInteraction } from './0001_interactions';
import type { Migration } from './types';

const severity = "Enum8('low' = 1, 'medium' = 2, 'high' = 3, 'critical' = 4)";

/**
 * `detections`: one row per finding per analysis run; `analyses`: one row per run, also with zero
 * findings. Both keep the newest run per key (version = analyzed_ms); queries pick the newest run of
 * each interaction explicitly, because merges are not immediate. On a sharded cluster both are
 * sharded by interaction, so "newest analysis of this interaction" is answered on each shard alone.
 */
export const detections: Migration = {
  id: 4,
  name: 'detections',
  statements: (ctx) => {
    const { dialect, retentionDays } = ctx;
    const lc = lowCardinalityString(dialect);
    const ttl = dialect.ttl ? `TTL received_at + INTERVAL ${retentionDays} DAY` : '';
    return [
      ...mergeTreeTable(ctx, {
        name: 'detections',
        columns: `
        account_id String,
        interaction_id String,
        finding_id String,
        agent_id String,
        received_at DateTime('UTC'),
        received_ms UInt64,
        analyzed_at DateTime('UTC'),
        analyzed_ms UInt64,
        analysis_detector_version ${lc},
        platform ${lc},
        user_id String,
        session_id String,
        conversation_id String,
        detector ${lc},
        detector_version ${lc},
        rule_id ${lc},
        threat_type ${lc},
        severity ${severity},
        confidence Float64,
        field String,
        span_start UInt32,
        span_end UInt32,
        view ${lc},
        entity_type ${lc},
        explanation String,
        masked String
      `,
        engine: 'ReplacingMergeTree',
        engineArgs: 'analyzed_ms',
        layout: `PARTITION BY toYYYYMM(received_at)
      ORDER BY (account_id, toDate(received_at), interaction_id, finding_id)
      ${ttl}`,
        shardingKey: byInteraction,
      }),
      ...mergeTreeTable(ctx, {
        name: 'analyses',
        columns: `
        account_id String,
        interaction_id String,
        agent_id String,
        received_at DateTime('UTC'),
        received_ms UInt64,
        analyzed_at DateTime('UTC'),
        analyzed_ms UInt64,
        detector_version ${lc},
        platform ${lc},
        user_id String,
        session_id String,
        conversation_id String,
        finding_count UInt32
      `,
        engine: 'ReplacingMergeTree',
        engineArgs: 'analyzed_ms',
        layout: `PARTITION BY toYYYYMM(received_at)
      ORDER BY (account_id, toDate(received_at), interaction_id)
      ${ttl}`,
        shardingKey: byInteraction,
      }),
    ];
  },
};
