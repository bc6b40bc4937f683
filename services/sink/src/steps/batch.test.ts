import { describe, expect, it } from 'vitest';
import { RowBatch } from './batch';

describe('RowBatch', () => {
  it('commits the offset after the highest covered one per partition and rewinds to the first', () => {
    const b = new RowBatch();
    b.cover('t', 0, '10');
    b.add('interactions', '{"id":1}');
    b.cover('t', 0, '12');
    b.cover('t', 1, '5');
    b.cover('t', 0, '11');
    expect(b.size).toBe(1);
    expect(b.commits()).toEqual([
      { topic: 't', partition: 0, offset: '13' },
      { topic: 't', partition: 1, offset: '6' },
    ]);
    expect(b.rewinds()).toEqual([
      { topic: 't', partition: 0, offset: '10' },
      { topic: 't', partition: 1, offset: '5' },
    ]);
  });

  it('is not empty when it covers offsets without rows (messages sent to the DLQ still need a commit)', () => {
    const b = new RowBatch();
    expect(b.isEmpty).toBe(true);
    b.cover('t', 0, '0');
    expect(b.isEmpty).toBe(false);
    expect(b.size).toBe(0);
  });

  it('handles offsets beyond 2^53', () => {
    const b = new RowBatch();
    b.cover('t', 0, '9007199254740993');
    expect(b.commits()[0]!.offset).toBe('9007199254740994');
  });
});
