import { describe, expect, it } from 'vitest';
import { uuidv4, uuidv7 } from 'uuidv7';
import { newInteractionId } from './envelope';
import { isWardenInteractionId } from './interaction-id';

describe('Warden-assigned interaction ids', () => {
  it('are recognised in any letter case; ids Warden did not assign are not', () => {
    for (let i = 0; i < 1000; i++) {
      const id = newInteractionId();
      expect(isWardenInteractionId(id)).toBe(true);
      expect(isWardenInteractionId(id.toUpperCase())).toBe(true);
    }
    const theirs = Array.from({ length: 10_000 }, () => uuidv7()).concat(
      Array.from({ length: 1000 }, () => uuidv4()),
    );
    expect(theirs.filter(isWardenInteractionId)).toEqual([]);
    for (const other of ['order-42', '', 'x'.repeat(36), newInteractionId().replace(/-/g, '')])
      expect(isWardenInteractionId(other)).toBe(false);
  });

  it('stop being recognised when any hex digit changes', () => {
    const id = newInteractionId();
    for (let i = 0; i < id.length; i++) {
      if (id[i] === '-' || i === 14 || i === 19) continue; // version and variant digits
      const changed = id.slice(0, i) + (id[i] === '0' ? '1' : '0') + id.slice(i + 1);
      expect(isWardenInteractionId(changed)).toBe(false);
    }
  });
});
