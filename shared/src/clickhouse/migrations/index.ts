import { interactions } from './0001_interactions';
import { interactionTools } from './0002_interaction_tools';
import { events } from './0003_events';
import { detections } from './0004_detections';
import { agents } from './0005_agents';
import { rollups } from './0006_rollups';
import { hourlySummaries } from './0007_hourly_summaries';
import type { Migration } from './types';

/** Every migration in order; a new file is added here with the next id. */
export const migrations: Migration[] = [
  interactions,
  interactionTools,
  events,
  detections,
  agents,
  rollups,
  hourlySummaries,
];

export type { Migration, MigrationContext } from './types';
