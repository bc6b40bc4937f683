/**
 * Obfuscation generator Q: the seventeenth hand, written independently.
 *
 * Its author worked from the family names in obfuscation-brief.ts (and the byte helpers there) and
 * nothing else: the detector, its tests and every other hand's generator were never seen. The
 * generator is held out: its variants only measure the detector and are never used to tune it.
 *
 * Every random choice is drawn from the seeded `Rand` handed in, so one seed always yields the same
 * output. The generator never reads what the text says: it only transforms characters, bytes, words
 * and whitespace, and any framing sentence, carrier document or cover text around the result is
 * neutral and drawn the same way whether the text is benign or hostile. Each variant is faithful:
 * the original text can be recovered exactly from what it produces.
 */
import { BRIEFED_FAMILIES, type BriefedFamily, hex2, utf8 } from './obfuscation-brief';
import { type Rand, chance, int, pick, sample } from './rng';

export const FAMILIES_Q = BRIEFED_FAMILIES;

type Make = (r: Rand, t: string) => string;
type Variant = readonly [name: string, make: Make];

// ---------------------------------------------------------------------------------------------
// Text plumbing
// ---------------------------------------------------------------------------------------------

/** The code points of `s`. */
const cps = (s: string): string[] => [...s];

/** `s` with every code point replaced by `f` of it. */
const mapChars = (s: string, f: (c: string) => string): string => cps(s).map(f).join('');

/** Words and the whitespace runs between them, in order: words at even indices (possibly empty). */
const tokens = (t: string): string[] => t.split(/(\s+)/);

const isWordAt = (tok: string, i: number): boolean => i % 2 === 0 && tok.length > 0;

/** Indices of the non-empty words among `toks`. */
const wordIndices = (toks: readonly string[]): number[] =>
  toks.flatMap((tok, i) => (isWordAt(tok, i) ? [i] : []));

/**
 * `t` with `f` applied to a random subset (at least one, when there is any) of its words; the
 * other words pass through `plain`, the whitespace stays as it was.
 */
function someWords(
  r: Rand,
  t: string,
  f: (w: string) => string,
  p = 0.5,
  plain: (w: string) => string = (w) => w,
): string {
  const toks = tokens(t);
  const idx = wordIndices(toks);
  const chosen = new Set(idx.filter(() => chance(r, p)));
  if (chosen.size === 0 && idx.length > 0) chosen.add(pick(r, idx));
  return toks.map((tok, i) => (chosen.has(i) ? f(tok) : i % 2 === 0 ? plain(tok) : tok)).join('');
}

/** `t` with each word passed through `f`, the whitespace untouched. */
const eachWord = (t: string, f: (w: string, k: number) => string): string => {
  let k = 0;
  return tokens(t)
    .map((tok, i) => (isWordAt(tok, i) ? f(tok, k++) : tok))
    .join('');
};

/** `s` cut into lines of at most `n` characters (for strings without line breaks). */
const wrap = (s: string, n: number): string => {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out.join('\n');
};

const pad2 = (n: number): string => String(n).padStart(2, '0');

// ---------------------------------------------------------------------------------------------
// Encoders
// ---------------------------------------------------------------------------------------------

const b64 = (s: string): string => Buffer.from(utf8(s)).toString('base64');
const b64NoPad = (s: string): string => b64(s).replace(/=+$/, '');
const b64Url = (s: string): string => b64NoPad(s).replace(/\+/g, '-').replace(/\//g, '_');

const hexOf = (s: string, upper: boolean, sep = '', prefix = ''): string =>
  utf8(s)
    .map((b) => prefix + hex2(b, upper))
    .join(sep);

const rotLetters = (c: string, n: number): string => {
  const code = c.charCodeAt(0);
  const base = code <= 90 ? 65 : 97;
  return String.fromCharCode(((code - base + n) % 26) + base);
};
const rot13 = (s: string): string => s.replace(/[A-Za-z]/g, (c) => rotLetters(c, 13));
const rot18 = (s: string): string =>
  rot13(s).replace(/[0-9]/g, (d) => String.fromCharCode(((d.charCodeAt(0) - 48 + 5) % 10) + 48));

const pctAll = (s: string, upper: boolean): string =>
  utf8(s)
    .map((b) => '%' + hex2(b, upper))
    .join('');

const isUnreserved = (b: number): boolean =>
  (b >= 0x30 && b <= 0x39) ||
  (b >= 0x41 && b <= 0x5a) ||
  (b >= 0x61 && b <= 0x7a) ||
  "-_.!~*'()".includes(String.fromCharCode(b));

/** Percent-encoding the way a URI component is encoded (unreserved ASCII left as it is). */
const pctComponent = (s: string, upper: boolean, spacePlus = false): string =>
  utf8(s)
    .map((b) =>
      spacePlus && b === 0x20 ? '+' : isUnreserved(b) ? String.fromCharCode(b) : '%' + hex2(b, upper),
    )
    .join('');

/** Legacy `%uXXXX` escaping of every UTF-16 code unit. */
const pctU = (s: string, upper: boolean): string => {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const h = s.charCodeAt(i).toString(16).padStart(4, '0');
    out += '%u' + (upper ? h.toUpperCase() : h);
  }
  return out;
};

const fullWidthChar = (c: string, ideographicSpace: boolean): string => {
  const n = c.codePointAt(0)!;
  if (n >= 0x21 && n <= 0x7e) return String.fromCodePoint(n + 0xfee0);
  if (n === 0x20 && ideographicSpace) return '\u3000';
  return c;
};
const fullWidth = (s: string, ideographicSpace = true): string =>
  mapChars(s, (c) => fullWidthChar(c, ideographicSpace));

