/**
 * A numbered PostgreSQL schema step. Each runs in its own transaction with its id recorded, and its
 * statements are written to be safe to run again (IF NOT EXISTS) so a half-recorded step never blocks.
 */
export interface PostgresMigration {
  id: number;
  name: string;
  sql: string;
}
