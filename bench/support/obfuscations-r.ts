/**
 * Obfuscation generator R: the eighteenth hand, written independently.
 *
 * Its author worked from two files only, obfuscation-brief.ts (the family names and the byte helpers)
 * and rng.ts (the seeded random source), and saw no other generator, no detector code and no tests.
 * The generator is held out: what it produces serves only to measure the detector on obfuscations
 * the detector was never shaped around, and none of it is ever fed back to tune the detector. Every
 * choice comes from the seeded `Rand` it is handed, so one seed always yields the same output. It is
 * content-blind: it rewrites characters, bytes, words and whitespace without reading what the text
 * says, and any cover text or framing it adds is neutral and drawn the same way for every input. It
 * is faithful: the original text can be read back from every output (up to case or whitespace only
 * where a family inherently discards them).
 */
import { BRIEFED_FAMILIES, type BriefedFamily, hex2, utf8 } from './obfuscation-brief';
import { type Rand, chance, int, pick, sample } from './rng';

/** The families this generator covers: exactly the briefed list. */
export const FAMILIES_R: readonly BriefedFamily[] = BRIEFED_FAMILIES;

/** One named way of writing a family's obfuscation. */
interface Variant {
  readonly name: string;
  readonly apply: (r: Rand, text: string) => string;
}

/** A text transform that draws from `r`. */
type Transform = (r: Rand, s: string) => string;

/** A one-to-one character substitution table. */
type Table = Readonly<Record<string, string>>;

// ---------------------------------------------------------------------------------------------
// Neutral material for carriers and cover text (never chosen by looking at the input).
// ---------------------------------------------------------------------------------------------

/** Everyday sentences used as visible cover around hidden content. */
const COVER = [
  'Thanks for sending the agenda over this morning.',
  'The quarterly summary is attached for your review.',
  'Please find the updated schedule below.',
  'Our team meeting moves to Thursday at ten.',
  'The printer on the third floor is working again.',
  'Lunch orders are due by noon on Friday.',
  "Here are the notes from yesterday's call.",
  'The parking garage will be closed for cleaning next week.',
  'Remember to water the plants in the lobby.',
  'The new coffee machine arrives on Monday.',
  'Slides from the workshop are in the shared folder.',
  'The library keeps longer opening hours during exams.',
] as const;

/** Headings for small carrier documents. */
const TITLES = ['Weekly update', 'Release notes', 'Meeting notes', 'Project overview', 'Changelog', 'Readme'];

/** Short neutral labels that may precede an encoded value. */
const LEADS = ['Note:', 'Value:', 'Ref:', 'Data:', 'Entry 12:', 'Attachment:', 'String:', 'Record:'];

/** Placeholder hosts, paths and parameter names for URL carriers. */
const HOSTS = ['example.com', 'docs.example.org', 'cdn.example.net', 'search.example.com'];
const PATHS = ['search', 'api/v1/items', 'view', 'share', 'lookup', 'p/index.php'];
const PARAMS = ['q', 'query', 'text', 'msg', 'data', 'note'];
const EXTRA_PARAMS = ['', '&lang=en', '&page=2', '&ref=home', '&utm_source=newsletter'];

/** Field names for JSON and XML carriers. */
const KEYS = ['data', 'content', 'body', 'note', 'value', 'text', 'message'];

/** Media types for data URIs. */
const MEDIA_TYPES = ['text/plain', 'text/plain;charset=utf-8', 'application/octet-stream'];

/** Labels for PEM-like armour blocks. */
const ARMOUR = ['DATA', 'MESSAGE', 'NOTE', 'BLOB', 'ATTACHMENT'];

/** Emoji that can carry a trailing run of invisible characters. */
const EMOJI = ['\u{1F642}', '\u{1F44D}', '\u{1F331}', '\u{1F4CE}', '\u{1F389}', '\u2728', '\u{1F4CC}'];

// ---------------------------------------------------------------------------------------------
// Small text helpers.
// ---------------------------------------------------------------------------------------------

/** The code points of `s`, so astral characters stay whole. */
const chars = (s: string): string[] => [...s];

/** `s` with every code point passed through `f`. */
const mapChars = (s: string, f: (c: string, i: number) => string): string => chars(s).map(f).join('');

/** `s` cut into alternating runs of non-whitespace and whitespace; joining them gives `s` back. */
const tokens = (s: string): string[] => s.split(/(\s+)/).filter((t) => t !== '');

/** True when `t` is whitespace only. */
const isSpace = (t: string): boolean => /^\s+$/.test(t);

/** The words (non-whitespace runs) of `s`. */
const words = (s: string): string[] => s.split(/\s+/).filter((w) => w !== '');

/** `s` with `f` applied to each word, keeping the whitespace between words as it was. */
function mapWords(s: string, f: (w: string, i: number) => string): string {
  let k = 0;
  return tokens(s)
    .map((t) => (isSpace(t) ? t : f(t, k++)))
    .join('');
}

/** The code points of `s` joined with a gap drawn by `gap(i)` before the i-th (i ≥ 1) of them. */
const interleave = (s: string, gap: (i: number) => string): string =>
  chars(s).reduce((acc, c, i) => (i === 0 ? c : acc + gap(i) + c), '');

/** `n` flags, each set with probability `p`, at least one set whenever `n` > 0. */
function atLeastOne(r: Rand, n: number, p: number): boolean[] {
  const flags = Array.from({ length: n }, () => chance(r, p));
  if (n > 0 && !flags.includes(true)) flags[int(r, 0, n - 1)] = true;
  return flags;
}

/** `s` with `f` applied to a random selection (each word with probability `p`, never none) of its words. */
function someWords(r: Rand, s: string, p: number, f: (w: string) => string): string {
  const flags = atLeastOne(r, words(s).length, p);
  return mapWords(s, (w, i) => (flags[i] === true ? f(w) : w));
}

