import type { Migration } from './types';

/** Per-call failure flags and durations, parallel to `tool_names`, so failures group by tool. */
export const interactionTools: Migration = {
  id: 2,
  name: 'interaction_tools',
  statements: async ({ db, columnsOf }) => {
    // 18.16 has no ADD COLUMN IF NOT EXISTS: look before adding, so a rerun is harmless.
    const have = await columnsOf('interactions');
    const add: string[] = [];
    if (!have.has('tool_failed')) add.push('ADD COLUMN tool_failed Array(UInt8) AFTER tool_failures');
    if (!have.has('tool_ms')) add.push('ADD COLUMN tool_ms Array(UInt32) AFTER tool_failed');
    return add.map((clause) => `ALTER TABLE ${db}.interactions ${clause}`);
  },
};
