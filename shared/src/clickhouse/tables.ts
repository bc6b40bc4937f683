/** Tables partitioned by month (toYYYYMM of their time column): what retention drops. */
export const TIME_PARTITIONED_TABLES = [
  'interactions',
  'events',
  'detections',
  'analyses',
  'agent_hourly',
  'detection_hourly',
  'rollup_versions',
  'hourly_summaries',
] as const;

/** The rollups `rebuildRollups` re-derives from raw rows. */
export const ROLLUP_TABLES = ['agent_hourly', 'detection_hourly'] as const;

export type TimePartitionedTable = (typeof TIME_PARTITIONED_TABLES)[number];
