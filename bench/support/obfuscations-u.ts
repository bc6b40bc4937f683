/**
 * Obfuscation generator U: the twenty-first hand, written independently.
 *
 * Its author saw only obfuscation-brief.ts (the family names and byte helpers) and rng.ts (the seeded
 * PRNG and its helpers); no other generator, detector or test was read. The generator is held out: its
 * variants exist only to measure the detector and are never used to tune it. It is seeded (every draw
 * comes from the `Rand` it is given, so a seed always yields the same output), content-blind (it never
 * looks at what the text says, only at its characters, bytes, words and whitespace, and any cover text
 * is neutral and drawn the same way for every input) and faithful (the original text can be recovered
 * from each output, up to case or whitespace where a family inherently loses them).
 */
import { BRIEFED_FAMILIES, type BriefedFamily, hex2, utf8 } from './obfuscation-brief';
import { type Rand, chance, int, pick, sample } from './rng';

export const FAMILIES_U = BRIEFED_FAMILIES;

/** One way of writing a family: its name and a seeded transform. */
type Variant = readonly [name: string, apply: (r: Rand, text: string) => string];

// ---------------------------------------------------------------------------------------------------
// Generic helpers

/** The characters (code points) of `s`. */
const chars = (s: string): string[] => [...s];

/** The string made of the given code points. */
const cp = (...codes: number[]): string => String.fromCodePoint(...codes);

/** `s` with `f` applied to each character. */
const mapChars = (s: string, f: (c: string) => string): string => chars(s).map(f).join('');

/** `s` with `f` applied to each maximal run of non-whitespace, given the run's index. */
const mapWords = (s: string, f: (w: string, i: number) => string): string => {
  let i = 0;
  return s.replace(/\S+/g, (w) => f(w, i++));
};

/** The non-empty whitespace-separated words of `s`. */
const wordsOf = (s: string): string[] => s.split(/\s+/).filter((w) => w !== '');

/** `s` with a freshly drawn `gap()` between every two neighbouring characters. */
const between = (s: string, gap: () => string): string =>
  chars(s)
    .map((c, i) => (i === 0 ? c : gap() + c))
    .join('');

/** The words of `s`, each with `sep()` between its characters, joined by `gap`. */
const spell = (s: string, sep: () => string, gap: string): string =>
  wordsOf(s)
    .map((w) => between(w, sep))
    .join(gap);

/** `s` cut into consecutive pieces of `n` characters. */
const chunk = (s: string, n: number): string[] => {
  const cs = chars(s);
  const out: string[] = [];
  for (let i = 0; i < cs.length; i += n) out.push(cs.slice(i, i + n).join(''));
  return out;
};

/** `s` cut at `k - 1` distinct random character positions into `k` non-empty pieces (fewer if short). */
const cutInto = (r: Rand, s: string, k: number): string[] => {
  const cs = chars(s);
  const inner = Array.from({ length: Math.max(0, cs.length - 1) }, (_, i) => i + 1);
  const cuts = sample(r, inner, Math.min(k - 1, inner.length)).sort((a, b) => a - b);
  return [0, ...cuts].map((at, i) => cs.slice(at, cuts[i] ?? cs.length).join(''));
};

/** The words of `s` packed greedily into lines of at most `width` characters. */
const wrap = (s: string, width: number): string[] => {
  const lines: string[] = [];
  let line = '';
  for (const w of wordsOf(s)) {
    if (line !== '' && line.length + 1 + w.length > width) {
      lines.push(line);
      line = w;
    } else line = line === '' ? w : `${line} ${w}`;
  }
  if (line !== '') lines.push(line);
  return lines;
};

/** `t` with every `{x}` replaced by `x` (no replacement-pattern surprises). */
const fill = (t: string, x: string): string => t.split('{x}').join(x);

/** `s` with its ASCII letters in upper case. */
const asciiUpper = (s: string): string => s.replace(/[a-z]/g, (c) => c.toUpperCase());

/** `s` with its ASCII letters in lower case. */
const asciiLower = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** `s` with its characters in reverse order. */
const reverse = (s: string): string => chars(s).reverse().join('');

/** A table sending the i-th character of `from` to the i-th code point of `to`. */
const table = (from: string, to: readonly number[]): Map<string, string> =>
  new Map(chars(from).map((c, i): [string, string] => [c, cp(to[i]!)]));

/** A table from lower-case letters to replacements, applied to both cases of each letter. */
const caseless = (pairs: Readonly<Record<string, string>>): Map<string, string> =>
  new Map(
    Object.entries(pairs).flatMap(([k, v]): [string, string][] => [
      [k, v],
      [k.toUpperCase(), v],
    ]),
  );

/** Several tables merged into one that lists every replacement each character has. */
const pool = (...tables: readonly Map<string, string>[]): Map<string, string[]> => {
  const out = new Map<string, string[]>();
  for (const t of tables) for (const [k, v] of t) out.set(k, [...(out.get(k) ?? []), v]);
  return out;
};

/** `s` with each character that `tbl` knows replaced, each with probability `p`. */
const swap = (r: Rand, s: string, tbl: ReadonlyMap<string, string>, p = 1): string =>
  mapChars(s, (c) => {
    const t = tbl.get(c);
    return t !== undefined && chance(r, p) ? t : c;
  });

/** `s` with each character that `pl` knows replaced, with probability `p`, by one of its options. */
const swapAny = (r: Rand, s: string, pl: ReadonlyMap<string, readonly string[]>, p = 1): string =>
  mapChars(s, (c) => {
    const xs = pl.get(c);
    return xs !== undefined && chance(r, p) ? pick(r, xs) : c;
  });

/** `s` in single quotes as a POSIX shell word. */
const shellQuote = (s: string): string => `'${s.split("'").join("'\\''")}'`;

/** `s` with the characters HTML text content must escape replaced by entities. */
const htmlEscape = (s: string): string =>
  s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));

// ---------------------------------------------------------------------------------------------------
// Encoders shared by several families

/** Padded standard base64 of the UTF-8 bytes of `s`. */
const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

