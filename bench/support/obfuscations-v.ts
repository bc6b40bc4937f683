/**
 * Obfuscation generator V: the twenty-second hand, written independently.
 *
 * Its author worked from nothing but obfuscation-brief.ts (the family names and byte helpers) and
 * rng.ts, without reading any other generator, the detector or its tests. The generator is held out:
 * its variants only measure the detector and are never used to tune it. Every choice is drawn from the
 * seeded Rand passed in, so one seed always gives the same output. It is content-blind: it never looks
 * at what the text says, only at its characters, bytes, words and whitespace, and any cover text it adds
 * is neutral and drawn the same way whatever the input. It is faithful: the text can be recovered
 * exactly from every output, or up to case or whitespace where a family inherently drops them.
 */
import { BRIEFED_FAMILIES, type BriefedFamily, hex2, utf8 } from './obfuscation-brief';
import { type Rand, chance, int, pick, sample } from './rng';

/** The families this generator covers: every briefed one. */
export const FAMILIES_V = BRIEFED_FAMILIES;

/** A variant: its name and the transform it applies to a text. */
type Variant = readonly [name: string, apply: (r: Rand, text: string) => string];

/** A character table: for each source character, the forms it may be written as. */
type Table = Readonly<Partial<Record<string, readonly string[]>>>;

/** A one-form-per-character map, as written in the tables below. */
type OneToOne = Readonly<Record<string, string>>;

// ---------------------------------------------------------------------------------------------------
// General helpers
// ---------------------------------------------------------------------------------------------------

/** Code points of `s`. */
const cps = (s: string): string[] => [...s];

/** A number drawn uniformly between lo and hi. */
const between = (r: Rand, lo: number, hi: number): number => lo + r() * (hi - lo);

/** True for an ASCII letter. */
const isLetter = (c: string): boolean => /^[A-Za-z]$/.test(c);

/** `c` with its case flipped. */
const flipCase = (c: string): string => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());

/** Indices of `xs` where `sel` holds, each kept with probability p, and at least one if any holds. */
function drawIndices(r: Rand, xs: readonly string[], p: number, sel: (c: string) => boolean): Set<number> {
  const ok: number[] = [];
  const got = new Set<number>();
  xs.forEach((c, i) => {
    if (!sel(c)) return;
    ok.push(i);
    if (chance(r, p)) got.add(i);
  });
  if (got.size === 0 && ok.length > 0) got.add(pick(r, ok));
  return got;
}

/** `text` with a drawn share p of the characters where `sel` holds (at least one) replaced by `f` of them. */
function mapSome(
  r: Rand,
  text: string,
  p: number,
  sel: (c: string) => boolean,
  f: (c: string) => string,
): string {
  const xs = cps(text);
  const got = drawIndices(r, xs, p, sel);
  return xs.map((c, i) => (got.has(i) ? f(c) : c)).join('');
}

/** `text` with a drawn share p of the characters `table` lists swapped for one of their forms. */
function swapChars(r: Rand, text: string, table: Table, p = 1): string {
  return mapSome(
    r,
    text,
    p,
    (c) => table[c] !== undefined,
    (c) => pick(r, table[c] ?? [c]),
  );
}

/** A table built from one-to-one maps, each character keeping every form any of them gives. */
function mergeTables(...maps: readonly OneToOne[]): Table {
  const out: Record<string, string[]> = {};
  for (const m of maps) for (const [k, v] of Object.entries(m)) (out[k] ??= []).push(v);
  return out;
}

/** `table` with each lower-case key also listed under its upper case. */
function bothCases(table: Readonly<Record<string, readonly string[]>>): Table {
  const out: Record<string, readonly string[]> = {};
  for (const [k, v] of Object.entries(table)) {
    out[k] = v;
    out[k.toUpperCase()] = v;
  }
  return out;
}

/** `text` cut into words (at even indices) and the whitespace runs between them (at odd indices). */
const tokens = (text: string): string[] => text.split(/(\s+)/);

/** `text` with each word replaced by `f(word, i)`, i counting words from 0; whitespace is kept. */
function mapWords(text: string, f: (w: string, i: number) => string): string {
  let n = 0;
  return tokens(text)
    .map((t, k) => (k % 2 === 1 || t === '' ? t : f(t, n++)))
    .join('');
}

/** `text` with `f` applied to every other word from a drawn parity (the other if that changes nothing). */
function everyOther(r: Rand, text: string, f: (w: string) => string): string {
  const odd = int(r, 0, 1);
  const out = mapWords(text, (w, i) => (i % 2 === odd ? f(w) : w));
  return out === text ? mapWords(text, (w, i) => (i % 2 !== odd ? f(w) : w)) : out;
}

/** `text` cut into three at word boundaries, the middle a run of whole words covering about lo–hi of them. */
function splitSpan(r: Rand, text: string, lo = 0.3, hi = 0.7): [string, string, string] {
  const ts = tokens(text);
  const at = ts.flatMap((t, k) => (k % 2 === 0 && t !== '' ? [k] : []));
  if (at.length === 0) return ['', text, ''];
  const k = Math.max(1, Math.min(at.length, Math.round(at.length * between(r, lo, hi))));
  const s = int(r, 0, at.length - k);
  const a = at[s] ?? 0;
  const b = at[s + k - 1] ?? ts.length - 1;
  return [ts.slice(0, a).join(''), ts.slice(a, b + 1).join(''), ts.slice(b + 1).join('')];
}

/** `text` with a drawn run of its words replaced by `f` of that run. */
function onSpan(r: Rand, text: string, f: (s: string) => string, lo = 0.3, hi = 0.7): string {
  const [a, m, b] = splitSpan(r, text, lo, hi);
  return a + f(m) + b;
}

/** `text` cut at the word boundary nearest its middle: first half, the whitespace there, second half. */
function halves(text: string): [string, string, string] {
  const ts = tokens(text);
  const gaps = ts.flatMap((t, k) => (k % 2 === 1 && k > 0 && k < ts.length - 1 ? [k] : []));
  if (gaps.length === 0) {
    const xs = cps(text);
    const m = Math.ceil(xs.length / 2);
    return [xs.slice(0, m).join(''), '', xs.slice(m).join('')];
  }
  const g = gaps[Math.floor((gaps.length - 1) / 2)] ?? 1;
  return [ts.slice(0, g).join(''), ts[g] ?? ' ', ts.slice(g + 1).join('')];
}

/** `text` with `gap()` inserted before each character after the first with probability p (at least once). */
function insertGaps(r: Rand, text: string, p: number, gap: () => string): string {
  const xs = cps(text);
  const got = drawIndices(r, xs, p, () => true);
  got.delete(0);
  if (got.size === 0 && xs.length > 1) got.add(int(r, 1, xs.length - 1));
  return xs.map((c, i) => (got.has(i) ? gap() + c : c)).join('');
}

