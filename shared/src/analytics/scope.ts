import { sqlIdentifier, sqlString } from '../clickhouse/escape';
import { hourRangeMs, rangeMs, sqlDateTime, timeFilter, type TimeRange } from '../clickhouse/range';
import { currentDetectionsCondition } from '../clickhouse/rollups';

/** Every analytics question is asked for one account over a half-open time range [from, to). */
export interface AccountRange extends TimeRange {
  accountId: string;
}

/**
 * The SQL fragments an analytics query is built from. User input (account, ids) enters SQL only
 * here and only through `sqlString`; ranges are numbers rendered as DateTime literals. One code path
 * for 18.16 and 24.x: query parameters would be nicer on 24.x but would double every query.
 */
export interface ScopeSql {
  db: string;
  account: string;
  /** Raw tables: `received_at` in [from, to) at second precision. */
  received: string;
  /** Rollups: the hours that start in [hour of from, to). Rollups are hour-granular. */
  hours: string;
  /** Raw `detections`: only rows of the newest analysis of their interaction. */
  current: string;
}

export function scopeSql(database: string, scope: AccountRange): ScopeSql {
  const db = sqlIdentifier(database);
  const range = rangeMs(scope);
  const hours = hourRangeMs(scope);
  const account = `account_id = ${sqlString(scope.accountId)}`;
  return {
    db,
    account,
    received: timeFilter('received_at', range.fromMs, range.toMs),
    hours: `hour >= ${sqlDateTime(hours.fromMs)} AND hour < ${sqlDateTime(hours.toMs)}`,
    current: currentDetectionsCondition(db, range, account),
  };
}

/** A `LIMIT` value that cannot carry SQL. */
export function sqlLimit(limit: number | undefined, fallback: number): number {
  const n = Math.floor(limit ?? fallback);
  if (!(n >= 1 && n <= 10_000)) throw new Error('limit must be between 1 and 10000');
  return n;
}

/** Threat types counted as injection attempts. */
export const INJECTION_THREATS = ['prompt_injection', 'jailbreak'] as const;
