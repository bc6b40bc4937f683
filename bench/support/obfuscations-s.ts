/**
 * Obfuscation generator S: the nineteenth hand, written independently.
 *
 * Its author worked from two files only, obfuscation-brief.ts (the family names and the byte helpers)
 * and rng.ts (the seeded random helpers), and saw no other generator, detector code or test. The
 * generator is held out: its variants only measure the detector and are never used to tune it. Every
 * choice is drawn from the seeded Rand passed in, so one seed always gives the same output. It is
 * content-blind: it never reads what the text says, it only transforms characters, bytes, words and
 * whitespace, and any cover text or framing around the result is neutral and drawn the same way for
 * every input. It is faithful: the original text can be recovered from every output, exactly or up
 * to case and whitespace where a family inherently loses them.
 */
import { BRIEFED_FAMILIES, type BriefedFamily, hex2, utf8 } from './obfuscation-brief';
import { type Rand, chance, fillEach, int, pick, sample } from './rng';

export const FAMILIES_S = BRIEFED_FAMILIES;

/** One way of writing a family: its name and the function that writes a text that way. */
type Variant = readonly [name: string, write: (r: Rand, text: string) => string];

/** A character table keyed by the character it replaces. */
type Table = Readonly<Record<string, string>>;

// ---------------------------------------------------------------------------------------------
// Neutral pools (drawn the same way whatever the input says)
// ---------------------------------------------------------------------------------------------

const FRAMES = [
  'Reference value:',
  'Value as received:',
  'Copied from the ticket:',
  'Attachment contents:',
  'From the import log:',
  'Field value below.',
  'Sample string:',
  'Forwarded as is:',
] as const;

const COVERS = [
  'Thanks for the update, see you at the meeting.',
  'The quarterly report is attached below.',
  'Weather looks fine for the weekend trip.',
  'Please find the notes from Tuesday here.',
  'Our office will be closed on Monday.',
  'The build finished in about four minutes.',
  'Lunch options are listed on the wiki page.',
  'New parking permits arrive next week.',
] as const;

const DOC_LINES = [
  'The service restarts nightly at 02:00 UTC.',
  'See the wiki for the full list of endpoints.',
  'Version 2.4 fixes the export timeout.',
  'Contact the platform team for access requests.',
  'All times are shown in the local time zone.',
  'Screenshots are stored in the shared drive.',
  'The staging cluster is refreshed every Friday.',
  'Coffee machine on floor three is fixed.',
] as const;

const TITLES = ['Release notes', 'Team handbook', 'Getting started', 'Changelog', 'Meeting notes'] as const;
const KEYS = ['note', 'value', 'data', 'body', 'content', 'payload', 'blob', 'field', 'text', 'msg'] as const;
const VARS = ['s', 'msg', 'data', 'value', 'buf', 'payload', 'txt', 'raw'] as const;
const HOSTS = ['example.com', 'api.example.org', 'static.example.net', 'docs.example.io'] as const;
const PATHS = ['search', 'api/v2/items', 'notes/view', 'share', 'render', 'v1/echo'] as const;
const NICKS = ['mira', 'dev_ops', 'k.tan', 'jules', 'rbarnes', 'sam_w'] as const;
const EMOJI = ['\u{1F600}', '\u{1F44D}', '\u{2728}', '\u{1F4CE}', '\u{1F680}', '\u{2705}'] as const;

/** A time of day as HH:MM. */
const clock = (r: Rand): string =>
  `${String(int(r, 0, 23)).padStart(2, '0')}:${String(int(r, 0, 59)).padStart(2, '0')}`;

/** `body`, alone or after a neutral framing line; the frame and the layout are always drawn. */
const framed = (r: Rand, body: string): string => {
  const frame = pick(r, FRAMES);
  return [`${frame}\n${body}`, `${frame} ${body}`, body, body][int(r, 0, 3)]!;
};

// ---------------------------------------------------------------------------------------------
// Character, word and byte helpers
// ---------------------------------------------------------------------------------------------

/** Code points of `s`, so astral characters stay whole. */
const cps = (s: string): string[] => [...s];

/** `s` with every code point passed through `f`. */
const eachChar = (s: string, f: (c: string) => string): string => cps(s).map(f).join('');

/** The whitespace-separated words of `s`. */
const wordsOf = (s: string): string[] => s.split(/\s+/).filter((w) => w !== '');

/** `s` with every maximal non-space run passed through `f`, its whitespace kept. */
const eachWord = (s: string, f: (w: string) => string): string =>
  s
    .split(/(\s+)/)
    .map((p) => (p === '' || /^\s+$/.test(p) ? p : f(p)))
    .join('');

/** `s` with each word passed through `f` with probability `p`, and always one drawn word. */
const someWords = (r: Rand, s: string, p: number, f: (w: string) => string): string => {
  const forced = int(r, 0, Math.max(0, wordsOf(s).length - 1));
  let i = -1;
  return eachWord(s, (w) => {
    i += 1;
    return i === forced || chance(r, p) ? f(w) : w;
  });
};

/** `s` cut into lines of at most `n` code points. */
const wrap = (s: string, n: number): string => {
  const c = cps(s);
  const lines: string[] = [];
  for (let i = 0; i < c.length; i += n) lines.push(c.slice(i, i + n).join(''));
  return lines.join('\n');
};