/** The UTF-8 bytes of `s` in hex, each written `${pre}XX`, joined by `sep`. */
const hexBytes = (s: string, upper: boolean, sep = '', pre = ''): string =>
  utf8(s)
    .map((b) => pre + hex2(b, upper))
    .join(sep);

/** Every UTF-8 byte of `s` percent-encoded. */
const pct = (s: string, upper: boolean): string => hexBytes(s, upper, '', '%');

/** `s` percent-encoded except for the characters `keep` accepts; spaces as `+` when `plus`. */
const pctExcept = (s: string, keep: RegExp, upper: boolean, plus = false): string =>
  mapChars(s, (c) => (plus && c === ' ' ? '+' : keep.test(c) ? c : pct(c, upper)));

/** Each UTF-16 unit of `s` as a four-digit hex number. */
const units = (s: string, upper: boolean): string[] =>
  Array.from({ length: s.length }, (_, i) => {
    const h = s.charCodeAt(i).toString(16).padStart(4, '0');
    return upper ? h.toUpperCase() : h;
  });

/** `s` as JavaScript/JSON `\uXXXX` escapes, one per UTF-16 unit. */
const uEscapes = (s: string, upper: boolean): string =>
  units(s, upper)
    .map((h) => `\\u${h}`)
    .join('');

/** ROT13 of the ASCII letters of `s`. */
const rot13 = (s: string): string =>
  s.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });

/** The full-width form of a printable ASCII character (any other character unchanged). */
const fw = (c: string): string => {
  const n = c.charCodeAt(0);
  return c.length === 1 && n > 0x20 && n < 0x7f ? String.fromCharCode(n + 0xfee0) : c;
};

/** The Unicode tag character standing for an ASCII character (any other character unchanged). */
const tag = (c: string): string => {
  const n = c.codePointAt(0)!;
  return n < 0x80 ? cp(0xe0000 + n) : c;
};

/** Base64 text as is, or wrapped at 76 columns as mail and many tools print it. */
const b64Layout = (r: Rand, b: string): string => (chance(r, 0.3) ? chunk(b, 76).join('\n') : b);

// ---------------------------------------------------------------------------------------------------
// Neutral carriers: chosen the same way whatever the text says

const COVERS = [
  'Thanks for getting back to me so quickly.',
  'The meeting has been moved to Thursday afternoon.',
  'Please find the quarterly figures attached.',
  'Looking forward to catching up next week.',
  'Here is the recipe I mentioned yesterday.',
  'The weather looks great for the weekend.',
  'Let me know if the new schedule works for you.',
  'Our office will be closed on Monday.',
  'The parcel should arrive within three days.',
  'I have updated the shared calendar.',
] as const;

const TITLES = ['Notes', 'Overview', 'Getting started', 'Changelog', 'Meeting notes', 'Project'] as const;

/** The words of a neutral cover sentence with `pieces` placed, in order, into drawn word gaps. */
const interleave = (r: Rand, pieces: readonly string[]): string => {
  const words = pick(r, COVERS).split(' ');
  const n = Math.min(pieces.length, words.length);
  const slots = sample(
    r,
    Array.from({ length: words.length }, (_, i) => i),
    n,
  ).sort((a, b) => a - b);
  const out = [...words];
  // Each chosen word carries one piece after it; the last chosen word carries any pieces left over.
  slots.forEach((at, k) => {
    out[at] += k === n - 1 ? pieces.slice(k).join('') : pieces[k]!;
  });
  return out.join(' ');
};

// ---------------------------------------------------------------------------------------------------
// leetspeak

const LEET_CLASSIC = caseless({ a: '4', e: '3', i: '1', o: '0', s: '5', t: '7' });
const LEET_DIGITS = caseless({ a: '4', b: '8', e: '3', g: '9', i: '1', o: '0', s: '5', t: '7', z: '2' });
const LEET_SIGILS = caseless({ a: '@', e: '3', i: '!', l: '|', o: '0', s: '$', t: '+' });
const LEET_VOWELS = caseless({ a: '4', e: '3', i: '1', o: '0', u: '\u00b5' });
const LEET_ELITE = caseless({
  a: '/-\\',
  b: '|3',
  c: '(',
  d: '|)',
  e: '3',
  f: '|=',
  g: '6',
  h: '|-|',
  i: '1',
  j: '_|',
  k: '|<',
  l: '|_',
  m: '|\\/|',
  n: '|\\|',
  o: '0',
  p: '|*',
  q: '9',
  r: '|2',
  s: '5',
  t: '7',
  u: '(_)',
  v: '\\/',
  w: '\\^/',
  x: '><',
  y: '`/',
  z: '2',
});
const LEET_POOL = pool(
  LEET_CLASSIC,
  caseless({ a: '@', b: '8', e: '\u20ac', g: '9', i: '!', l: '|', o: '()', s: '$', t: '+', z: '2' }),
  caseless({ a: '/\\', b: '\u00df', l: '\u00a3', g: '6' }),
);

/** `s` with its ASCII letters alternating in case, starting at a drawn case. */
const studly = (r: Rand, s: string): string => {
  let k = int(r, 0, 1);
  return s.replace(/[A-Za-z]/g, (c) => (k++ % 2 === 0 ? c.toLowerCase() : c.toUpperCase()));
};

const LEETSPEAK: readonly Variant[] = [
  ['elite', (r, s) => swap(r, s, LEET_ELITE)],
  ['classic', (r, s) => swap(r, s, LEET_CLASSIC)],
  ['digits-extended', (r, s) => swap(r, s, LEET_DIGITS)],
  ['sigils', (r, s) => swap(r, s, LEET_SIGILS)],
  ['vowels-partial', (r, s) => swap(r, s, LEET_VOWELS, 0.4 + 0.5 * r())],
  ['mixed-pool', (r, s) => swapAny(r, s, LEET_POOL)],
  ['studly-caps', (r, s) => swap(r, studly(r, s), LEET_CLASSIC)],
  ['sparse-chars', (r, s) => swap(r, s, LEET_DIGITS, 0.25 + 0.35 * r())],
  ['some-words', (r, s) => mapWords(s, (w) => (chance(r, 0.5) ? swap(r, w, LEET_SIGILS) : w))],
  ['all-caps', (r, s) => swap(r, asciiUpper(s), LEET_DIGITS)],
  ['elite-partial', (r, s) => swap(r, s, LEET_ELITE, 0.5 + 0.4 * r())],
];

