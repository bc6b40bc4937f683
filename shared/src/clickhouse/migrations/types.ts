import type { Dialect } from '../dialect';

export interface MigrationContext {
  /** Target database, already validated as an identifier. */
  db: string;
  /** CLICKHOUSE_CLUSTER: replicated tables and Distributed tables over them (see ../cluster.ts). */
  cluster?: string;
  dialect: Dialect;
  /** Retention for TTL where the server supports it. */
  retentionDays: number;
  /** Columns a table has now (empty when it does not exist): 18.16 has no `ADD COLUMN IF NOT EXISTS`. */
  columnsOf(table: string): Promise<Set<string>>;
}

/** A numbered, idempotent schema step. Statements must be safe to run twice (IF NOT EXISTS). */
export interface Migration {
  id: number;
  name: string;
  statements(ctx: MigrationContext): string[] | Promise<string[]>;
}
