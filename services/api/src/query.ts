import type { DetectionListFilters } from '@warden/shared/analytics/index';
import { ApiError } from '@warden/shared/http/errors';

// What the read routes share: the time range, page size and opaque cursors of their query strings.

const DAY_MS = 86_400_000;

/** A query's [from, to) as epoch ms: to defaults to now, from to 24 h before it. */
export function rangeOf(query: { from?: string | undefined; to?: string | undefined }): {
  fromMs: number;
  toMs: number;
} {
  const parse = (field: 'from' | 'to', text: string) => {
    const ms = Date.parse(text);
    if (!Number.isFinite(ms)) {
      throw new ApiError('INVALID_FIELD_TYPE', `${field} must be an ISO date-time.`, {
        field,
        expected: 'ISO date-time',
        received: 'string',
      });
    }
    return ms;
  };
  const toMs = query.to ? parse('to', query.to) : Date.now();
  const fromMs = query.from ? parse('from', query.from) : toMs - DAY_MS;
  if (toMs <= fromMs) throw new ApiError('INVALID_REQUEST', 'to must be after from.', { field: 'to' });
  return { fromMs, toMs };
}

/** `limit` of a page: 1–1000, default 50. */
export function pageLimit(text: string | undefined): number {
  const limit = text === undefined ? 50 : Number(text);
  if (!(limit >= 1 && limit <= 1000)) {
    throw new ApiError('INVALID_REQUEST', 'limit must be between 1 and 1000.', { field: 'limit' });
  }
  return limit;
}

/** A keyset cursor as clients see it: the sort key of the page's last row, base64url JSON. */
export const encodeCursor = (parts: [number, ...string[]]): string =>
  Buffer.from(JSON.stringify(parts)).toString('base64url');

/** The sort key back from a cursor this API gave out, with `strings` string parts after the time. */
export function decodeCursor(text: string, strings: number): [number, ...string[]] {
  try {
    const parts = JSON.parse(Buffer.from(text, 'base64url').toString()) as unknown[];
    const [ms, ...rest] = parts;
    if (
      Number.isSafeInteger(ms) &&
      (ms as number) >= 0 &&
      rest.length === strings &&
      rest.every((p) => typeof p === 'string')
    ) {
      return [ms as number, ...(rest as string[])];
    }
  } catch {
    // answered below
  }
  throw new ApiError('INVALID_REQUEST', 'cursor is not one this API gave out; start again without it.', {
    field: 'cursor',
  });
}

export const iso = (ms: number): string => new Date(ms).toISOString();

/** The detections filters of a query string, as the analytics queries take them (absent: no filter). */
export function detectionFilters(q: {
  [K in keyof DetectionListFilters]?: DetectionListFilters[K] | undefined;
}): DetectionListFilters {
  const filters: DetectionListFilters = {};
  for (const key of ['agentId', 'threatType', 'ruleId', 'userId', 'sessionId', 'conversationId'] as const) {
    const value = q[key];
    if (value !== undefined) filters[key] = value;
  }
  if (q.severity !== undefined) filters.severity = q.severity;
  return filters;
}
