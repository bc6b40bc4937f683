import { mergeTreeTable } from '../cluster';
import { lowCardinalityString } from '../dialect';
import type { Migration } from './types';

/** Platform lifecycle events (no prompt/response); a re-inserted event collapses on its id. */
export const events: Migration = {
  id: 3,
  name: 'events',
  statements: (ctx) => {
    const { dialect, retentionDays } = ctx;
    const lc = lowCardinalityString(dialect);
    const ttl = dialect.ttl ? `TTL received_at + INTERVAL ${retentionDays} DAY` : '';
    return mergeTreeTable(ctx, {
      name: 'events',
      columns: `
        account_id String,
        event_id String,
        agent_id String,
        event_type ${lc},
        received_at DateTime('UTC'),
        received_ms UInt64,
        occurred_at DateTime('UTC'),
        occurred_ms UInt64,
        endpoint ${lc},
        platform ${lc},
        user_id String,
        session_id String,
        conversation_id String,
        app_id String,
        workflow_id String,
        execution_id String,
        node_id String,
        message_id String,
        data String,
        schema_version UInt8
      `,
      engine: 'ReplacingMergeTree',
      engineArgs: 'received_ms',
      layout: `PARTITION BY toYYYYMM(received_at)
      ORDER BY (account_id, toDate(received_at), event_id)
      ${ttl}`,
      shardingKey: 'cityHash64(account_id, event_id)',
    });
  },
};
