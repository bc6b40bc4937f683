import type { ClickHouseClient } from '@clickhouse/client';
import { selectRows } from './client';
import { storedTableName } from './cluster';
import { sqlIdentifier, sqlString } from './escape';
import { alterStoredTable } from './mutations';
import { TIME_PARTITIONED_TABLES } from './tables';

export interface DroppedPartition {
  table: string;
  partition: string;
}

/**
 * The newest instant a `toYYYYMM` partition can hold is the end of its month; the partition may go
 * once that is older than the retention cutoff. Pure, so the month arithmetic is unit-tested.
 */
export function partitionExpired(partitionId: string, retentionDays: number, nowMs: number): boolean {
  const m = /^(\d{4})(\d{2})$/.exec(partitionId);
  if (!m) return false;
  const monthEnd = Date.UTC(Number(m[1]), Number(m[2]), 1); // first instant of the next month
  return monthEnd <= nowMs - retentionDays * 86_400_000;
}

/**
 * Retention for servers without table TTL (18.16): drops whole monthly partitions whose every row is
 * older than `retentionDays`. Data is therefore kept between retentionDays and retentionDays + one
 * month. Harmless on servers with TTL. The `agents` table (first/last seen) is kept.
 */
export async function dropExpiredPartitions(
  client: ClickHouseClient,
  database: string,
  retentionDays: number,
  nowMs = Date.now(),
  cluster?: string,
): Promise<DroppedPartition[]> {
  if (!Number.isInteger(retentionDays) || retentionDays < 1)
    throw new Error('retentionDays must be an integer >= 1');
  const db = sqlIdentifier(database);
  const placement = { db, cluster };
  // On a cluster the parts are the stored tables' (`<table>_local`); a DROP PARTITION ON CLUSTER runs
  // once per shard and replication drops it on the other replicas.
  const stored = new Map(TIME_PARTITIONED_TABLES.map((t) => [storedTableName(placement, t), t]));
  const tables = [...stored.keys()].map(sqlString).join(', ');
  const parts = await selectRows<{ table: string; partition_id: string }>(
    client,
    `SELECT DISTINCT table, partition_id FROM system.parts
     WHERE database = ${sqlString(db)} AND active AND table IN (${tables})
     ORDER BY table, partition_id`,
  );
  const dropped: DroppedPartition[] = [];
  for (const { table, partition_id } of parts) {
    if (!partitionExpired(partition_id, retentionDays, nowMs)) continue;
    // partition_id is six digits (checked above); toYYYYMM partitions are addressed by that number.
    const logical = stored.get(table) ?? table;
    await alterStoredTable(client, placement, sqlIdentifier(logical), `DROP PARTITION ${partition_id}`);
    dropped.push({ table: logical, partition: partition_id });
  }
  return dropped;
}