/** `s` with a gap drawn by `gap` at a random selection (never none) of the places between characters. */
function someGaps(r: Rand, s: string, p: number, gap: () => string): string {
  const flags = atLeastOne(r, Math.max(0, chars(s).length - 1), p);
  return interleave(s, (i) => (flags[i - 1] === true ? gap() : ''));
}

/** `s` cut into pieces of at most `n` code points. */
function chunkChars(s: string, n: number): string[] {
  const cs = chars(s);
  const out: string[] = [];
  for (let i = 0; i < cs.length; i += n) out.push(cs.slice(i, i + n).join(''));
  return out;
}

/** `s` cut into pieces of at most `n` code units. */
function chunk(s: string, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out;
}

/** `s` wrapped every `n` code units with `nl`. */
const wrapAt = (s: string, n: number, nl = '\n'): string => chunk(s, n).join(nl);

/** The words of `s` packed greedily into lines of about `width` characters. */
function wrapWords(s: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const w of words(s)) {
    if (line !== '' && line.length + 1 + w.length > width) {
      lines.push(line);
      line = w;
    } else line = line === '' ? w : `${line} ${w}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** The code point of a one-character string. */
const cp = (c: string): number => c.codePointAt(0) ?? 0;

/** `c` upper- or lower-cased at random. */
const randomCase = (r: Rand, c: string): string => (chance(r, 0.5) ? c.toUpperCase() : c.toLowerCase());

/** Two neighbouring cover sentences, drawn without repeats. */
const coverPair = (r: Rand): [string, string] => {
  const [a, b] = sample(r, COVER, 2);
  return [a ?? COVER[0], b ?? COVER[1]];
};

// ---------------------------------------------------------------------------------------------
// Encoders shared by several families.
// ---------------------------------------------------------------------------------------------

/** Standard padded base64 of the UTF-8 bytes of `s`. */
const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

/** URL-safe base64 of the UTF-8 bytes of `s`, without padding. */
const b64url = (s: string): string => Buffer.from(s, 'utf8').toString('base64url');

/** Base64 of the UTF-16LE code units of `s`, as some shells expect encoded commands. */
const b64utf16 = (s: string): string => Buffer.from(s, 'utf16le').toString('base64');

/** Latin letters rotated by thirteen places; everything else untouched. */
const rot13 = (s: string): string =>
  s.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });

/** Every UTF-8 byte of `s` as a percent escape. */
const pctBytes = (s: string, upper: boolean): string =>
  utf8(s)
    .map((b) => `%${hex2(b, upper)}`)
    .join('');

/** Every UTF-8 byte of `s` as two hex digits, each with `prefix`, joined by `sep`. */
const hexBytes = (s: string, upper: boolean, sep = '', prefix = ''): string =>
  utf8(s)
    .map((b) => prefix + hex2(b, upper))
    .join(sep);

/** Characters a URI component may carry unescaped. */
const URI_SAFE = /^[A-Za-z0-9\-_.!~*'()]$/;

/** `s` escaped the way a URI component is: safe characters kept, the rest percent-encoded. */
const uriComponent = (s: string): string => mapChars(s, (c) => (URI_SAFE.test(c) ? c : pctBytes(c, true)));

// ---------------------------------------------------------------------------------------------
// leetspeak
// ---------------------------------------------------------------------------------------------

/** The common digit substitutions. */
const LEET_BASIC: Table = { a: '4', e: '3', i: '1', o: '0', s: '5', t: '7' };

/** Digit substitutions stretched over more letters. */
const LEET_DIGITS: Table = { a: '4', b: '8', e: '3', g: '6', i: '1', o: '0', s: '5', t: '7', z: '2' };

/** Punctuation and currency substitutions. */
const LEET_SYMBOLS: Table = { a: '@', c: '<', e: '\u20ac', i: '!', l: '|', o: '()', s: '$', t: '+' };

/** Multi-character drawings of letters. */
const LEET_HEAVY: Table = {
  a: '/-\\',
  b: '|3',
  c: '(',
  d: '|)',
  e: '3',
  g: '9',
  h: '|-|',
  k: '|<',
  l: '1',
  m: '|\\/|',
  n: '|\\|',
  o: '0',
  r: '|2',
  s: '5',
  t: '7',
  u: '|_|',
  v: '\\/',
  w: '\\/\\/',
  x: '><',
};

/** Several spellings per letter, one drawn per occurrence. */
const LEET_CHOICES: Readonly<Record<string, readonly string[]>> = {
  a: ['4', '@', '/-\\'],
  b: ['8', '|3'],
  e: ['3', '\u20ac'],
  g: ['6', '9'],
  i: ['1', '!'],
  l: ['|_'],
  o: ['0', '()'],
  s: ['5', '$'],
  t: ['7', '+'],
  z: ['2'],
};

/** `s` with each letter found in `table` replaced, each with probability `p`. */
const leetWith = (r: Rand, s: string, table: Table, p = 1): string =>
  mapChars(s, (c) => {
    const to = table[c.toLowerCase()];
    return to !== undefined && (p >= 1 || chance(r, p)) ? to : c;
  });

/** A random subset (two to four letters) of the basic table. */
function leetSubset(r: Rand): Table {
  const keys = sample(r, Object.keys(LEET_BASIC), int(r, 2, 4));
  return Object.fromEntries(keys.map((k) => [k, LEET_BASIC[k] ?? k]));
}

const LEETSPEAK: readonly Variant[] = [
  { name: 'classic', apply: (r, s) => leetWith(r, s, LEET_BASIC) },
  { name: 'few-letters', apply: (r, s) => leetWith(r, s, leetSubset(r)) },
  { name: 'sprinkled', apply: (r, s) => leetWith(r, s, LEET_BASIC, 0.3 + 0.4 * r()) },
  { name: 'symbols', apply: (r, s) => leetWith(r, s, LEET_SYMBOLS) },
  { name: 'drawn-letters', apply: (r, s) => leetWith(r, s, LEET_HEAVY) },
  { name: 'extended-digits', apply: (r, s) => leetWith(r, s, LEET_DIGITS) },
  {
    name: 'some-words',
    apply: (r, s) => someWords(r, s, 0.5, (w) => leetWith(r, w, LEET_BASIC)),
  },
  {
    name: 'mixed-case',
    apply: (r, s) => mapChars(leetWith(r, s, LEET_BASIC), (c) => randomCase(r, c)),
  },
  {
    name: 'per-letter-choice',
    apply: (r, s) =>
      mapChars(s, (c) => {
        const opts = LEET_CHOICES[c.toLowerCase()];
        return opts === undefined ? c : pick(r, opts);
      }),
  },
  {
    name: 'digits-and-symbols',
    apply: (r, s) => leetWith(r, leetWith(r, s, LEET_DIGITS, 0.6), LEET_SYMBOLS, 0.6),
  },
];

// ---------------------------------------------------------------------------------------------
// url_encoding
// ---------------------------------------------------------------------------------------------

/** Characters never needing an escape in a URL. */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** Every byte escaped, hex digits in random case one by one. */
const pctMixedCase = (r: Rand, s: string): string =>
  utf8(s)
    .map((b) => `%${mapChars(hex2(b, false), (c) => randomCase(r, c))}`)
    .join('');

/** Every UTF-16 code unit as a legacy `%uXXXX` escape. */
const pctUnicode = (s: string): string =>
  Array.from(
    { length: s.length },
    (_, i) => `%u${s.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}`,
  ).join('');

/** `s` placed as the value of a query parameter on a placeholder URL. */
function inQueryString(r: Rand, s: string): string {
  const host = pick(r, HOSTS);
  const path = pick(r, PATHS);
  const param = pick(r, PARAMS);
  const extra = pick(r, EXTRA_PARAMS);
  const value = chance(r, 0.5) ? pctBytes(s, true) : uriComponent(s).replace(/%20/g, '+');
  return `https://${host}/${path}?${param}=${value}${extra}`;
}

