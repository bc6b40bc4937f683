import { describe, expect, it } from 'vitest';
import { gcraStep, LocalGcra } from './gcra';

const free = { ratePerMinute: 100, burst: 200 };

describe('GCRA arithmetic', () => {
  it('admits a full burst at once on a rested key, then refuses', () => {
    const local = new LocalGcra();
    const now = 1_000_000;
    for (let i = 0; i < 200; i++) {
      const d = local.allow('a', free, 1, now);
      expect(d.allowed).toBe(true);
      expect(d.remaining).toBe(199 - i);
    }
    const refused = local.allow('a', free, 1, now);
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    // One emission interval (0.6 s) until the next request fits; 120 s until fully rested.
    expect(refused.retryAfterSeconds).toBeCloseTo(0.6, 6);
    expect(refused.resetSeconds).toBeCloseTo(120, 6);
  });

  it('refills at the sustained rate', () => {
    const local = new LocalGcra();
    const now = 0;
    for (let i = 0; i < 200; i++) local.allow('a', free, 1, now);
    expect(local.allow('a', free, 1, now + 599).allowed).toBe(false);
    expect(local.allow('a', free, 1, now + 600).allowed).toBe(true);
    expect(local.allow('a', free, 1, now + 600).allowed).toBe(false);
    // A minute later: 100 more.
    let admitted = 0;
    for (let i = 0; i < 150; i++) if (local.allow('a', free, 1, now + 60_600).allowed) admitted++;
    expect(admitted).toBe(100);
  });

  it('keeps keys apart', () => {
    const local = new LocalGcra();
    for (let i = 0; i < 200; i++) local.allow('a', free, 1, 0);
    expect(local.allow('a', free, 1, 0).allowed).toBe(false);
    expect(local.allow('b', free, 1, 0).allowed).toBe(true);
  });

  it('charges cost and refuses what exceeds burst', () => {
    const step = gcraStep(undefined, 0, { ratePerMinute: 60, burst: 10 }, 4);
    expect(step.decision).toMatchObject({ allowed: true, remaining: 6, resetSeconds: 4 });
    expect(step.tatMs).toBe(4000);
    const again = gcraStep(step.tatMs, 0, { ratePerMinute: 60, burst: 10 }, 7);
    expect(again.decision).toMatchObject({ allowed: false, remaining: 6, retryAfterSeconds: 1 });
    expect(() => new LocalGcra().allow('x', { ratePerMinute: 60, burst: 10 }, 11)).toThrow(/burst/);
  });

  it('judges a request charged in two parts as a whole, refunding the first part when it does not fit', () => {
    const limits = { ratePerMinute: 60, burst: 10 }; // one a second
    const local = new LocalGcra();
    for (let i = 0; i < 4; i++) local.allow('a', limits, 1, 0);
    // A request of 7 records: 1 charged on arrival, the other 6 once its body was read.
    expect(local.allow('a', limits, 1, 0)).toMatchObject({ allowed: true, remaining: 5 });
    const rest = local.allow('a', limits, 6, 0, 1);
    // Refused as a whole: the arrival's unit is given back, and Retry-After is when all 7 fit.
    expect(rest).toMatchObject({ allowed: false, remaining: 6, retryAfterSeconds: 1 });
    expect(local.allow('a', limits, 1, 1000)).toMatchObject({ allowed: true });
    expect(local.allow('a', limits, 6, 1000, 1)).toMatchObject({ allowed: true, remaining: 0 });
    // The two parts together never exceed the burst.
    expect(() => local.allow('b', limits, 10, 0, 1)).toThrow(/burst/);
  });

  it('stays bounded, dropping rested keys first', () => {
    const local = new LocalGcra(3);
    local.allow('a', free, 1, 0);
    local.allow('b', free, 1, 0);
    local.allow('c', free, 1, 0);
    local.allow('d', free, 1, 10_000); // a, b, c rested by now (TAT 600 ms)
    expect(local.size).toBe(1);
  });
});
