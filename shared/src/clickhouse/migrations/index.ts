import { interactions } from './0001_interactions';
import type { Migration } from './types';

/** Every migration in order; a new file is added here with the next id. */
export const migrations: Migration[] = [interactions];

export type { Migration, MigrationContext } from './types';