const URL_ENCODING: readonly Variant[] = [
  { name: 'every-byte-upper', apply: (_r, s) => pctBytes(s, true) },
  { name: 'every-byte-lower', apply: (_r, s) => pctBytes(s, false) },
  { name: 'component', apply: (_r, s) => uriComponent(s) },
  { name: 'form-plus', apply: (_r, s) => uriComponent(s).replace(/%20/g, '+') },
  {
    name: 'sprinkled',
    apply: (r, s) => {
      const p = 0.3 + 0.5 * r();
      const upper = chance(r, 0.7);
      return mapChars(s, (c) => (UNRESERVED.test(c) && !chance(r, p) ? c : pctBytes(c, upper)));
    },
  },
  { name: 'double', apply: (r, s) => pctBytes(pctBytes(s, chance(r, 0.7)), true) },
  { name: 'query-carrier', apply: inQueryString },
  { name: 'percent-u', apply: (_r, s) => pctUnicode(s) },
  { name: 'mixed-case-hex', apply: pctMixedCase },
  {
    name: 'words-kept-apart',
    apply: (r, s) => {
      const upper = chance(r, 0.5);
      return mapWords(s, (w) => pctBytes(w, upper));
    },
  },
];

// ---------------------------------------------------------------------------------------------
// zero_width
// ---------------------------------------------------------------------------------------------

const ZWSP = '\u200b';
const ZWNJ = '\u200c';
const ZWJ = '\u200d';
const WORD_JOINER = '\u2060';
const SOFT_HYPHEN = '\u00ad';

/** Invisible format characters that take no width. */
const INVISIBLES = [ZWSP, ZWNJ, ZWJ, WORD_JOINER, '\ufeff', '\u180e'];

/** Invisible mathematical operators (function application, times, separator, plus). */
const INVISIBLE_OPS = ['\u2061', '\u2062', '\u2063', '\u2064'];

/** The bytes of `s` as runs of ZWNJ (0) and ZWJ (1), bytes split by `sep`. */
const zeroWidthBits = (s: string, sep: string): string =>
  utf8(s)
    .map((b) =>
      b
        .toString(2)
        .padStart(8, '0')
        .replace(/[01]/g, (d) => (d === '0' ? ZWNJ : ZWJ)),
    )
    .join(sep);

/** `hidden` tucked after the first word of a cover sentence. */
function afterFirstWord(sentence: string, hidden: string): string {
  const at = sentence.indexOf(' ');
  return at < 0 ? sentence + hidden : sentence.slice(0, at) + hidden + sentence.slice(at);
}

const ZERO_WIDTH: readonly Variant[] = [
  { name: 'zwsp-everywhere', apply: (_r, s) => interleave(s, () => ZWSP) },
  { name: 'joiners', apply: (r, s) => interleave(s, () => pick(r, [ZWNJ, ZWJ])) },
  { name: 'word-joiner-in-words', apply: (_r, s) => mapWords(s, (w) => interleave(w, () => WORD_JOINER)) },
  {
    name: 'sprinkled',
    apply: (r, s) => {
      const p = 0.2 + 0.5 * r();
      return someGaps(r, s, p, () => pick(r, INVISIBLES));
    },
  },
  {
    name: 'bursts',
    apply: (r, s) =>
      someGaps(r, s, 0.5, () => Array.from({ length: int(r, 1, 4) }, () => pick(r, INVISIBLES)).join('')),
  },
  {
    name: 'soft-hyphens',
    apply: (r, s) => mapWords(s, (w) => interleave(w, () => (chance(r, 0.45) ? SOFT_HYPHEN : ''))),
  },
  {
    name: 'spaces-swapped',
    apply: (_r, s) => (s.includes(' ') ? s.replace(/ /g, ZWSP) : interleave(s, () => ZWSP)),
  },
  { name: 'invisible-operators', apply: (r, s) => interleave(s, () => pick(r, INVISIBLE_OPS)) },
  {
    name: 'binary-in-cover',
    apply: (r, s) => {
      const sentence = pick(r, COVER);
      const sep = pick(r, ['', ZWSP, WORD_JOINER]);
      return afterFirstWord(sentence, zeroWidthBits(s, sep));
    },
  },
];

