import { describe, expect, it } from 'vitest';
import { newInteractionId } from './envelope';

describe('newInteractionId', () => {
  it('gives distinct, time-ordered UUIDv7s across several refills of its random pool', () => {
    // 3,000 ids draw well over the 1,024 random words one refill holds.
    const ids = Array.from({ length: 3000 }, () => newInteractionId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The random bits differ between ids (not a constant pool): the last 12 hex digits never repeat here.
    expect(new Set(ids.map((id) => id.slice(-12))).size).toBe(ids.length);
  });
});
