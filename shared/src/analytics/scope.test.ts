import { describe, expect, it } from 'vitest';
import { scopeSql, sqlLimit } from './scope';

describe('scopeSql', () => {
  const range = { from: '2025-03-01T00:00:00Z', to: '2025-03-02T00:00:00Z' };

  it('puts the account in SQL only as an escaped literal', () => {
    const s = scopeSql('warden', { ...range, accountId: "a' OR 1=1 --" });
    expect(s.account).toBe("account_id = 'a\\' OR 1=1 --'");
    expect(s.current).toContain("account_id = 'a\\' OR 1=1 --'");
  });

  it('filters raw rows by receive time and rollups by whole hours', () => {
    const s = scopeSql('warden', {
      accountId: 'acme',
      from: '2025-03-01T10:30:00Z',
      to: '2025-03-01T11:15:00Z',
    });
    expect(s.received).toBe(
      "received_at >= toDateTime('2025-03-01 10:30:00', 'UTC') AND received_at < toDateTime('2025-03-01 11:15:00', 'UTC')",
    );
    expect(s.hours).toBe(
      "hour >= toDateTime('2025-03-01 10:00:00', 'UTC') AND hour < toDateTime('2025-03-01 12:00:00', 'UTC')",
    );
  });

  it('refuses a database name that is not an identifier', () => {
    expect(() => scopeSql('warden; DROP', { ...range, accountId: 'a' })).toThrow(/identifier/);
  });
});

describe('sqlLimit', () => {
  it('accepts 1..10000 and a default', () => {
    expect(sqlLimit(undefined, 10)).toBe(10);
    expect(sqlLimit(2.7, 10)).toBe(2);
    expect(() => sqlLimit(0, 10)).toThrow();
    expect(() => sqlLimit(Number.NaN, 10)).toThrow();
  });
});