// ---------------------------------------------------------------------------------------------
// homoglyph
// ---------------------------------------------------------------------------------------------

/** Cyrillic letters that look like Latin ones. */
const CYRILLIC: Table = {
  a: '\u0430',
  c: '\u0441',
  d: '\u0501',
  e: '\u0435',
  h: '\u04bb',
  i: '\u0456',
  j: '\u0458',
  o: '\u043e',
  p: '\u0440',
  q: '\u051b',
  s: '\u0455',
  w: '\u051d',
  x: '\u0445',
  y: '\u0443',
  A: '\u0410',
  B: '\u0412',
  C: '\u0421',
  E: '\u0415',
  H: '\u041d',
  I: '\u0406',
  J: '\u0408',
  K: '\u041a',
  M: '\u041c',
  O: '\u041e',
  P: '\u0420',
  S: '\u0405',
  T: '\u0422',
  X: '\u0425',
  Y: '\u04ae',
};

/** Greek letters that look like Latin ones. */
const GREEK: Table = {
  a: '\u03b1',
  i: '\u03b9',
  k: '\u03ba',
  o: '\u03bf',
  p: '\u03c1',
  u: '\u03c5',
  v: '\u03bd',
  A: '\u0391',
  B: '\u0392',
  E: '\u0395',
  H: '\u0397',
  I: '\u0399',
  K: '\u039a',
  M: '\u039c',
  N: '\u039d',
  O: '\u039f',
  P: '\u03a1',
  T: '\u03a4',
  X: '\u03a7',
  Y: '\u03a5',
  Z: '\u0396',
};

/** Armenian small letters that look like Latin ones. */
const ARMENIAN: Table = { g: '\u0581', h: '\u0570', n: '\u0578', o: '\u0585', q: '\u0566', u: '\u057d' };

/** Lisu letters that look like Latin capitals. */
const LISU: Table = {
  A: '\ua4ee',
  B: '\ua4d0',
  C: '\ua4da',
  D: '\ua4d3',
  E: '\ua4f0',
  F: '\ua4dd',
  G: '\ua4d6',
  H: '\ua4e7',
  I: '\ua4f2',
  J: '\ua4d9',
  K: '\ua4d7',
  L: '\ua4e1',
  M: '\ua4df',
  N: '\ua4e0',
  O: '\ua4f3',
  P: '\ua4d1',
  R: '\ua4e3',
  S: '\ua4e2',
  T: '\ua4d4',
  U: '\ua4f4',
  V: '\ua4e6',
  W: '\ua4ea',
  X: '\ua4eb',
  Y: '\ua4ec',
  Z: '\ua4dc',
};

/** Latin-script lookalikes: IPA letters, small capitals and Roman numerals. */
const LATIN_LOOKALIKE: Table = {
  a: '\u0251',
  c: '\u217d',
  d: '\u217e',
  g: '\u0261',
  i: '\u0269',
  l: '\u217c',
  m: '\u217f',
  o: '\u1d0f',
  s: '\ua731',
  u: '\u1d1c',
  v: '\u1d20',
  w: '\u1d21',
  z: '\u1d22',
  C: '\u216d',
  D: '\u216e',
  I: '\u2160',
  L: '\u216c',
  M: '\u216f',
  V: '\u2164',
  X: '\u2169',
};

/** First code points (capital A, small a, digit zero) of mathematical alphanumeric styles. */
const MATH_STYLES: readonly (readonly [upper: number, lower: number, digit: number | null])[] = [
  [0x1d400, 0x1d41a, 0x1d7ce], // bold
  [0x1d468, 0x1d482, null], // bold italic
  [0x1d5a0, 0x1d5ba, 0x1d7e2], // sans-serif
  [0x1d5d4, 0x1d5ee, 0x1d7ec], // sans-serif bold
  [0x1d608, 0x1d622, null], // sans-serif italic
  [0x1d63c, 0x1d656, null], // sans-serif bold italic
  [0x1d670, 0x1d68a, 0x1d7f6], // monospace
];

/** `s` with each character in `table` swapped, each with probability `p`. */
const swapWith = (r: Rand, s: string, table: Table, p = 1): string =>
  mapChars(s, (c) => {
    const to = table[c];
    return to !== undefined && (p >= 1 || chance(r, p)) ? to : c;
  });

/** `s` set in one mathematical alphanumeric style; characters it lacks stay as they are. */
function mathStyle(s: string, style: readonly [number, number, number | null]): string {
  const [upper, lower, digit] = style;
  return mapChars(s, (c) => {
    if (c >= 'A' && c <= 'Z') return String.fromCodePoint(upper + cp(c) - 65);
    if (c >= 'a' && c <= 'z') return String.fromCodePoint(lower + cp(c) - 97);
    if (digit !== null && c >= '0' && c <= '9') return String.fromCodePoint(digit + cp(c) - 48);
    return c;
  });
}

/** Per character, a lookalike from whichever scripts have one, drawn at random. */
const mixedScripts = (r: Rand, s: string): string =>
  mapChars(s, (c) => {
    const opts = [CYRILLIC[c], GREEK[c], ARMENIAN[c], LISU[c]].filter((x): x is string => x !== undefined);
    return opts.length > 0 && chance(r, 0.8) ? pick(r, opts) : c;
  });

const HOMOGLYPH: readonly Variant[] = [
  { name: 'cyrillic-all', apply: (r, s) => swapWith(r, s, CYRILLIC) },
  { name: 'cyrillic-sprinkled', apply: (r, s) => swapWith(r, s, CYRILLIC, 0.25 + 0.5 * r()) },
  { name: 'greek', apply: (r, s) => swapWith(r, s, GREEK) },
  { name: 'mixed-scripts', apply: mixedScripts },
  { name: 'math-style', apply: (r, s) => mathStyle(s, pick(r, MATH_STYLES)) },
  {
    name: 'math-style-words',
    apply: (r, s) => {
      const style = pick(r, MATH_STYLES);
      return someWords(r, s, 0.5, (w) => mathStyle(w, style));
    },
  },
  {
    name: 'cyrillic-some-words',
    apply: (r, s) => someWords(r, s, 0.5, (w) => swapWith(r, w, CYRILLIC)),
  },
  { name: 'lisu-capitals', apply: (r, s) => swapWith(r, swapWith(r, s, LISU), CYRILLIC) },
  { name: 'latin-lookalikes', apply: (r, s) => swapWith(r, s, LATIN_LOOKALIKE, 0.5 + 0.5 * r()) },
  { name: 'armenian-and-greek', apply: (r, s) => swapWith(r, swapWith(r, s, ARMENIAN), GREEK, 0.7) },
];

