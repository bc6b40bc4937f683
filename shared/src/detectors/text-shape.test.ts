import { describe, expect, it } from 'vitest';
import { measureShape, textShape } from './text-shape';

describe('textShape', () => {
  it('counts digits, runs, colons and capitals in one pass', () => {
    expect(measureShape('call 555-0100 at 10:30, ref AB12cd34')).toMatchObject({
      digits: 15,
      maxDigitRun: 4,
      maxAlnumRun: 8,
      colons: 1,
      capitals: 2,
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

  it('finds capitals and digits right after a lower-case letter, and capitals after a digit', () => {
    expect(measureShape('SWdub3Jl the aW5zdHJ1Y3Rpb25z').caseTurns).toBe(7);
    expect(measureShape('an iPhone and an mp3 player').turnAt).toEqual([4, 19]);
    expect(measureShape('5072696E74 your 73797374656D').turnAt).toEqual([7, 27]);
    expect(measureShape('Plain Title Case Words').caseTurns).toBe(0);
  });

  it('counts the most five-character tokens in a row', () => {
    expect(measureShape("Lbh'e rnobh ggbra pbhag revaf gehpg vbaff bpevg vpny, gurlp bhyqp").fiveInARow).toBe(
      10,
    );
    expect(measureShape('Please water the plants every other day, as we agreed.').fiveInARow).toBe(2);
  });

  it('counts combining marks and Latin letters written with a mark', () => {
    expect(measureShape('Ĩǵṉoṟe yoùr').marked).toBe(5);
    expect(measureShape('Z\u0351a\u0352l\u0353g\u0354o').marked).toBe(4);
    expect(measureShape('3 × 4 ÷ 2, naïve').marked).toBe(1);
  });

  it('flags any code unit outside ASCII', () => {
    expect(measureShape('café').nonAscii).toBe(true);
    expect(measureShape('emoji 😀').nonAscii).toBe(true);
    expect(measureShape('plain').nonAscii).toBe(false);
  });

  it('gives what classifying every character in full gives, on seeded random text', () => {
    // The reference: every character classified, every run counted as it grows.
    const reference = (text: string) => {
      let [digits, digitRun, maxDigitRun, alnumRun, maxAlnumRun, colons, b64, hex] = [0, 0, 0, 0, 0, 0, 0, 0];
      let [nonAscii, base64Run, hexRun] = [false, false, false];
      let capitals = 0;
      let marked = 0;
      const turnAt: number[] = [];
      for (let i = 0; i < text.length; i++) {
        const ch = text[i]!;
        const digit = /[0-9]/.test(ch);
        digits += digit ? 1 : 0;
        digitRun = digit ? digitRun + 1 : 0;
        alnumRun = /[A-Za-z0-9]/.test(ch) ? alnumRun + 1 : 0;
        b64 = /[A-Za-z0-9+/_-]/.test(ch) ? b64 + 1 : 0;
        hex = /[0-9A-Fa-f]/.test(ch) ? hex + 1 : /[ :]/.test(ch) ? hex : 0;
        maxDigitRun = Math.max(maxDigitRun, digitRun);
        maxAlnumRun = Math.max(maxAlnumRun, alnumRun);
        base64Run ||= b64 >= 16;
        hexRun ||= hex >= 18 || (ch === 'x' && text[i - 1] === '\\');
        colons += ch === ':' ? 1 : 0;
        capitals += /[A-Z]/.test(ch) ? 1 : 0;
        nonAscii ||= ch.charCodeAt(0) >= 128;
        marked += /[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff]/.test(ch) ? 1 : 0;
        const code = ch.charCodeAt(0);
        const mark = [0x300, 0x36f, 0x1ab0, 0x1aff, 0x1dc0, 0x1dff, 0x20d0, 0x20ff, 0xfe20, 0xfe2f];
        for (let r = 0; r < mark.length; r += 2) marked += code >= mark[r]! && code <= mark[r + 1]! ? 1 : 0;
        const before = i > 0 ? text[i - 1]! : '';
        if ((/[a-z]/.test(before) && /[A-Z0-9]/.test(ch)) || (/[0-9]/.test(before) && /[A-Z]/.test(ch)))
          turnAt.push(i);
      }
      const caseTurns = turnAt.length;
      // Tokens each followed by a separator (the text's last, unless one ends it, is not).
      const tokens = text
        .split(/[ \t\n\r]/)
        .slice(0, -1)
        .filter((t) => t !== '');
      let [fives, fiveInARow] = [0, 0];
      for (const t of tokens) fiveInARow = Math.max(fiveInARow, (fives = t.length === 5 ? fives + 1 : 0));
      return {
        digits,
        maxDigitRun,
        maxAlnumRun,
        colons,
        capitals,
        nonAscii,
        base64Run,
        hexRun,
        caseTurns,
        turnAt,
        fiveInARow,
        marked,
      };
    };
    const alphabet = 'abfgxzAFGZ059 :\\+/_-.é\n×ṉ\u0301    \t';
    let seed = 21;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let k = 0; k < 5000; k++) {
      let text = '';
      for (let n = Math.floor(next() * 50); n > 0; n--)
        text += alphabet[Math.floor(next() * alphabet.length)];
      expect(measureShape(text)).toEqual(reference(text));
    }
  });

  it('remembers the last text only', () => {
    const a = textShape('first 123');
    expect(textShape('first 123')).toBe(a);
    expect(textShape('second').digits).toBe(0);
    expect(textShape('first 123')).not.toBe(a);
  });
});
