import type { ClickHouseClient } from '@clickhouse/client';

/** What the connected server can do, read once from `version()`; migrations and queries branch on it. */
export interface Dialect {
  version: string;
  major: number;
  minor: number;
  /** Table-level TTL (retention); else `warden retention` drops partitions. */
  ttl: boolean;
  /** LowCardinality(String) without the experimental flag. */
  lowCardinality: boolean;
  /** Server-side query parameters ({name:Type}); else literals via the one escaping function. */
  queryParams: boolean;
}

export function dialectFor(version: string): Dialect {
  const [major = 0, minor = 0] = version.split('.').map((n) => Number.parseInt(n, 10));
  const atLeast = (maj: number, min: number) => major > maj || (major === maj && minor >= min);
  return {
    version,
    major,
    minor,
    ttl: atLeast(19, 6),
    lowCardinality: atLeast(19, 3),
    queryParams: atLeast(19, 15),
  };
}

export async function detectDialect(client: ClickHouseClient): Promise<Dialect> {
  const rs = await client.query({ query: 'SELECT version() AS v', format: 'JSONEachRow' });
  const rows = await rs.json<{ v: string }>();
  return dialectFor(rows[0]?.v ?? '0.0');
}

/** `LowCardinality(String)` where the server has it, plain `String` where it does not. */
export function lowCardinalityString(d: Dialect): string {
  return d.lowCardinality ? 'LowCardinality(String)' : 'String';
}