// ---------------------------------------------------------------------------------------------
// spaced_letters
// ---------------------------------------------------------------------------------------------

/** The words of `s`, each with its characters joined by `letterGap()`, words joined by `wordGap`. */
const spaceOut = (s: string, letterGap: () => string, wordGap: string): string =>
  words(s)
    .map((w) => interleave(w, letterGap))
    .join(wordGap);

/** Separators a hand might put between letters. */
const LETTER_SEPS = [' ', '-', '.', '_', '*', '~', '+'];

const SPACED_LETTERS: readonly Variant[] = [
  { name: 'spaces', apply: (r, s) => spaceOut(s, () => ' ', ' '.repeat(int(r, 2, 4))) },
  { name: 'hyphens', apply: (r, s) => spaceOut(s, () => '-', pick(r, [' ', '  ', ' / '])) },
  { name: 'dots', apply: (r, s) => spaceOut(s, () => '.', pick(r, [' ', '  '])) },
  { name: 'underscores', apply: (r, s) => spaceOut(s, () => '_', pick(r, [' ', '   '])) },
  { name: 'vertical', apply: (_r, s) => spaceOut(s, () => '\n', '\n\n') },
  { name: 'word-per-line', apply: (r, s) => spaceOut(s, () => pick(r, ['  ', '\t']), '\n') },
  { name: 'mixed-separators', apply: (r, s) => spaceOut(s, () => pick(r, LETTER_SEPS), ' / ') },
  {
    name: 'some-words',
    apply: (r, s) => someWords(r, s, 0.5, (w) => interleave(w, () => ' ')),
  },
  {
    name: 'bracketed',
    apply: (r, s) => {
      const [open, close] = pick(r, [
        ['[', ']'],
        ['(', ')'],
        ['{', '}'],
      ] as const);
      return words(s)
        .map((w) => mapChars(w, (c) => open + c + close))
        .join(' ');
    },
  },
  { name: 'slashes-and-pipes', apply: (r, s) => spaceOut(s, () => pick(r, ['/', '|']), '   ') },
];

// ---------------------------------------------------------------------------------------------
// base64
// ---------------------------------------------------------------------------------------------

/** `s` as MIME encoded-words, each holding at most 45 bytes and never splitting a character. */
function encodedWords(s: string, fold: string): string {
  const parts: string[] = [];
  let cur = '';
  for (const c of chars(s)) {
    if (cur !== '' && Buffer.byteLength(cur + c, 'utf8') > 45) {
      parts.push(cur);
      cur = '';
    }
    cur += c;
  }
  if (cur !== '' || parts.length === 0) parts.push(cur);
  return parts.map((p) => `=?UTF-8?B?${b64(p)}?=`).join(fold);
}

/** All words before the cut kept in clear, the rest base64-encoded as one token. */
function base64Tail(r: Rand, s: string): string {
  const ws = words(s);
  const keep = int(r, 0, Math.floor(ws.length / 2));
  const head = ws.slice(0, keep).join(' ');
  const tail = b64(ws.slice(keep).join(' '));
  return head === '' ? tail : `${head} ${tail}`;
}

const BASE64: readonly Variant[] = [
  { name: 'one-line', apply: (_r, s) => b64(s) },
  { name: 'url-safe-unpadded', apply: (_r, s) => b64url(s) },
  { name: 'mime-wrapped', apply: (r, s) => wrapAt(b64(s), 76, pick(r, ['\n', '\r\n'])) },
  {
    name: 'armoured',
    apply: (r, s) => {
      const label = pick(r, ARMOUR);
      return `-----BEGIN ${label}-----\n${wrapAt(b64(s), 64)}\n-----END ${label}-----`;
    },
  },
  {
    name: 'data-uri',
    apply: (r, s) => `data:${pick(r, MEDIA_TYPES)};base64,${b64(s)}`,
  },
  {
    name: 'json-field',
    apply: (r, s) => {
      const key = pick(r, KEYS);
      const id = int(r, 100, 9999);
      return JSON.stringify({ id, encoding: 'base64', [key]: b64(s) }, null, chance(r, 0.5) ? 2 : 0);
    },
  },
  { name: 'word-by-word', apply: (_r, s) => mapWords(s, b64) },
  { name: 'tail-only', apply: base64Tail },
  { name: 'utf16le', apply: (_r, s) => b64utf16(s) },
  { name: 'mime-encoded-words', apply: (r, s) => encodedWords(s, pick(r, [' ', '\r\n '])) },
  {
    name: 'labelled-xml',
    apply: (r, s) => {
      const key = pick(r, KEYS);
      return `<${key} encoding="base64">${b64(s)}</${key}>`;
    },
  },
];

// ---------------------------------------------------------------------------------------------
// hex
// ---------------------------------------------------------------------------------------------

/** `s` as offset-prefixed dump lines of sixteen bytes in two-byte groups, with no text column. */
function hexDump(s: string): string {
  const bytes = utf8(s);
  const lines: string[] = [];
  for (let off = 0; off < bytes.length; off += 16) {
    const row = bytes.slice(off, off + 16);
    const groups = chunk(row.map((b) => hex2(b, false)).join(''), 4).join(' ');
    lines.push(`${off.toString(16).padStart(8, '0')}: ${groups}`);
  }
  return lines.join('\n');
}