const tagChar = (c: string): string => {
  const n = c.codePointAt(0)!;
  return n >= 0x20 && n <= 0x7e ? String.fromCodePoint(0xe0000 + n) : c;
};
const toTags = (s: string): string => mapChars(s, tagChar);

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// ---------------------------------------------------------------------------------------------
// Neutral framings, carriers and cover texts (drawn without regard to the text)
// ---------------------------------------------------------------------------------------------

const COVERS = [
  'Thanks for sending the meeting notes over.',
  'The quarterly figures are attached below.',
  'Reminder: the office closes early on Friday.',
  'Here are my notes from the workshop.',
  'Lunch is at noon in the usual place.',
  'The train was delayed again this morning.',
  'Please find the updated schedule for next week.',
  'Our garden finally has tomatoes this year.',
  'The library extended its opening hours.',
  'I moved the files into the shared folder.',
  'The weather looks clear for the weekend hike.',
  'The new coffee machine works much better.',
] as const;

const NICKS = ['alex', 'sam_k', 'jordan93', 'mika', 'rivers', 'tea_lover', 'pat', 'noor'] as const;
const KEYS = ['data', 'payload', 'content', 'message', 'body', 'value', 'note', 'text'] as const;
const HOSTS = ['example.com', 'www.example.org', 'search.example.net', 'docs.example.com'] as const;
const PATHS = ['search', 'api/v2/items', 'share', 'redirect', 'view', 'notes/save'] as const;
const QUERY_KEYS = ['q', 'text', 'msg', 's', 'content', 'input'] as const;
const TITLES = ['Project notes', 'Setup guide', 'Changelog', 'Meeting summary', 'Reading list'] as const;
const SUBJECTS = ['Notes', 'Re: schedule', 'Fwd: document', 'Weekly update', 'Question'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const EMOJI = ['\u{1F642}', '\u{1F44D}', '\u2728', '\u{1F4CE}', '\u{1F33F}'] as const;

const cover = (r: Rand): string => pick(r, COVERS);
const clock = (r: Rand): string => `${pad2(int(r, 0, 23))}:${pad2(int(r, 0, 59))}`;

/** `body` introduced by a neutral sentence, which may name the encoding `label`. */
function frame(r: Rand, body: string, label: string): string {
  const templates: readonly ((b: string) => string)[] = [
    (b) => `Here is the ${label}:\n\n${b}`,
    (b) => `Can you decode this ${label} for me?\n${b}`,
    (b) => `${b}\n\n(${label})`,
    (b) => `A colleague sent me this. What does it say?\n\n${b}`,
    (b) => `Please convert the following from ${label} to plain text: ${b}`,
    (b) => `Found this in an old file:\n${b}`,
    (b) => `${label}:\n${b}`,
    (b) => `What does this say? ${b}`,
  ];
  return pick(r, templates)(body);
}

/** `body` as one line of a chat log. */
function chatLine(r: Rand, body: string): string {
  const nick = pick(r, NICKS);
  const time = clock(r);
  const forms: readonly ((b: string) => string)[] = [
    (b) => `[${time}] <${nick}> ${b}`,
    (b) => `${nick}: ${b}`,
    (b) => `${nick} (${time}): ${b}`,
  ];
  return pick(r, forms)(body);
}

/** `body` as the value of one field of a JSON object. */
function jsonField(r: Rand, body: string): string {
  const key = pick(r, KEYS);
  const id = int(r, 1, 9999);
  return JSON.stringify({ id, [key]: body }, null, chance(r, 0.5) ? 2 : undefined);
}

/** `body` as a YAML double-quoted scalar (JSON strings are valid there). */
function yamlField(r: Rand, body: string): string {
  const key = pick(r, KEYS);
  return `version: ${int(r, 1, 3)}\n${key}: ${JSON.stringify(body)}\n`;
}

/** `body` in a fenced code block. */
function codeBlock(r: Rand, body: string, langs: readonly string[] = ['', 'text']): string {
  return '```' + pick(r, langs) + '\n' + body + '\n```';
}

/** `body` as one cell of a small CSV table. */
function csvRow(r: Rand, body: string): string {
  const key = pick(r, KEYS);
  const id = int(r, 1, 500);
  return `id,${key},status\n${id},"${body.replace(/"/g, '""')}",${pick(r, ['open', 'done', 'new'])}`;
}

/** `body` as the message of an application log line. */
function logLine(r: Rand, body: string): string {
  const day = pad2(int(r, 1, 28));
  const month = pad2(int(r, 1, 12));
  const level = pick(r, ['INFO', 'DEBUG', 'WARN']);
  const comp = pick(r, ['worker', 'api', 'sync', 'scheduler']);
  return `2024-${month}-${day} ${clock(r)}:${pad2(int(r, 0, 59))} ${level} [${comp}] ${body}`;
}

/** `body` commented out, line by line, above a neutral code snippet. */
function codeComment(r: Rand, body: string): string {
  const snippets: readonly (readonly [string, string])[] = [
    ['// ', 'function total(items) {\n  return items.reduce((a, b) => a + b, 0);\n}'],
    ['# ', 'def area(width, height):\n    return width * height'],
    ['-- ', 'SELECT name, city FROM customers ORDER BY name;'],
  ];
  const [mark, code] = pick(r, snippets);
  const commented = body
    .split('\n')
    .map((l) => mark + l)
    .join('\n');
  return `${commented}\n${code}`;
}

/** `body` presented in one of several plain ways: bare, framed, in JSON, in a code block. */
function present(r: Rand, body: string, label: string): string {
  const ways: readonly ((b: string) => string)[] = [
    (b) => b,
    (b) => frame(r, b, label),
    (b) => jsonField(r, b),
    (b) => codeBlock(r, b),
  ];
  return pick(r, ways)(body);
}

// ---------------------------------------------------------------------------------------------
// leetspeak
// ---------------------------------------------------------------------------------------------

type CharMap = Readonly<Record<string, string>>;

const LEET_BASIC: CharMap = { a: '4', e: '3', i: '1', o: '0', s: '5', t: '7' };
const LEET_LIGHT: CharMap = { a: '4', e: '3', o: '0' };
const LEET_SYMBOL: CharMap = { a: '@', b: '8', e: '3', g: '9', i: '!', l: '1', o: '0', s: '$', t: '+' };
const LEET_VOWELS: CharMap = { a: '4', e: '3', i: '1', o: '0', u: '|_|' };
const LEET_MULTI: CharMap = {
  a: '/\\',
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
  r: '|2',
  s: '5',
  t: '7',
  u: '|_|',
  v: '\\/',
  w: '\\/\\/',
  x: '><',
  y: '`/',
  z: '2',
};
const LEET_CHOICES: Readonly<Record<string, readonly string[]>> = {
  a: ['4', '@'],
  b: ['8'],
  e: ['3'],
  g: ['9', '6'],
  i: ['1', '!'],
  l: ['1', '|'],
  o: ['0'],
  s: ['5', '$'],
  t: ['7', '+'],
  z: ['2'],
};

const leet =
  (m: CharMap) =>
  (s: string): string =>
    mapChars(s, (c) => m[c.toLowerCase()] ?? c);

const LEETSPEAK: readonly Variant[] = [
  ['basic', (_r, t) => leet(LEET_BASIC)(t)],
  ['light', (_r, t) => leet(LEET_LIGHT)(t)],
  ['symbols', (_r, t) => leet(LEET_SYMBOL)(t)],
  ['vowels', (_r, t) => leet(LEET_VOWELS)(t)],
  [
    'multichar',
    (r, t) => {
      const p = int(r, 35, 75) / 100;
      return mapChars(t, (c) => {
        const m = LEET_MULTI[c.toLowerCase()];
        return m !== undefined && chance(r, p) ? m : c;
      });
    },
  ],
  [
    'random_mix',
    (r, t) => {
      const p = int(r, 40, 90) / 100;
      return mapChars(t, (c) => {
        const xs = LEET_CHOICES[c.toLowerCase()];
        return xs !== undefined && chance(r, p) ? pick(r, xs) : c;
      });
    },
  ],
  ['some_words', (r, t) => someWords(r, t, leet(LEET_BASIC))],
  ['framed', (r, t) => frame(r, leet(pick(r, [LEET_BASIC, LEET_SYMBOL]))(t), 'leetspeak')],
  ['chat_line', (r, t) => chatLine(r, leet(pick(r, [LEET_BASIC, LEET_LIGHT]))(t))],
  ['code_comment', (r, t) => codeComment(r, leet(LEET_BASIC)(t))],
];

// ---------------------------------------------------------------------------------------------
// url_encoding
// ---------------------------------------------------------------------------------------------

const ipv4 = (r: Rand): string =>
  pick(r, [`10.${int(r, 0, 255)}`, `192.168`]) + `.${int(r, 0, 255)}.${int(r, 1, 254)}`;

const URL_ENCODING: readonly Variant[] = [
  ['every_byte_upper', (_r, t) => pctAll(t, true)],
  ['every_byte_lower', (_r, t) => pctAll(t, false)],
  ['component', (r, t) => pctComponent(t, chance(r, 0.7))],
  ['form_plus', (r, t) => pctComponent(t, chance(r, 0.7), true)],
  [
    'query_param',
    (r, t) => {
      const base = `https://${pick(r, HOSTS)}/${pick(r, PATHS)}`;
      const key = pick(r, QUERY_KEYS);
      return `${base}?${key}=${pctAll(t, chance(r, 0.5))}&lang=${pick(r, ['en', 'de', 'fr'])}`;
    },
  ],
  ['double', (r, t) => pctAll(pctAll(t, chance(r, 0.5)), true)],
  [
    'some_words',
    (r, t) => {
      const upper = chance(r, 0.5);
      return someWords(
        r,
        t,
        (w) => pctAll(w, upper),
        0.6,
        (w) => w.replace(/%/g, '%25'),
      );
    },
  ],
  ['percent_u', (r, t) => pctU(t, chance(r, 0.5))],
  [
    'random_bytes',
    (r, t) => {
      const p = int(r, 50, 90) / 100;
      return utf8(t)
        .map((b) =>
          b < 0x80 && b !== 0x25 && !chance(r, p) ? String.fromCharCode(b) : '%' + hex2(b, chance(r, 0.5)),
        )
        .join('');
    },
  ],
  [
    'access_log',
    (r, t) => {
      const ip = ipv4(r);
      const stamp = `${pad2(int(r, 1, 28))}/${pick(r, MONTHS)}/2024:${clock(r)}:${pad2(int(r, 0, 59))}`;
      const path = pick(r, PATHS);
      const key = pick(r, QUERY_KEYS);
      const enc = pctComponent(t, true, true);
      return `${ip} - - [${stamp} +0000] "GET /${path}?${key}=${enc} HTTP/1.1" 200 ${int(r, 200, 9000)}`;
    },
  ],
  [
    'curl_command',
    (r, t) => {
      const url = `https://${pick(r, HOSTS)}/${pick(r, PATHS)}`;
      const key = pick(r, QUERY_KEYS);
      return `curl -s "${url}?${key}=${pctComponent(t, chance(r, 0.5))}"`;
    },
  ],
];

// ---------------------------------------------------------------------------------------------
// zero_width
// ---------------------------------------------------------------------------------------------

const ZWSP = '\u200b';
const ZWNJ = '\u200c';
const ZWJ = '\u200d';
const WJ = '\u2060';
const BOM = '\ufeff';
const SHY = '\u00ad';
const INVISIBLES = [ZWSP, ZWNJ, ZWJ, WJ, BOM] as const;

/** `s` with `gap()` inserted between every two code points. */
const between = (s: string, gap: () => string): string =>
  cps(s)
    .map((c, i) => (i === 0 ? c : gap() + c))
    .join('');

/** `s` with `gap()` inserted between two code points only when neither is whitespace. */
const insideWords = (s: string, gap: () => string): string => {
  const a = cps(s);
  return a.map((c, i) => (i > 0 && !/\s/.test(c) && !/\s/.test(a[i - 1]!) ? gap() + c : c)).join('');
};

const ZERO_WIDTH: readonly Variant[] = [
  ['zwsp_every_gap', (_r, t) => between(t, () => ZWSP)],
  ['joiners_random', (r, t) => between(t, () => pick(r, [ZWNJ, ZWJ]))],
  ['inside_words', (r, t) => insideWords(t, () => pick(r, [ZWSP, ZWNJ]))],
  [
    'random_positions',
    (r, t) => {
      const p = int(r, 30, 80) / 100;
      return between(t, () => (chance(r, p) ? pick(r, INVISIBLES) : ''));
    },
  ],
  ['word_joiner', (_r, t) => insideWords(t, () => WJ)],
  ['byte_order_mark', (_r, t) => between(t, () => BOM)],
  ['soft_hyphen', (r, t) => insideWords(t, () => (chance(r, 0.6) ? SHY : ''))],
  [
    'one_per_word',
    (r, t) =>
      eachWord(t, (w) => {
        const a = cps(w);
        if (a.length < 2) return w;
        const k = int(r, 1, a.length - 1);
        return a.slice(0, k).join('') + pick(r, INVISIBLES) + a.slice(k).join('');
      }),
  ],
  [
    'bursts',
    (r, t) => between(t, () => Array.from({ length: int(r, 1, 3) }, () => pick(r, INVISIBLES)).join('')),
  ],
  [
    'binary_in_cover',
    (r, t) => {
      const [zero, one] = pick(r, [
        [ZWSP, ZWNJ],
        [ZWNJ, ZWJ],
      ] as const);
      const sep = pick(r, ['', WJ]);
      const bits = utf8(t)
        .map((b) =>
          b
            .toString(2)
            .padStart(8, '0')
            .replace(/[01]/g, (d) => (d === '0' ? zero : one)),
        )
        .join(sep);
      const c = cover(r);
      const at = chance(r, 0.5) ? c.indexOf(' ') : c.length;
      return c.slice(0, at) + bits + c.slice(at);
    },
  ],
  [
    'chat_line',
    (r, t) =>
      chatLine(
        r,
        between(t, () => pick(r, [ZWSP, WJ])),
      ),
  ],
];

// ---------------------------------------------------------------------------------------------
// homoglyph
// ---------------------------------------------------------------------------------------------

const CYRILLIC: CharMap = {
  a: '\u0430',
  c: '\u0441',
  d: '\u0501',
  e: '\u0435',
  h: '\u04bb',
  i: '\u0456',
  j: '\u0458',
  l: '\u04cf',
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
const GREEK: CharMap = {
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
const ARMENIAN: CharMap = {
  g: '\u0581',
  h: '\u0570',
  n: '\u0578',
  o: '\u0585',
  q: '\u0566',
  u: '\u057d',
};
const CHEROKEE: CharMap = {
  A: '\u13aa',
  B: '\u13f4',
  C: '\u13df',
  E: '\u13ac',
  G: '\u13c0',
  H: '\u13bb',
  J: '\u13ab',
  K: '\u13e6',
  M: '\u13b7',
  P: '\u13e2',
  R: '\u13a1',
  S: '\u13da',
  T: '\u13a2',
  V: '\u13d9',
  W: '\u13b3',
  Z: '\u13c3',
};
const SMALL_CAPS: CharMap = {
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

/** Each mapped character swapped for its look-alike with probability `p`. */
const swap = (r: Rand, s: string, m: CharMap, p = 1): string =>
  mapChars(s, (c) => {
    const g = m[c];
    return g !== undefined && (p >= 1 || chance(r, p)) ? g : c;
  });

/** Each character swapped, with probability `p`, for a look-alike drawn from any of `maps`. */
const swapAny = (r: Rand, s: string, maps: readonly CharMap[], p: number): string =>
  mapChars(s, (c) => {
    const options = maps.flatMap((m) => {
      const g = m[c];
      return g === undefined ? [] : [g];
    });
    return options.length > 0 && chance(r, p) ? pick(r, options) : c;
  });

/** Mathematical alphanumeric letters and digits starting at the given code points. */
const mathAlnum =
  (upper0: number, lower0: number, digit0: number) =>
  (s: string): string =>
    mapChars(s, (c) => {
      const n = c.codePointAt(0)!;
      if (n >= 0x41 && n <= 0x5a) return String.fromCodePoint(upper0 + n - 0x41);
      if (n >= 0x61 && n <= 0x7a) return String.fromCodePoint(lower0 + n - 0x61);
      if (n >= 0x30 && n <= 0x39) return String.fromCodePoint(digit0 + n - 0x30);
      return c;
    });

const mathBold = mathAlnum(0x1d400, 0x1d41a, 0x1d7ce);
const mathSans = mathAlnum(0x1d5a0, 0x1d5ba, 0x1d7e2);
const mathMono = mathAlnum(0x1d670, 0x1d68a, 0x1d7f6);

const HOMOGLYPH: readonly Variant[] = [
  ['cyrillic_all', (r, t) => swap(r, t, CYRILLIC)],
  ['cyrillic_sparse', (r, t) => swap(r, t, CYRILLIC, int(r, 25, 60) / 100)],
  ['greek', (r, t) => swap(r, t, GREEK, int(r, 60, 100) / 100)],
  ['mixed_scripts', (r, t) => swapAny(r, t, [CYRILLIC, GREEK, ARMENIAN, CHEROKEE], int(r, 50, 95) / 100)],
  ['some_words', (r, t) => someWords(r, t, (w) => swap(r, w, CYRILLIC))],
  ['math_bold', (_r, t) => mathBold(t)],
  ['math_sans', (_r, t) => mathSans(t)],
  ['math_monospace', (_r, t) => mathMono(t)],
  ['small_caps', (r, t) => swap(r, t, SMALL_CAPS, chance(r, 0.5) ? 1 : 0.7)],
  ['armenian_cyrillic', (r, t) => swapAny(r, t, [ARMENIAN, CYRILLIC], 0.8)],
  [
    'framed',
    (r, t) => {
      const body = swapAny(r, t, [CYRILLIC, GREEK], int(r, 50, 100) / 100);
      return pick(r, [
        (b: string) => `${cover(r)}\n\n${b}`,
        (b: string) => chatLine(r, b),
        (b: string) => `> ${b.replace(/\n/g, '\n> ')}`,
      ])(body);
    },
  ],
];

// ---------------------------------------------------------------------------------------------
// spaced_letters
// ---------------------------------------------------------------------------------------------

/**
 * Letters of each word joined by a separator drawn per letter gap; each whitespace run turned into
 * `gap` of it.
 */
const spaceOut = (s: string, sep: () => string, gap: (ws: string) => string): string =>
  tokens(s)
    .map((tok, i) =>
      i % 2 === 1
        ? gap(tok)
        : cps(tok)
            .map((c, k) => (k === 0 ? c : sep() + c))
            .join(''),
    )
    .join('');

const widen = (ws: string): string => ws.replace(/ /g, '   ');

const SPACED_LETTERS: readonly Variant[] = [
  ['single_spaces', (_r, t) => spaceOut(t, () => ' ', widen)],
  [
    'dashes',
    (_r, t) =>
      spaceOut(
        t,
        () => '-',
        (ws) => ws,
      ),
  ],
  [
    'dots',
    (_r, t) =>
      spaceOut(
        t,
        () => '.',
        (ws) => ws,
      ),
  ],
  [
    'underscores',
    (_r, t) =>
      spaceOut(
        t,
        () => '_',
        (ws) => ws,
      ),
  ],
  [
    'pipes',
    (_r, t) =>
      spaceOut(
        t,
        () => ' | ',
        (ws) => ws.replace(/ /g, ' || '),
      ),
  ],
  [
    'vertical',
    (_r, t) =>
      spaceOut(
        t,
        () => '\n',
        () => '\n\n',
      ),
  ],
  [
    'word_slashes',
    (_r, t) =>
      spaceOut(
        t,
        () => ' ',
        (ws) => ws.replace(/ /g, ' / '),
      ),
  ],
  [
    'char_array',
    (r, t) => {
      const arr = `[${cps(t)
        .map((c) => JSON.stringify(c))
        .join(', ')}]`;
      return pick(r, [
        (a: string) => a,
        (a: string) => `letters = ${a}\nprint("".join(letters))`,
        (a: string) => `const letters = ${a};\nconsole.log(letters.join(''));`,
      ])(arr);
    },
  ],
  ['random_separators', (r, t) => spaceOut(t, () => pick(r, [' ', '.', '-', '*', '~', ' . ']), widen)],
  ['some_words', (r, t) => someWords(r, t, (w) => cps(w).join(' '), 0.5)],
  [
    'framed',
    (r, t) => {
      const sep = pick(r, [' ', '-', '.']);
      return frame(
        r,
        spaceOut(t, () => sep, sep === ' ' ? widen : (ws) => ws),
        'spelled-out text',
      );
    },
  ],
];

// ---------------------------------------------------------------------------------------------
// base64
// ---------------------------------------------------------------------------------------------

/** `t` cut into pieces of at most `max` UTF-8 bytes, never inside a code point. */
const byteChunks = (t: string, max: number): string[] => {
  const out: string[] = [];
  let cur = '';
  let size = 0;
  for (const c of cps(t)) {
    const n = utf8(c).length;
    if (size + n > max && cur !== '') {
      out.push(cur);
      cur = '';
      size = 0;
    }
    cur += c;
    size += n;
  }
  if (cur !== '' || out.length === 0) out.push(cur);
  return out;
};

const mailAddr = (r: Rand): string => `${pick(r, NICKS)}@example.${pick(r, ['com', 'org', 'net'])}`;

const BASE64: readonly Variant[] = [
  ['standard', (_r, t) => b64(t)],
  ['no_padding', (_r, t) => b64NoPad(t)],
  ['url_safe', (_r, t) => b64Url(t)],
  ['mime_wrapped', (_r, t) => wrap(b64(t), 76)],
  [
    'pem_block',
    (r, t) => {
      const label = pick(r, ['MESSAGE', 'DATA', 'NOTE']);
      return `-----BEGIN ${label}-----\n${wrap(b64(t), 64)}\n-----END ${label}-----`;
    },
  ],
  [
    'data_uri',
    (r, t) => {
      const uri = `data:text/plain;${pick(r, ['', 'charset=utf-8;'])}base64,${b64(t)}`;
      return pick(r, [
        (u: string) => u,
        (u: string) => `[attachment](${u})`,
        (u: string) => `<a href="${u}">file</a>`,
      ])(uri);
    },
  ],
  [
    'config_field',
    (r, t) => pick(r, [(b: string) => jsonField(r, b), (b: string) => yamlField(r, b)])(b64(t)),
  ],
  ['code_block', (r, t) => codeBlock(r, wrap(b64(t), pick(r, [60, 76, 1000])), ['', 'base64', 'text'])],
  ['some_words', (r, t) => someWords(r, t, (w) => b64(w), 0.5)],
  [
    'mime_header',
    (r, t) => {
      const words = byteChunks(t, 45).map((c) => `=?UTF-8?B?${b64(c)}?=`);
      return `From: ${mailAddr(r)}\nTo: ${mailAddr(r)}\nSubject: ${words.join('\n ')}\n\n${cover(r)}`;
    },
  ],
  [
    'mime_body',
    (r, t) =>
      [
        `From: ${mailAddr(r)}`,
        `To: ${mailAddr(r)}`,
        `Subject: ${pick(r, SUBJECTS)}`,
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset="utf-8"',
        'Content-Transfer-Encoding: base64',
        '',
        wrap(b64(t), 76),
      ].join('\n'),
  ],
  [
    'framed',
    (r, t) => {
      const enc = chance(r, 0.3) ? (b64(t).match(/.{1,4}/g) ?? []).join(' ') : b64(t);
      return frame(r, enc, 'base64');
    },
  ],
];

// ---------------------------------------------------------------------------------------------
// hex
// ---------------------------------------------------------------------------------------------

const HEX: readonly Variant[] = [
  ['continuous', (r, t) => hexOf(t, chance(r, 0.5))],
  ['spaced_bytes', (r, t) => hexOf(t, chance(r, 0.5), ' ')],
  [
    'c_array',
    (r, t) => {
      const body = hexOf(t, chance(r, 0.5), ', ', '0x');
      return pick(r, [
        (b: string) => `{ ${b} }`,
        (b: string) => `unsigned char msg[] = { ${b} };`,
        (b: string) => `bytes([${b}])`,
      ])(body);
    },
  ],
  [
    'escaped_bytes',
    (r, t) => {
      const body = hexOf(t, chance(r, 0.3), '', '\\x');
      return pick(r, [
        (b: string) => b,
        (b: string) => `data = b"${b}"\nprint(data.decode("utf-8"))`,
        (b: string) => `printf '${b}'`,
      ])(body);
    },
  ],
  ['colons', (r, t) => hexOf(t, chance(r, 0.5), ':')],
  ['plain_dump', (_r, t) => wrap(hexOf(t, false), 60)],
  [
    'offset_dump',
    (r, t) => {
      const bytes = utf8(t);
      const upper = chance(r, 0.3);
      const lines: string[] = [];
      for (let i = 0; i < bytes.length; i += 16) {
        const row = bytes.slice(i, i + 16).map((b) => hex2(b, upper));
        const groups: string[] = [];
        for (let k = 0; k < row.length; k += 2) groups.push(row.slice(k, k + 2).join(''));
        lines.push(`${i.toString(16).padStart(8, '0')}: ${groups.join(' ')}`);
      }
      return lines.join('\n');
    },
  ],
  [
    'code_points',
    (r, t) =>
      cps(t)
        .map((c) => 'U+' + c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0'))
        .join(pick(r, [' ', ', '])),
  ],
  [
    'html_hex_entities',
    (r, t) => {
      const upper = chance(r, 0.5);
      return mapChars(t, (c) => {
        const h = c.codePointAt(0)!.toString(16);
        return `&#x${upper ? h.toUpperCase() : h};`;
      });
    },
  ],
  ['some_words', (r, t) => someWords(r, t, (w) => hexOf(w, false), 0.5)],
  [
    'carried',
    (r, t) => {
      const h = hexOf(t, chance(r, 0.5), pick(r, ['', ' ']));
      return pick(r, [
        (b: string) => frame(r, b, 'hex'),
        (b: string) => jsonField(r, b),
        (b: string) => logLine(r, `payload=${b}`),
        (b: string) => csvRow(r, b),
      ])(h);
    },
  ],
];

// ---------------------------------------------------------------------------------------------
// rot13
// ---------------------------------------------------------------------------------------------

const ROT13: readonly Variant[] = [
  ['plain', (_r, t) => rot13(t)],
  [
    'labelled',
    (r, t) =>
      pick(r, [(b: string) => `ROT13: ${b}`, (b: string) => `${b} (rot13)`, (b: string) => `[rot13]\n${b}`])(
        rot13(t),
      ),
  ],
  ['some_words', (r, t) => someWords(r, t, rot13, 0.5)],
  ['rot18_digits', (_r, t) => rot18(t)],
  [
    'spoiler',
    (r, t) =>
      pick(r, [
        (b: string) => `>!${b}!<`,
        (b: string) => `[spoiler]${b}[/spoiler]`,
        (b: string) => `Spoiler (rot13): ${b}`,
        (b: string) => `||${b}||`,
      ])(rot13(t)),
  ],
  ['python_codecs', (_r, t) => `import codecs\nprint(codecs.decode(${JSON.stringify(rot13(t))}, "rot_13"))`],
  ['tr_command', (_r, t) => `echo '${rot13(t).replace(/'/g, "'\\''")}' | tr 'A-Za-z' 'N-ZA-Mn-za-m'`],
  ['data_field', (r, t) => pick(r, [(b: string) => jsonField(r, b), (b: string) => csvRow(r, b)])(rot13(t))],
  ['code_block', (r, t) => codeBlock(r, rot13(t), ['', 'text', 'rot13'])],
  ['chat_line', (r, t) => chatLine(r, rot13(t))],
];

// ---------------------------------------------------------------------------------------------
// nested (two levels)
// ---------------------------------------------------------------------------------------------

const NESTINGS: readonly (readonly [name: string, label: string, make: Make])[] = [
  ['base64_of_hex', 'base64 (inside: hex)', (r, t) => b64(hexOf(t, chance(r, 0.5)))],
  ['hex_of_base64', 'hex (inside: base64)', (r, t) => hexOf(b64(t), chance(r, 0.5), pick(r, ['', ' ']))],
  ['base64_of_rot13', 'base64 (inside: rot13)', (_r, t) => b64(rot13(t))],
  ['rot13_of_base64', 'rot13 (inside: base64)', (_r, t) => rot13(b64(t))],
  ['base64_twice', 'base64, twice', (r, t) => (chance(r, 0.5) ? b64(b64(t)) : b64Url(b64(t)))],
  ['url_of_base64', 'URL encoding (inside: base64)', (r, t) => pctAll(b64(t), chance(r, 0.5))],
  ['base64_of_url', 'base64 (inside: URL encoding)', (r, t) => b64(pctAll(t, chance(r, 0.5)))],
  ['hex_of_rot13', 'hex (inside: rot13)', (r, t) => hexOf(rot13(t), chance(r, 0.5))],
  ['rot13_of_hex', 'rot13 (inside: hex)', (r, t) => rot13(hexOf(t, false, pick(r, ['', ' '])))],
  ['hex_of_url', 'hex (inside: URL encoding)', (_r, t) => hexOf(pctComponent(t, true), false)],
  ['base64_of_fullwidth', 'base64 (inside: full-width)', (_r, t) => b64(fullWidth(t))],
];

const NESTED: readonly Variant[] = NESTINGS.map(([name, label, make]): Variant => [
  name,
  (r, t) => present(r, make(r, t), label),
]);

// ---------------------------------------------------------------------------------------------
// full_width
// ---------------------------------------------------------------------------------------------

const fullWidthAlnum = (s: string): string =>
  mapChars(s, (c) => (/^[A-Za-z0-9]$/.test(c) ? fullWidthChar(c, false) : c));

const FULL_WIDTH: readonly Variant[] = [
  ['ideographic_space', (_r, t) => fullWidth(t, true)],
  ['ascii_space', (_r, t) => fullWidth(t, false)],
  ['alnum_only', (_r, t) => fullWidthAlnum(t)],
  ['some_words', (r, t) => someWords(r, t, (w) => fullWidth(w), 0.5)],
  [
    'random_chars',
    (r, t) => {
      const p = int(r, 40, 85) / 100;
      return mapChars(t, (c) => (chance(r, p) ? fullWidthChar(c, false) : c));
    },
  ],
  ['framed', (r, t) => `${cover(r)} ${fullWidth(t, chance(r, 0.5))}`],
  ['chat_line', (r, t) => chatLine(r, fullWidth(t, chance(r, 0.5)))],
  ['markdown_quote', (r, t) => `> ${fullWidth(t, chance(r, 0.5)).replace(/\n/g, '\n> ')}`],
  ['json_field', (r, t) => jsonField(r, fullWidth(t, chance(r, 0.5)))],
];

// ---------------------------------------------------------------------------------------------
// html_markdown_comment
// ---------------------------------------------------------------------------------------------

const htmlComment = (t: string): string => `<!-- ${t} -->`;

/** `t` split at whitespace runs into up to `k` consecutive pieces (later pieces keep their leading run). */
const pieces = (r: Rand, t: string, k: number): string[] => {
  const toks = tokens(t);
  const gaps = toks.flatMap((_tok, i) => (i % 2 === 1 ? [i] : []));
  const cuts = sample(r, gaps, Math.min(k - 1, gaps.length)).sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const c of cuts) {
    out.push(toks.slice(from, c).join(''));
    from = c;
  }
  out.push(toks.slice(from).join(''));
  return out;
};

const HTML_MARKDOWN_COMMENT: readonly Variant[] = [
  ['bare', (_r, t) => htmlComment(t)],
  [
    'inline_cover',
    (r, t) => {
      const [a, b] = sample(r, COVERS, 2);
      return `${a} ${htmlComment(t)} ${b}`;
    },
  ],
  [
    'markdown_reference',
    (r, t) => {
      const body = pick(r, [
        (s: string) => `[//]: # (${s.replace(/[()\\]/g, '\\$&')})`,
        (s: string) => `[comment]: <> (${s.replace(/[()\\]/g, '\\$&')})`,
        (s: string) => `[//]: # "${s.replace(/["\\]/g, '\\$&')}"`,
      ])(t);
      return `${cover(r)}\n\n${body}\n\n${cover(r)}`;
    },
  ],
  [
    'readme_doc',
    (r, t) => {
      const [a, b, c] = sample(r, COVERS, 3);
      return `# ${pick(r, TITLES)}\n\n${a}\n\n${htmlComment(t)}\n\n- ${b}\n- ${c}\n`;
    },
  ],
  [
    'multiline_block',
    (r, t) => {
      const [a, b] = sample(r, COVERS, 2);
      return `${a}\n<!--\n${t}\n-->\n${b}`;
    },
  ],
  [
    'email_conditional',
    (r, t) => {
      const c = escapeHtml(cover(r));
      return `<table><tr><td>\n<p>${c}</p>\n<!--[if mso]>${t}<![endif]-->\n</td></tr></table>`;
    },
  ],
  [
    'hidden_element',
    (r, t) => {
      const e = escapeHtml(t);
      const el = pick(r, [
        (s: string) => `<div style="display:none">${s}</div>`,
        (s: string) => `<span hidden>${s}</span>`,
        (s: string) => `<p style="font-size:0;color:transparent">${s}</p>`,
      ])(e);
      return `<p>${escapeHtml(cover(r))}</p>\n${el}`;
    },
  ],
  [
    'jsx_comment',
    (r, t) => {
      const c = escapeHtml(cover(r));
      return `export const Note = () => (\n  <section>\n    {/* ${t} */}\n    <p>${c}</p>\n  </section>\n);`;
    },
  ],
  [
    'html_page',
    (r, t) => {
      const [a, b] = sample(r, COVERS, 2);
      const title = pick(r, TITLES);
      return `<!DOCTYPE html>\n<html>\n<head><title>${title}</title></head>\n<body>\n<p>${escapeHtml(a!)}</p>\n${htmlComment(t)}\n<p>${escapeHtml(b!)}</p>\n</body>\n</html>`;
    },
  ],
  [
    'split_comments',
    (r, t) => {
      const parts = pieces(r, t, int(r, 2, 4));
      const covers = sample(r, COVERS, parts.length);
      return parts.map((p, i) => `${covers[i]!}\n${htmlComment(p)}`).join('\n\n');
    },
  ],
  [
    'markdown_table',
    (r, t) => {
      const rows = sample(r, ['Apples', 'Paper', 'Pens', 'Tape', 'Folders', 'Batteries'], 3);
      const table = rows.map((x) => `| ${x} | ${int(r, 1, 12)} |`).join('\n');
      return `| Item | Qty |\n|------|-----|\n${table}\n\n${htmlComment(t)}`;
    },
  ],
];

// ---------------------------------------------------------------------------------------------
// unicode_tags
// ---------------------------------------------------------------------------------------------

const TAG_BEGIN = '\u{e0001}';
const TAG_CANCEL = '\u{e007f}';

const insertInCover = (r: Rand, hidden: string): string => {
  const words = cover(r).split(' ');
  const at = int(r, 1, Math.max(1, words.length - 1));
  return [...words.slice(0, at), hidden + words.slice(at).join(' ')].join(' ');
};

const UNICODE_TAGS: readonly Variant[] = [
  ['bare', (_r, t) => toTags(t)],
  ['after_cover', (r, t) => `${cover(r)}${toTags(t)}`],
  ['before_cover', (r, t) => `${toTags(t)}${cover(r)}`],
  ['inside_cover', (r, t) => insertInCover(r, toTags(t))],
  ['language_cancel', (r, t) => `${cover(r)} ${TAG_BEGIN}${toTags(t)}${TAG_CANCEL}`],
  ['some_words', (r, t) => someWords(r, t, toTags, 0.5)],
  ['emoji_sequence', (r, t) => `${cover(r)} ${pick(r, ['\u{1F3F4}', ...EMOJI])}${toTags(t)}${TAG_CANCEL}`],
  ['framed', (r, t) => frame(r, `${cover(r)}${toTags(t)}`, 'tag-character text')],
  ['json_field', (r, t) => jsonField(r, `${cover(r)}${toTags(t)}`)],
  ['visible_spaces', (r, t) => `${cover(r)}\n${eachWord(t, (w) => toTags(w))}`],
];

// ---------------------------------------------------------------------------------------------
// mix_of_two
// ---------------------------------------------------------------------------------------------

/** Per-word (or per-string) transforms of the simpler families, for the mixes that draw a pair. */
const SIMPLE: readonly (readonly [name: string, make: Make])[] = [
  ['base64', (_r, s) => b64(s)],
  ['hex', (_r, s) => hexOf(s, false)],
  ['rot13', (_r, s) => rot13(s)],
  ['url_encoding', (_r, s) => pctAll(s, true)],
  ['full_width', (_r, s) => fullWidth(s, false)],
  ['leetspeak', (_r, s) => leet(LEET_BASIC)(s)],
  ['homoglyph', (r, s) => swap(r, s, CYRILLIC)],
];

const pickPair = (r: Rand): [Make, Make] => {
  const [a, b] = sample(r, SIMPLE, 2);
  return [a![1], b![1]];
};

const MIX_OF_TWO: readonly Variant[] = [
  ['leetspeak+spaced_letters', (_r, t) => spaceOut(leet(LEET_BASIC)(t), () => ' ', widen)],
  [
    'homoglyph+zero_width',
    (r, t) => insideWords(swap(r, t, CYRILLIC, int(r, 40, 100) / 100), () => pick(r, [ZWSP, ZWNJ])),
  ],
  ['full_width+zero_width', (r, t) => between(fullWidth(t, chance(r, 0.5)), () => ZWSP)],
  ['leetspeak+homoglyph', (r, t) => swap(r, leet(LEET_LIGHT)(t), CYRILLIC, int(r, 60, 100) / 100)],
  ['rot13+spaced_letters', (r, t) => spaceOut(rot13(t), () => pick(r, [' ', '.']), widen)],
  ['full_width+url_encoding', (r, t) => pctAll(fullWidth(t, chance(r, 0.5)), true)],
  ['unicode_tags+html_markdown_comment', (r, t) => `${cover(r)}\n${htmlComment(toTags(t))}`],
  ['hex+html_markdown_comment', (r, t) => `${cover(r)}\n${htmlComment(hexOf(t, false))}`],
  ['base64+zero_width', (r, t) => between(b64(t), () => (chance(r, 0.5) ? pick(r, INVISIBLES) : ''))],
  ['homoglyph+spaced_letters', (r, t) => spaceOut(swap(r, t, CYRILLIC), () => ' ', widen)],
  [
    'split_halves',
    (r, t) => {
      const [fa, fb] = pickPair(r);
      const toks = tokens(t);
      const gaps = toks.flatMap((_tok, i) => (i % 2 === 1 ? [i] : []));
      if (gaps.length === 0) {
        const a = cps(t);
        const half = Math.floor(a.length / 2);
        return `${fa(r, a.slice(0, half).join(''))} ${fb(r, a.slice(half).join(''))}`;
      }
      const mid = gaps[Math.floor(gaps.length / 2)]!;
      return `${fa(r, toks.slice(0, mid).join(''))}${toks[mid]!}${fb(r, toks.slice(mid + 1).join(''))}`;
    },
  ],
  [
    'alternate_words',
    (r, t) => {
      const [fa, fb] = pickPair(r);
      return eachWord(t, (w, k) => (k % 2 === 0 ? fa(r, w) : fb(r, w)));
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

/** `text` obfuscated by one variant of `family`, drawn from `r`, and the variant's name. */
export function obfuscateQ(r: Rand, text: string, family: BriefedFamily): { text: string; method: string } {
  const [name, make] = pick(r, VARIANTS[family]);
  return { text: make(r, text), method: `${family}/${name}` };
}