/** Consecutive slices of `s`, `n` UTF-16 units long (for ASCII encodings). */
function chunks(s: string, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out;
}

/** Code-point groups of `s` holding at most `n` UTF-8 bytes each. */
function byteChunks(s: string, n: number): string[] {
  const out: string[] = [];
  let cur = '';
  for (const c of s) {
    if (cur !== '' && utf8(cur + c).length > n) {
      out.push(cur);
      cur = '';
    }
    cur += c;
  }
  if (cur !== '') out.push(cur);
  return out;
}

/** The words of `text` re-flowed into lines of about `width` characters. */
function wordWrap(text: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const w of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && line.length + 1 + w.length > width) {
      lines.push(line);
      line = w;
    } else line = line === '' ? w : `${line} ${w}`;
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}

/** The words of `text` in `k` (at most) consecutive groups, each joined by single spaces. */
function wordGroups(text: string, k: number): string[] {
  const ws = text.split(/\s+/).filter(Boolean);
  const n = Math.max(1, Math.min(k, ws.length));
  const size = Math.ceil(ws.length / n);
  return chunksOf(ws, size).map((g) => g.join(' '));
}

/** Consecutive slices of `xs` of `n` elements. */
function chunksOf<T>(xs: readonly T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

/** `cover` with the pieces of `hidden`, in order, tucked after drawn words. */
function interleave(r: Rand, cover: string, hidden: string, pieces: number): string {
  const words = cover.split(' ');
  const k = Math.max(1, Math.min(pieces, words.length));
  const at = sample(
    r,
    words.map((_, i) => i),
    k,
  ).sort((a, b) => a - b);
  const hs = cps(hidden);
  const size = Math.ceil(hs.length / k);
  const piece = new Map(at.map((w, j) => [w, hs.slice(j * size, (j + 1) * size).join('')]));
  return words.map((w, i) => w + (piece.get(i) ?? '')).join(' ');
}

/** Two to four drawn neutral blocks of `pool` with `inner` placed at a drawn position among them. */
function amid(r: Rand, pool: readonly string[], inner: string, joiner: string): string {
  const blocks = sample(r, pool, int(r, 2, 4));
  blocks.splice(int(r, 0, blocks.length), 0, inner);
  return blocks.join(joiner);
}

// ---------------------------------------------------------------------------------------------------
// Encoders shared by several families
// ---------------------------------------------------------------------------------------------------

/** Base64 of the UTF-8 bytes of `s`. */
const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

/** Hex of the UTF-8 bytes of `s`, one case, bytes joined by `sep`. */
const hexOf = (s: string, upper: boolean, sep = ''): string =>
  utf8(s)
    .map((b) => hex2(b, upper))
    .join(sep);

/** Every UTF-8 byte of `s` percent-encoded. */
const pctAll = (s: string, upper: boolean): string =>
  utf8(s)
    .map((b) => `%${hex2(b, upper)}`)
    .join('');

/** `s` with its ASCII letters rotated by 13. */
const rot13 = (s: string): string =>
  s.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });

/** `s` with its ASCII letters rotated by 13 and its digits by 5. */
const rot18 = (s: string): string =>
  rot13(s).replace(/[0-9]/g, (d) => String.fromCharCode(((d.charCodeAt(0) - 48 + 5) % 10) + 48));

/** Each UTF-16 unit of `s` as a `\uXXXX` escape. */
const uEscapes = (s: string, upper: boolean): string =>
  Array.from({ length: s.length }, (_, i) => {
    const h = s.charCodeAt(i).toString(16).padStart(4, '0');
    return `\\u${upper ? h.toUpperCase() : h}`;
  }).join('');

/** `s` with its code points in reverse order. */
const reversed = (s: string): string => cps(s).reverse().join('');

/** `s` as it might be pasted: bare, in backticks, in double quotes or in a code fence. */
function present(r: Rand, s: string): string {
  return pick(r, [s, `\`${s}\``, `"${s}"`, `\`\`\`\n${s}\n\`\`\``]);
}

// ---------------------------------------------------------------------------------------------------
// Neutral cover material (drawn the same way whatever the text)
// ---------------------------------------------------------------------------------------------------

/** Plain sentences that may carry hidden payloads. */
const COVERS = [
  'Thanks for the update, talk soon.',
  'See you at the meeting on Thursday.',
  'The report is attached for your review.',
  'Have a great weekend everyone.',
  'Looks good to me, merging now.',
  'Please find the summary below.',
  'Lunch is at noon in the usual place.',
  'Happy to help with anything else.',
  'The train leaves at half past nine.',
  'Our office will be closed on Monday.',
];

/** Neutral HTML blocks for carrier pages. */
const HTML_BLOCKS = [
  '<h2>About us</h2>',
  '<p>Welcome to our product page.</p>',
  '<p>Opening hours are Monday to Friday, nine to five.</p>',
  '<ul><li>Fast delivery</li><li>Easy returns</li></ul>',
  '<p>Last updated in spring.</p>',
  '<footer>Contact us at the front desk.</footer>',
  '<img src="banner.png" alt="Banner">',
];

/** Neutral Markdown blocks for carrier documents. */
const MD_BLOCKS = [
  '## Installation',
  'Run the installer and follow the prompts.',
  '- Supports Linux and macOS',
  'See the changelog for details.',
  '## License',
  'Released under the MIT license.',
  '> Tip: restart the app after upgrading.',
];

/** Titles for carrier documents. */
const TITLES = ['# Project notes', '# Getting started', '# Release checklist', '# Team handbook'];

// ---------------------------------------------------------------------------------------------------
// leetspeak
// ---------------------------------------------------------------------------------------------------

/** The common digit substitutions. */
const LEET_CLASSIC = bothCases({ a: ['4'], e: ['3'], i: ['1'], o: ['0'], s: ['5'], t: ['7'] });

/** Vowels only. */
const LEET_VOWELS = bothCases({ a: ['4'], e: ['3'], i: ['1'], o: ['0'], u: ['\u00b5'] });

/** Letters with several digit or symbol forms to choose from. */
const LEET_ALTS = bothCases({
  a: ['4', '@'],
  b: ['8'],
  e: ['3'],
  g: ['9'],
  i: ['1', '!'],
  o: ['0'],
  s: ['5', '$'],
  t: ['7', '+'],
  z: ['2'],
});

/** Multi-character ASCII-art letters. */
const LEET_ELITE = bothCases({
  a: ['/-\\'],
  b: ['|3'],
  c: ['('],
  d: ['|)'],
  e: ['3'],
  f: ['|='],
  g: ['6'],
  h: ['|-|'],
  i: ['!'],
  j: ['_|'],
  k: ['|<'],
  l: ['1'],
  m: ['|\\/|'],
  n: ['|\\|'],
  o: ['0'],
  p: ['|*'],
  q: ['9'],
  r: ['|2'],
  s: ['5'],
  t: ['7'],
  u: ['|_|'],
  v: ['\\/'],
  w: ['\\^/'],
  x: ['><'],
  y: ['`/'],
  z: ['2'],
});