/** `s` as a C byte-array initialiser, twelve bytes a row. */
function cArray(r: Rand, s: string): string {
  const name = pick(r, ['data', 'buf', 'blob', 'table', 'msg']);
  const upper = chance(r, 0.5);
  const bytes = utf8(s);
  const rows: string[] = [];
  for (let i = 0; i < bytes.length; i += 12)
    rows.push(
      `  ${bytes
        .slice(i, i + 12)
        .map((b) => `0x${hex2(b, upper)}`)
        .join(', ')}`,
    );
  return `unsigned char ${name}[] = {\n${rows.join(',\n')}\n};`;
}

/** Every UTF-16 code unit of `s` as a `\uXXXX` escape. */
const jsEscapes = (s: string, upper: boolean): string =>
  Array.from({ length: s.length }, (_, i) => {
    const h = s.charCodeAt(i).toString(16).padStart(4, '0');
    return `\\u${upper ? h.toUpperCase() : h}`;
  }).join('');

/** Every code point of `s` as a hexadecimal HTML character reference. */
const htmlHexRefs = (s: string, upper: boolean): string =>
  mapChars(s, (c) => {
    const h = cp(c).toString(16);
    return `&#x${upper ? h.toUpperCase() : h};`;
  });

const HEX: readonly Variant[] = [
  { name: 'run-lower', apply: (_r, s) => hexBytes(s, false) },
  { name: 'spaced-upper', apply: (_r, s) => hexBytes(s, true, ' ') },
  { name: 'backslash-x', apply: (r, s) => hexBytes(s, chance(r, 0.3), '', '\\x') },
  { name: 'c-array', apply: cArray },
  { name: 'colons', apply: (r, s) => hexBytes(s, chance(r, 0.5), ':') },
  { name: 'dump', apply: (_r, s) => hexDump(s) },
  { name: 'plain-wrapped', apply: (_r, s) => wrapAt(hexBytes(s, false), 60) },
  { name: 'word-by-word', apply: (r, s) => mapWords(s, (w) => hexBytes(w, chance(r, 0.5))) },
  { name: 'unicode-escapes', apply: (r, s) => jsEscapes(s, chance(r, 0.5)) },
  { name: 'html-hex-refs', apply: (r, s) => htmlHexRefs(s, chance(r, 0.5)) },
  { name: 'big-literal', apply: (r, s) => `0x${hexBytes(s, chance(r, 0.5))}` },
];

// ---------------------------------------------------------------------------------------------
// rot13
// ---------------------------------------------------------------------------------------------

/** Non-whitespace characters of `s` in five-character groups, ten groups a line. */
function fiveGroups(s: string): string {
  const groups = chunkChars(s.replace(/\s+/g, ''), 5);
  const lines: string[] = [];
  for (let i = 0; i < groups.length; i += 10) lines.push(groups.slice(i, i + 10).join(' '));
  return lines.join('\n');
}

const ROT13: readonly Variant[] = [
  { name: 'plain', apply: (_r, s) => rot13(s) },
  {
    name: 'labelled',
    apply: (r, s) => pick(r, ['rot13: ', 'ROT13: ', '[rot13] ', 'rot13 \u2192 ', '(rot13) ']) + rot13(s),
  },
  {
    name: 'fenced',
    apply: (r, s) => `${pick(r, ['```', '```text', '~~~'])}\n${rot13(s)}\n${pick(r, ['```', '~~~'])}`,
  },
  { name: 'five-letter-groups', apply: (_r, s) => fiveGroups(rot13(s)) },
  {
    name: 'alternate-words',
    apply: (r, s) => {
      const parity = words(s).length > 1 ? int(r, 0, 1) : 0;
      return mapWords(s, (w, i) => (i % 2 === parity ? rot13(w) : w));
    },
  },
  { name: 'wrapped', apply: (r, s) => wrapWords(rot13(s), int(r, 24, 50)).join('\n') },
  {
    name: 'quoted-reply',
    apply: (r, s) =>
      wrapWords(rot13(s), int(r, 40, 72))
        .map((l) => `> ${l}`)
        .join('\n'),
  },
  {
    name: 'json-field',
    apply: (r, s) => JSON.stringify({ [pick(r, KEYS)]: rot13(s) }, null, chance(r, 0.5) ? 2 : 0),
  },
  {
    name: 'spoiler',
    apply: (r, s) => {
      const [open, close] = pick(r, [
        ['>!', '!<'],
        ['||', '||'],
        ['[spoiler]', '[/spoiler]'],
      ] as const);
      return `${open}${rot13(s)}${close}`;
    },
  },
];

// ---------------------------------------------------------------------------------------------
// nested
// ---------------------------------------------------------------------------------------------

/** Encoders the nested family layers on each other. */
const LAYER: Readonly<Record<string, (s: string) => string>> = {
  base64: b64,
  hex: (s) => hexBytes(s, false),
  url: (s) => pctBytes(s, true),
  rot13,
};

/** A variant applying the named layers innermost first. */
function layered(...names: string[]): Variant {
  return {
    name: [...names].reverse().join('(') + ')'.repeat(names.length - 1),
    apply: (_r, s) => names.reduce((acc, n) => (LAYER[n] ?? ((x: string) => x))(acc), s),
  };
}

const NESTED: readonly Variant[] = [
  layered('rot13', 'base64'),
  layered('base64', 'hex'),
  layered('base64', 'url'),
  layered('base64', 'base64'),
  layered('base64', 'rot13'),
  layered('hex', 'base64'),
  layered('url', 'base64'),
  layered('rot13', 'hex'),
  layered('rot13', 'hex', 'base64'),
  layered('rot13', 'base64', 'url'),
  {
    name: 'base64-layers-wrapped',
    apply: (r, s) => {
      const depth = int(r, 2, 3);
      let out = s;
      for (let i = 0; i < depth; i++) out = b64(out);
      return wrapAt(out, 76);
    },
  },
];

// ---------------------------------------------------------------------------------------------
// full_width
// ---------------------------------------------------------------------------------------------

