import { mergeTreeTable } from '../cluster';
import { lowCardinalityString } from '../dialect';
import type { Migration } from './types';

/** Where an interaction's rows go on a sharded cluster: its copies, analyses and findings together. */
export const byInteraction = 'cityHash64(account_id, interaction_id)';

/** Interactions, one row per accepted record; replays and retries collapse on the sorting key. */
export const interactions: Migration = {
  id: 1,
  name: 'interactions',
  statements: (ctx) => {
    const { dialect, retentionDays } = ctx;
    const lc = lowCardinalityString(dialect);
    const ttl = dialect.ttl ? `TTL received_at + INTERVAL ${retentionDays} DAY` : '';
    return mergeTreeTable(ctx, {
      name: 'interactions',
      columns: `
        account_id String,
        interaction_id String,
        agent_id String,
        received_at DateTime('UTC'),
        received_ms UInt64,
        event_time DateTime('UTC'),
        endpoint ${lc},
        platform ${lc},
        user_id String,
        session_id String,
        conversation_id String,
        chatflow_id String,
        chat_id String,
        app_id String,
        workflow_id String,
        execution_id String,
        node_id String,
        prompt String,
        response String,
        model ${lc},
        model_provider ${lc},
        environment ${lc},
        tokens_used UInt32,
        response_time_ms UInt32,
        tool_call_count UInt16,
        tool_names Array(String),
        tool_failures UInt16,
        tool_calls String,
        metadata String,
        extra String,
        schema_version UInt8
      `,
      engine: 'ReplacingMergeTree',
      engineArgs: 'received_ms',
      layout: `PARTITION BY toYYYYMM(received_at)
      ORDER BY (account_id, toDate(received_at), agent_id, interaction_id)
      ${ttl}`,
      shardingKey: byInteraction,
    });
  },
};
