import { describe, expect, it } from 'vitest';
import { JsonLines, RowBatch } from './batch';

describe('RowBatch', () => {
  it('commits the offset after the highest covered one per partition and rewinds to the first', () => {
    const b = new RowBatch();
    b.cover('t', 0, '10', '10');
    b.add('interactions', [Buffer.from('{"id":1}\n')], 1);
    b.cover('t', 0, '11', '12');
    b.cover('t', 1, '5', '5');
    b.cover('t', 0, '3', '11');
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
    b.cover('t', 0, '0', '0');
    expect(b.isEmpty).toBe(false);
    expect(b.size).toBe(0);
  });

  it('handles offsets beyond 2^53', () => {
    const b = new RowBatch();
    b.cover('t', 0, '9007199254740990', '9007199254740993');
    expect(b.commits()[0]!.offset).toBe('9007199254740994');
  });
});

describe('JsonLines', () => {
  it('streams every row newline-terminated across chunk boundaries and gives the rows back', () => {
    const rows = Array.from({ length: 500 }, (_, i) =>
      JSON.stringify({ id: i, text: `żółw 🐢 line\nbreak ${'x'.repeat(i % 90)}` }),
    );
    const lines = new JsonLines(256);
    for (const row of rows) lines.add(row);
    expect(lines.count).toBe(500);
    expect(lines.chunks().length).toBeGreaterThan(10);
    expect(Buffer.concat(lines.chunks()).toString('utf8')).toBe(rows.map((r) => `${r}\n`).join(''));
    expect(lines.lines()).toEqual(rows);
    expect(JsonLines.of(rows.slice(0, 3)).lines()).toEqual(rows.slice(0, 3));
  });

  it('appends lines encoded elsewhere after its own, in order', () => {
    const lines = new JsonLines(64);
    lines.add('{"a":1}');
    lines.append([Buffer.from('{"b":2}\n{"c":3}\n'), new Uint8Array(0)], 2);
    lines.append([Buffer.from('{"d":4}\n')], 1);
    expect(lines.count).toBe(4);
    expect(lines.lines()).toEqual(['{"a":1}', '{"b":2}', '{"c":3}', '{"d":4}']);
    const only = new JsonLines();
    only.append([Buffer.from('{"e":5}\n')], 1);
    expect(only.lines()).toEqual(['{"e":5}']);
  });

  it('takes a row larger than its chunk size whole', () => {
    const big = JSON.stringify({ text: 'é'.repeat(5000) });
    const lines = new JsonLines(64);
    lines.add('{"a":1}');
    lines.add(big);
    expect(lines.lines()).toEqual(['{"a":1}', big]);
  });

  it('is empty until a row arrives', () => {
    expect(new JsonLines().chunks()).toEqual([]);
    expect(new JsonLines().lines()).toEqual([]);
  });
});