/** The full-width form of a printable ASCII character; a space becomes an ideographic space if asked. */
function fullWidth(c: string, ideographicSpace: boolean): string {
  const n = cp(c);
  if (n > 0x20 && n < 0x7f) return String.fromCodePoint(n + 0xfee0);
  return c === ' ' && ideographicSpace ? '\u3000' : c;
}

/** `s` entirely in full-width forms. */
const allFull = (s: string, ideographicSpace = true): string =>
  mapChars(s, (c) => fullWidth(c, ideographicSpace));

/** `s` in full-width forms with the CJK full stop and comma used for `.` and `,`. */
const fullWithCjkPunct = (s: string): string =>
  mapChars(s, (c) => (c === '.' ? '\u3002' : c === ',' ? '\u3001' : fullWidth(c, true)));

const FULL_WIDTH: readonly Variant[] = [
  { name: 'everything', apply: (_r, s) => allFull(s) },
  {
    name: 'letters-and-digits',
    apply: (_r, s) => mapChars(s, (c) => (/^[A-Za-z0-9]$/.test(c) ? fullWidth(c, false) : c)),
  },
  {
    name: 'sprinkled',
    apply: (r, s) => {
      const p = 0.3 + 0.4 * r();
      return mapChars(s, (c) => (chance(r, p) ? fullWidth(c, false) : c));
    },
  },
  {
    name: 'alternate-words',
    apply: (r, s) => {
      const parity = words(s).length > 1 ? int(r, 0, 1) : 0;
      return mapWords(s, (w, i) => (i % 2 === parity ? allFull(w) : w));
    },
  },
  {
    name: 'alternate-chars',
    apply: (_r, s) => mapChars(s, (c, i) => (i % 2 === 0 ? fullWidth(c, false) : c)),
  },
  { name: 'ascii-spaces', apply: (_r, s) => allFull(s, false) },
  { name: 'cjk-punctuation', apply: (_r, s) => fullWithCjkPunct(s) },
  {
    name: 'corner-quoted',
    apply: (r, s) => {
      const [open, close] = pick(r, [
        ['\u300c', '\u300d'],
        ['\u3010', '\u3011'],
        ['\u300e', '\u300f'],
      ] as const);
      return open + allFull(s) + close;
    },
  },
  {
    name: 'middle-span',
    apply: (r, s) => {
      const ws = words(s);
      const from = int(r, 0, Math.max(0, ws.length - 1));
      const to = int(r, from + 1, Math.max(from + 1, ws.length));
      return ws.map((w, i) => (i >= from && i < to ? allFull(w) : w)).join(' ');
    },
  },
];

// ---------------------------------------------------------------------------------------------
// html_markdown_comment
// ---------------------------------------------------------------------------------------------

/** `s` inside an HTML comment, padded with spaces or not. */
const htmlComment = (r: Rand, s: string): string => (chance(r, 0.7) ? `<!-- ${s} -->` : `<!--${s}-->`);

/** The words of `s` spread over `n` roughly equal, non-empty pieces (fewer if there are fewer words). */
function splitWords(s: string, n: number): string[] {
  const ws = words(s);
  const k = Math.max(1, Math.min(n, ws.length));
  const size = Math.ceil(ws.length / k);
  const out: string[] = [];
  for (let i = 0; i < ws.length; i += size) out.push(ws.slice(i, i + size).join(' '));
  return out.length > 0 ? out : [''];
}

const HTML_MARKDOWN_COMMENT: readonly Variant[] = [
  { name: 'bare', apply: htmlComment },
  {
    name: 'markdown-doc',
    apply: (r, s) => {
      const title = pick(r, TITLES);
      const [a, b] = coverPair(r);
      return `# ${title}\n\n${a}\n\n${htmlComment(r, s)}\n\n${b}\n`;
    },
  },
  {
    name: 'between-sentences',
    apply: (r, s) => {
      const [a, b] = coverPair(r);
      return `${a} ${htmlComment(r, s)} ${b}`;
    },
  },
  {
    name: 'split-comments',
    apply: (r, s) => {
      const n = int(r, 2, 4);
      const cover = sample(r, COVER, n);
      return splitWords(s, n)
        .map((piece, i) => `${cover[i] ?? ''}\n${htmlComment(r, piece)}`)
        .join('\n\n');
    },
  },
  {
    name: 'md-link-ref',
    apply: (r, s) => {
      const [a] = coverPair(r);
      return `${a}\n\n[//]: # (${s})\n`;
    },
  },
  {
    name: 'md-empty-link',
    apply: (r, s) => `${pick(r, ['[comment]', '[//]', '[_]', '[note]'])}: <> (${s})`,
  },
  {
    name: 'mdx',
    apply: (r, s) => {
      const [a, b] = coverPair(r);
      return `${a}\n\n{/* ${s} */}\n\n${b}`;
    },
  },
  { name: 'conditional', apply: (r, s) => `${pick(r, COVER)}\n<!--[if false]>${s}<![endif]-->` },
  {
    name: 'html-page',
    apply: (r, s) => {
      const title = pick(r, TITLES);
      const [a, b] = coverPair(r);
      return (
        `<!DOCTYPE html>\n<html>\n<head><title>${title}</title></head>\n<body>\n<p>${a}</p>\n` +
        `${htmlComment(r, s)}\n<p>${b}</p>\n</body>\n</html>`
      );
    },
  },
  {
    name: 'multiline',
    apply: (r, s) => {
      const lines = wrapWords(s, int(r, 30, 70));
      return `${pick(r, COVER)}\n\n<!--\n${lines.join('\n')}\n-->`;
    },
  },
];

// ---------------------------------------------------------------------------------------------
// unicode_tags
// ---------------------------------------------------------------------------------------------

const TAG_BEGIN = '\u{E0001}';
const TAG_CANCEL = '\u{E007F}';

/** Printable ASCII moved into the invisible tag block; anything else kept as it is. */
const toTags = (s: string): string =>
  mapChars(s, (c) => {
    const n = cp(c);
    return n >= 0x20 && n <= 0x7e ? String.fromCodePoint(0xe0000 + n) : c;
  });

