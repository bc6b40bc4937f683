import { sqlString } from './escape';
import { clickhouseDateTime } from './rows';

/** A point in time as callers have it: a Date, an ISO string or epoch milliseconds. */
export type TimeInput = Date | string | number;

/** Half-open interval [from, to) of the interaction's receive time. */
export interface TimeRange {
  from: TimeInput;
  to: TimeInput;
}

const HOUR_MS = 3_600_000;

export function toMs(t: TimeInput): number {
  const ms = t instanceof Date ? t.getTime() : typeof t === 'number' ? t : Date.parse(t);
  if (!Number.isFinite(ms)) throw new Error(`not a date-time: ${JSON.stringify(String(t))}`);
  return ms;
}

/** Validated epoch-ms bounds; `to` must be after `from`. */
export function rangeMs(range: TimeRange): { fromMs: number; toMs: number } {
  const fromMs = toMs(range.from);
  const toMsValue = toMs(range.to);
  if (toMsValue <= fromMs) throw new Error(`empty time range: to (${String(range.to)}) is not after from`);
  return { fromMs, toMs: toMsValue };
}

/** The hours a range touches: [start of from's hour, start of the hour after to's last instant). */
export function hourRangeMs(range: TimeRange): { fromMs: number; toMs: number } {
  const { fromMs, toMs: t } = rangeMs(range);
  return { fromMs: Math.floor(fromMs / HOUR_MS) * HOUR_MS, toMs: Math.ceil(t / HOUR_MS) * HOUR_MS };
}

/** A UTC DateTime literal (second precision) every server version parses. */
export function sqlDateTime(ms: number): string {
  return `toDateTime(${sqlString(clickhouseDateTime(ms))}, 'UTC')`;
}

/**
 * `column >= from AND column < to` at second precision (DateTime columns have no milliseconds on
 * 18.16). The column name is a constant from the caller, never user input.
 */
export function timeFilter(column: string, fromMs: number, toMsValue: number): string {
  return `${column} >= ${sqlDateTime(Math.floor(fromMs / 1000) * 1000)} AND ${column} < ${sqlDateTime(Math.ceil(toMsValue / 1000) * 1000)}`;
}