/** `s` re-flowed into lines of about `width` characters, breaking only at whitespace. */
const reflow = (s: string, width: number): string => {
  const lines: string[] = [];
  let line = '';
  for (const w of wordsOf(s)) {
    if (line !== '' && line.length + 1 + w.length > width) {
      lines.push(line);
      line = w;
    } else line = line === '' ? w : `${line} ${w}`;
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
};

/** `xs` cut into `k` contiguous parts of nearly equal length (some may be empty). */
const split = <T>(xs: readonly T[], k: number): T[][] => {
  const parts: T[][] = [];
  for (let i = 0; i < k; i++)
    parts.push(xs.slice(Math.floor((i * xs.length) / k), Math.floor(((i + 1) * xs.length) / k)));
  return parts;
};

/** Standard padded base64 of the UTF-8 bytes of `s`. */
const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

/** URL-safe unpadded base64 of the UTF-8 bytes of `s`. */
const b64url = (s: string): string => b64(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** The UTF-8 bytes of `s` in hex, each after `prefix`, joined by `sep`. */
const hexOf = (s: string, upper: boolean, sep = '', prefix = ''): string =>
  utf8(s)
    .map((b) => prefix + hex2(b, upper))
    .join(sep);

/** Every UTF-8 byte of `s` as %XX. */
const pctBytes = (s: string, upper: boolean): string => hexOf(s, upper, '', '%');

/** `s` in single quotes for a POSIX shell. */
const shQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** `s` with the HTML special characters escaped. */
const escHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `c` rotated by `n` within the `size` characters from code `base`, if it lies in that range. */
const rotIn = (c: string, base: number, size: number, n: number): string => {
  const k = c.charCodeAt(0) - base;
  return c.length === 1 && k >= 0 && k < size ? String.fromCharCode(base + ((k + n) % size)) : c;
};

/** ROT13 of the ASCII letters of `s`. */
const rot13 = (s: string): string => eachChar(s, (c) => rotIn(rotIn(c, 65, 26, 13), 97, 26, 13));

/** ROT13 of the letters and ROT5 of the digits of `s`. */
const rot18 = (s: string): string => eachChar(rot13(s), (c) => rotIn(c, 48, 10, 5));

/** ROT47 of the printable ASCII of `s`. */
const rot47 = (s: string): string => eachChar(s, (c) => rotIn(c, 33, 94, 47));

// ---------------------------------------------------------------------------------------------
// leetspeak
// ---------------------------------------------------------------------------------------------

const LEET_CLASSIC: Table = { a: '4', e: '3', i: '1', o: '0', s: '5', t: '7' };
const LEET_DIGITS: Table = { a: '4', b: '8', e: '3', g: '6', i: '1', o: '0', s: '5', t: '7', z: '2' };
const LEET_SYMBOLS: Table = {
  a: '@',
  c: '(',
  e: '3',
  h: '#',
  i: '!',
  l: '|',
  o: '0',
  s: '$',
  t: '+',
  x: '><',
};
const LEET_VOWELS: Table = { a: '4', e: '3', i: '1', o: '0', u: '(_)' };
const LEET_ELITE: Table = {
  a: '/-\\',
  b: '|3',
  c: '(',
  d: '|)',
  e: '3',
  f: '|=',
  g: '6',
  h: '|-|',
  i: '!',
  j: '_|',
  k: '|<',
  l: '|_',
  m: '|\\/|',
  n: '|\\|',
  o: '0',
  p: '|*',
  q: '0_',
  r: '|2',
  s: '5',
  t: '7',
  u: '|_|',
  v: '\\/',
  w: '\\/\\/',
  x: '><',
  y: "'/",
  z: '2',
};
const LEET_ALTS: Readonly<Record<string, readonly string[]>> = {
  a: ['4', '@', '/-\\'],
  b: ['8', '|3'],
  c: ['(', '<'],
  e: ['3', '\u20ac'],
  g: ['9', '6'],
  i: ['1', '!'],
  l: ['|_', '\u00a3'],
  o: ['0', '()'],
  s: ['5', '$'],
  t: ['7', '+'],
  z: ['2'],
};

/** `c` through the lower-case keyed `table` with probability `p`, else unchanged. */
const leetChar = (r: Rand, table: Table, c: string, p = 1): string => {
  const v = table[c.toLowerCase()];
  return v !== undefined && chance(r, p) ? v : c;
};

/** `s` with every character found in `table` replaced. */
const leet = (r: Rand, table: Table, s: string): string => eachChar(s, (c) => leetChar(r, table, c));

const LEETSPEAK: readonly Variant[] = [
  ['classic', (r, t) => leet(r, LEET_CLASSIC, t)],
  ['digits', (r, t) => leet(r, LEET_DIGITS, t)],
  ['symbols', (r, t) => leet(r, LEET_SYMBOLS, t)],
  ['vowels', (r, t) => leet(r, LEET_VOWELS, t)],
  [
    'some_chars',
    (r, t) => {
      const table = pick(r, [LEET_CLASSIC, LEET_DIGITS, LEET_SYMBOLS]);
      const p = 0.3 + 0.5 * r();
      return eachChar(t, (c) => leetChar(r, table, c, p));
    },
  ],
  ['elite', (r, t) => eachChar(t, (c) => leetChar(r, LEET_ELITE, c, 0.85))],
  [
    'alternates',
    (r, t) =>
      eachChar(t, (c) => {
        const alts = LEET_ALTS[c.toLowerCase()];
        return alts === undefined ? c : pick(r, alts);
      }),
  ],
  [
    'studly',
    (r, t) =>
      eachChar(t, (c) => {
        const v = LEET_CLASSIC[c.toLowerCase()];
        if (v !== undefined) return v;
        return /[a-z]/i.test(c) ? (chance(r, 0.5) ? c.toUpperCase() : c.toLowerCase()) : c;
      }),
  ],
  [
    'some_words',
    (r, t) => {
      const table = pick(r, [LEET_CLASSIC, LEET_DIGITS, LEET_ELITE]);
      const p = 0.35 + 0.4 * r();
      return someWords(r, t, p, (w) => leet(r, table, w));
    },
  ],
  ['chat_line', (r, t) => `[${clock(r)}] <${pick(r, NICKS)}> ${leet(r, LEET_DIGITS, t)}`],
  ['shouted', (r, t) => leet(r, pick(r, [LEET_CLASSIC, LEET_DIGITS]), t.toUpperCase())],
];

// ---------------------------------------------------------------------------------------------
// url_encoding
// ---------------------------------------------------------------------------------------------

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** `s` percent-encoded one of two common ways: every byte, or only what a URL component must. */
const pctSome = (r: Rand, s: string): string =>
  chance(r, 0.5) ? pctBytes(s, chance(r, 0.7)) : encodeURIComponent(s);

const URL_ENCODING: readonly Variant[] = [
  ['every_byte_upper', (r, t) => framed(r, pctBytes(t, true))],
  ['every_byte_lower', (r, t) => framed(r, pctBytes(t, false))],
  ['component', (r, t) => framed(r, encodeURIComponent(t))],
  ['form_plus', (r, t) => framed(r, encodeURIComponent(t).replace(/%20/g, '+'))],
  [
    'some_chars',
    (r, t) => {
      const p = 0.4 + 0.5 * r();
      const upper = chance(r, 0.7);
      return eachChar(t, (c) => (UNRESERVED.test(c) && !chance(r, p) ? c : pctBytes(c, upper)));
    },
  ],
  ['double', (r, t) => framed(r, hexOf(t, chance(r, 0.7), '', '%25'))],
  [
    'query_string',
    (r, t) =>
      fillEach(r, 'https://{host}/{path}?{key}={value}&{k2}={v2}', [
        ['host', HOSTS],
        ['path', PATHS],
        ['key', ['q', 'text', 'msg', 'body', 'input']],
        ['value', (rr) => pctSome(rr, t)],
        ['k2', ['lang', 'page', 'ref', 'utm_source']],
        ['v2', ['en', '1', 'home', 'newsletter']],
      ]),
  ],
  [
    'percent_u',
    (r, t) => {
      const upper = chance(r, 0.5);
      let s = '';
      for (let i = 0; i < t.length; i++) {
        const u = t.charCodeAt(i);
        s += `%u${hex2(u >> 8, upper)}${hex2(u & 0xff, upper)}`;
      }
      return s;
    },
  ],
  [
    'alnum_only',
    (r, t) => {
      const upper = chance(r, 0.7);
      return eachChar(t, (c) => (/^[A-Za-z0-9%]$/.test(c) ? pctBytes(c, upper) : c));
    },
  ],
  [
    'http_request',
    (r, t) => {
      const host = pick(r, HOSTS);
      const path = pick(r, PATHS);
      const key = pick(r, KEYS);
      const value = pctSome(r, t);
      if (chance(r, 0.5)) return `GET /${path}?${key}=${value} HTTP/1.1\nHost: ${host}\nAccept: */*`;
      const body = `${key}=${value}`;
      return [
        `POST /${path} HTTP/1.1`,
        `Host: ${host}`,
        'Content-Type: application/x-www-form-urlencoded',
        `Content-Length: ${body.length}`,
        '',
        body,
      ].join('\n');
    },
  ],
  ['data_uri', (r, t) => `data:text/plain;charset=utf-8,${pctSome(r, t)}`],
];

// ---------------------------------------------------------------------------------------------
// zero_width
// ---------------------------------------------------------------------------------------------

const ZWSP = '\u200b';
const ZWNJ = '\u200c';
const ZWJ = '\u200d';
const WJ = '\u2060';
const BOM = '\ufeff';
const ZW_ALL = [ZWSP, ZWNJ, ZWJ, WJ, BOM] as const;

/** `s` with `sep` between every two code points. */
const between = (s: string, sep: string): string => cps(s).join(sep);

/** `s` with a drawn zero-width character before each code point but the first, with probability p. */
const sprinkle = (r: Rand, s: string, p: number, pool: readonly string[] = ZW_ALL): string =>
  cps(s)
    .map((c, i) => (i > 0 && chance(r, p) ? pick(r, pool) + c : c))
    .join('');

const ZERO_WIDTH: readonly Variant[] = [
  ['zwsp_between', (_r, t) => between(t, ZWSP)],
  ['zwnj_between', (_r, t) => between(t, ZWNJ)],
  ['zwj_between', (_r, t) => between(t, ZWJ)],
  ['word_joiner_between', (_r, t) => between(t, WJ)],
  ['random_mix', (r, t) => sprinkle(r, t, 0.3 + 0.6 * r())],
  [
    'inside_words',
    (r, t) => {
      const zw = pick(r, ZW_ALL);
      const k = int(r, 1, 3);
      return eachWord(t, (w) =>
        cps(w)
          .map((c, i) => (i > 0 && i % k === 0 ? zw + c : c))
          .join(''),
      );
    },
  ],
  [
    'clusters',
    (r, t) =>
      cps(t)
        .map((c, i) => {
          if (i === 0 || !chance(r, 0.25)) return c;
          return Array.from({ length: int(r, 2, 5) }, () => pick(r, ZW_ALL)).join('') + c;
        })
        .join(''),
  ],
  ['bom_sprinkle', (r, t) => sprinkle(r, t, 0.2 + 0.3 * r(), [BOM])],
  ['spaces_swapped', (r, t) => t.replace(/ /g, pick(r, [ZWSP, WJ, ZWNJ]))],
  [
    'bits_in_cover',
    (r, t) => {
      const [zero, one, gap] = sample(r, [ZWSP, ZWNJ, ZWJ, WJ], 3) as [string, string, string];
      const hidden = utf8(t)
        .map((b) => b.toString(2).padStart(8, '0').replace(/0/g, zero).replace(/1/g, one))
        .join(gap);
      const ws = pick(r, COVERS).split(' ');
      const at = int(r, 0, ws.length - 1);
      ws[at] += hidden;
      return ws.join(' ');
    },
  ],
];

// ---------------------------------------------------------------------------------------------
// homoglyph
// ---------------------------------------------------------------------------------------------

const HG_CYRILLIC: Table = {
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
const HG_GREEK: Table = {
  a: '\u03b1',
  i: '\u03b9',
  k: '\u03ba',
  o: '\u03bf',
  p: '\u03c1',
  t: '\u03c4',
  u: '\u03c5',
  v: '\u03bd',
  x: '\u03c7',
  y: '\u03b3',
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
const HG_OTHER: Table = {
  a: '\u0251',
  e: '\u212f',
  g: '\u0261',
  h: '\u0570',
  i: '\u0131',
  j: '\u0237',
  l: '\u04cf',
  n: '\u0578',
  o: '\u0585',
  q: '\u0566',
  u: '\u057d',
};
const HG_ROMAN: Table = {
  c: '\u217d',
  d: '\u217e',
  i: '\u2170',
  l: '\u217c',
  m: '\u217f',
  v: '\u2174',
  x: '\u2179',
  C: '\u216d',
  D: '\u216e',
  I: '\u2160',
  L: '\u216c',
  M: '\u216f',
  V: '\u2164',
  X: '\u2169',
};
const SMALL_CAPS: Table = {
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

/** Mathematical alphanumeric styles with no gaps: first code point for A, for a, and for 0 (if any). */
const MATH_STYLES: readonly (readonly [number, number, number | null])[] = [
  [0x1d400, 0x1d41a, 0x1d7ce],
  [0x1d5a0, 0x1d5ba, 0x1d7e2],
  [0x1d5d4, 0x1d5ee, 0x1d7ec],
  [0x1d608, 0x1d622, null],
  [0x1d670, 0x1d68a, 0x1d7f6],
];

/** `s` with its ASCII letters and digits written in the mathematical `style`. */
const mathText = (s: string, style: readonly [number, number, number | null]): string =>
  eachChar(s, (c) => {
    const k = c.charCodeAt(0);
    if (c.length !== 1) return c;
    if (k >= 65 && k <= 90) return String.fromCodePoint(style[0] + k - 65);
    if (k >= 97 && k <= 122) return String.fromCodePoint(style[1] + k - 97);
    if (k >= 48 && k <= 57 && style[2] !== null) return String.fromCodePoint(style[2] + k - 48);
    return c;
  });

/** The look-alikes of `c` found in `tables`. */
const lookalikes = (c: string, tables: readonly Table[]): string[] =>
  tables.map((tb) => tb[c]).filter((v): v is string => v !== undefined);

/** `s` with each character that has a look-alike in `tables` swapped for one, with probability p. */
const swapSome = (r: Rand, s: string, tables: readonly Table[], p: number): string =>
  eachChar(s, (c) => {
    const opts = lookalikes(c, tables);
    return opts.length > 0 && chance(r, p) ? pick(r, opts) : c;
  });

const HOMOGLYPH: readonly Variant[] = [
  ['cyrillic', (r, t) => swapSome(r, t, [HG_CYRILLIC], 1)],
  ['cyrillic_some', (r, t) => swapSome(r, t, [HG_CYRILLIC], 0.25 + 0.5 * r())],
  ['greek', (r, t) => swapSome(r, t, [HG_GREEK], 1)],
  ['mixed_scripts', (r, t) => swapSome(r, t, [HG_CYRILLIC, HG_GREEK, HG_OTHER], 0.5 + 0.5 * r())],
  [
    'one_per_word',
    (r, t) =>
      eachWord(t, (w) => {
        const cs = cps(w);
        const spots = cs.flatMap((c, i) => (lookalikes(c, [HG_CYRILLIC, HG_GREEK]).length > 0 ? [i] : []));
        if (spots.length === 0) return w;
        const i = pick(r, spots);
        cs[i] = pick(r, lookalikes(cs[i]!, [HG_CYRILLIC, HG_GREEK]));
        return cs.join('');
      }),
  ],
  ['math_style', (r, t) => mathText(t, pick(r, MATH_STYLES))],
  ['math_per_word', (r, t) => someWords(r, t, 0.6, (w) => mathText(w, pick(r, MATH_STYLES)))],
  ['small_caps', (_r, t) => eachChar(t.toLowerCase(), (c) => SMALL_CAPS[c] ?? c)],
  ['roman_numerals', (r, t) => eachChar(t, (c) => HG_ROMAN[c] ?? swapSome(r, c, [HG_CYRILLIC], 0.5))],
  ['latin_armenian', (r, t) => swapSome(r, t, [HG_OTHER], 0.6 + 0.4 * r())],
  [
    'link_label',
    (r, t) =>
      `[${swapSome(r, t, [HG_CYRILLIC, HG_GREEK], 0.7)}](https://${pick(r, HOSTS)}/${pick(r, PATHS)})`,
  ],
];

// ---------------------------------------------------------------------------------------------
// spaced_letters
// ---------------------------------------------------------------------------------------------

/** The words of `s` with `sep` between their code points and `gap` between words. */
const spaceOut = (s: string, sep: string, gap: string): string =>
  wordsOf(s)
    .map((w) => between(w, sep))
    .join(gap);

const MIXED_SEPS = ['.', '-', '_', '*', ' ', '~'] as const;

const SPACED_LETTERS: readonly Variant[] = [
  ['spaces', (r, t) => spaceOut(t, ' ', pick(r, ['   ', '  ', ' / ', ' | ', '    ']))],
  ['hyphens', (r, t) => spaceOut(t, '-', pick(r, [' ', '  ', ' / ']))],
  ['dots', (r, t) => spaceOut(t, '.', pick(r, [' ', '  ', '   ']))],
  ['underscores', (r, t) => spaceOut(t, '_', pick(r, [' ', '   ', ' | ']))],
  [
    'symbol_sep',
    (r, t) => {
      const s = pick(r, ['*', '|', '/', '~', '+', '\u00b7', '\u2022', ',']);
      return spaceOut(t, s, pick(r, ['  ', '   ', ` ${s}${s} `]));
    },
  ],
  [
    'vertical',
    (r, t) =>
      wordsOf(t)
        .map((w) => between(w, '\n'))
        .join(pick(r, ['\n\n', '\n \n', '\n/\n'])),
  ],
  [
    'bracketed',
    (r, t) => {
      const [open, close] = pick(r, [
        ['[', ']'],
        ['(', ')'],
        ['{', '}'],
        ['<', '>'],
        ['"', '"'],
      ] as const);
      const join = pick(r, ['', ' ']);
      return wordsOf(t)
        .map((w) =>
          cps(w)
            .map((c) => open + c + close)
            .join(join),
        )
        .join('   ');
    },
  ],
  [
    'char_array',
    (r, t) => {
      const v = pick(r, VARS);
      const items = split(
        cps(t).map((c) => JSON.stringify(c)),
        Math.max(1, Math.ceil(cps(t).length / 12)),
      )
        .map((row) => `  ${row.join(', ')},`)
        .join('\n');
      return pick(r, [
        `const ${v} = [\n${items}\n];\nconsole.log(${v}.join(''));`,
        `${v} = [\n${items}\n]\nprint(''.join(${v}))`,
        `{\n  "${v}": [\n${items.replace(/,$/, '')}\n  ]\n}`,
      ]);
    },
  ],
  [
    'some_words',
    (r, t) => {
      const sep = pick(r, [' ', '.', '-', '*']);
      const p = 0.3 + 0.5 * r();
      return someWords(r, t, p, (w) => between(w, sep));
    },
  ],
  ['upper_spaced', (r, t) => spaceOut(t.toUpperCase(), ' ', pick(r, ['   ', '  /  ', '    ']))],
  [
    'mixed_seps',
    (r, t) =>
      wordsOf(t)
        .map((w) =>
          cps(w)
            .map((c, i) => (i === 0 ? c : pick(r, MIXED_SEPS) + c))
            .join(''),
        )
        .join('   '),
  ],
];

// ---------------------------------------------------------------------------------------------
// base64
// ---------------------------------------------------------------------------------------------

/** A small neutral JSON record holding `value` under a drawn key, compact or pretty. */
const jsonRecord = (r: Rand, value: string, encoding: string): string => {
  const rec = { id: int(r, 1000, 99999), encoding, [pick(r, KEYS)]: value };
  return JSON.stringify(rec, null, pick(r, [0, 2]));
};

const PEM_LABELS = ['DATA', 'MESSAGE', 'ATTACHMENT', 'BLOB'] as const;
const SPAN_MARKS = [
  ['`', '`'],
  ['[', ']'],
  ['(b64: ', ')'],
  ['<<', '>>'],
  ['{{', '}}'],
] as const;

const BASE64: readonly Variant[] = [
  ['plain', (r, t) => framed(r, b64(t))],
  [
    'wrapped',
    (r, t) => {
      const body = wrap(b64(t), pick(r, [64, 76]));
      const label = pick(r, PEM_LABELS);
      return chance(r, 0.5) ? `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----` : body;
    },
  ],
  ['url_safe', (r, t) => framed(r, b64url(t))],
  ['json_field', (r, t) => jsonRecord(r, b64(t), 'base64')],
  [
    'data_uri',
    (r, t) => {
      const uri = `data:text/plain;base64,${b64(t)}`;
      const label = pick(r, ['attachment', 'notes.txt', 'download', 'view']);
      return pick(r, [uri, `<a href="${uri}">${label}</a>`, `[${label}](${uri})`]);
    },
  ],
  [
    'mime_part',
    (r, t) => {
      const boundary = `----=_Part_${int(r, 100000, 999999)}`;
      return [
        `Content-Type: multipart/mixed; boundary="${boundary}"`,
        '',
        `--${boundary}`,
        'Content-Type: text/plain; charset="UTF-8"',
        'Content-Transfer-Encoding: base64',
        '',
        wrap(b64(t), 76),
        `--${boundary}--`,
      ].join('\n');
    },
  ],
  [
    'encoded_word',
    (r, t) => {
      const chunks = split(cps(t), Math.max(1, Math.ceil(cps(t).length / int(r, 20, 40))));
      const words = chunks.map((c) => `=?UTF-8?B?${b64(c.join(''))}?=`);
      return `${pick(r, ['Subject', 'X-Note', 'Comments'])}: ${words.join('\n ')}`;
    },
  ],
  [
    'per_word',
    (r, t) =>
      wordsOf(t)
        .map(b64)
        .join(pick(r, [' ', '\n', ' . '])),
  ],
  [
    'span_only',
    (r, t) => {
      const ws = wordsOf(t);
      const a = int(r, 0, Math.max(0, ws.length - 1));
      const b = int(r, a + 1, ws.length);
      const [open, close] = pick(r, SPAN_MARKS);
      return [...ws.slice(0, a), `${open}${b64(ws.slice(a, b).join(' '))}${close}`, ...ws.slice(b)].join(' ');
    },
  ],
  [
    'code_call',
    (r, t) => {
      const v = pick(r, VARS);
      const s = b64(t);
      return pick(r, [
        `import base64\n${v} = base64.b64decode('${s}').decode('utf-8')`,
        `echo '${s}' | base64 --decode`,
        `const ${v} = Buffer.from('${s}', 'base64').toString('utf8');`,
        `${v}=$(printf %s '${s}' | base64 -d)`,
      ]);
    },
  ],
  [
    'yaml_binary',
    (r, t) => {
      const key = pick(r, KEYS);
      const body = wrap(b64(t), pick(r, [60, 72]))
        .split('\n')
        .map((l) => `    ${l}`)
        .join('\n');
      return `version: ${int(r, 1, 3)}\nitem:\n  ${key}: !!binary |\n${body}`;
    },
  ],
  ['utf16le', (r, t) => framed(r, Buffer.from(t, 'utf16le').toString('base64'))],
];

// ---------------------------------------------------------------------------------------------
// hex
// ---------------------------------------------------------------------------------------------

/** The bytes as rows of 16 after an eight-digit offset, a wider gap after the eighth byte. */
const dumpRows = (bytes: readonly number[], upper: boolean): string => {
  const rows: string[] = [];
  for (let i = 0; i < bytes.length; i += 16) {
    const row = bytes.slice(i, i + 16).map((b) => hex2(b, upper));
    const right = row.slice(8).join(' ');
    const cells = right === '' ? row.join(' ') : `${row.slice(0, 8).join(' ')}  ${right}`;
    rows.push(`${i.toString(16).padStart(8, '0')}  ${cells}`);
  }
  return rows.join('\n');
};

const HEX: readonly Variant[] = [
  ['compact', (r, t) => framed(r, hexOf(t, chance(r, 0.3)))],
  ['spaced_bytes', (r, t) => framed(r, hexOf(t, chance(r, 0.6), ' '))],
  [
    'backslash_x',
    (r, t) => {
      const s = hexOf(t, chance(r, 0.4), '', '\\x');
      return pick(r, [`"${s}"`, `b'${s}'`, `printf '${s}'`, `echo -e "${s}"`]);
    },
  ],
  [
    'c_array',
    (r, t) => {
      const type = pick(r, ['static const unsigned char', 'const uint8_t', 'unsigned char']);
      const bytes = utf8(t).map((b) => `0x${hex2(b, chance(r, 0.5))}`);
      const rows = split(bytes, Math.max(1, Math.ceil(bytes.length / 12))).map((x) => `  ${x.join(', ')}`);
      return `${type} ${pick(r, VARS)}[] = {\n${rows.join(',\n')}\n};`;
    },
  ],
  ['dump_rows', (r, t) => dumpRows(utf8(t), chance(r, 0.3))],
  ['colon_pairs', (r, t) => hexOf(t, chance(r, 0.5), pick(r, [':', '-']))],
  [
    'per_word',
    (r, t) =>
      wordsOf(t)
        .map((w) => hexOf(w, chance(r, 0.3)))
        .join(pick(r, [' ', ' | ', '  '])),
  ],
  [
    'u_escapes',
    (r, t) => {
      const upper = chance(r, 0.5);
      let s = '';
      for (let i = 0; i < t.length; i++) s += `\\u${t.charCodeAt(i).toString(16).padStart(4, '0')}`;
      return `"${upper ? s.replace(/[a-f]/g, (c) => c.toUpperCase()) : s}"`;
    },
  ],
  [
    'html_hex_refs',
    (r, t) => {
      const x = pick(r, ['x', 'X']);
      return eachChar(t, (c) => `&#${x}${c.codePointAt(0)!.toString(16)};`);
    },
  ],
  ['json_field', (r, t) => jsonRecord(r, hexOf(t, chance(r, 0.2)), 'hex')],
  [
    'python_fromhex',
    (r, t) =>
      `${pick(r, VARS)} = bytes.fromhex('${hexOf(t, chance(r, 0.3), pick(r, ['', ' ']))}').decode('utf-8')`,
  ],
  ['wrapped_lines', (r, t) => wrap(hexOf(t, chance(r, 0.4)), pick(r, [32, 48, 60, 64]))],
];

// ---------------------------------------------------------------------------------------------
// rot13
// ---------------------------------------------------------------------------------------------

const ROT13: readonly Variant[] = [
  ['plain', (_r, t) => rot13(t)],
  ['upper', (r, t) => framed(r, rot13(t.toUpperCase()))],
  ['some_words', (r, t) => someWords(r, t, 0.5, rot13)],
  ['rot47', (r, t) => framed(r, rot47(t))],
  ['rot18', (r, t) => framed(r, rot18(t))],
  [
    'spoiler',
    (r, t) => {
      const s = rot13(t);
      return pick(r, [`>!${s}!<`, `||${s}||`, `[spoiler]${s}[/spoiler]`]);
    },
  ],
  ['usenet', (r, t) => `${pick(r, ['', '[rot13]\n', 'ROT13:\n'])}${reflow(rot13(t), pick(r, [50, 60, 72]))}`],
  [
    'python_codecs',
    (r, t) =>
      `import codecs\n${pick(r, VARS)} = codecs.decode(${JSON.stringify(rot13(t))}, ${pick(r, [
        "'rot13'",
        "'rot_13'",
      ])})`,
  ],
  ['shell_tr', (_r, t) => `echo ${shQuote(rot13(t))} | tr 'A-Za-z' 'N-ZA-Mn-za-m'`],
  [
    'five_groups',
    (r, t) => {
      const groups = wrap(rot13(t).replace(/\s+/g, ''), 5).split('\n');
      const perLine = pick(r, [6, 8, 10]);
      return split(groups, Math.max(1, Math.ceil(groups.length / perLine)))
        .map((g) => g.join(' '))
        .join('\n');
    },
  ],
];

// ---------------------------------------------------------------------------------------------
// nested
// ---------------------------------------------------------------------------------------------

const NESTED: readonly Variant[] = [
  ['base64_of_hex', (r, t) => framed(r, b64(hexOf(t, chance(r, 0.3))))],
  ['hex_of_base64', (r, t) => framed(r, hexOf(b64(t), chance(r, 0.3), pick(r, ['', ' '])))],
  ['base64_of_rot13', (r, t) => framed(r, b64(rot13(t)))],
  ['rot13_of_base64', (r, t) => framed(r, rot13(b64(t)))],
  [
    'base64_layers',
    (r, t) => {
      let s = t;
      for (let n = int(r, 2, 3); n > 0; n--) s = b64(s);
      return framed(r, s);
    },
  ],
  ['percent_of_base64', (r, t) => framed(r, pctBytes(b64(t), chance(r, 0.6)))],
  ['base64_of_percent', (r, t) => framed(r, b64(pctSome(r, t)))],
  ['reversed_base64', (r, t) => framed(r, cps(b64(t)).reverse().join(''))],
  ['hex_of_base64_of_rot13', (r, t) => framed(r, hexOf(b64(rot13(t)), chance(r, 0.3)))],
  ['hex_of_rot13', (r, t) => framed(r, hexOf(rot13(t), chance(r, 0.3), ' '))],
  ['base64_json_base64', (r, t) => framed(r, b64(JSON.stringify({ [pick(r, KEYS)]: b64(t) })))],
];

// ---------------------------------------------------------------------------------------------
// full_width
// ---------------------------------------------------------------------------------------------

/** `c` in its full-width form (space as an ideographic space when `ideo`), else unchanged. */
const fwChar = (c: string, ideo: boolean): string => {
  const k = c.charCodeAt(0);
  if (c === ' ') return ideo ? '\u3000' : ' ';
  return c.length === 1 && k >= 0x21 && k <= 0x7e ? String.fromCharCode(k + 0xfee0) : c;
};

/** `s` entirely in full-width forms. */
const fw = (s: string, ideo: boolean): string => eachChar(s, (c) => fwChar(c, ideo));

const FULL_WIDTH: readonly Variant[] = [
  ['ideographic_space', (_r, t) => fw(t, true)],
  ['ascii_space', (_r, t) => fw(t, false)],
  ['letters_only', (_r, t) => eachChar(t, (c) => (/^[A-Za-z]$/.test(c) ? fwChar(c, false) : c))],
  ['some_words', (r, t) => someWords(r, t, 0.5, (w) => fw(w, false))],
  [
    'some_chars',
    (r, t) => {
      const p = 0.3 + 0.5 * r();
      return eachChar(t, (c) => (chance(r, p) ? fwChar(c, false) : c));
    },
  ],
  ['upper', (r, t) => fw(t.toUpperCase(), chance(r, 0.5))],
  [
    'vaporwave',
    (r, t) =>
      wordsOf(t)
        .map((w) => between(fw(w, false), ' '))
        .join(pick(r, ['   ', '\u3000\u3000', '    '])),
  ],
  [
    'cjk_brackets',
    (r, t) => {
      const [open, close] = pick(r, [
        ['\u300c', '\u300d'],
        ['\u3010', '\u3011'],
        ['\u300e', '\u300f'],
      ] as const);
      return framed(r, `${open}${fw(t, chance(r, 0.5))}${close}`);
    },
  ],
  ['wrapped', (r, t) => wrap(fw(t, true), int(r, 16, 36))],
  [
    'table_cell',
    (r, t) => {
      const [h1, h2] = pick(r, [
        ['Field', 'Value'],
        ['Item', 'Description'],
        ['Key', 'Text'],
      ] as const);
      return `| ${h1} | ${h2} |\n| --- | --- |\n| ${pick(r, KEYS)} | ${fw(t, false)} |`;
    },
  ],
];

// ---------------------------------------------------------------------------------------------
// html_markdown_comment
// ---------------------------------------------------------------------------------------------

/** Two distinct neutral document lines. */
const twoLines = (r: Rand): [string, string] => sample(r, DOC_LINES, 2) as [string, string];

const HTML_MARKDOWN_COMMENT: readonly Variant[] = [
  [
    'bare',
    (r, t) => {
      const pad = pick(r, [' ', '', '\n']);
      return `<!--${pad}${t}${pad}-->`;
    },
  ],
  [
    'in_html_page',
    (r, t) => {
      const title = pick(r, TITLES);
      const [l1, l2] = twoLines(r);
      const comment = `<!-- ${t} -->`;
      const inHead = chance(r, 0.4);
      return [
        '<!DOCTYPE html>',
        '<html>',
        '<head>',
        `  <title>${title}</title>`,
        ...(inHead ? [`  ${comment}`] : []),
        '</head>',
        '<body>',
        `  <h1>${title}</h1>`,
        `  <p>${l1}</p>`,
        ...(inHead ? [] : [`  ${comment}`]),
        `  <p>${l2}</p>`,
        '</body>',
        '</html>',
      ].join('\n');
    },
  ],
  [
    'md_link_ref',
    (r, t) => {
      const [l1, l2] = twoLines(r);
      const quoted = chance(r, 0.5);
      const refs = t.split('\n').map((l) => (quoted ? `[//]: # "${l}"` : `[//]: # (${l})`));
      return `# ${pick(r, TITLES)}\n\n${l1}\n\n${refs.join('\n')}\n\n${l2}`;
    },
  ],
  [
    'md_empty_link',
    (r, t) => {
      const label = pick(r, ['comment', '_', 'note', 'hidden']);
      const [l1, l2] = twoLines(r);
      const refs = t.split('\n').map((l) => `[${label}]: <> (${l})`);
      return `${l1}\n\n${refs.join('\n')}\n\n${l2}`;
    },
  ],
  [
    'split_comments',
    (r, t) => {
      const ws = wordsOf(t);
      const k = Math.max(1, Math.min(ws.length, int(r, 2, 4)));
      const lines = sample(r, DOC_LINES, 4);
      return split(ws, k)
        .map((part, i) => `${lines[i]!}\n<!-- ${part.join(' ')} -->`)
        .join('\n\n');
    },
  ],
  [
    'conditional',
    (r, t) => {
      const cond = pick(r, ['IE', 'mso', 'gte mso 9', 'lt IE 9']);
      const pad = pick(r, [' ', '\n']);
      return `<!--[if ${cond}]>${pad}${t}${pad}<![endif]-->`;
    },
  ],
  [
    'multiline_block',
    (r, t) => {
      const [l1, l2] = twoLines(r);
      const indent = pick(r, ['', '  ', '    ']);
      const body = reflow(t, pick(r, [40, 60, 80]))
        .split('\n')
        .map((l) => indent + l)
        .join('\n');
      return `## ${pick(r, TITLES)}\n\n${l1}\n\n<!--\n${body}\n-->\n\n${l2}`;
    },
  ],
  [
    'list_item',
    (r, t) => {
      const [l1, l2] = twoLines(r);
      const l3 = pick(r, COVERS);
      const bullet = pick(r, ['-', '*', '1.']);
      return `${bullet} ${l1}\n${bullet} ${l2} <!-- ${t} -->\n${bullet} ${l3}`;
    },
  ],
  [
    'hidden_element',
    (r, t) => {
      const [l1, l2] = twoLines(r);
      const tag = pick(r, ['div', 'span', 'p']);
      const attr = pick(r, [
        'hidden',
        'style="display:none"',
        'aria-hidden="true" style="display: none;"',
        'style="font-size:0;color:transparent"',
      ]);
      return `<p>${l1}</p>\n<${tag} ${attr}>${escHtml(t)}</${tag}>\n<p>${l2}</p>`;
    },
  ],
  [
    'mdx_comment',
    (r, t) => {
      const [l1, l2] = twoLines(r);
      return `${l1}\n\n{/* ${t} */}\n\n${l2}`;
    },
  ],
  [
    'fenced_html',
    (r, t) => {
      const [l1, l2] = twoLines(r);
      return `${l1}\n\n\`\`\`html\n<!-- ${t} -->\n<p>${l2}</p>\n\`\`\``;
    },
  ],
];

// ---------------------------------------------------------------------------------------------
// unicode_tags
// ---------------------------------------------------------------------------------------------

/** `c` as a Unicode tag character if it is ASCII, else unchanged. */
const tagOf = (c: string): string => {
  const k = c.codePointAt(0)!;
  return k < 0x80 ? String.fromCodePoint(0xe0000 + k) : c;
};

/** `s` written in Unicode tag characters. */
const tagged = (s: string): string => eachChar(s, tagOf);

/** The UTF-8 bytes of `s` as variation selectors. */
const selectors = (s: string): string =>
  utf8(s)
    .map((b) => String.fromCodePoint(b < 16 ? 0xfe00 + b : 0xe0100 + b - 16))
    .join('');

const UNICODE_TAGS: readonly Variant[] = [
  ['bare', (_r, t) => tagged(t)],
  ['after_cover', (r, t) => `${pick(r, COVERS)}${tagged(t)}`],
  ['before_cover', (r, t) => `${tagged(t)}${pick(r, COVERS)}`],
  [
    'language_wrapped',
    (r, t) => {
      const cover = pick(r, COVERS);
      return `${chance(r, 0.5) ? cover : ''}\u{e0001}${tagged(t)}\u{e007f}`;
    },
  ],
  ['emoji_flag', (r, t) => `${pick(r, COVERS)} \u{1f3f4}${tagged(t)}\u{e007f}`],
  [
    'interleaved',
    (r, t) => {
      const ws = pick(r, COVERS).split(' ');
      const parts = split(cps(tagged(t)), Math.min(ws.length, int(r, 2, 4)));
      return ws.map((w, i) => w + (parts[i]?.join('') ?? '')).join(' ');
    },
  ],
  ['letters_only', (_r, t) => eachChar(t, (c) => (/^[A-Za-z0-9]$/.test(c) ? tagOf(c) : c))],
  ['chat_message', (r, t) => `[${clock(r)}] <${pick(r, NICKS)}> ${pick(r, COVERS)}${tagged(t)}`],
  ['variation_selectors', (r, t) => `${pick(r, EMOJI)}${selectors(t)}`],
  [
    'code_string',
    (r, t) => {
      const label = pick(r, ['Settings', 'Save', 'Welcome', 'OK', 'Next']);
      return `const ${pick(r, VARS)} = '${label}${tagged(t)}';`;
    },
  ],
];

// ---------------------------------------------------------------------------------------------
// mix_of_two
// ---------------------------------------------------------------------------------------------

const MIX_OF_TWO: readonly Variant[] = [
  ['leet_spaced', (r, t) => spaceOut(leet(r, LEET_DIGITS, t), pick(r, [' ', '.', '-']), '   ')],
  ['homoglyph_zero_width', (r, t) => sprinkle(r, swapSome(r, t, [HG_CYRILLIC], 0.7), 0.5)],
  ['full_width_zero_width', (r, t) => between(fw(t, chance(r, 0.5)), pick(r, ZW_ALL))],
  ['rot13_spaced', (r, t) => spaceOut(rot13(t), pick(r, [' ', '.', '_']), pick(r, ['   ', ' / ']))],
  ['rot13_homoglyph', (r, t) => swapSome(r, rot13(t), [HG_CYRILLIC, HG_GREEK], 0.6)],
  ['leet_zero_width', (r, t) => between(leet(r, LEET_CLASSIC, t), pick(r, [ZWSP, ZWNJ, WJ]))],
  [
    'homoglyph_percent',
    (r, t) => {
      const base = `https://${pick(r, HOSTS)}/${pick(r, PATHS)}`;
      return `${base}?q=${encodeURIComponent(swapSome(r, t, [HG_CYRILLIC], 0.6))}`;
    },
  ],
  [
    'hex_base64_halves',
    (r, t) => {
      const ws = wordsOf(t);
      const mid = int(r, Math.min(1, ws.length), Math.max(0, ws.length - 1));
      const [a, b] = [ws.slice(0, mid).join(' '), ws.slice(mid).join(' ')];
      const first = chance(r, 0.5);
      const left = first ? hexOf(a, false) : b64(a);
      const right = first ? b64(b) : hexOf(b, false);
      return `${left}${pick(r, [' ', '\n', ' + '])}${right}`;
    },
  ],
  ['full_width_leet', (r, t) => fw(leet(r, LEET_CLASSIC, t), false)],
  ['comment_homoglyph', (r, t) => `<!-- ${swapSome(r, t, [HG_CYRILLIC, HG_GREEK], 0.6)} -->`],
  ['tags_rot13', (r, t) => `${pick(r, COVERS)}${tagged(rot13(t))}`],
  [
    'base64_zero_width',
    (r, t) => {
      const zw = pick(r, ZW_ALL);
      const n = int(r, 1, 4);
      return cps(b64(t))
        .map((c, i) => (i > 0 && i % n === 0 ? zw + c : c))
        .join('');
    },
  ],
];

// ---------------------------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------------------------

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

/** `text` obfuscated in `family` by one variant drawn from `r`; `method` names the variant. */
export function obfuscateS(r: Rand, text: string, family: BriefedFamily): { text: string; method: string } {
  const [name, write] = pick(r, VARIANTS[family]);
  return { text: write(r, text), method: `${family}/${name}` };
}