/** Cover words with the hidden pieces placed after randomly chosen words, in order. */
function scatterInto(r: Rand, cover: string, pieces: readonly string[]): string {
  const ws = words(cover);
  const slots = sample(
    r,
    ws.map((_, i) => i),
    Math.min(pieces.length, ws.length),
  ).sort((a, b) => a - b);
  let k = 0;
  const out = ws.map((w, i) => (slots.includes(i) ? w + (pieces[k++] ?? '') : w));
  const rest = pieces.slice(k).join('');
  return out.join(' ') + rest;
}

const UNICODE_TAGS: readonly Variant[] = [
  { name: 'bare', apply: (_r, s) => toTags(s) },
  { name: 'after-cover', apply: (r, s) => pick(r, COVER) + toTags(s) },
  { name: 'before-cover', apply: (r, s) => toTags(s) + pick(r, COVER) },
  {
    name: 'inside-cover',
    apply: (r, s) => {
      const ws = words(pick(r, COVER));
      const at = int(r, 1, ws.length - 1);
      return `${ws.slice(0, at).join(' ')}${toTags(s)} ${ws.slice(at).join(' ')}`;
    },
  },
  { name: 'begin-cancel', apply: (_r, s) => TAG_BEGIN + toTags(s) + TAG_CANCEL },
  {
    name: 'scattered',
    apply: (r, s) => {
      const cover = pick(r, COVER);
      const pieces = chunkChars(toTags(s), Math.max(1, Math.ceil(chars(s).length / int(r, 2, 5))));
      return scatterInto(r, cover, pieces);
    },
  },
  {
    name: 'emoji-carrier',
    apply: (r, s) => `${pick(r, COVER)} ${pick(r, EMOJI)}${toTags(s)}${chance(r, 0.5) ? TAG_CANCEL : ''}`,
  },
  {
    name: 'json-value',
    apply: (r, s) => JSON.stringify({ [pick(r, KEYS)]: pick(r, COVER) + toTags(s) }),
  },
  {
    name: 'link-text',
    apply: (r, s) => {
      const [host, path] = [pick(r, HOSTS), pick(r, PATHS)];
      return `[${pick(r, TITLES)}${toTags(s)}](https://${host}/${path})`;
    },
  },
  { name: 'visible-spaces', apply: (_r, s) => mapWords(s, toTags) },
];

// ---------------------------------------------------------------------------------------------
// mix_of_two
// ---------------------------------------------------------------------------------------------

/** Single-family building blocks the mixed family combines. */
const BLOCK: Readonly<Record<string, Transform>> = {
  leet: (r, s) => leetWith(r, s, LEET_BASIC),
  zero_width: (r, s) => interleave(s, () => (chance(r, 0.6) ? pick(r, INVISIBLES) : '')),
  homoglyph: (r, s) => swapWith(r, s, CYRILLIC, 0.8),
  spaced: (_r, s) => spaceOut(s, () => ' ', '   '),
  full_width: (_r, s) => allFull(s),
  rot13: (_r, s) => rot13(s),
  url: (_r, s) => pctBytes(s, true),
};

/** A variant applying two building blocks in turn (first, then second). */
function twoOf(first: string, second: string): Variant {
  const f = BLOCK[first];
  const g = BLOCK[second];
  return {
    name: `${first}+${second}`,
    apply: (r, s) => (g === undefined || f === undefined ? s : g(r, f(r, s))),
  };
}

/** Blocks that can each be applied to half of a sentence. */
const HALF_BLOCKS = ['leet', 'homoglyph', 'full_width', 'rot13', 'zero_width', 'spaced'];

/** The first half of the words under one block, the second half under another. */
function halves(r: Rand, s: string): string {
  const [a, b] = sample(r, HALF_BLOCKS, 2);
  const fa = BLOCK[a ?? 'leet'];
  const fb = BLOCK[b ?? 'rot13'];
  const ws = words(s);
  const mid = Math.ceil(ws.length / 2);
  const first = ws.slice(0, mid).join(' ');
  const second = ws.slice(mid).join(' ');
  if (fa === undefined || fb === undefined) return s;
  return second === '' ? fa(r, first) : `${fa(r, first)}   ${fb(r, second)}`;
}

const MIX_OF_TWO: readonly Variant[] = [
  twoOf('leet', 'zero_width'),
  twoOf('homoglyph', 'zero_width'),
  twoOf('spaced', 'full_width'),
  twoOf('leet', 'spaced'),
  twoOf('rot13', 'spaced'),
  twoOf('rot13', 'full_width'),
  twoOf('full_width', 'zero_width'),
  twoOf('homoglyph', 'url'),
  twoOf('leet', 'homoglyph'),
  twoOf('rot13', 'zero_width'),
  { name: 'halves', apply: halves },
];

// ---------------------------------------------------------------------------------------------
// Entry point.
// ---------------------------------------------------------------------------------------------

/** Every family's variants. */
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

/** An optional neutral label line in front of an encoded value (drawn the same way for any input). */
function maybeLead(r: Rand, family: BriefedFamily, out: string): string {
  const encodes = family === 'base64' || family === 'hex' || family === 'nested' || family === 'url_encoding';
  if (!encodes || !chance(r, 0.2)) return out;
  return `${pick(r, LEADS)}${pick(r, [' ', '\n'])}${out}`;
}

/**
 * `text` obfuscated in one variant of `family`, drawn from `r`, with `method` naming that variant.
 * Only characters, bytes, words and whitespace are rewritten; the text is never read for meaning. A
 * variant that happens to leave the text as it was (say, a partial one that found nothing to touch) is
 * set aside and another drawn, a few times at most.
 */
export function obfuscateR(r: Rand, text: string, family: BriefedFamily): { text: string; method: string } {
  let variant = pick(r, VARIANTS[family]);
  let out = variant.apply(r, text);
  for (let tries = 0; out === text && tries < 4; tries++) {
    variant = pick(r, VARIANTS[family]);
    out = variant.apply(r, text);
  }
  return { text: maybeLead(r, family, out), method: `${family}:${variant.name}` };
}
