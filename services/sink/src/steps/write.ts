import { Readable } from 'node:stream';
import type { ClickHouseClient } from '@clickhouse/client';
import pRetry, { AbortError } from 'p-retry';
import { clickhouseErrorCode } from '@warden/shared/clickhouse/client';
import { JsonLines } from './batch';

/**
 * ClickHouse error codes that mean "this value can never be inserted" (parse and type errors), as
 * opposed to the server being down, overloaded or missing a migration (unknown column: 16, 117),
 * which a retry outlives once someone runs `warden migrate`.
 */
const invalidDataCodes = new Set(['6', '26', '27', '38', '41', '53', '69', '70', '72', '131']);

export function isInvalidData(err: unknown): boolean {
  const code = clickhouseErrorCode(err);
  return code !== undefined && invalidDataCodes.has(code);
}

export interface RejectedRow {
  /** The row as its JSONEachRow line. */
  row: string;
  reason: string;
}

export interface WriteHooks {
  /** Called between attempts while ClickHouse is failing (keep the group alive, pause fetching). */
  onRetry: (err: Error, attempt: number, waitMs: number) => Promise<void>;
  /** Stop retrying (shutdown): the caller will not commit and Kafka keeps the rows. */
  aborted: () => boolean;
}

export class WriteAborted extends Error {}

/** One INSERT of JSONEachRow lines, sent as they are (serialized once, when the row was decoded). */
async function insertLines(client: ClickHouseClient, table: string, rows: JsonLines): Promise<void> {
  const result = await client.exec({
    query: `INSERT INTO ${table} FORMAT JSONEachRow`,
    values: Readable.from(rows.chunks()),
  });
  // The answer must be read for the connection to be reused.
  for await (const _chunk of result.stream) void _chunk;
}

/** Backoff between attempts: 250 ms, doubling, capped at 30 s. */
const backoff = { factor: 2, minTimeout: 250, maxTimeout: 30_000 };

/** The wait p-retry makes after failed attempt n (its formula; it does not pass it to the hooks). */
const waitAfter = (attempt: number) =>
  Math.min(backoff.maxTimeout, backoff.minTimeout * backoff.factor ** (attempt - 1));

/**
 * p-retry gives up at once on a TypeError or a thrown non-Error (a bug, to it); every failure that
 * is not about the data is retried here, as a plain Error with the original as its cause.
 */
const retriable = (err: unknown): Error =>
  err instanceof Error && !(err instanceof TypeError)
    ? err
    : new Error(err instanceof Error ? err.message : String(err), { cause: err });

/**
 * Inserts rows and returns the ones ClickHouse rejected as invalid (found by halving the batch).
 * Any other failure is retried with capped exponential backoff (p-retry) until it succeeds or is
 * aborted: nothing is dropped after N attempts.
 */
export async function insertRows(
  client: ClickHouseClient,
  table: string,
  rows: JsonLines,
  hooks: WriteHooks,
): Promise<RejectedRow[]> {
  if (rows.count === 0) return [];
  try {
    await pRetry(
      async () => {
        try {
          await insertLines(client, table, rows);
        } catch (err) {
          // Invalid data is never retried: it is isolated below.
          if (isInvalidData(err)) throw new AbortError(err as Error);
          throw retriable(err);
        }
      },
      {
        ...backoff,
        retries: Infinity,
        onFailedAttempt: async ({ error, attemptNumber }) => {
          // Throwing here ends the retries with this error.
          if (hooks.aborted())
            throw new WriteAborted(`insert into ${table} abandoned on shutdown`, { cause: error });
          await hooks.onRetry(error, attemptNumber, waitAfter(attemptNumber));
        },
      },
    );
    return [];
  } catch (err) {
    if (!isInvalidData(err)) throw err;
    const lines = rows.lines();
    if (lines.length === 1)
      return [{ row: lines[0]!, reason: `ClickHouse rejected the row: ${(err as Error).message}` }];
    const mid = Math.ceil(lines.length / 2);
    return [
      ...(await insertRows(client, table, JsonLines.of(lines.slice(0, mid)), hooks)),
      ...(await insertRows(client, table, JsonLines.of(lines.slice(mid)), hooks)),
    ];
  }
}
