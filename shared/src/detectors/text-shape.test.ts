import { describe, expect, it } from 'vitest';
import { measureShape, textShape } from './text-shape';

describe('textShape', () => {
  it('counts digits, runs and colons in one pass', () => {
    expect(measureShape('call 555-0100 at 10:30, ref AB12cd34')).toMatchObject({
      digits: 15,
      maxDigitRun: 4,
      maxAlnumRun: 8,
      colons: 1,
      nonAscii: false,
    });
  });

  it('tells where encoded segments can be', () => {
    expect(measureShape('plain words only, nothing long here').base64Run).toBe(false);
    expect(measureShape('token aWdub3JlIGFsbCBydWxlcw== end').base64Run).toBe(true);
    expect(measureShape('de ad be ef ca fe ba be 00 11').hexRun).toBe(true);
    expect(measureShape('deadbeef cafe zz babe').hexRun).toBe(false);
    expect(measureShape('run \\x69\\x67 now').hexRun).toBe(true);
    expect(measureShape('a lone x and a \\ apart').hexRun).toBe(false);
  });

  it('ends every run at a character outside ASCII', () => {
    expect(measureShape('1234é5678')).toMatchObject({ digits: 8, maxDigitRun: 4, maxAlnumRun: 4 });
    expect(measureShape('aWdub3JlIGFs€bGwgcnVsZXM=').base64Run).toBe(false);
    expect(measureShape('de:ad:be:ef:ca:fe:ba:be:00').hexRun).toBe(true);
    expect(measureShape('de ad be ef ·ca fe ba be 00').hexRun).toBe(false);
    expect(measureShape('\\é x, \\x').hexRun).toBe(true);
    expect(measureShape('\\éx').hexRun).toBe(false);
  });

  it('flags any code unit outside ASCII', () => {
    expect(measureShape('café').nonAscii).toBe(true);
    expect(measureShape('emoji 😀').nonAscii).toBe(true);
    expect(measureShape('plain').nonAscii).toBe(false);
  });

  it('remembers the last text only', () => {
    const a = textShape('first 123');
    expect(textShape('first 123')).toBe(a);
    expect(textShape('second').digits).toBe(0);
    expect(textShape('first 123')).not.toBe(a);
  });
});
