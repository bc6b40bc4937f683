import { materializedView, mergeTreeTable, storedTable } from '../cluster';
import { agentsSelect } from '../rollups';
import type { Migration } from './types';

/** First/last seen per account and agent, fed by interactions and lifecycle events alike. */
export const agents: Migration = {
  id: 5,
  name: 'agents',
  statements: (ctx) => [
    ...mergeTreeTable(ctx, {
      name: 'agents',
      columns: `
      account_id String,
      agent_id String,
      first_seen AggregateFunction(min, UInt64),
      last_seen AggregateFunction(max, UInt64),
      platform_set AggregateFunction(groupUniqArray, String)
    `,
      engine: 'AggregatingMergeTree',
      layout: 'ORDER BY (account_id, agent_id)',
      shardingKey: 'cityHash64(account_id, agent_id)',
    }),
    materializedView(
      ctx,
      'agents_from_interactions',
      'agents',
      agentsSelect(storedTable(ctx, 'interactions')),
    ),
    materializedView(ctx, 'agents_from_events', 'agents', agentsSelect(storedTable(ctx, 'events'))),
  ],
};
