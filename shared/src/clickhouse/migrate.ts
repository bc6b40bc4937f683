import type { ClickHouseClient } from '@clickhouse/client';
import { onCluster } from './cluster';
import { detectDialect, type Dialect } from './dialect';
import { sqlIdentifier, sqlString } from './escape';
import { migrations as allMigrations, type Migration, type MigrationContext } from './migrations/index';

export interface MigrateOptions {
  database: string;
  /** CLICKHOUSE_CLUSTER: replicated tables ON CLUSTER and Distributed tables over them. */
  cluster?: string;
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
  const placement = { db, cluster: opts.cluster };
  if (opts.cluster) {
    await checkCluster(client, opts.cluster);
    say(`cluster ${opts.cluster}: replicated tables ON CLUSTER, Distributed tables over them`);
  }
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${db}${onCluster(placement)}` });
  // On a cluster every server holds the same record ('all', not '{shard}'), whichever one is asked.
  const migrationsEngine = opts.cluster
    ? `ReplicatedReplacingMergeTree('/clickhouse/tables/all/${db}/schema_migrations', '{shard}-{replica}')`
    : 'ReplacingMergeTree';
  await client.command({
    query: `CREATE TABLE IF NOT EXISTS ${db}.schema_migrations${onCluster(placement)} (
      id UInt32, name String, applied_at DateTime('UTC')
    ) ENGINE = ${migrationsEngine} ORDER BY id`,
  });
  const rs = await client.query({ query: `SELECT id FROM ${db}.schema_migrations`, format: 'JSONEachRow' });
  const done = new Set((await rs.json<{ id: number }>()).map((r) => Number(r.id)));
  const pending = (opts.migrations ?? allMigrations)
    .filter((m) => !done.has(m.id))
    .sort((a, b) => a.id - b.id);
  const ctx: MigrationContext = {
    ...placement,
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

/**
 * Fails early, saying what to configure, when this server does not know the cluster or lacks the
 * macros the replicated tables' paths are built from.
 */
async function checkCluster(client: ClickHouseClient, cluster: string): Promise<void> {
  const rs = await client.query({
    query: `SELECT
      (SELECT count() FROM system.clusters WHERE cluster = ${sqlString(cluster)}) AS replicas,
      (SELECT count() FROM system.macros WHERE macro IN ('shard', 'replica')) AS macros`,
    format: 'JSONEachRow',
  });
  const [row] = await rs.json<{ replicas: number | string; macros: number | string }>();
  if (Number(row?.replicas ?? 0) === 0) {
    throw new Error(
      `CLICKHOUSE_CLUSTER=${cluster} is not a cluster this server knows (system.clusters): ` +
        'name it in <remote_servers> of every server, or unset CLICKHOUSE_CLUSTER for one server',
    );
  }
  if (Number(row?.macros ?? 0) < 2) {
    throw new Error(
      'the server has no <macros> with both shard and replica: replicated tables are registered in ' +
        "ZooKeeper under /clickhouse/tables/{shard}/… as {replica}; set them in each server's config",
    );
  }
}
