import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './dispatcher';

describe('Retry-After', () => {
  it('reads seconds or an HTTP date, caps it at 24 h, and ignores what it cannot read', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('30', now)).toBe(30_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs(String(7 * 86_400), now)).toBe(86_400_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});
