import type { ClickHouseClient } from '@clickhouse/client';
import pRetry, { AbortError } from 'p-retry';
import { clickhouseErrorCode, selectRows } from './client';
import { onCluster, storedTable, storedTableName, type Placement } from './cluster';
import { sqlString } from './escape';

export interface WaitOptions {
  timeoutMs?: number;
  pollMs?: number;
}

export interface MutationOptions extends WaitOptions {
  /** CLICKHOUSE_CLUSTER: mutate the replicated stored table ON CLUSTER (a Distributed table cannot be). */
  cluster?: string;
}

/**
 * Waits until `system.mutations` shows no unfinished mutation on the table. 18.16 has no
 * `mutations_sync`, so polling is the one way that works on every version.
 */
export async function waitForMutations(
  client: ClickHouseClient,
  db: string,
  table: string,
  opts: WaitOptions = {},
): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
  const query = `SELECT count() AS pending FROM system.mutations
    WHERE database = ${sqlString(db)} AND table = ${sqlString(table)} AND is_done = 0`;
  for (;;) {
    const [row] = await selectRows<{ pending: number | string }>(client, query);
    if (Number(row?.pending ?? 0) === 0) return;
    if (Date.now() > deadline) {
      throw new Error(
        `mutations on ${db}.${table} still running after ${opts.timeoutMs ?? 600_000} ms; ` +
          `see SELECT * FROM system.mutations WHERE database = '${db}' AND table = '${table}' AND is_done = 0`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, opts.pollMs ?? 200));
  }
}

/**
 * 18.16 runs an `ALTER … ON CLUSTER` of a replicated table on the shard's leader replica, and fails it
 * with code 292 ("Leader was suddenly changed") while leadership moves, e.g. just after a replica
 * restarted (measured in test/clickhouse-replication.test.ts). Nothing was executed then.
 */
const LEADER_CHANGED = '292';

/**
 * `ALTER TABLE <stored table> [ON CLUSTER] <clause>`: the one way Warden alters a table's rows
 * (mutations, partition drops), which on a cluster must name the replicated table, not the
 * Distributed one. A leader change is waited out (up to about a minute); other errors are thrown.
 */
export async function alterStoredTable(
  client: ClickHouseClient,
  placement: Placement,
  table: string,
  clause: string,
): Promise<void> {
  const query = `ALTER TABLE ${storedTable(placement, table)}${onCluster(placement)} ${clause}`;
  await pRetry(
    async () => {
      try {
        await client.command({ query });
      } catch (err) {
        if (placement.cluster && clickhouseErrorCode(err) === LEADER_CHANGED) throw err;
        throw new AbortError(err as Error);
      }
    },
    { retries: 8, factor: 2, minTimeout: 250, maxTimeout: 15_000 },
  );
}

/**
 * `ALTER TABLE … DELETE WHERE …` and wait until it is applied. On a cluster the mutation is run on the
 * stored table ON CLUSTER (once per shard; replication carries it to the other replicas) and waited
 * for on the server asked.
 */
export async function deleteWhere(
  client: ClickHouseClient,
  db: string,
  table: string,
  where: string,
  opts: MutationOptions = {},
): Promise<void> {
  const placement = { db, cluster: opts.cluster };
  await alterStoredTable(client, placement, table, `DELETE WHERE ${where}`);
  await waitForMutations(client, db, storedTableName(placement, table), opts);
}