/** Currency and other symbol look-alikes. */
const LEET_SYMBOLS = bothCases({
  a: ['@'],
  c: ['\u00a2'],
  e: ['\u20ac'],
  i: ['!'],
  l: ['\u00a3'],
  o: ['()'],
  s: ['$'],
  t: ['+'],
  x: ['\u00d7'],
  y: ['\u00a5'],
});

/** Classic leetspeak on every letter it covers. */
const leet = (r: Rand, t: string): string => swapChars(r, t, LEET_CLASSIC);

const LEETSPEAK: readonly Variant[] = [
  ['classic', leet],
  ['vowels', (r, t) => swapChars(r, t, LEET_VOWELS)],
  ['mixed_forms', (r, t) => swapChars(r, t, LEET_ALTS, between(r, 0.5, 1))],
  ['elite', (r, t) => swapChars(r, t, LEET_ELITE)],
  ['mocking_case', (r, t) => leet(r, mapSome(r, t, 0.5, isLetter, flipCase))],
  ['span', (r, t) => onSpan(r, t, (s) => leet(r, s))],
  ['gamer_tag', (r, t) => leet(r, t).replace(/\s+/g, pick(r, ['_', '__', '~']))],
  ['upper', (r, t) => leet(r, t.toUpperCase())],
  ['sparse', (r, t) => swapChars(r, t, LEET_CLASSIC, between(r, 0.2, 0.5))],
  ['symbols', (r, t) => swapChars(r, t, LEET_SYMBOLS, between(r, 0.7, 1))],
];

// ---------------------------------------------------------------------------------------------------
// url_encoding
// ---------------------------------------------------------------------------------------------------

