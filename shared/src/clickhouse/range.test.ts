import { describe, expect, it } from 'vitest';
import { hourRangeMs, rangeMs, timeFilter, toMs } from './range';
import { partitionExpired } from './retention';

describe('time ranges', () => {
  it('accepts Date, ISO and epoch ms, and refuses empty or invalid ranges', () => {
    const ms = Date.UTC(2025, 2, 1);
    expect(toMs(new Date(ms))).toBe(ms);
    expect(toMs('2025-03-01T00:00:00Z')).toBe(ms);
    expect(toMs(ms)).toBe(ms);
    expect(() => toMs('soon')).toThrow();
    expect(() => rangeMs({ from: ms, to: ms })).toThrow(/empty/);
  });

  it('widens to whole hours for rollups', () => {
    const r = hourRangeMs({ from: '2025-03-01T10:20:00Z', to: '2025-03-01T11:00:00.001Z' });
    expect(new Date(r.fromMs).toISOString()).toBe('2025-03-01T10:00:00.000Z');
    expect(new Date(r.toMs).toISOString()).toBe('2025-03-01T12:00:00.000Z');
  });

  it('renders second-precision UTC literals, rounding the end up', () => {
    expect(
      timeFilter('received_at', Date.UTC(2025, 2, 1, 0, 0, 0, 900), Date.UTC(2025, 2, 1, 1, 0, 0, 1)),
    ).toBe(
      "received_at >= toDateTime('2025-03-01 00:00:00', 'UTC') AND received_at < toDateTime('2025-03-01 01:00:01', 'UTC')",
    );
  });
});

describe('partitionExpired', () => {
  it('drops a month only when its last instant is older than the retention', () => {
    expect(partitionExpired('202503', 30, Date.UTC(2025, 4, 1))).toBe(true); // cutoff Apr 1
    expect(partitionExpired('202503', 30, Date.UTC(2025, 3, 30))).toBe(false);
    expect(partitionExpired('202512', 1, Date.UTC(2026, 0, 2))).toBe(true);
    expect(partitionExpired('tuple()', 1, Date.UTC(2030, 0, 1))).toBe(false);
  });
});