// ---------------------------------------------------------------------------------------------------
// url_encoding

const URI_KEEP = /[A-Za-z0-9\-_.!~*'()]/;
const FORM_KEEP = /[A-Za-z0-9\-_.*]/;

/** Every UTF-8 byte of `s` percent-encoded, each hex digit's case drawn. */
const pctMixedCase = (r: Rand, s: string): string =>
  utf8(s)
    .map((b) => `%${mapChars(hex2(b, false), (d) => (chance(r, 0.5) ? d.toUpperCase() : d))}`)
    .join('');

/** `s` in the non-standard `%uXXXX` form, one escape per UTF-16 unit. */
const pctU = (s: string, upper: boolean): string =>
  units(s, upper)
    .map((h) => `%u${h}`)
    .join('');

/** `s` as a form-encoded value inside a neutral search URL. */
const inQuery = (r: Rand, s: string): string => {
  const host = pick(r, ['www.example.com', 'search.example.org', 'example.net', 'docs.example.com']);
  const path = pick(r, ['search', 'q', 'find', 'results', 'api/v1/query']);
  const key = pick(r, ['q', 'query', 'text', 's', 'term']);
  const tail = pick(r, ['hl=en', 'lang=en', 'page=1', 'src=home', 'ref=nav']);
  return `https://${host}/${path}?${key}=${pctExcept(s, FORM_KEEP, true, true)}&${tail}`;
};

/** `s` as the body of a neutral mailto: link. */
const inMailto = (r: Rand, s: string): string => {
  const to = pick(r, ['someone@example.com', 'team@example.org', 'info@example.net']);
  const subject = pick(r, ['Hello', 'Notes', 'Follow%20up', 'Quick%20question', 'Update']);
  return `mailto:${to}?subject=${subject}&body=${pctExcept(s, URI_KEEP, true)}`;
};

const URL_ENCODING: readonly Variant[] = [
  ['every-byte-upper', (_r, s) => pct(s, true)],
  ['every-byte-lower', (_r, s) => pct(s, false)],
  ['every-byte-mixed-case', (r, s) => pctMixedCase(r, s)],
  ['uri-component', (r, s) => pctExcept(s, URI_KEEP, chance(r, 0.8))],
  ['form-urlencoded', (r, s) => pctExcept(s, FORM_KEEP, chance(r, 0.8), true)],
  ['double-encoded', (r, s) => pct(s, chance(r, 0.7)).split('%').join('%25')],
  [
    'random-subset',
    (r, s) => {
      const p = 0.3 + 0.4 * r();
      const upper = chance(r, 0.7);
      return mapChars(s, (c) => (c === '%' || chance(r, p) ? pct(c, upper) : c));
    },
  ],
  ['percent-u', (r, s) => pctU(s, chance(r, 0.5))],
  ['query-string', (r, s) => inQuery(r, s)],
  ['mailto-body', (r, s) => inMailto(r, s)],
  [
    'data-uri',
    (r, s) =>
      `data:${pick(r, ['text/plain', 'text/plain;charset=utf-8', ''])},${
        chance(r, 0.5) ? pct(s, true) : pctExcept(s, URI_KEEP, true)
      }`,
  ],
];

// ---------------------------------------------------------------------------------------------------
// zero_width

const ZWSP = '\u200b';
const ZWNJ = '\u200c';
const ZWJ = '\u200d';
const WJ = '\u2060';
const BOM = '\ufeff';
const SHY = '\u00ad';
const ZERO_WIDTHS = [ZWSP, ZWNJ, ZWJ, WJ, BOM] as const;
const INVISIBLE_OPERATORS = ['\u2061', '\u2062', '\u2063', '\u2064'] as const;
const DIRECTION_MARKS = ['\u200e', '\u200f', '\u061c'] as const;

/** `s` as zero-width bits (its UTF-8 bytes, eight bits each) hidden inside a neutral cover sentence. */
const zeroWidthBits = (r: Rand, s: string): string => {
  const [zero, one, sep] = pick(r, [
    [ZWSP, ZWNJ, ''],
    [ZWNJ, ZWJ, BOM],
  ] as const);
  const hidden = utf8(s)
    .map((b) => mapChars(b.toString(2).padStart(8, '0'), (d) => (d === '0' ? zero : one)))
    .join(sep);
  const cover = pick(r, COVERS);
  const at = cover.indexOf(' ');
  return chance(r, 0.5) ? cover + hidden : cover.slice(0, at) + hidden + cover.slice(at);
};

const ZERO_WIDTH: readonly Variant[] = [
  ['zwsp-every-gap', (_r, s) => between(s, () => ZWSP)],
  ['joiners-random', (r, s) => between(s, () => pick(r, [ZWNJ, ZWJ]))],
  ['word-joiner-in-words', (_r, s) => mapWords(s, (w) => between(w, () => WJ))],
  ['soft-hyphen-in-words', (_r, s) => mapWords(s, (w) => between(w, () => SHY))],
  [
    'bom-scatter',
    (r, s) => {
      const p = 0.3 + 0.4 * r();
      return between(s, () => (chance(r, p) ? BOM : ''));
    },
  ],
  [
    'mixed-runs',
    (r, s) => {
      const p = 0.3 + 0.6 * r();
      const run = (): string => Array.from({ length: int(r, 1, 3) }, () => pick(r, ZERO_WIDTHS)).join('');
      return between(s, () => (chance(r, p) ? run() : ''));
    },
  ],
  ['invisible-operators', (r, s) => between(s, () => pick(r, INVISIBLE_OPERATORS))],
  ['direction-marks', (r, s) => mapWords(s, (w) => between(w, () => pick(r, DIRECTION_MARKS)))],
  [
    'spaces-replaced',
    (r, s) => {
      const z = pick(r, [ZWSP, ZWNJ, WJ, BOM]);
      return s.replace(/ /g, z);
    },
  ],
  ['binary-in-cover', (r, s) => zeroWidthBits(r, s)],
];

// ---------------------------------------------------------------------------------------------------
// homoglyph

const CYRILLIC = table(
  'acdehijlopqswxyABCEHIJKMOPSTXY',
  [
    0x430, 0x441, 0x501, 0x435, 0x4bb, 0x456, 0x458, 0x4cf, 0x43e, 0x440, 0x51b, 0x455, 0x51d, 0x445, 0x443,
    0x410, 0x412, 0x421, 0x415, 0x41d, 0x406, 0x408, 0x41a, 0x41c, 0x41e, 0x420, 0x405, 0x422, 0x425, 0x4ae,
  ],
);
const GREEK = table(
  'aikopuvABEHIKMNOPTXYZ',
  [
    0x3b1, 0x3b9, 0x3ba, 0x3bf, 0x3c1, 0x3c5, 0x3bd, 0x391, 0x392, 0x395, 0x397, 0x399, 0x39a, 0x39c, 0x39d,
    0x39f, 0x3a1, 0x3a4, 0x3a7, 0x3a5, 0x396,
  ],
);
const ARMENIAN = table('hnoqu', [0x570, 0x578, 0x585, 0x566, 0x57d]);
const LATIN_EXTRA = table('ag', [0x251, 0x261]);
const CHEROKEE = table(
  'ABCDEGHJKLMPRSTVWZ',
  [
    0x13aa, 0x13f4, 0x13df, 0x13a0, 0x13ac, 0x13c0, 0x13bb, 0x13ab, 0x13e6, 0x13de, 0x13b7, 0x13e2, 0x13a1,
    0x13da, 0x13a2, 0x13d9, 0x13b3, 0x13c3,
  ],
);
const MIXED_SCRIPTS = pool(CYRILLIC, GREEK, ARMENIAN, LATIN_EXTRA);
const CAPITAL_LOOKALIKES = pool(CYRILLIC, GREEK, CHEROKEE);

/** Mathematical alphanumeric styles without holes: capital A's code point, and digit 0's (or 0). */
const MATH_STYLES: readonly (readonly [number, number])[] = [
  [0x1d400, 0x1d7ce],
  [0x1d468, 0],
  [0x1d4d0, 0],
  [0x1d56c, 0],
  [0x1d5a0, 0x1d7e2],
  [0x1d5d4, 0x1d7ec],
  [0x1d608, 0],
  [0x1d63c, 0],
  [0x1d670, 0x1d7f6],
];

/** `c` in a mathematical alphanumeric style, if it is an ASCII letter (or a digit the style has). */
const math = (style: readonly [number, number], c: string): string => {
  const n = c.charCodeAt(0);
  if (c >= 'A' && c <= 'Z') return cp(style[0] + n - 65);
  if (c >= 'a' && c <= 'z') return cp(style[0] + 26 + n - 97);
  if (c >= '0' && c <= '9' && style[1] !== 0) return cp(style[1] + n - 48);
  return c;
};

const SMALL_CAPS = [
  0x1d00, 0x299, 0x1d04, 0x1d05, 0x1d07, 0xa730, 0x262, 0x29c, 0x26a, 0x1d0a, 0x1d0b, 0x29f, 0x1d0d, 0x274,
  0x1d0f, 0x1d18, 0xa7af, 0x280, 0xa731, 0x1d1b, 0x1d1c, 0x1d20, 0x1d21, 0x78, 0x28f, 0x1d22,
];
const SUPERSCRIPTS = [
  0x1d43, 0x1d47, 0x1d9c, 0x1d48, 0x1d49, 0x1da0, 0x1d4d, 0x2b0, 0x2071, 0x2b2, 0x1d4f, 0x2e1, 0x1d50, 0x207f,
  0x1d52, 0x1d56, 0x146b, 0x2b3, 0x2e2, 0x1d57, 0x1d58, 0x1d5b, 0x2b7, 0x2e3, 0x2b8, 0x1dbb,
];

/** `s` with each lower-case ASCII letter replaced by the code point at its alphabet index in `alphabet`. */
const byAlphabet = (s: string, alphabet: readonly number[]): string =>
  s.replace(/[a-z]/g, (c) => cp(alphabet[c.charCodeAt(0) - 97]!));

/** `s` in one drawn style of enclosed letters (bubble, parenthesised or boxed). */
const enclosed = (r: Rand, s: string): string => {
  const style = pick(r, ['circled', 'parenthesized', 'negative-circled', 'squared', 'negative-squared']);
  if (style === 'circled')
    return s.replace(/[A-Za-z]/g, (c) =>
      cp(c <= 'Z' ? 0x24b6 + c.charCodeAt(0) - 65 : 0x24d0 + c.charCodeAt(0) - 97),
    );
  if (style === 'parenthesized')
    return asciiLower(s).replace(/[a-z]/g, (c) => cp(0x249c + c.charCodeAt(0) - 97));
  const base = style === 'negative-circled' ? 0x1f150 : style === 'squared' ? 0x1f130 : 0x1f170;
  return asciiUpper(s).replace(/[A-Z]/g, (c) => cp(base + c.charCodeAt(0) - 65));
};

/** `s` with one or two look-alike swaps in each word that has a swappable letter. */
const fewPerWord = (r: Rand, s: string, tbl: ReadonlyMap<string, string>): string =>
  mapWords(s, (w) => {
    const cs = chars(w);
    const at = cs.flatMap((c, i) => (tbl.has(c) ? [i] : []));
    for (const i of sample(r, at, Math.min(at.length, int(r, 1, 2)))) cs[i] = tbl.get(cs[i]!)!;
    return cs.join('');
  });

const HOMOGLYPH: readonly Variant[] = [
  [
    'math-alphabet',
    (r, s) => {
      const style = pick(r, MATH_STYLES);
      return mapChars(s, (c) => math(style, c));
    },
  ],
  ['cyrillic-full', (r, s) => swap(r, s, CYRILLIC)],
  ['cyrillic-sparse', (r, s) => fewPerWord(r, s, CYRILLIC)],
  ['greek-full', (r, s) => swap(r, s, GREEK)],
  ['mixed-scripts', (r, s) => swapAny(r, s, MIXED_SCRIPTS, 0.5 + 0.5 * r())],
  ['capital-lookalikes', (r, s) => swapAny(r, asciiUpper(s), CAPITAL_LOOKALIKES, 0.6 + 0.4 * r())],
  [
    'math-per-word',
    (r, s) =>
      mapWords(s, (w) => {
        const style = pick(r, MATH_STYLES);
        return mapChars(w, (c) => math(style, c));
      }),
  ],
  ['small-caps', (_r, s) => byAlphabet(s, SMALL_CAPS)],
  ['superscript', (_r, s) => byAlphabet(asciiLower(s), SUPERSCRIPTS)],
  ['enclosed', (r, s) => enclosed(r, s)],
];

// ---------------------------------------------------------------------------------------------------
// spaced_letters

/** `s` as a concatenation of short double-quoted string literals. */
const concatLiterals = (r: Rand, s: string): string => {
  const cs = chars(s);
  const parts: string[] = [];
  for (let i = 0; i < cs.length;) {
    const n = int(r, 1, 3);
    parts.push(JSON.stringify(cs.slice(i, i + n).join('')));
    i += n;
  }
  const joined = parts.join(pick(r, [' + ', '+', ' . ']));
  return fill(pick(r, ['{x}', 'x = {x};', 'let s = {x};', '({x})']), joined);
};

const SPACED_LETTERS: readonly Variant[] = [
  ['hyphens', (r, s) => spell(s, () => '-', pick(r, ['   ', '  ', ' / ']))],
  ['single-spaces', (r, s) => spell(s, () => ' ', pick(r, ['   ', '    ', ' / ', '  |  ']))],
  ['dots', (r, s) => spell(s, () => '.', pick(r, [' ', '  ', ' / ']))],
  [
    'one-symbol',
    (r, s) => {
      const sep = pick(r, ['_', '*', '|', '~', '+', '\u00b7', '\u2022', '/', '\\', ',']);
      return spell(s, () => sep, pick(r, [' ', '   ']));
    },
  ],
  ['mixed-separators', (r, s) => spell(s, () => pick(r, ['.', '-', '_', '*', ' ']), '   ')],
  ['vertical', (_r, s) => spell(s, () => '\n', '\n\n')],
  [
    'json-characters',
    (r, s) =>
      `[${chars(s)
        .map((c) => JSON.stringify(c))
        .join(pick(r, [', ', ',']))}]`,
  ],
  [
    'unusual-spaces',
    (r, s) => {
      const sep = pick(r, ['\u00a0', '\u2009', '\u200a', '\u3000', '\u2002', '\u202f']);
      return spell(s, () => sep, pick(r, ['  ', '   ']));
    },
  ],
  [
    'some-words',
    (r, s) => {
      const sep = pick(r, ['-', '.', '*', '_']);
      return mapWords(s, (w) => (chars(w).length > 1 && chance(r, 0.5) ? between(w, () => sep) : w));
    },
  ],
  ['string-concatenation', (r, s) => concatLiterals(r, s)],
];

// ---------------------------------------------------------------------------------------------------
// base64

/** `s` as RFC 2047 encoded words (each at most 45 bytes of whole characters) in a mail header. */
const mimeHeader = (r: Rand, s: string): string => {
  const parts: string[] = [];
  let cur = '';
  for (const c of chars(s)) {
    if (cur !== '' && Buffer.byteLength(cur + c, 'utf8') > 45) {
      parts.push(cur);
      cur = '';
    }
    cur += c;
  }
  if (cur !== '') parts.push(cur);
  const charset = pick(r, ['UTF-8', 'utf-8']);
  const name = pick(r, ['Subject', 'X-Note', 'Comments', 'Thread-Topic']);
  return `${name}: ${parts.map((p) => `=?${charset}?B?${b64(p)}?=`).join('\r\n ')}`;
};

/** Base64 `b` in a neutral JSON object. */
const b64Json = (r: Rand, b: string): string =>
  pick(r, [
    () => JSON.stringify({ data: b }),
    () => JSON.stringify({ encoding: 'base64', content: b }),
    () => JSON.stringify({ type: 'text', payload: b }, null, 2),
    () => JSON.stringify({ attachment: { name: 'note.txt', body: b } }),
  ])();

const DATA_TYPES = ['text/plain', 'text/plain;charset=utf-8', 'application/octet-stream'] as const;
const B64_SHELL = [
  "echo '{x}' | base64 -d",
  'echo {x} | base64 --decode',
  "base64 -d <<< '{x}'",
  "printf %s '{x}' | base64 -D",
  "[Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('{x}'))",
] as const;
const B64_CODE = [
  'atob("{x}")',
  "base64.b64decode('{x}').decode('utf-8')",
  "Buffer.from('{x}', 'base64').toString()",
  'Convert.FromBase64String("{x}")',
  'base64_decode("{x}")',
] as const;

const BASE64: readonly Variant[] = [
  ['standard', (_r, s) => b64(s)],
  ['unpadded', (_r, s) => b64(s).replace(/=+$/, '')],
  ['url-safe', (_r, s) => b64(s).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')],
  ['mime-wrapped', (r, s) => chunk(b64(s), 76).join(pick(r, ['\r\n', '\n']))],
  [
    'armored',
    (r, s) => {
      const label = pick(r, ['MESSAGE', 'DATA', 'NOTE', 'ATTACHMENT']);
      return `-----BEGIN ${label}-----\n${chunk(b64(s), 64).join('\n')}\n-----END ${label}-----`;
    },
  ],
  ['data-uri', (r, s) => `data:${pick(r, DATA_TYPES)};base64,${b64(s)}`],
  ['mime-header', (r, s) => mimeHeader(r, s)],
  ['per-word', (_r, s) => wordsOf(s).map(b64).join(' ')],
  ['json-field', (r, s) => b64Json(r, b64(s))],
  ['shell-decode', (r, s) => fill(pick(r, B64_SHELL), b64(s))],
  ['code-call', (r, s) => fill(pick(r, B64_CODE), b64(s))],
  ['grouped', (r, s) => chunk(b64(s), pick(r, [4, 8])).join(' ')],
];

// ---------------------------------------------------------------------------------------------------
// hex

/** The UTF-8 bytes of `s` as an xxd-like dump: offsets and two-byte groups, without a text column. */
const offsetDump = (s: string): string => {
  const bytes = utf8(s);
  const rows: string[] = [];
  for (let at = 0; at < bytes.length; at += 16) {
    const row = bytes.slice(at, at + 16).map((b) => hex2(b, false));
    const groups = Array.from({ length: Math.ceil(row.length / 2) }, (_, i) =>
      row.slice(2 * i, 2 * i + 2).join(''),
    );
    rows.push(`${at.toString(16).padStart(8, '0')}: ${groups.join(' ')}`);
  }
  return rows.join('\n');
};

/** `s` hex-encoded inside a neutral shell command or code call that would decode it. */
const hexCarrier = (r: Rand, s: string): string =>
  pick(r, [
    () => `printf '${hexBytes(s, false, '', '\\x')}'`,
    () => `echo ${hexBytes(s, false)} | xxd -r -p`,
    () => `bytes.fromhex('${hexBytes(s, false, ' ')}').decode()`,
    () => `Buffer.from('${hexBytes(s, false)}', 'hex').toString('utf8')`,
    () => `unhex('${hexBytes(s, true)}')`,
  ])();

const HEX: readonly Variant[] = [
  ['continuous', (r, s) => hexBytes(s, chance(r, 0.3))],
  ['spaced-bytes', (r, s) => hexBytes(s, chance(r, 0.5), ' ')],
  [
    'c-escapes',
    (r, s) => {
      const body = hexBytes(s, chance(r, 0.3), '', '\\x');
      return chance(r, 0.5) ? `"${body}"` : body;
    },
  ],
  [
    'c-array',
    (r, s) => {
      const [open, close] = pick(r, [
        ['{ ', ' }'],
        ['[', ']'],
        ['', ''],
      ] as const);
      return open + hexBytes(s, chance(r, 0.3), pick(r, [', ', ',']), '0x') + close;
    },
  ],
  ['colon-separated', (r, s) => hexBytes(s, chance(r, 0.5), pick(r, [':', '-']))],
  ['wrapped-plain', (r, s) => chunk(hexBytes(s, false), pick(r, [60, 64, 32])).join('\n')],
  ['offset-dump', (_r, s) => offsetDump(s)],
  ['unicode-escapes', (r, s) => uEscapes(s, chance(r, 0.3))],
  [
    'html-entities',
    (r, s) => {
      const upper = chance(r, 0.3);
      return mapChars(s, (c) => {
        const h = c.codePointAt(0)!.toString(16);
        return `&#x${upper ? h.toUpperCase() : h};`;
      });
    },
  ],
  [
    'code-points',
    (r, s) =>
      chars(s)
        .map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`)
        .join(pick(r, [' ', ', '])),
  ],
  [
    'per-word',
    (r, s) =>
      wordsOf(s)
        .map((w) => hexBytes(w, chance(r, 0.3)))
        .join(' '),
  ],
  ['shell-or-code', (r, s) => hexCarrier(r, s)],
];

// ---------------------------------------------------------------------------------------------------
// rot13

const ROT13_LABELS = [
  '[rot13]{x}[/rot13]',
  'ROT13: {x}',
  '(rot13) {x}',
  'rot13:\n{x}',
  '{x} (rot13)',
] as const;
const ROT13_SPOILERS = ['>!{x}!<', '||{x}||', '<spoiler>{x}</spoiler>', '[spoiler]{x}[/spoiler]'] as const;

/** `s` without whitespace, rotated, in five-letter groups, ten groups a line. */
const fiveGroups = (s: string): string =>
  chunk(chunk(rot13(s.replace(/\s+/g, '')), 5).join(' '), 60)
    .map((l) => l.trim())
    .join('\n');

const ROT13: readonly Variant[] = [
  ['plain', (_r, s) => rot13(s)],
  ['upper', (_r, s) => rot13(asciiUpper(s))],
  ['five-letter-groups', (_r, s) => fiveGroups(s)],
  ['labelled', (r, s) => fill(pick(r, ROT13_LABELS), rot13(s))],
  [
    'tr-pipe',
    (r, s) =>
      pick(r, [
        () => `echo ${shellQuote(rot13(s))} | tr 'A-Za-z' 'N-ZA-Mn-za-m'`,
        () => `tr '[a-zA-Z]' '[n-za-mN-ZA-M]' <<< ${shellQuote(rot13(s))}`,
      ])(),
  ],
  [
    'code-call',
    (r, s) => `codecs.decode(${JSON.stringify(rot13(s))}, ${pick(r, ["'rot13'", "'rot_13'", '"rot13"'])})`,
  ],
  [
    'alternate-words',
    (r, s) => {
      const parity = int(r, 0, 1);
      return mapWords(s, (w, i) => (i % 2 === parity ? rot13(w) : w));
    },
  ],
  ['hard-wrapped', (r, s) => wrap(rot13(s), int(r, 30, 50)).join('\n')],
  [
    'quoted-reply',
    (r, s) =>
      wrap(rot13(s), int(r, 50, 70))
        .map((l) => `> ${l}`)
        .join('\n'),
  ],
  ['spoiler', (r, s) => fill(pick(r, ROT13_SPOILERS), rot13(s))],
];

// ---------------------------------------------------------------------------------------------------
// nested

const NESTED: readonly Variant[] = [
  ['base64-of-hex', (r, s) => b64Layout(r, b64(hexBytes(s, chance(r, 0.5))))],
  ['hex-of-base64', (r, s) => hexBytes(b64(s), chance(r, 0.3))],
  ['base64-of-rot13', (r, s) => b64Layout(r, b64(rot13(s)))],
  ['rot13-of-base64', (_r, s) => rot13(b64(s))],
  ['percent-of-base64', (r, s) => pct(b64(s), chance(r, 0.7))],
  ['base64-twice', (r, s) => b64Layout(r, b64(b64(s)))],
  ['base64-of-reversed', (r, s) => b64Layout(r, b64(reverse(s)))],
  ['hex-of-reversed', (r, s) => hexBytes(reverse(s), chance(r, 0.3), pick(r, ['', ' ']))],
  ['base64-of-percent', (r, s) => b64Layout(r, b64(pct(s, true)))],
  ['hex-of-rot13', (r, s) => hexBytes(rot13(s), chance(r, 0.3), pick(r, ['', ' ']))],
  ['hex-of-base64-of-rot13', (_r, s) => hexBytes(b64(rot13(s)), false)],
  ['base64-of-unicode-escapes', (r, s) => b64Layout(r, b64(uEscapes(s, false)))],
];

// ---------------------------------------------------------------------------------------------------
// full_width

const IDEOGRAPHIC_SPACE = '\u3000';

/** `s` wholly full-width, spaces as ideographic spaces. */
const fullWidth = (s: string): string => mapChars(s, (c) => (c === ' ' ? IDEOGRAPHIC_SPACE : fw(c)));

/** `s` with every other ASCII letter full-width, starting at a drawn parity. */
const alternateWidth = (r: Rand, s: string): string => {
  let k = int(r, 0, 1);
  return s.replace(/[A-Za-z]/g, (c) => (k++ % 2 === 0 ? fw(c) : c));
};

const FULL_WIDTH: readonly Variant[] = [
  ['full', (_r, s) => fullWidth(s)],
  ['ascii-spaces', (_r, s) => mapChars(s, fw)],
  ['letters-digits-only', (_r, s) => s.replace(/[A-Za-z0-9]/g, fw)],
  ['some-words', (r, s) => mapWords(s, (w) => (chance(r, 0.5) ? mapChars(w, fw) : w))],
  [
    'some-characters',
    (r, s) => {
      const p = 0.3 + 0.4 * r();
      return mapChars(s, (c) => (chance(r, p) ? fw(c) : c));
    },
  ],
  [
    'aesthetic',
    (_r, s) =>
      wordsOf(s)
        .map((w) => chars(w).map(fw).join(' '))
        .join('   '),
  ],
  ['alternating', (r, s) => alternateWidth(r, s)],
  ['upper', (r, s) => (chance(r, 0.5) ? fullWidth(asciiUpper(s)) : mapChars(asciiUpper(s), fw))],
  [
    'cjk-punctuation',
    (_r, s) =>
      mapChars(s, (c) =>
        c === '.' ? '\u3002' : c === ',' ? '\u3001' : c === ' ' ? IDEOGRAPHIC_SPACE : fw(c),
      ),
  ],
  [
    'bracketed',
    (r, s) => {
      const [open, close] = pick(r, [
        ['\u300c', '\u300d'],
        ['\u3010', '\u3011'],
        ['\u300e', '\u300f'],
      ] as const);
      return open + fullWidth(s) + close;
    },
  ],
];

// ---------------------------------------------------------------------------------------------------
// html_markdown_comment

const MD_COMMENTS = ['[//]: # ({x})', '[comment]: <> ({x})', '[//]: # "{x}"', '[_]: # ({x})'] as const;
const HIDDEN_ELEMENTS = [
  '<div style="display:none">{x}</div>',
  '<span hidden>{x}</span>',
  '<p style="font-size:0;color:transparent">{x}</p>',
  '<span style="position:absolute;left:-9999px">{x}</span>',
  '<div aria-hidden="true" style="visibility:hidden;height:0">{x}</div>',
] as const;
const CODE_COMMENTS = [
  '<script>/* {x} */</script>',
  '<style>/* {x} */</style>',
  '<script>\n/*\n{x}\n*/\n</script>',
];

/** `s` in an HTML comment placed between two neutral paragraphs of a page or mail body. */
const pageComment = (r: Rand, s: string): string => {
  const [a, b] = sample(r, COVERS, 2);
  const pad = pick(r, [' ', '\n']);
  return pick(r, [
    () => `<p>${a}</p>\n<!--${pad}${s}${pad}-->\n<p>${b}</p>`,
    () => `<html><body>\n<p>${a}</p>\n<!--${pad}${s}${pad}-->\n</body></html>`,
    () => `<table><tr><td>${a}<!--${pad}${s}${pad}--></td></tr></table>`,
  ])();
};

/** `s` wrapped into lines, each in its own Markdown link-reference comment, under a neutral line. */
const markdownComments = (r: Rand, s: string): string => {
  const style = pick(r, MD_COMMENTS);
  const lines = wrap(s, int(r, 50, 80)).map((l) => fill(style, l));
  return chance(r, 0.5) ? `${pick(r, COVERS)}\n\n${lines.join('\n')}\n` : lines.join('\n');
};

/** `s` as a multi-line HTML comment inside a neutral README-like Markdown document. */
const readmeComment = (r: Rand, s: string): string =>
  `# ${pick(r, TITLES)}\n\n${pick(r, COVERS)}\n\n<!--\n${wrap(s, 72).join('\n')}\n-->\n`;

const HTML_MARKDOWN_COMMENT: readonly Variant[] = [
  ['html-comment', (r, s) => fill(pick(r, ['<!-- {x} -->', '<!--{x}-->', '<!--\n{x}\n-->']), s)],
  ['page-comment', (r, s) => pageComment(r, s)],
  ['markdown-link-comments', (r, s) => markdownComments(r, s)],
  [
    'per-word-comments',
    (r, s) =>
      wordsOf(s)
        .map((w) => `<!--${w}-->`)
        .join(pick(r, ['', ' ', '\n'])),
  ],
  [
    'interleaved-chunks',
    (r, s) =>
      interleave(
        r,
        cutInto(r, s, int(r, 2, 4)).map((c) => `<!--${c}-->`),
      ),
  ],
  [
    'conditional-comment',
    (r, s) => `<!--[if ${pick(r, ['mso', 'IE', 'gte mso 9', 'lt IE 9'])}]>${s}<![endif]-->`,
  ],
  ['readme-multiline', (r, s) => readmeComment(r, s)],
  ['hidden-element', (r, s) => fill(pick(r, HIDDEN_ELEMENTS), htmlEscape(s))],
  ['code-comment', (r, s) => fill(pick(r, CODE_COMMENTS), s)],
  ['mdx-comment', (r, s) => fill(pick(r, ['{/* {x} */}', '{/*{x}*/}']), s)],
  [
    'per-line-comments',
    (r, s) =>
      wrap(s, int(r, 30, 60))
        .map((l) => `<!-- ${l} -->`)
        .join('\n'),
  ],
];

// ---------------------------------------------------------------------------------------------------
// unicode_tags

const LANGUAGE_TAG = '\u{e0001}';
const CANCEL_TAG = '\u{e007f}';
const TAG_BASES = ['\u{1f3f4}', '\u{1f44d}', '\u{2728}', '\u{1f642}', '\u{1f4ce}'] as const;

/** `s` as tag characters (characters outside ASCII, which tags cannot carry, are left as they are). */
const tags = (s: string): string => mapChars(s, tag);

/** `s` as tag characters inserted at a drawn word gap of a neutral cover sentence. */
const insideCover = (r: Rand, s: string): string => {
  const words = pick(r, COVERS).split(' ');
  const at = int(r, 1, words.length - 1);
  return [...words.slice(0, at), tags(s) + words[at]!, ...words.slice(at + 1)].join(' ');
};

const UNICODE_TAGS: readonly Variant[] = [
  ['bare', (_r, s) => tags(s)],
  ['language-tagged', (_r, s) => LANGUAGE_TAG + tags(s) + CANCEL_TAG],
  ['cover-suffix', (r, s) => pick(r, COVERS) + tags(s)],
  ['cover-prefix', (r, s) => tags(s) + pick(r, COVERS)],
  ['inside-cover', (r, s) => insideCover(r, s)],
  ['split-across-cover', (r, s) => interleave(r, cutInto(r, s, int(r, 2, 4)).map(tags))],
  [
    'emoji-sequence',
    (r, s) => {
      const seq = pick(r, TAG_BASES) + tags(s) + CANCEL_TAG;
      return chance(r, 0.5) ? seq : `${pick(r, ['Thanks', 'Sounds good', 'Noted', 'See you'])} ${seq}`;
    },
  ],
  ['visible-spaces', (_r, s) => mapChars(s, (c) => (c === ' ' ? c : tag(c)))],
  [
    'per-word-cancel',
    (_r, s) =>
      wordsOf(s)
        .map((w) => tags(w) + CANCEL_TAG)
        .join(tag(' ')),
  ],
];

// ---------------------------------------------------------------------------------------------------
// mix_of_two

/** `s` cut in two after a drawn inner run of whitespace (or between two characters if it has none). */
const halves = (r: Rand, s: string): [string, string] => {
  const ends = [...s.matchAll(/\S\s+(?=\S)/g)].map((m) => m.index + m[0].length);
  if (ends.length === 0) {
    const [a = '', b = ''] = cutInto(r, s, 2);
    return [a, b];
  }
  const at = pick(r, ends);
  return [s.slice(0, at), s.slice(at)];
};

const MIX_OF_TWO: readonly Variant[] = [
  [
    'leet+zero-width',
    (r, s) => between(swap(r, s, LEET_CLASSIC), () => (chance(r, 0.5) ? pick(r, [ZWSP, ZWNJ, WJ]) : '')),
  ],
  ['homoglyph+zero-width', (r, s) => between(swap(r, s, CYRILLIC), () => pick(r, [ZWSP, ZWJ, BOM]))],
  ['homoglyph+spaced', (r, s) => spell(swap(r, s, CYRILLIC, 0.7), () => ' ', '   ')],
  ['full-width+zero-width', (r, s) => between(mapChars(s, fw), () => pick(r, ZERO_WIDTHS))],
  [
    'rot13+spaced',
    (r, s) => {
      const sep = pick(r, ['.', '-', ' ']);
      return spell(rot13(s), () => sep, '   ');
    },
  ],
  ['leet+spaced', (r, s) => spell(swap(r, s, LEET_DIGITS), () => pick(r, [' ', '-']), '   ')],
  [
    'homoglyph-then-full-width',
    (r, s) => {
      const [a, b] = halves(r, s);
      return swap(r, a, CYRILLIC) + mapChars(b, fw);
    },
  ],
  [
    'base64-then-hex',
    (r, s) => {
      const [a, b] = halves(r, s);
      return `${b64(a)}${pick(r, ['\n', ' ', ' | '])}${hexBytes(b, false)}`;
    },
  ],
  ['rot13-in-comment', (r, s) => fill(pick(r, ['<!-- {x} -->', '<!--{x}-->', '[//]: # ({x})']), rot13(s))],
  ['base64-in-comment', (r, s) => fill(pick(r, ['<!-- {x} -->', '<!--{x}-->', '[//]: # ({x})']), b64(s))],
  ['percent-of-homoglyph', (r, s) => pct(swap(r, s, CYRILLIC, 0.5 + 0.5 * r()), chance(r, 0.7))],
  ['leet-in-tags', (r, s) => tags(swap(r, s, LEET_CLASSIC))],
];

// ---------------------------------------------------------------------------------------------------
// Entry point

const VARIANTS: Readonly<Record<BriefedFamily, readonly Variant[]>> = {
  leetspeak: LEETSPEAK,
  url_encoding: URL_ENCODING,
  zero_width: ZERO_WIDTH,
  homoglyph: HOMOGLYPH,
  spaced_letters: SPACED_LETTERS,
  base64: BASE64,
  hex: HEX,
  rot13: ROT13,
  nested: NESTED,
  full_width: FULL_WIDTH,
  html_markdown_comment: HTML_MARKDOWN_COMMENT,
  unicode_tags: UNICODE_TAGS,
  mix_of_two: MIX_OF_TWO,
};

/**
 * `text` written in one drawn variant of `family`. Should the drawn variant happen to leave this text
 * unchanged (say, a partial variant that spared every character), the family's first variant, which
 * changes almost any text, is used instead.
 */
export function obfuscateU(r: Rand, text: string, family: BriefedFamily): { text: string; method: string } {
  const variants = VARIANTS[family];
  const [name, apply] = pick(r, variants);
  const out = apply(r, text);
  if (out !== text) return { text: out, method: `${family}/${name}` };
  const [firstName, first] = variants[0]!;
  return { text: first(r, text), method: `${family}/${firstName}` };
}
