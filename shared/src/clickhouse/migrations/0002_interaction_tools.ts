import { distributedTable, onCluster, storedTable, storedTableName } from '../cluster';
import { byInteraction } from './0001_interactions';
import type { Migration } from './types';

/** Per-call failure flags and durations, parallel to `tool_names`, so failures group by tool. */
export const interactionTools: Migration = {
  id: 2,
  name: 'interaction_tools',
  statements: async (ctx) => {
    // 18.16 has no ADD COLUMN IF NOT EXISTS: look before adding, so a rerun is harmless.
    const have = await ctx.columnsOf(storedTableName(ctx, 'interactions'));
    const add: string[] = [];
    if (!have.has('tool_failed')) add.push('ADD COLUMN tool_failed Array(UInt8) AFTER tool_failures');
    if (!have.has('tool_ms')) add.push('ADD COLUMN tool_ms Array(UInt32) AFTER tool_failed');
    const alters = add.map(
      (clause) => `ALTER TABLE ${storedTable(ctx, 'interactions')}${onCluster(ctx)} ${clause}`,
    );
    if (!ctx.cluster) return alters;
    // 18.16 refuses ALTER … ON CLUSTER on a Distributed table whose shards replicate (code 371).
    // A Distributed table holds no rows (the sink inserts synchronously), so it is recreated instead.
    const distributed = await ctx.columnsOf('interactions');
    if (distributed.has('tool_failed') && distributed.has('tool_ms')) return alters;
    return [
      ...alters,
      `DROP TABLE IF EXISTS ${ctx.db}.interactions${onCluster(ctx)}`,
      distributedTable(ctx, 'interactions', byInteraction),
    ];
  },
};
