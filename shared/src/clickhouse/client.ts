import { ClickHouseError, ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';

export interface ClickhouseOptions {
  /** CLICKHOUSE_URL; it may carry the user and password (`http://user:password@host:8123`). */
  url: string;
  database?: string;
  requestTimeoutMs?: number;
  /** CLICKHOUSE_CLUSTER: the tables named are Distributed tables over replicated ones. */
  cluster?: string;
}

/**
 * The request timeout of maintenance work (schema migrations, rollup rebuilds, retention): an
 * ON CLUSTER statement answers only once every replica has run it, and ClickHouse waits up to its
 * distributed_ddl_task_timeout (180 s by default) for a replica that is busy or restarting, so the
 * 30 s of ordinary requests can end it while it is still going (seen in CI on a loaded machine: the
 * client gave up on a rollup rebuild or retention drop ON CLUSTER after 30 s).
 */
export const MAINTENANCE_TIMEOUT_MS = 300_000;

/**
 * Settings for Distributed tables over replicated ones:
 * - an insert returns only once every row is stored in a replica of its shard (not queued on the
 *   server asked), so the sink commits Kafka offsets only for rows that are replicated tables' parts;
 * - a subquery over another Distributed table (`IN (SELECT … FROM analyses)`) reads that shard's own
 *   table: tables that are joined are sharded by the same key;
 * - no block deduplication, as on one server: a replica killed between storing a block and running
 *   its materialized views would otherwise drop the retried block as a duplicate and its rollup rows
 *   for ever (measured: 100 flagged interactions missing from detection_hourly). ReplacingMergeTree
 *   keys make the retried rows harmless, and the views count them as sets.
 */
const clusterSettings = {
  insert_distributed_sync: 1,
  distributed_product_mode: 'local',
  insert_deduplicate: 0,
} as const;

/**
 * The one ClickHouse client factory. Settings chosen to behave the same on 18.16 and 24.x:
 * 64-bit integers come back as numbers, and no setting newer servers alone know is sent.
 */
export function createClickhouse(opts: ClickhouseOptions): ClickHouseClient {
  return createClient({
    url: opts.url,
    database: opts.database ?? 'default',
    request_timeout: opts.requestTimeoutMs ?? 30000,
    clickhouse_settings: {
      output_format_json_quote_64bit_integers: 0,
      ...(opts.cluster ? clusterSettings : {}),
    },
    compression: { request: false, response: false },
    // Callers log failures with context; the client's own console output would duplicate them.
    log: { level: ClickHouseLogLevel.OFF },
  });
}

/** Runs a SELECT and returns its rows (JSONEachRow; 64-bit integers as numbers, see above). */
export async function selectRows<T>(client: ClickHouseClient, query: string): Promise<T[]> {
  const rs = await client.query({ query, format: 'JSONEachRow' });
  return rs.json<T>();
}

/** The server's error code; 18.16 words its errors `Code: 27, e.displayText() = …`, newer ones `Code: 27. DB::…`. */
export function clickhouseErrorCode(err: unknown): string | undefined {
  if (err instanceof ClickHouseError && err.code) return err.code;
  const match = err instanceof Error ? /^Code: (\d+)[.,]/.exec(err.message) : null;
  return match?.[1];
}

export type { ClickHouseClient };
