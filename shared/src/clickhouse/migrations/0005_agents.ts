import { agentsSelect } from '../rollups';
import type { Migration } from './types';

/** First/last seen per account and agent, fed by interactions and lifecycle events alike. */
export const agents: Migration = {
  id: 5,
  name: 'agents',
  statements: ({ db }) => [
    `CREATE TABLE IF NOT EXISTS ${db}.agents (
      account_id String,
      agent_id String,
      first_seen AggregateFunction(min, UInt64),
      last_seen AggregateFunction(max, UInt64),
      platform_set AggregateFunction(groupUniqArray, String)
    ) ENGINE = AggregatingMergeTree
    ORDER BY (account_id, agent_id)`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.agents_from_interactions TO ${db}.agents AS
    ${agentsSelect(`${db}.interactions`)}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.agents_from_events TO ${db}.agents AS
    ${agentsSelect(`${db}.events`)}`,
  ],
};
