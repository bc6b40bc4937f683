import type { ClickHouseClient } from '@clickhouse/client';
import { detectDialect, type Dialect } from './dialect';
import { sqlIdentifier, sqlString } from './escape';
import { migrations as allMigrations, type Migration, type MigrationContext } from './migrations/index';

export interface MigrateOptions {
  database: string;
  retentionDays?: number;
  migrations?: Migration[];
  progress?: (line: string) => void;
}

export interface MigrateResult {
  dialect: Dialect;
  applied: Migration[];
  alreadyApplied: number;
}

/** Creates the database and applies, in order, the migrations not yet recorded as applied. */
export async function migrate(client: ClickHouseClient, opts: MigrateOptions): Promise<MigrateResult> {
  const db = sqlIdentifier(opts.database);
  const say = opts.progress ?? (() => undefined);
  const dialect = await detectDialect(client);
  say(
    `ClickHouse ${dialect.version}: TTL ${dialect.ttl ? 'yes' : 'no (use `warden retention`)'}, LowCardinality ${dialect.lowCardinality ? 'yes' : 'no'}`,
  );
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${db}` });
  await client.command({
    query: `CREATE TABLE IF NOT EXISTS ${db}.schema_migrations (
      id UInt32, name String, applied_at DateTime('UTC')
    ) ENGINE = ReplacingMergeTree ORDER BY id`,
  });
  const rs = await client.query({ query: `SELECT id FROM ${db}.schema_migrations`, format: 'JSONEachRow' });
  const done = new Set((await rs.json<{ id: number }>()).map((r) => Number(r.id)));
  const pending = (opts.migrations ?? allMigrations)
    .filter((m) => !done.has(m.id))
    .sort((a, b) => a.id - b.id);
  const ctx: MigrationContext = {
    db,
    dialect,
    retentionDays: opts.retentionDays ?? 90,
    columnsOf: async (table) => {
      const rs = await client.query({
        query: `SELECT name FROM system.columns WHERE database = ${sqlString(db)} AND table = ${sqlString(table)}`,
        format: 'JSONEachRow',
      });
      return new Set((await rs.json<{ name: string }>()).map((r) => r.name));
    },
  };
  for (const m of pending) {
    say(`applying ${String(m.id).padStart(4, '0')}_${m.name}…`);
    for (const statement of await m.statements(ctx)) await client.command({ query: statement });
    await client.insert({
      table: `${db}.schema_migrations`,
      values: [{ id: m.id, name: m.name, applied_at: Math.floor(Date.now() / 1000) }],
      format: 'JSONEachRow',
    });
  }
  return { dialect, applied: pending, alreadyApplied: done.size };
}