/** True for the characters encodeURIComponent leaves as they are. */
const unreserved = (c: string): boolean => /^[A-Za-z0-9\-_.!~*'()]$/.test(c);

/** encodeURIComponent-style escaping with spaces as `space`, plus a drawn share p of the unreserved. */
function component(r: Rand, t: string, space: string, p: number): string {
  const up = chance(r, 0.8);
  const xs = cps(t);
  const extra = drawIndices(r, xs, p, unreserved);
  return xs.map((c, i) => (c === ' ' ? space : !unreserved(c) || extra.has(i) ? pctAll(c, up) : c)).join('');
}

/** Each UTF-16 unit of `t` in the non-standard `%uXXXX` form. */
const percentU = (t: string, upper: boolean): string => uEscapes(t, upper).replace(/\\u/g, '%u');

/** Each UTF-8 byte of `t` percent-encoded, ASCII bytes in their overlong two-byte form. */
const overlong = (t: string, upper: boolean): string =>
  utf8(t)
    .map((b) =>
      b < 0x80 ? `%${hex2(0xc0 | (b >> 6), upper)}%${hex2(0x80 | (b & 0x3f), upper)}` : `%${hex2(b, upper)}`,
    )
    .join('');

/** `t` as one parameter of a neutral link. */
function queryUrl(r: Rand, t: string): string {
  const host = pick(r, ['example.com', 'www.example.org', 'search.example.net', 'docs.example.io']);
  const path = pick(r, ['search', 'api/v1/query', 'share', 'redirect', 'form/submit']);
  const key = pick(r, ['q', 'text', 'msg', 'input', 's', 'content']);
  const other = pick(r, ['lang=en', 'ref=home', 'page=1', 'utm_source=newsletter', 'v=2']);
  const value = `${key}=${component(r, t, '+', between(r, 0, 0.3))}`;
  return `https://${host}/${path}?${chance(r, 0.5) ? `${value}&${other}` : `${other}&${value}`}`;
}

const URL_ENCODING: readonly Variant[] = [
  ['all_bytes_upper', (_r, t) => pctAll(t, true)],
  ['all_bytes_lower', (_r, t) => pctAll(t, false)],
  ['component', (r, t) => component(r, t, '%20', between(r, 0.15, 0.4))],
  ['form', (r, t) => component(r, t, '+', between(r, 0.1, 0.3))],
  ['double', (r, t) => pctAll(t, chance(r, 0.7)).replace(/%/g, '%25')],
  ['percent_u', (r, t) => percentU(t, chance(r, 0.5))],
  [
    'span',
    (r, t) => {
      const up = chance(r, 0.7);
      return onSpan(r, t, (s) => pctAll(s, up));
    },
  ],
  ['query_param', queryUrl],
  ['overlong', (r, t) => overlong(t, chance(r, 0.7))],
  [
    'mixed_subset',
    (r, t) =>
      mapSome(
        r,
        t,
        between(r, 0.5, 0.9),
        () => true,
        (c) =>
          utf8(c)
            .map((b) => `%${hex2(b, chance(r, 0.5))}`)
            .join(''),
      ),
  ],
  [
    'data_uri',
    (r, t) => {
      const head = pick(r, ['data:text/plain', 'data:text/plain;charset=utf-8', 'data:,']).replace(/,$/, '');
      return `${head},${component(r, t, '%20', between(r, 0.5, 1))}`;
    },
  ],
];

// ---------------------------------------------------------------------------------------------------
// zero_width
// ---------------------------------------------------------------------------------------------------

/** Zero-width space, non-joiner, joiner, word joiner and byte-order mark. */
const ZW = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'];

/** ZW plus the Mongolian vowel separator. */
const ZW_WIDE = [...ZW, '\u180e'];

/** The invisible mathematical operators. */
const INVISIBLE_OPS = ['\u2061', '\u2062', '\u2063', '\u2064'];

/** Three invisible characters for 0-bits, 1-bits and byte separators. */
const BIT_SETS = [
  ['\u200c', '\u200d', '\u200b'],
  ['\u200b', '\u200c', '\u2060'],
  ['\u200d', '\u200c', '\ufeff'],
] as const;

/** The UTF-8 bits of `s` written with invisible characters. */
const invisibleBits = (s: string, [zero, one, sep]: readonly [string, string, string]): string =>
  utf8(s)
    .map((b) => b.toString(2).padStart(8, '0').replace(/0/g, zero).replace(/1/g, one))
    .join(sep);

/** `s` with a soft hyphen every two to four characters inside each word. */
const softHyphens = (r: Rand, s: string): string =>
  mapWords(s, (w) => {
    const xs = cps(w);
    let out = xs[0] ?? '';
    let next = int(r, 2, 4);
    for (let i = 1; i < xs.length; i++) {
      if (i === next) {
        out += '\u00ad';
        next += int(r, 2, 4);
      }
      out += xs[i] ?? '';
    }
    return out;
  });

/** `s` with one drawn zero-width character inside every word gap between letters. */
const zwInWords = (r: Rand, s: string): string => {
  const z = pick(r, ZW);
  return mapWords(s, (w) => cps(w).join(z));
};

/** `out`, or if it equals `t`, `t` with a zero-width space between every character. */
const orEveryGap = (out: string, t: string): string => (out === t ? cps(t).join('\u200b') : out);

const ZERO_WIDTH: readonly Variant[] = [
  ['every_gap', (_r, t) => cps(t).join('\u200b')],
  ['mixed_gaps', (r, t) => cps(t).reduce((acc, c) => (acc === '' ? c : acc + pick(r, ZW) + c), '')],
  ['inside_words', (r, t) => orEveryGap(zwInWords(r, t), t)],
  [
    'for_spaces',
    (r, t) => orEveryGap(t.replace(/\s+/g, pick(r, ['\u200b', '\u2060', '\ufeff', '\u200c'])), t),
  ],
  ['soft_hyphens', (r, t) => orEveryGap(softHyphens(r, t), t)],
  ['sparse_joiners', (r, t) => insertGaps(r, t, between(r, 0.3, 0.7), () => '\u2060')],
  [
    'bit_stego',
    (r, t) => {
      const cover = pick(r, COVERS);
      return interleave(r, cover, invisibleBits(t, pick(r, BIT_SETS)), 1);
    },
  ],
  [
    'invisible_operators',
    (r, t) =>
      orEveryGap(
        mapWords(t, (w) => insertGaps(r, w, 1, () => pick(r, INVISIBLE_OPS))),
        t,
      ),
  ],
  [
    'grapheme_joiners',
    (_r, t) =>
      orEveryGap(
        mapWords(t, (w) => cps(w).join('\u034f')),
        t,
      ),
  ],
  [
    'clusters',
    (r, t) =>
      insertGaps(r, t, between(r, 0.2, 0.5), () =>
        Array.from({ length: int(r, 1, 4) }, () => pick(r, ZW_WIDE)).join(''),
      ),
  ],
  [
    'span',
    (r, t) => {
      const z = pick(r, ZW);
      return orEveryGap(
        onSpan(r, t, (s) => cps(s).join(z)),
        t,
      );
    },
  ],
];

// ---------------------------------------------------------------------------------------------------
// homoglyph
// ---------------------------------------------------------------------------------------------------

/** Cyrillic look-alikes. */
const CYRILLIC: OneToOne = {
  a: '\u0430',
  c: '\u0441',
  e: '\u0435',
  o: '\u043e',
  p: '\u0440',
  x: '\u0445',
  y: '\u0443',
  i: '\u0456',
  j: '\u0458',
  s: '\u0455',
  h: '\u04bb',
  d: '\u0501',
  q: '\u051b',
  w: '\u051d',
  A: '\u0410',
  B: '\u0412',
  C: '\u0421',
  E: '\u0415',
  H: '\u041d',
  K: '\u041a',
  M: '\u041c',
  O: '\u041e',
  P: '\u0420',
  T: '\u0422',
  X: '\u0425',
  I: '\u0406',
  S: '\u0405',
  J: '\u0408',
  Y: '\u04ae',
};

/** Greek look-alikes. */
const GREEK: OneToOne = {
  A: '\u0391',
  B: '\u0392',
  E: '\u0395',
  Z: '\u0396',
  H: '\u0397',
  I: '\u0399',
  K: '\u039a',
  M: '\u039c',
  N: '\u039d',
  O: '\u039f',
  P: '\u03a1',
  T: '\u03a4',
  Y: '\u03a5',
  X: '\u03a7',
  a: '\u03b1',
  i: '\u03b9',
  k: '\u03ba',
  o: '\u03bf',
  p: '\u03c1',
  u: '\u03c5',
  v: '\u03bd',
};

/** Armenian look-alikes. */
const ARMENIAN: OneToOne = { g: '\u0581', h: '\u0570', n: '\u0578', o: '\u0585', q: '\u0566', u: '\u057d' };

/** Cherokee look-alikes of capitals. */
const CHEROKEE: OneToOne = {
  A: '\u13aa',
  B: '\u13f4',
  C: '\u13df',
  D: '\u13a0',
  E: '\u13ac',
  G: '\u13c0',
  H: '\u13bb',
  J: '\u13ab',
  K: '\u13e6',
  L: '\u13de',
  M: '\u13b7',
  P: '\u13e2',
  R: '\u13a1',
  S: '\u13da',
  T: '\u13a2',
  V: '\u13d9',
  W: '\u13b3',
  Z: '\u13c3',
};

/** Look-alikes from Latin extensions and stray letters of other scripts. */
const LATIN_EXT: OneToOne = {
  a: '\u0251',
  c: '\u03f2',
  g: '\u0261',
  i: '\u0131',
  j: '\u0237',
  l: '\u04cf',
  s: '\ua731',
};

/** Roman numeral look-alikes. */
const ROMAN: OneToOne = {
  C: '\u216d',
  D: '\u216e',
  I: '\u2160',
  L: '\u216c',
  M: '\u216f',
  V: '\u2164',
  X: '\u2169',
  c: '\u217d',
  d: '\u217e',
  i: '\u2170',
  l: '\u217c',
  m: '\u217f',
  v: '\u2174',
  x: '\u2179',
};

/** Small capitals for lower-case letters, as "fancy text" sites write them. */
const SMALL_CAPS: OneToOne = {
  a: '\u1d00',
  b: '\u0299',
  c: '\u1d04',
  d: '\u1d05',
  e: '\u1d07',
  f: '\ua730',
  g: '\u0262',
  h: '\u029c',
  i: '\u026a',
  j: '\u1d0a',
  k: '\u1d0b',
  l: '\u029f',
  m: '\u1d0d',
  n: '\u0274',
  o: '\u1d0f',
  p: '\u1d18',
  q: '\u01eb',
  r: '\u0280',
  s: '\ua731',
  t: '\u1d1b',
  u: '\u1d1c',
  v: '\u1d20',
  w: '\u1d21',
  y: '\u028f',
  z: '\u1d22',
};

/** Precomposed accented letters. */
const ACCENTED: Table = {
  a: ['\u00e1', '\u00e0', '\u00e2', '\u00e4', '\u00e3', '\u00e5', '\u0101'],
  e: ['\u00e9', '\u00e8', '\u00ea', '\u00eb', '\u0113'],
  i: ['\u00ed', '\u00ec', '\u00ee', '\u00ef'],
  o: ['\u00f3', '\u00f2', '\u00f4', '\u00f6', '\u00f5', '\u014d'],
  u: ['\u00fa', '\u00f9', '\u00fb', '\u00fc', '\u016b'],
  c: ['\u00e7'],
  n: ['\u00f1'],
  y: ['\u00fd', '\u00ff'],
  s: ['\u015b', '\u0161'],
  z: ['\u017a', '\u017e'],
  A: ['\u00c1', '\u00c4', '\u00c5'],
  E: ['\u00c9', '\u00c8'],
  I: ['\u00cd', '\u00cf'],
  O: ['\u00d3', '\u00d6'],
  U: ['\u00da', '\u00dc'],
};

/** Every look-alike from another script or Latin extension, per letter. */
const MIXED = mergeTables(CYRILLIC, GREEK, ARMENIAN, CHEROKEE, LATIN_EXT);

/** The capitals' look-alikes. */
const CAPITALS = mergeTables(
  ...[CYRILLIC, GREEK, CHEROKEE, ROMAN].map((m) =>
    Object.fromEntries(Object.entries(m).filter(([k]) => /[A-Z]/.test(k))),
  ),
);

/** A Mathematical Alphanumeric style: first capital, first small letter, first digit (0: none), its gaps. */
type MathStyle = readonly [
  upper: number,
  lower: number,
  digit: number,
  holes: Readonly<Partial<Record<string, number>>>,
];

/** Bold, italic, bold italic, sans, sans bold, sans italic, monospace, double-struck, script, fraktur. */
const MATH_STYLES: readonly MathStyle[] = [
  [0x1d400, 0x1d41a, 0x1d7ce, {}],
  [0x1d434, 0x1d44e, 0, { h: 0x210e }],
  [0x1d468, 0x1d482, 0, {}],
  [0x1d5a0, 0x1d5ba, 0x1d7e2, {}],
  [0x1d5d4, 0x1d5ee, 0x1d7ec, {}],
  [0x1d608, 0x1d622, 0, {}],
  [0x1d670, 0x1d68a, 0x1d7f6, {}],
  [
    0x1d538,
    0x1d552,
    0x1d7d8,
    { C: 0x2102, H: 0x210d, N: 0x2115, P: 0x2119, Q: 0x211a, R: 0x211d, Z: 0x2124 },
  ],
  [0x1d4d0, 0x1d4ea, 0, {}],
  [0x1d56c, 0x1d586, 0, {}],
];

/** `s` written in a mathematical style: its letters, and its digits where the style has them. */
function mathStyle([upper, lower, digit, holes]: MathStyle, s: string): string {
  return s.replace(/[A-Za-z0-9]/g, (c) => {
    const hole = holes[c];
    if (hole !== undefined) return String.fromCodePoint(hole);
    const code = c.charCodeAt(0);
    if (c >= 'a') return String.fromCodePoint(lower + code - 97);
    if (c >= 'A') return String.fromCodePoint(upper + code - 65);
    return digit === 0 ? c : String.fromCodePoint(digit + code - 48);
  });
}

/** `w` with exactly one of the characters `table` lists swapped, if it has any. */
function swapOne(r: Rand, w: string, table: Table): string {
  const xs = cps(w);
  const ok = xs.flatMap((c, i) => (table[c] !== undefined ? [i] : []));
  if (ok.length === 0) return w;
  const i = pick(r, ok);
  return xs.map((c, j) => (j === i ? pick(r, table[c] ?? [c]) : c)).join('');
}

const HOMOGLYPH: readonly Variant[] = [
  ['cyrillic_all', (r, t) => swapChars(r, t, mergeTables(CYRILLIC))],
  ['cyrillic_sparse', (r, t) => swapChars(r, t, mergeTables(CYRILLIC), between(r, 0.15, 0.5))],
  ['greek', (r, t) => swapChars(r, t, mergeTables(GREEK), between(r, 0.5, 1))],
  ['mixed_scripts', (r, t) => swapChars(r, t, MIXED, between(r, 0.4, 1))],
  ['math_alphabet', (r, t) => mathStyle(pick(r, MATH_STYLES), t)],
  ['small_caps', (r, t) => swapChars(r, t, mergeTables(SMALL_CAPS))],
  ['capitals', (r, t) => swapChars(r, t.toUpperCase(), CAPITALS, between(r, 0.6, 1))],
  ['accents', (r, t) => swapChars(r, t, ACCENTED, between(r, 0.3, 0.8))],
  [
    'one_per_word',
    (r, t) => {
      const out = mapWords(t, (w) => swapOne(r, w, MIXED));
      return out === t ? swapChars(r, t, ACCENTED) : out;
    },
  ],
  ['latin_extended', (r, t) => swapChars(r, t, mergeTables(LATIN_EXT, ROMAN), between(r, 0.5, 1))],
  [
    'math_span',
    (r, t) => {
      const style = pick(r, MATH_STYLES);
      return onSpan(r, t, (s) => mathStyle(style, s));
    },
  ],
];

// ---------------------------------------------------------------------------------------------------
// spaced_letters
// ---------------------------------------------------------------------------------------------------

/** `t` with each word's characters joined by `sep` and each whitespace run replaced by `gap`. */
const spaceOut = (t: string, sep: string, gap: string): string =>
  tokens(t)
    .map((x, k) => (k % 2 === 1 ? gap : cps(x).join(sep)))
    .join('');

/** A character as a one-character string literal in `quote`. */
const charLiteral = (c: string, quote: string): string =>
  quote === '"' ? JSON.stringify(c) : `'${c === "'" || c === '\\' ? `\\${c}` : c}'`;

/** Separators a poster might put between letters. */
const LETTER_SEPS = ['*', '_', '|', '/', '~', '+', '\u2022', '\u00b7', ' . ', ' - ', ', '];

/** Word gaps to go with LETTER_SEPS. */
const WORD_GAPS = ['   ', ' | ', ' // ', '\n'];

const SPACED_LETTERS: readonly Variant[] = [
  ['single_space', (r, t) => spaceOut(t, ' ', pick(r, ['  ', '   ', ' / ']))],
  ['hyphens', (r, t) => spaceOut(t, '-', pick(r, [' ', '  ']))],
  ['dots', (r, t) => spaceOut(t, '.', pick(r, [' ', '  ', ' / ']))],
  [
    'vertical',
    (r, t) => {
      const nl = pick(r, ['\n', '\r\n']);
      return spaceOut(t, nl, nl + nl);
    },
  ],
  ['symbols', (r, t) => spaceOut(t, pick(r, LETTER_SEPS), pick(r, WORD_GAPS))],
  ['upper', (_r, t) => spaceOut(t.toUpperCase(), ' ', '   ')],
  [
    'char_array',
    (r, t) => {
      const q = pick(r, ['"', "'"]);
      const comma = pick(r, [', ', ',']);
      return `[${cps(t)
        .map((c) => charLiteral(c, q))
        .join(comma)}]`;
    },
  ],
  ['span', (r, t) => onSpan(r, t, (s) => spaceOut(s, ' ', '   '))],
  [
    'bracketed',
    (r, t) => {
      const [open, close] = pick(r, [
        ['[', ']'],
        ['(', ')'],
        ['{', '}'],
        ['<', '>'],
      ] as const);
      return mapWords(t, (w) =>
        cps(w)
          .map((c) => open + c + close)
          .join(''),
      );
    },
  ],
  [
    'uneven',
    (r, t) =>
      tokens(t)
        .map((x, k) =>
          k % 2 === 1
            ? ' '.repeat(int(r, 4, 6))
            : cps(x)
                .map((c, i) => (i === 0 ? c : ' '.repeat(int(r, 1, 2)) + c))
                .join(''),
        )
        .join(''),
  ],
];

// ---------------------------------------------------------------------------------------------------
// base64
// ---------------------------------------------------------------------------------------------------

/** `b` broken into lines of `width`, with `nl` line ends. */
const wrapLines = (b: string, width: number, nl: string): string => chunks(b, width).join(nl);

/** `b` as a shell, Python, JavaScript or PowerShell one-liner would decode it. */
function decodeCommand(r: Rand, b: string): string {
  return pick(r, [
    `echo ${b} | base64 -d`,
    `echo '${b}' | base64 --decode`,
    `python3 -c "import base64; print(base64.b64decode('${b}').decode())"`,
    `atob('${b}')`,
    `[Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('${b}'))`,
  ]);
}

const BASE64: readonly Variant[] = [
  ['plain', (_r, t) => b64(t)],
  ['wrapped', (r, t) => wrapLines(b64(t), pick(r, [76, 64, 60]), pick(r, ['\n', '\r\n']))],
  ['url_safe', (_r, t) => b64(t).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')],
  [
    'data_uri',
    (r, t) =>
      `data:${pick(r, ['text/plain', 'text/plain;charset=utf-8', 'application/octet-stream'])};base64,` +
      b64(t),
  ],
  [
    'armored',
    (r, t) => {
      const label = pick(r, ['MESSAGE', 'DATA', 'NOTE', 'BLOB']);
      return `-----BEGIN ${label}-----\n${wrapLines(b64(t), 64, '\n')}\n-----END ${label}-----`;
    },
  ],
  [
    'json_field',
    (r, t) => {
      const key = pick(r, ['data', 'payload', 'content', 'body', 'value']);
      const obj = chance(r, 0.5)
        ? { [key]: b64(t), encoding: 'base64' }
        : { encoding: 'base64', [key]: b64(t) };
      return JSON.stringify(obj, null, pick(r, [0, 2]));
    },
  ],
  ['per_word', (_r, t) => mapWords(t, b64)],
  ['span', (r, t) => onSpan(r, t, b64)],
  [
    'utf16le',
    (r, t) =>
      pick(r, ['', 'powershell -EncodedCommand ', 'pwsh -enc ']) +
      Buffer.from(t, 'utf16le').toString('base64'),
  ],
  [
    'mime_words',
    (r, t) => {
      const cs = pick(r, ['UTF-8', 'utf-8']);
      const join = pick(r, ['\r\n ', ' ', '\n\t']);
      return byteChunks(t, pick(r, [30, 39, 45]))
        .map((c) => `=?${cs}?B?${b64(c)}?=`)
        .join(join);
    },
  ],
  ['decode_command', (r, t) => decodeCommand(r, b64(t))],
];

// ---------------------------------------------------------------------------------------------------
// hex
// ---------------------------------------------------------------------------------------------------

/** A hexdump -C style listing of the UTF-8 bytes of `t`, without the character column. */
function hexDump(t: string, upper: boolean): string {
  const bs = utf8(t);
  const lines = chunksOf(bs, 16).map((row, n) => {
    const hs = row.map((b) => hex2(b, upper));
    const right = hs.slice(8).join(' ');
    const offset = (n * 16).toString(16).padStart(8, '0');
    return `${offset}  ${hs.slice(0, 8).join(' ')}${right ? `  ${right}` : ''}`;
  });
  return [...lines, bs.length.toString(16).padStart(8, '0')].join('\n');
}

/** Each code point of `t` as an HTML hexadecimal character reference. */
const hexEntities = (t: string, x: string, pad: number): string =>
  cps(t)
    .map((c) => `&#${x}${(c.codePointAt(0) ?? 0).toString(16).padStart(pad, '0')};`)
    .join('');

const HEX: readonly Variant[] = [
  ['continuous', (r, t) => hexOf(t, chance(r, 0.3))],
  ['spaced', (r, t) => hexOf(t, chance(r, 0.6), ' ')],
  [
    'c_escapes',
    (r, t) => {
      const up = chance(r, 0.3);
      const s = utf8(t)
        .map((b) => `\\x${hex2(b, up)}`)
        .join('');
      return pick(r, [s, `"${s}"`, `b'${s}'`]);
    },
  ],
  [
    'byte_array',
    (r, t) => {
      const up = chance(r, 0.4);
      const [open, close] = pick(r, [
        ['{', '}'],
        ['[', ']'],
        ['bytes([', '])'],
      ] as const);
      return `${open}${utf8(t)
        .map((b) => `0x${hex2(b, up)}`)
        .join(pick(r, [', ', ',']))}${close}`;
    },
  ],
  ['plain_lines', (r, t) => wrapLines(hexOf(t, false), pick(r, [60, 64, 32]), '\n')],
  ['dump', (r, t) => hexDump(t, chance(r, 0.2))],
  ['colons', (r, t) => hexOf(t, chance(r, 0.5), ':')],
  [
    'unicode_escapes',
    (r, t) => {
      const q = pick(r, ['', '"', "'"]);
      return q + uEscapes(t, chance(r, 0.4)) + q;
    },
  ],
  ['html_entities', (r, t) => hexEntities(t, pick(r, ['x', 'X']), pick(r, [0, 2, 4]))],
  ['per_word', (r, t) => mapWords(t, (w) => hexOf(w, chance(r, 0.3)))],
  [
    'span',
    (r, t) => {
      const up = chance(r, 0.4);
      const sep = pick(r, ['', ' ']);
      return onSpan(r, t, (s) => hexOf(s, up, sep));
    },
  ],
  [
    'code_points',
    (_r, t) =>
      cps(t)
        .map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`)
        .join(' '),
  ],
];

// ---------------------------------------------------------------------------------------------------
// rot13
// ---------------------------------------------------------------------------------------------------

const ROT13: readonly Variant[] = [
  ['whole', (_r, t) => rot13(t)],
  ['upper', (_r, t) => rot13(t.toUpperCase())],
  ['span', (r, t) => onSpan(r, t, rot13)],
  ['alternate_words', (r, t) => everyOther(r, t, rot13)],
  [
    'labelled',
    (r, t) =>
      pick(r, ['rot13: ', '[rot13] ', 'ROT13 - ', '(rot13) ', 'Spoiler (rot13): ', 'Rot13\n']) + rot13(t),
  ],
  [
    'five_groups',
    (_r, t) =>
      chunksOf(chunksOf(cps(rot13(t).toUpperCase().replace(/\s+/g, '')), 5), 10)
        .map((line) => line.map((g) => g.join('')).join(' '))
        .join('\n'),
  ],
  ['rot18', (_r, t) => rot18(t)],
  [
    'spoiler_tag',
    (r, t) => {
      const [open, close] = pick(r, [
        ['||', '||'],
        ['>!', '!<'],
        ['[spoiler]', '[/spoiler]'],
      ] as const);
      return open + rot13(t) + close;
    },
  ],
  ['wrapped', (r, t) => wordWrap(rot13(t), int(r, 24, 48))],
  [
    'long_words',
    (_r, t) => {
      const out = mapWords(t, (w) => (cps(w).length >= 4 ? rot13(w) : w));
      return out === t ? rot13(t) : out;
    },
  ],
];

// ---------------------------------------------------------------------------------------------------
// nested
// ---------------------------------------------------------------------------------------------------

const NESTED: readonly Variant[] = [
  ['base64_of_rot13', (r, t) => present(r, b64(rot13(t)))],
  ['base64_twice', (r, t) => present(r, b64(b64(t)))],
  ['hex_of_base64', (r, t) => present(r, hexOf(b64(t), chance(r, 0.3), pick(r, ['', ' '])))],
  ['percent_of_base64', (r, t) => present(r, pctAll(b64(t), chance(r, 0.7)))],
  ['base64_of_hex', (r, t) => present(r, b64(hexOf(t, chance(r, 0.5))))],
  ['rot13_of_base64', (r, t) => present(r, rot13(b64(t)))],
  ['base64_of_percent', (r, t) => present(r, b64(pctAll(t, true)))],
  ['base64_of_reversed', (r, t) => present(r, b64(reversed(t)))],
  ['hex_of_rot13', (r, t) => present(r, hexOf(rot13(t), chance(r, 0.3), pick(r, ['', ' '])))],
  ['base64_thrice', (r, t) => present(r, b64(b64(b64(t))))],
  ['escapes_of_base64', (r, t) => present(r, uEscapes(b64(t), false))],
];

// ---------------------------------------------------------------------------------------------------
// full_width
// ---------------------------------------------------------------------------------------------------

/** `c` in its full-width form if it has one; a space becomes the ideographic space when `ideo`. */
const fw = (c: string, ideo = false): string => {
  const code = c.charCodeAt(0);
  if (c.length === 1 && code >= 0x21 && code <= 0x7e) return String.fromCharCode(code + 0xfee0);
  return ideo && c === ' ' ? '\u3000' : c;
};

/** Every character of `s` in full width, spaces too when `ideo`. */
const fwAll = (s: string, ideo: boolean): string =>
  cps(s)
    .map((c) => fw(c, ideo))
    .join('');

const FULL_WIDTH: readonly Variant[] = [
  ['all_ideographic_space', (_r, t) => fwAll(t, true)],
  ['ascii_spaces', (_r, t) => fwAll(t, false)],
  ['span', (r, t) => onSpan(r, t, (s) => fwAll(s, false))],
  ['alternate_words', (r, t) => everyOther(r, t, (w) => fwAll(w, false))],
  [
    'random_chars',
    (r, t) =>
      mapSome(
        r,
        t,
        between(r, 0.4, 0.8),
        (c) => fw(c) !== c,
        (c) => fw(c),
      ),
  ],
  ['upper', (r, t) => fwAll(t.toUpperCase(), chance(r, 0.5))],
  ['vaporwave', (_r, t) => spaceOut(fwAll(t, false), ' ', '   ')],
  [
    'cjk_brackets',
    (r, t) => {
      const [open, close] = pick(r, [
        ['\u300c', '\u300d'],
        ['\u300e', '\u300f'],
        ['\u3010', '\u3011'],
      ] as const);
      return open + fwAll(t, true) + close;
    },
  ],
  [
    'every_other_char',
    (r, t) => {
      const odd = int(r, 0, 1);
      return cps(t)
        .map((c, i) => (i % 2 === odd ? fw(c) : c))
        .join('');
    },
  ],
  ['letters_digits', (_r, t) => t.replace(/[A-Za-z0-9]/g, (c) => fw(c))],
];

// ---------------------------------------------------------------------------------------------------
// html_markdown_comment
// ---------------------------------------------------------------------------------------------------

/** Markdown "comment" link-reference forms: opening and closing. */
const MD_COMMENTS = [
  ['[//]: # (', ')'],
  ['[comment]: <> (', ')'],
  ['[//]: # "', '"'],
  ['[_]: # (', ')'],
] as const;

/** Ways to hide an element's content in HTML: opening and closing tag. */
const HIDDEN_TAGS = [
  ['<span style="display:none">', '</span>'],
  ['<div hidden>', '</div>'],
  ['<p style="font-size:0;color:transparent">', '</p>'],
  ['<div aria-hidden="true" style="opacity:0;height:0;overflow:hidden">', '</div>'],
] as const;

const HTML_MARKDOWN_COMMENT: readonly Variant[] = [
  [
    'bare',
    (r, t) => {
      const [open, close] = pick(r, [
        ['<!-- ', ' -->'],
        ['<!--', '-->'],
        ['<!--\n', '\n-->'],
      ] as const);
      return open + t + close;
    },
  ],
  ['html_page', (r, t) => amid(r, HTML_BLOCKS, `<!-- ${t} -->`, '\n')],
  [
    'markdown_reference',
    (r, t) => {
      const [open, close] = pick(r, MD_COMMENTS);
      return amid(r, MD_BLOCKS, open + t + close, '\n\n');
    },
  ],
  [
    'split_comments',
    (r, t) =>
      wordGroups(t, int(r, 2, 4))
        .map((g) => `<!-- ${g} -->`)
        .reduce((acc, c) => (acc === '' ? c : `${acc}\n${pick(r, MD_BLOCKS)}\n${c}`), ''),
  ],
  [
    'readme',
    (r, t) => {
      const [p1, p2] = sample(r, MD_BLOCKS, 2);
      return `${pick(r, TITLES)}\n\n${p1 ?? ''}\n\n<!--\n${wordWrap(t, int(r, 40, 70))}\n-->\n\n${p2 ?? ''}`;
    },
  ],
  [
    'hidden_element',
    (r, t) => {
      const [open, close] = pick(r, HIDDEN_TAGS);
      return amid(r, HTML_BLOCKS, open + t + close, '\n');
    },
  ],
  [
    'conditional_comment',
    (r, t) => {
      const c = `<!--[if ${pick(r, ['mso', 'IE', 'gte mso 9', 'lt IE 9'])}]>${t}<![endif]-->`;
      return chance(r, 0.5) ? c : amid(r, HTML_BLOCKS, c, '\n');
    },
  ],
  [
    'svg_or_xml',
    (r, t) =>
      chance(r, 0.5)
        ? '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">\n' +
          `  <!-- ${t} -->\n  <path d="M4 12h16"/>\n</svg>`
        : '<?xml version="1.0" encoding="UTF-8"?>\n<settings>\n' +
          `  <!-- ${t} -->\n  <theme>light</theme>\n</settings>`,
  ],
  ['mdx_comment', (r, t) => amid(r, MD_BLOCKS, `{/* ${t} */}`, '\n\n')],
  [
    'indented_block',
    (r, t) => {
      const indent = pick(r, ['', '  ', '    ', '\t']);
      const body = wordWrap(t, int(r, 30, 60))
        .split('\n')
        .map((l) => indent + l)
        .join('\n');
      return `<!--\n${body}\n-->`;
    },
  ],
];

// ---------------------------------------------------------------------------------------------------
// unicode_tags
// ---------------------------------------------------------------------------------------------------

/** Printable ASCII characters of `s` as Unicode tag characters; anything else is kept. */
const tags = (s: string): string =>
  cps(s)
    .map((c) => {
      const code = c.charCodeAt(0);
      return c.length === 1 && code >= 0x20 && code <= 0x7e ? String.fromCodePoint(0xe0000 + code) : c;
    })
    .join('');

/** The UTF-8 bytes of `s` as variation selectors (VS1–VS16, then VS17–VS256). */
const selectors = (s: string): string =>
  utf8(s)
    .map((b) => String.fromCodePoint(b < 16 ? 0xfe00 + b : 0xe0100 + b - 16))
    .join('');

const UNICODE_TAGS: readonly Variant[] = [
  ['bare', (_r, t) => tags(t)],
  ['after_cover', (r, t) => pick(r, COVERS) + tags(t)],
  [
    'language_tag',
    (r, t) => {
      const cover = chance(r, 0.5) ? pick(r, COVERS) : '';
      return `${cover}\u{e0001}${tags(t)}\u{e007f}`;
    },
  ],
  ['interleaved', (r, t) => interleave(r, pick(r, COVERS), tags(t), int(r, 2, 5))],
  [
    'emoji_carrier',
    (r, t) => {
      const emoji = pick(r, ['\u{1f3f4}', '\u{1f60a}', '\u{1f44d}', '\u2705', '\u{1f642}']);
      const cover = chance(r, 0.5) ? `${pick(r, COVERS)} ` : '';
      return cover + emoji + tags(t) + (emoji === '\u{1f3f4}' ? '\u{e007f}' : '');
    },
  ],
  ['span', (r, t) => onSpan(r, t, tags)],
  ['spaces_kept', (_r, t) => mapWords(t, tags)],
  [
    'variation_selectors',
    (r, t) => {
      const base = pick(r, ['\u{1f60a}', '\u{1f44d}', '\u2728', 'a', '\u{1f642}']);
      return chance(r, 0.5) ? base + selectors(t) : `${pick(r, COVERS)} ${base}${selectors(t)}`;
    },
  ],
  ['leading', (r, t) => tags(t) + pick(r, COVERS)],
  [
    'line_ends',
    (r, t) => {
      const lines = sample(r, COVERS, int(r, 2, 4));
      const pieces = chunksOf(cps(tags(t)), Math.ceil(cps(tags(t)).length / lines.length));
      return lines.map((l, i) => l + (pieces[i]?.join('') ?? '')).join('\n');
    },
  ],
];

// ---------------------------------------------------------------------------------------------------
// mix_of_two
// ---------------------------------------------------------------------------------------------------

/** `s` with a zero-width character between the characters of each word. */
const zwEach = (r: Rand, s: string): string => mapWords(s, (w) => cps(w).join(pick(r, ZW)));

/** `t` with its two halves transformed by `f` and `g`, in a drawn order. */
function byHalves(r: Rand, t: string, f: (s: string) => string, g: (s: string) => string): string {
  const [a, gap, b] = halves(t);
  return chance(r, 0.5) ? f(a) + gap + g(b) : g(a) + gap + f(b);
}

const MIX_OF_TWO: readonly Variant[] = [
  ['leet_zero_width', (r, t) => zwEach(r, leet(r, t))],
  [
    'homoglyph_spaced',
    (r, t) => spaceOut(swapChars(r, t, mergeTables(CYRILLIC), between(r, 0.5, 1)), ' ', '   '),
  ],
  ['full_width_zero_width', (r, t) => zwInWords(r, fwAll(t, false))],
  ['base64_rot13_halves', (r, t) => byHalves(r, t, b64, rot13)],
  ['leet_spaced', (r, t) => spaceOut(leet(r, t), pick(r, [' ', '.', '-']), '   ')],
  [
    'homoglyph_zero_width',
    (r, t) => insertGaps(r, swapChars(r, t, MIXED, between(r, 0.3, 0.8)), 0.5, () => pick(r, ZW)),
  ],
  ['rot13_spaced', (r, t) => spaceOut(rot13(t), pick(r, [' ', '-', '.']), pick(r, ['   ', ' / ']))],
  [
    'percent_hex_halves',
    (r, t) =>
      byHalves(
        r,
        t,
        (s) => pctAll(s, true),
        (s) => hexOf(s, false, ' '),
      ),
  ],
  ['leet_full_width', (r, t) => fwAll(leet(r, t), chance(r, 0.5))],
  ['comment_tags', (r, t) => `<!-- ${tags(t)} -->`],
  [
    'homoglyph_full_width_words',
    (r, t) => {
      const odd = int(r, 0, 1);
      return mapWords(t, (w, i) => (i % 2 === odd ? fwAll(w, false) : swapChars(r, w, MIXED)));
    },
  ],
  ['rot13_zero_width', (r, t) => insertGaps(r, rot13(t), between(r, 0.5, 1), () => pick(r, ZW))],
];

// ---------------------------------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------------------------------

/** Each family's variants. */
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
 * `text` obfuscated in one of `family`'s variants, drawn from `r`; `method` names it as
 * `family/variant`. Only characters, bytes, words and whitespace are looked at, never meaning.
 */
export function obfuscateV(r: Rand, text: string, family: BriefedFamily): { text: string; method: string } {
  const [name, apply] = pick(r, VARIANTS[family]);
  return { text: apply(r, text), method: `${family}/${name}` };
}
