import RE2 from 're2';
import { describe, expect, it } from 'vitest';
import { eachMatch, nextMatch, trieSource, utf8Of, Utf8Text } from './utf8-text';

/** Every match as the same RE2 gives it on the JS string. */
function onString(re: RE2, text: string): Array<[number, string[]]> {
  const out: Array<[number, string[]]> = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    out.push([m.index, [...m].map(String)]);
    if (m[0].length === 0) re.lastIndex++;
  }
  return out;
}

function onBytes(re: RE2, text: string): Array<[number, string[]]> {
  const out: Array<[number, string[]]> = [];
  eachMatch(re, new Utf8Text(text), (m) => out.push([m.index, [...m].map(String)]));
  return out;
}

describe('Utf8Text', () => {
  const texts = [
    'plain ascii: call 555-0100 or 555-0199',
    'café 555-0100, naïve 555-0199',
    'emoji 😀 then 555-0100 and 𝔘𝔫𝔦 555-0199',
    'ideographs 電話 555-0100 かな 555-0199',
    'lone \ud800 surrogate 555-0100',
  ];

  it('gives the UTF-16 indices and strings a string match gives, with captures', () => {
    const re = new RE2('(\\d{3})-(\\d{4})', 'gu');
    for (const t of texts) expect(onBytes(re, t)).toEqual(onString(re, t));
  });

  it('matches non-ASCII text itself at the right indices', () => {
    const re = new RE2('[\\p{L}]+é|😀|電話', 'gu');
    for (const t of texts) expect(onBytes(re, t)).toEqual(onString(re, t));
  });

  it('steps over empty matches one whole character at a time', () => {
    const re = new RE2('x*', 'gu');
    const t = 'aé😀b';
    const got = onBytes(re, t).map(([i]) => i);
    expect(got).toEqual([0, 1, 2, 4, 5]);
  });

  it('maps every character boundary, the end included', () => {
    const t = new Utf8Text('aé😀b');
    // bytes: a(1) é(2) 😀(4) b(1)
    expect([0, 1, 3, 7, 8].map((b) => t.index(b))).toEqual([0, 1, 2, 4, 5]);
  });

  it('nextMatch continues from lastIndex in bytes', () => {
    const re = new RE2('\\d+', 'g');
    const t = new Utf8Text('é1 é22 é333');
    re.lastIndex = 0;
    const found: Array<[number, string]> = [];
    for (let m = nextMatch(re, t); m; m = nextMatch(re, t)) found.push([m.index, m[0]]);
    expect(found).toEqual([
      [1, '1'],
      [4, '22'],
      [8, '333'],
    ]);
  });

  it('utf8Of converts a text once for consecutive callers and again for another text', () => {
    const a = utf8Of('first text');
    expect(utf8Of('first text')).toBe(a);
    const b = utf8Of('second text');
    expect(b).not.toBe(a);
    expect(b.bytes.toString()).toBe('second text');
  });
});

describe('trieSource', () => {
  it('matches exactly the words it was given, prefixes and special characters included', () => {
    const words = ['ig', 'ignore', 'ignored', 'in', 'lbh', 'lbhe', 'a.b', '(x)', '现在', '今から'];
    const whole = new RegExp(`^(?:${trieSource(words)})$`, 'u');
    for (const w of words) expect(whole.test(w), w).toBe(true);
    for (const w of ['', 'i', 'ign', 'ignor', 'ignores', 'lb', 'axb', 'x', '现', '今か'])
      expect(whole.test(w), w).toBe(false);
  });

  it('matches as the flat alternation does, on seeded random word lists and texts', () => {
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const word = (alphabet: string, max: number) => {
      let w = '';
      for (let n = 1 + Math.floor(next() * max); n > 0; n--)
        w += alphabet[Math.floor(next() * alphabet.length)];
      return w;
    };
    for (let k = 0; k < 300; k++) {
      const words = [...new Set(Array.from({ length: 1 + Math.floor(next() * 12) }, () => word('abc', 4)))];
      const flat = new RegExp(`\\b(?:${[...words].sort((a, b) => b.length - a.length).join('|')})\\b`, 'g');
      const trie = new RegExp(`\\b(?:${trieSource(words)})\\b`, 'g');
      const text = Array.from({ length: 20 }, () => word('abc', 5)).join(' ');
      expect(
        [...text.matchAll(trie)].map((m) => `${m.index}:${m[0]}`),
        `${words} / ${text}`,
      ).toEqual([...text.matchAll(flat)].map((m) => `${m.index}:${m[0]}`));
    }
  });
});
