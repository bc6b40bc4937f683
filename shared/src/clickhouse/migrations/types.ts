import type { Dialect } from '../dialect';

export interface MigrationContext {
  /** Target database, already validated as an identifier. */
  db: string;
  dialect: Dialect;
  /** Retention for TTL where the server supports it. */
  retentionDays: number;
}

/** A numbered, idempotent schema step. Statements must be safe to run twice (IF NOT EXISTS). */
export interface Migration {
  id: number;
  name: string;
  statements(ctx: MigrationContext): string[];
}
