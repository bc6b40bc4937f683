import { postgresMigrations, type PostgresMigration } from './migrations/index';
import type { PostgresPool } from './client';

export interface PostgresMigrateOptions {
  migrations?: PostgresMigration[];
  progress?: (line: string) => void;
}

export interface PostgresMigrateResult {
  applied: PostgresMigration[];
  alreadyApplied: number;
}

/** Any constant shared by every `warden migrate`: two at once take turns instead of racing. */
const MIGRATE_LOCK = 0x77617264; // "ward"

/**
 * Applies, in order, the migrations not yet recorded in `schema_migrations`; each in its own
 * transaction together with its record, so a failed step leaves nothing half-applied.
 */
export async function migratePostgres(
  pool: PostgresPool,
  opts: PostgresMigrateOptions = {},
): Promise<PostgresMigrateResult> {
  const say = opts.progress ?? (() => undefined);
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATE_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ id: number }>('SELECT id FROM schema_migrations');
    const done = new Set(rows.map((r) => Number(r.id)));
    const pending = (opts.migrations ?? postgresMigrations)
      .filter((m) => !done.has(m.id))
      .sort((a, b) => a.id - b.id);
    for (const m of pending) {
      say(`applying ${String(m.id).padStart(4, '0')}_${m.name}…`);
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [m.id, m.name]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new Error(`migration ${m.id}_${m.name} failed: ${(err as Error).message}`, { cause: err });
      }
    }
    return { applied: pending, alreadyApplied: done.size };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATE_LOCK]).catch(() => undefined);
    client.release();
  }
}
