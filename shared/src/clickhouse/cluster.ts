/**
 * Where Warden's tables live: on one server, or replicated (and possibly sharded) across the
 * servers of a cluster named in CLICKHOUSE_CLUSTER. Migrations build their DDL through these
 * functions, so a table is declared once and comes out right for both layouts.
 *
 * On a cluster, a table `t` becomes:
 * - `t_local`: Replicated<engine>('/clickhouse/tables/{shard}/<db>/t_local', '{replica}'), created
 *   ON CLUSTER on every server; ZooKeeper (or ClickHouse Keeper) copies its parts between replicas.
 * - `t`: a Distributed table over `t_local`, the name the sink writes to and analytics read.
 * Materialized views read `t_local` and write `<target>_local`: a view fires only on the replica
 * that received the insert, and the replicated target carries its result to the other replicas.
 * Replicas that fetch a part do not fire their views, so nothing is counted twice.
 */
export interface Placement {
  /** Validated database identifier. */
  db: string;
  /** CLICKHOUSE_CLUSTER, validated as an identifier; undefined on a single server. */
  cluster?: string;
}

export interface MergeTreeTable {
  /** The logical name, the one the sink and the analytics use. */
  name: string;
  /** The column list, without parentheses. */
  columns: string;
  engine: 'ReplacingMergeTree' | 'AggregatingMergeTree' | 'SummingMergeTree';
  /** The engine's own arguments (the version column of a ReplacingMergeTree). */
  engineArgs?: string;
  /** PARTITION BY, ORDER BY and TTL clauses. */
  layout: string;
  /**
   * The Distributed table's sharding expression: a hash of the key rows are deduplicated on, so a
   * re-inserted row lands on the shard that holds its first copy and ReplacingMergeTree folds them.
   */
  shardingKey: string;
}

/** ` ON CLUSTER <name>` on a cluster, nothing on one server. */
export function onCluster(p: Placement): string {
  return p.cluster ? ` ON CLUSTER ${p.cluster}` : '';
}

/** The table that holds a logical table's rows on this server: `<db>.<name>_local` on a cluster. */
export function storedTable(p: Placement, name: string): string {
  return p.cluster ? `${p.db}.${name}_local` : `${p.db}.${name}`;
}

/** The name of the table rows are stored in, without the database (for system.* lookups). */
export function storedTableName(p: Placement, name: string): string {
  return p.cluster ? `${name}_local` : name;
}

/** The ZooKeeper path of a replicated table; `{shard}` is the server's macro. */
export function replicaPath(db: string, table: string): string {
  return `/clickhouse/tables/{shard}/${db}/${table}`;
}

/** CREATE TABLE statements for a (Replacing|Aggregating)MergeTree table in this placement. */
export function mergeTreeTable(p: Placement, t: MergeTreeTable): string[] {
  const args = t.engineArgs ? [t.engineArgs] : [];
  if (!p.cluster) {
    const engine = args.length ? `${t.engine}(${args.join(', ')})` : t.engine;
    return [`CREATE TABLE IF NOT EXISTS ${p.db}.${t.name} (${t.columns}) ENGINE = ${engine}\n${t.layout}`];
  }
  const local = `${t.name}_local`;
  const replicated = [`'${replicaPath(p.db, local)}'`, `'{replica}'`, ...args].join(', ');
  return [
    `CREATE TABLE IF NOT EXISTS ${p.db}.${local}${onCluster(p)} (${t.columns})
      ENGINE = Replicated${t.engine}(${replicated})\n${t.layout}`,
    distributedTable(p, t.name, t.shardingKey),
  ];
}

/** The Distributed table `name` over `name_local` on every server of the cluster. */
export function distributedTable(p: Placement, name: string, shardingKey: string): string {
  if (!p.cluster) throw new Error('a Distributed table needs CLICKHOUSE_CLUSTER');
  return `CREATE TABLE IF NOT EXISTS ${p.db}.${name}${onCluster(p)} AS ${p.db}.${name}_local
      ENGINE = Distributed(${p.cluster}, ${p.db}, ${name}_local, ${shardingKey})`;
}

/** A materialized view from a logical table's stored rows into another's, in this placement. */
export function materializedView(p: Placement, view: string, target: string, select: string): string {
  return `CREATE MATERIALIZED VIEW IF NOT EXISTS ${p.db}.${view}${onCluster(p)} TO ${storedTable(p, target)} AS
    ${select}`;
}
