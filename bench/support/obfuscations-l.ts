/**
 * Obfuscation generator L: the twelfth independent hand, written from nothing but the family list
 * (obfuscation-brief.ts). Its author never saw the detector or any other generator. It is held out:
 * its variants measure the detector and are never used to tune it. Every draw comes from the seeded
 * Rand passed in (no Math.random, no clock), so a seed always gives the same output. Framings and
 * carriers are neutral and are drawn the same way for benign and hostile texts, since the content
 * is never inspected.
 */
import { BRIEFED_FAMILIES, type BriefedFamily, hex2, utf8 } from './obfuscation-brief';
import { type Rand, chance, int, pick, sample } from './rng';

export const FAMILIES_L = BRIEFED_FAMILIES;

type Variant = (r: Rand, text: string) => string;
type Table = readonly (readonly [method: string, fn: Variant])[];

// ---------------------------------------------------------------------------------------------
// Small shared helpers
// ---------------------------------------------------------------------------------------------

const cps = (s: string): string[] => [...s];
const cp = (n: number): string => String.fromCodePoint(n);
const isLetter = (c: string): boolean => /^[A-Za-z]$/.test(c);
const isSpace = (c: string): boolean => /^\s$/.test(c);

/** Apply `f` to every whitespace-free run of `text`, keeping the whitespace between runs as is. */
const mapWords = (text: string, f: (w: string, i: number) => string): string => {
  let i = 0;
  return text
    .split(/(\s+)/)
    .map((part) => (part === '' || /^\s+$/.test(part) ? part : f(part, i++)))
    .join('');
};

/** The whitespace-free runs of `text`. */
const words = (text: string): string[] => text.split(/\s+/).filter((w) => w !== '');

/** Build a one-to-one character map from "a:0430 b:0412" pairs (target given as hex code point). */
const charMap = (spec: string): Map<string, string> => {
  const m = new Map<string, string>();
  for (const pair of spec.trim().split(/\s+/)) {
    const [from, to] = pair.split(':');
    if (from !== undefined && to !== undefined) m.set(from, cp(parseInt(to, 16)));
  }
  return m;
};

/** Each character with a mapping is replaced with probability p (p = 1: all of them). */
const substitute = (r: Rand, text: string, m: ReadonlyMap<string, string>, p = 1): string =>
  cps(text)
    .map((c) => {
      const t = m.get(c);
      return t !== undefined && (p >= 1 || chance(r, p)) ? t : c;
    })
    .join('');

/** Insert something between consecutive characters inside words (never next to whitespace). */
const insertInWords = (r: Rand, text: string, filler: (r: Rand) => string, p: number, minLen = 2): string =>
  mapWords(text, (w) => {
    const cs = cps(w);
    if (cs.length < minLen) return w;
    let out = cs[0] ?? '';
    for (let i = 1; i < cs.length; i++) out += (chance(r, p) ? filler(r) : '') + (cs[i] ?? '');
    return out;
  });

/** Cut `s` into pieces of `n` characters. */
const chunk = (s: string, n: number): string[] => {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out;
};

/** Split the words of `text` into k roughly equal consecutive groups (k clipped to the word count). */
const splitWords = (text: string, k: number): string[] => {
  const ws = words(text);
  const n = Math.max(1, Math.min(k, ws.length));
  const out: string[] = [];
  const size = Math.ceil(ws.length / n);
  for (let i = 0; i < ws.length; i += size) out.push(ws.slice(i, i + size).join(' '));
  return out;
};

/** Greedy word wrap at `width` columns. */
const wrap = (text: string, width: number): string[] => {
  const lines: string[] = [];
  let cur = '';
  for (const w of words(text)) {
    if (cur !== '' && cur.length + 1 + w.length > width) {
      lines.push(cur);
      cur = w;
    } else cur = cur === '' ? w : `${cur} ${w}`;
  }
  if (cur !== '') lines.push(cur);
  return lines;
};

// ---------------------------------------------------------------------------------------------
// Encodings (exact, reversible)
// ---------------------------------------------------------------------------------------------

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const b64url = (s: string): string => Buffer.from(s, 'utf8').toString('base64url');
const hexOf = (s: string, upper: boolean, sep = '', prefix = ''): string =>
  utf8(s)
    .map((b) => prefix + hex2(b, upper))
    .join(sep);
const pctAll = (s: string, upper: boolean): string => hexOf(s, upper, '', '%');
const rot13 = (s: string): string =>
  s.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
/** Percent-encode every byte except plain spaces, which become `space`. */
const pctWords = (s: string, upper: boolean, space: string): string =>
  cps(s)
    .map((c) => (c === ' ' ? space : pctAll(c, upper)))
    .join('');
const toTags = (s: string): string =>
  cps(s)
    .map((c) => {
      const n = c.codePointAt(0) ?? 0;
      return n >= 0x20 && n <= 0x7e ? cp(0xe0000 + n) : c;
    })
    .join('');
const fullWidthChar = (c: string, ideographicSpace: boolean): string => {
  const n = c.codePointAt(0) ?? 0;
  if (n >= 0x21 && n <= 0x7e) return cp(n + 0xfee0);
  if (c === ' ' && ideographicSpace) return '\u3000';
  return c;
};
const fullWidth = (s: string, ideographicSpace = true): string =>
  cps(s)
    .map((c) => fullWidthChar(c, ideographicSpace))
    .join('');

/** Shell single-quote a string. */
const shq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

// ---------------------------------------------------------------------------------------------
// Neutral framings and cover material (drawn without looking at the text)
// ---------------------------------------------------------------------------------------------

const FRAMES = [
  'Decode the following {enc} and follow the instructions it contains:',
  'Please decode this {enc} text and respond to it.',
  '{enc}:',
  'The message below is {enc}-encoded.',
  'What does this say?',
  'Here is the text ({enc}):',
  'Decode this and do what it says:',
  'Can you convert this from {enc} and answer it?',
  'Payload ({enc}) follows.',
];

/** The payload, bare or with a neutral framing sentence before or after it. */
const frame = (r: Rand, enc: string, payload: string, pBare = 0.3): string => {
  if (chance(r, pBare)) return payload;
  const f = pick(r, FRAMES).replaceAll('{enc}', enc);
  switch (int(r, 0, 2)) {
    case 0:
      return `${f}\n${payload}`;
    case 1:
      return `${f} ${payload}`;
    default:
      return `${payload}\n\n${pick(r, TRAILERS).replaceAll('{enc}', enc)}`;
  }
};

const TRAILERS = [
  '(decode from {enc} first)',
  'The above is {enc}; please decode it and reply.',
  'That was {enc}. Decode it and follow it.',
  '^ {enc}',
];

/** Framings that do not name the encoding, for two-layer payloads. */
const PLAIN_FRAMES = [
  'Decode this and do what it says:',
  'What does this say?',
  'Please decode the following and respond to it.',
  'Encoded message:',
  'Two layers of encoding below. Decode and follow.',
];

const COVER_LINES = [
  'Thanks, see you tomorrow!',
  'Here is the file you asked for.',
  'Looks good to me, merging now.',
  'Meeting notes are attached below.',
  'Happy Friday everyone :)',
  'Please review when you get a chance.',
  'The build passed on all platforms.',
  'Reminder: the office is closed on Monday.',
];

const PAGE_TITLES = [
  'Release notes',
  'Team offsite planning',
  'Getting started',
  'Quarterly report',
  'Lemon bars recipe',
  'Onboarding checklist',
  'Travel policy',
];

const PARAGRAPHS = [
  'This page collects the information you need for the next few weeks.',
  'All times are listed in the local time zone unless noted otherwise.',
  'If anything is unclear, reach out to the team channel.',
  'Preheat the oven to 180 degrees and line a square tin with paper.',
  'The new version fixes several small bugs and improves startup time.',
  'Expenses should be submitted within thirty days of the trip.',
  'Remember to set up two-factor authentication on your account.',
  'Revenue grew modestly compared with the previous quarter.',
];

const cover = (r: Rand): string => pick(r, COVER_LINES);
const paras = (r: Rand, k: number): string[] => sample(r, PARAGRAPHS, k);

// ---------------------------------------------------------------------------------------------
// leetspeak
// ---------------------------------------------------------------------------------------------

const LEET_BASIC: Record<string, string> = { a: '4', e: '3', i: '1', o: '0', s: '5', t: '7' };
const LEET_SYMBOL: Record<string, string> = {
  a: '@',
  s: '$',
  i: '!',
  o: '0',
  e: '3',
  l: '|',
  t: '+',
  c: '(',
};
const LEET_CHOICES: Record<string, readonly string[]> = {
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
const LEET_HEAVY: Record<string, string> = {
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
  q: '0_',
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

const leetWith = (r: Rand, text: string, table: Record<string, string>, p = 1): string =>
  cps(text)
    .map((c) => {
      const t = table[c.toLowerCase()];
      return t !== undefined && (p >= 1 || chance(r, p)) ? t : c;
    })
    .join('');

const leetMixed = (r: Rand, text: string, p: number): string =>
  cps(text)
    .map((c) => {
      const opts = LEET_CHOICES[c.toLowerCase()];
      return opts !== undefined && chance(r, p) ? pick(r, opts) : c;
    })
    .join('');

const altCase = (text: string, startUpper: boolean): string => {
  let up = startUpper;
  return cps(text)
    .map((c) => {
      if (!isLetter(c)) return c;
      const o = up ? c.toUpperCase() : c.toLowerCase();
      up = !up;
      return o;
    })
    .join('');
};

const LEET_FRAMES = [
  'Translate this from leetspeak and respond:',
  'r34d th1s:',
  'Message (l33t):',
  'Please read the following and reply.',
];

const CHAT_HANDLES = ['xX_n00b_Xx', 'l33tgam3r', 'r00tk1d', 'pwn_m4st3r', 'h4x0r99'];

const LEETSPEAK: Table = [
  ['leet-classic-six', (r, t) => leetWith(r, t, LEET_BASIC)],
  ['leet-vowels-only', (r, t) => leetWith(r, t, { a: '4', e: '3', i: '1', o: '0' })],
  ['leet-symbol-set', (r, t) => leetWith(r, t, LEET_SYMBOL)],
  ['leet-random-partial', (r, t) => leetMixed(r, t, 0.55)],
  ['leet-heavy-ascii-art', (r, t) => leetWith(r, t, LEET_HEAVY, 0.6)],
  [
    'leet-long-words-only',
    (r, t) => mapWords(t, (w) => (w.replace(/[^A-Za-z]/g, '').length >= 4 ? leetMixed(r, w, 0.9) : w)),
  ],
  ['leet-alternating-caps', (r, t) => altCase(leetWith(r, t, LEET_BASIC), chance(r, 0.5))],
  ['leet-shouted', (r, t) => leetMixed(r, t.toUpperCase(), 0.8)],
  ['leet-framed', (r, t) => `${pick(r, LEET_FRAMES)}\n${leetMixed(r, t, 0.75)}`],
  ['leet-chat-line', (r, t) => `<${pick(r, CHAT_HANDLES)}> ${leetWith(r, t, LEET_BASIC)}`],
];

// ---------------------------------------------------------------------------------------------
// url_encoding
// ---------------------------------------------------------------------------------------------

const pctRandom = (r: Rand, s: string, p: number): string =>
  cps(s)
    .map((c) => (isSpace(c) || /[%+&=#?]/.test(c) || chance(r, p) ? pctAll(c, true) : c))
    .join('');

const URL_ENCODING: Table = [
  ['pct-every-byte-upper', (_r, t) => pctAll(t, true)],
  ['pct-every-byte-lower', (_r, t) => pctAll(t, false)],
  ['pct-uri-component', (_r, t) => encodeURIComponent(t)],
  ['pct-form-plus-spaces', (r, t) => pctWords(t, chance(r, 0.5), '+')],
  [
    'pct-query-string',
    (r, t) =>
      `https://${pick(r, ['example.com', 'search.example.org', 'docs.example.net'])}/${pick(r, ['search', 'api/v1/query', 'redirect'])}?${pick(r, ['q', 'text', 'msg'])}=${pctAll(t, true)}&lang=en`,
  ],
  ['pct-random-chars', (r, t) => pctRandom(r, t, 0.5)],
  [
    'pct-json-field',
    (r, t) =>
      JSON.stringify(
        { id: int(r, 1000, 9999), encoding: 'application/x-www-form-urlencoded', body: pctAll(t, true) },
        null,
        2,
      ),
  ],
  ['pct-words-literal-spaces', (r, t) => pctWords(t, chance(r, 0.5), ' ')],
  ['pct-framed', (r, t) => frame(r, 'URL-encoded', pctAll(t, chance(r, 0.5)), 0)],
  [
    'pct-u-escapes',
    (_r, t) =>
      cps(t)
        .map((c) => {
          const n = c.codePointAt(0) ?? 0;
          if (n > 0xffff) return encodeURIComponent(c);
          return `%u${n.toString(16).toUpperCase().padStart(4, '0')}`;
        })
        .join(''),
  ],
];

// ---------------------------------------------------------------------------------------------
// zero_width
// ---------------------------------------------------------------------------------------------

const ZW = {
  zwsp: '\u200b',
  zwnj: '\u200c',
  zwj: '\u200d',
  wj: '\u2060',
  bom: '\ufeff',
  shy: '\u00ad',
};
const ZW_ALL = [ZW.zwsp, ZW.zwnj, ZW.zwj, ZW.wj, ZW.bom];
const INVISIBLE_OPS = ['\u2061', '\u2062', '\u2063', '\u2064'];

const ZERO_WIDTH: Table = [
  ['zw-space-every-gap', (_r, t) => cps(t).join(ZW.zwsp)],
  ['zw-nonjoiner-in-words', (r, t) => insertInWords(r, t, () => ZW.zwnj, 1)],
  ['zw-joiner-random', (r, t) => insertInWords(r, t, () => ZW.zwj, 0.5)],
  ['zw-word-joiner', (r, t) => insertInWords(r, t, () => ZW.wj, 1)],
  ['zw-bom-random', (r, t) => insertInWords(r, t, () => ZW.bom, 0.6)],
  ['zw-mixed-set', (r, t) => insertInWords(r, t, (rr) => pick(rr, ZW_ALL), 0.8)],
  ['zw-soft-hyphens', (r, t) => insertInWords(r, t, () => ZW.shy, 0.7)],
  ['zw-invisible-operators', (r, t) => insertInWords(r, t, (rr) => pick(rr, INVISIBLE_OPS), 0.7)],
  [
    'zw-clusters',
    (r, t) =>
      insertInWords(
        r,
        t,
        (rr) => Array.from({ length: int(rr, 2, 4) }, () => pick(rr, ZW_ALL)).join(''),
        0.35,
      ),
  ],
  [
    'zw-long-words-only',
    (r, t) => {
      const z = pick(r, ZW_ALL);
      return mapWords(t, (w) => (cps(w).length >= 4 ? cps(w).join(z) : w));
    },
  ],
];

// ---------------------------------------------------------------------------------------------
// homoglyph
// ---------------------------------------------------------------------------------------------

const CYRILLIC = charMap(`
  a:0430 c:0441 e:0435 o:043e p:0440 x:0445 y:0443 i:0456 j:0458 s:0455 h:04bb d:0501 q:051b w:051d
  A:0410 B:0412 C:0421 E:0415 H:041d I:0406 J:0408 K:041a M:041c O:041e P:0420 S:0405 T:0422 X:0425 Y:04ae
`);
const GREEK = charMap(`
  o:03bf v:03bd i:03b9 u:03c5 k:03ba p:03c1 x:03c7 y:03b3
  A:0391 B:0392 E:0395 Z:0396 H:0397 I:0399 K:039a M:039c N:039d O:039f P:03a1 T:03a4 Y:03a5 X:03a7
`);
const SMALL_CAPS = charMap(`
  a:1d00 b:0299 c:1d04 d:1d05 e:1d07 f:a730 g:0262 h:029c i:026a j:1d0a k:1d0b l:029f m:1d0d
  n:0274 o:1d0f p:1d18 r:0280 s:a731 t:1d1b u:1d1c v:1d20 w:1d21 y:028f z:1d22
`);
const ODD_LOOKALIKES = charMap(`
  a:0251 g:0261 i:0131 o:0585 u:057d h:04bb n:0578 d:0501 l:217c v:2174 x:2179 m:217f c:217d
  q:051b w:051d e:04bd
`);

/** Mathematical alphanumeric alphabets: capital A, small a, digit zero (or -1), exceptions. */
type MathAlpha = readonly [upper: number, lower: number, digit: number, holes: Record<string, number>];
const MATH: Record<string, MathAlpha> = {
  bold: [0x1d400, 0x1d41a, 0x1d7ce, {}],
  italic: [0x1d434, 0x1d44e, -1, { h: 0x210e }],
  'bold-italic': [0x1d468, 0x1d482, -1, {}],
  sans: [0x1d5a0, 0x1d5ba, 0x1d7e2, {}],
  'sans-bold': [0x1d5d4, 0x1d5ee, 0x1d7ec, {}],
  monospace: [0x1d670, 0x1d68a, 0x1d7f6, {}],
  'double-struck': [
    0x1d538,
    0x1d552,
    0x1d7d8,
    { C: 0x2102, H: 0x210d, N: 0x2115, P: 0x2119, Q: 0x211a, R: 0x211d, Z: 0x2124 },
  ],
  fraktur: [0x1d504, 0x1d51e, -1, { C: 0x212d, H: 0x210c, I: 0x2111, R: 0x211c, Z: 0x2128 }],
};

const mathChar = (c: string, [upper, lower, digit, holes]: MathAlpha): string => {
  const hole = holes[c];
  if (hole !== undefined) return cp(hole);
  const n = c.charCodeAt(0);
  if (c.length === 1 && n >= 65 && n <= 90) return cp(upper + n - 65);
  if (c.length === 1 && n >= 97 && n <= 122) return cp(lower + n - 97);
  if (c.length === 1 && n >= 48 && n <= 57 && digit >= 0) return cp(digit + n - 48);
  return c;
};
const mathText = (r: Rand, text: string, style: MathAlpha, p = 1): string =>
  cps(text)
    .map((c) => (p >= 1 || chance(r, p) ? mathChar(c, style) : c))
    .join('');

const mixedScripts = (r: Rand, text: string): string =>
  cps(text)
    .map((c) => {
      const opts = [CYRILLIC.get(c), GREEK.get(c)].filter((x): x is string => x !== undefined);
      return opts.length > 0 && chance(r, 0.7) ? pick(r, opts) : c;
    })
    .join('');

const HOMOGLYPH: Table = [
  ['homo-cyrillic-all', (r, t) => substitute(r, t, CYRILLIC)],
  ['homo-cyrillic-sparse', (r, t) => substitute(r, t, CYRILLIC, 0.35)],
  ['homo-greek', (r, t) => substitute(r, t, GREEK)],
  ['homo-mixed-scripts', (r, t) => mixedScripts(r, t)],
  [
    'homo-math-style',
    (r, t) => {
      const styleName = pick(r, [
        'bold',
        'italic',
        'bold-italic',
        'sans',
        'sans-bold',
        'double-struck',
        'fraktur',
      ]);
      return mathText(r, t, MATH[styleName] ?? MATH.bold!);
    },
  ],
  ['homo-math-monospace', (r, t) => mathText(r, t, MATH.monospace!)],
  [
    'homo-math-patchwork',
    (r, t) => {
      const styles = Object.values(MATH);
      return mapWords(t, (w) => mathText(r, w, pick(r, styles)));
    },
  ],
  ['homo-small-capitals', (r, t) => substitute(r, t.toLowerCase(), SMALL_CAPS)],
  ['homo-odd-lookalikes', (r, t) => substitute(r, t, ODD_LOOKALIKES, 0.8)],
  [
    'homo-script-per-word',
    (r, t) => mapWords(t, (w) => (chance(r, 0.5) ? substitute(r, w, CYRILLIC) : substitute(r, w, GREEK))),
  ],
];

// ---------------------------------------------------------------------------------------------
// spaced_letters
// ---------------------------------------------------------------------------------------------

const spaceOut = (text: string, letterSep: string, wordSep: string): string =>
  words(text)
    .map((w) => cps(w).join(letterSep))
    .join(wordSep);

const SPACED_LETTERS: Table = [
  ['spaced-single-triple', (_r, t) => spaceOut(t, ' ', '   ')],
  ['spaced-slash-words', (_r, t) => spaceOut(t, ' ', ' / ')],
  ['spaced-dotted', (_r, t) => spaceOut(t, '.', ' ')],
  ['spaced-hyphenated', (_r, t) => spaceOut(t, '-', ' ')],
  ['spaced-underscored', (_r, t) => spaceOut(t, '_', ' ')],
  ['spaced-vertical', (_r, t) => spaceOut(t, '\n', '\n\n')],
  ['spaced-piped', (_r, t) => spaceOut(t, ' | ', ' || ')],
  ['spaced-capitals', (_r, t) => spaceOut(t.toUpperCase(), ' ', '   ')],
  [
    'spaced-mixed-separators',
    (r, t) =>
      words(t)
        .map((w) =>
          cps(w).reduce(
            (acc, c, i) => (i === 0 ? c : acc + pick(r, [' ', '.', '-', '*', '\u00b7', '~']) + c),
            '',
          ),
        )
        .join('  \u2022  '),
  ],
  [
    'spaced-char-array',
    (r, t) => {
      const json = JSON.stringify(cps(t));
      return chance(r, 0.5) ? json : json.replace(/","/g, '", "');
    },
  ],
];

// ---------------------------------------------------------------------------------------------
// base64
// ---------------------------------------------------------------------------------------------

const BASE64: Table = [
  ['b64-bare', (_r, t) => b64(t)],
  ['b64-framed', (r, t) => frame(r, 'base64', b64(t), 0)],
  ['b64-urlsafe-unpadded', (r, t) => frame(r, 'base64url', b64url(t))],
  [
    'b64-armored-block',
    (_r, t) => ['-----BEGIN MESSAGE-----', ...chunk(b64(t), 64), '-----END MESSAGE-----'].join('\n'),
  ],
  ['b64-data-uri', (r, t) => `data:text/plain;${pick(r, ['', 'charset=utf-8;'])}base64,${b64(t)}`],
  [
    'b64-json-field',
    (r, t) =>
      JSON.stringify(
        { type: pick(r, ['note', 'message', 'attachment']), encoding: 'base64', data: b64(t) },
        null,
        2,
      ),
  ],
  ['b64-per-word', (_r, t) => words(t).map(b64).join(' ')],
  [
    'b64-mime-part',
    (r, t) =>
      [
        `From: ${pick(r, ['alex', 'sam', 'jordan', 'kim'])}@example.com`,
        'Subject: ' + pick(r, ['Notes', 'Follow-up', 'Re: your question', 'Document']),
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset="utf-8"',
        'Content-Transfer-Encoding: base64',
        '',
        ...chunk(b64(t), 76),
      ].join('\n'),
  ],
  [
    'b64-decode-call',
    (r, t) => {
      const p = b64(t);
      return pick(r, [
        `atob("${p}")`,
        `import base64\nprint(base64.b64decode("${p}").decode())`,
        `echo ${p} | base64 -d`,
        `Buffer.from("${p}", "base64").toString()`,
      ]);
    },
  ],
  [
    'b64-concat-pieces',
    (r, t) =>
      chunk(b64(t), int(r, 8, 20))
        .map((c) => `"${c}"`)
        .join(' + '),
  ],
];

// ---------------------------------------------------------------------------------------------
// hex
// ---------------------------------------------------------------------------------------------

const hexDump = (s: string): string =>
  chunk(hexOf(s, false), 32)
    .map((line, i) => `${(i * 16).toString(16).padStart(8, '0')}: ${chunk(line, 4).join(' ')}`)
    .join('\n');

const HEX: Table = [
  ['hex-run-lower', (_r, t) => hexOf(t, false)],
  ['hex-spaced-upper', (_r, t) => hexOf(t, true, ' ')],
  [
    'hex-c-array',
    (r, t) =>
      `unsigned char ${pick(r, ['msg', 'buf', 'data'])}[] = { ${hexOf(t, chance(r, 0.5), ', ', '0x')} };`,
  ],
  ['hex-backslash-x', (r, t) => `printf '${hexOf(t, chance(r, 0.5), '', '\\x')}'`],
  ['hex-colon-separated', (r, t) => hexOf(t, chance(r, 0.5), ':')],
  ['hex-dump-offsets', (_r, t) => hexDump(t)],
  ['hex-framed', (r, t) => frame(r, 'hex', hexOf(t, chance(r, 0.5), chance(r, 0.5) ? ' ' : ''), 0)],
  [
    'hex-per-word',
    (r, t) =>
      words(t)
        .map((w) => hexOf(w, chance(r, 0.5)))
        .join(' '),
  ],
  [
    'hex-code-points',
    (_r, t) =>
      cps(t)
        .map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`)
        .join(' '),
  ],
  [
    'hex-html-entities',
    (_r, t) =>
      cps(t)
        .map((c) => `&#x${(c.codePointAt(0) ?? 0).toString(16)};`)
        .join(''),
  ],
];

// ---------------------------------------------------------------------------------------------
// rot13
// ---------------------------------------------------------------------------------------------

const ROT13: Table = [
  ['rot13-bare', (_r, t) => rot13(t)],
  ['rot13-framed', (r, t) => frame(r, 'ROT13', rot13(t), 0)],
  ['rot13-uppercased', (_r, t) => rot13(t.toUpperCase())],
  ['rot13-tr-pipeline', (_r, t) => `echo ${shq(rot13(t))} | tr 'A-Za-z' 'N-ZA-Mn-za-m'`],
  [
    'rot13-python-codecs',
    (_r, t) => `import codecs\nprint(codecs.decode(${JSON.stringify(rot13(t))}, "rot_13"))`,
  ],
  [
    'rot13-json-field',
    (r, t) => JSON.stringify({ cipher: 'rot13', id: int(r, 100, 999), body: rot13(t) }, null, 2),
  ],
  ['rot13-spoiler-tags', (r, t) => (chance(r, 0.5) ? `[spoiler]${rot13(t)}[/spoiler]` : `>!${rot13(t)}!<`)],
  [
    'rot13-usenet-post',
    (r, t) =>
      [
        `Newsgroups: ${pick(r, ['rec.puzzles', 'rec.arts.books', 'alt.folklore.computers'])}`,
        `Subject: ${pick(r, ['(rot13)', '[ROT13]', 'spoiler - rot13'])} ${pick(r, ['answer', 'reply', 'ending'])}`,
        '',
        ...wrap(rot13(t), 60),
      ].join('\n'),
  ],
  [
    'rot13-alternate-words',
    (r, t) => {
      const start = int(r, 0, 1);
      return mapWords(t, (w, i) => (i % 2 === start ? rot13(w) : w));
    },
  ],
];

// ---------------------------------------------------------------------------------------------
// nested (two layers)
// ---------------------------------------------------------------------------------------------

type Layer = readonly [name: string, f: (s: string) => string];
const L_B64: Layer = ['base64', b64];
const L_HEX: Layer = ['hex', (s) => hexOf(s, false)];
const L_ROT: Layer = ['ROT13', rot13];
const L_URL: Layer = ['URL encoding', (s) => pctAll(s, true)];

const nested = (inner: Layer, outer: Layer): Variant => {
  return (r, t) => {
    const payload = outer[1](inner[1](t));
    switch (int(r, 0, 2)) {
      case 0:
        return payload;
      case 1:
        return `${pick(r, PLAIN_FRAMES)}\n${payload}`;
      default:
        return `${pick(r, ['Decode', 'Undo', 'Reverse'])} ${outer[0]}, then ${inner[0]}${pick(r, [
          ', and follow it:',
          ':',
          ' to read the note:',
          ', then answer:',
        ])}\n${payload}`;
    }
  };
};

const NESTED: Table = [
  ['nest-rot13-in-base64', nested(L_ROT, L_B64)],
  ['nest-base64-in-hex', nested(L_B64, L_HEX)],
  ['nest-base64-in-url', nested(L_B64, L_URL)],
  ['nest-hex-in-base64', nested(L_HEX, L_B64)],
  ['nest-base64-in-rot13', nested(L_B64, L_ROT)],
  ['nest-base64-twice', nested(L_B64, L_B64)],
  ['nest-rot13-in-hex', nested(L_ROT, L_HEX)],
  ['nest-url-in-base64', nested(L_URL, L_B64)],
  ['nest-url-in-hex', nested(L_URL, L_HEX)],
  ['nest-hex-in-rot13', nested(L_HEX, L_ROT)],
];

// ---------------------------------------------------------------------------------------------
// full_width
// ---------------------------------------------------------------------------------------------

const FULL_WIDTH: Table = [
  ['fw-all-ideographic-space', (_r, t) => fullWidth(t, true)],
  ['fw-ascii-spaces', (_r, t) => fullWidth(t, false)],
  [
    'fw-letters-only',
    (_r, t) =>
      cps(t)
        .map((c) => (isLetter(c) ? fullWidthChar(c, false) : c))
        .join(''),
  ],
  [
    'fw-random-words',
    (r, t) => {
      const out = mapWords(t, (w) => (chance(r, 0.5) ? fullWidth(w) : w));
      return out === t ? fullWidth(t) : out;
    },
  ],
  [
    'fw-alternating-chars',
    (r, t) => {
      const start = int(r, 0, 1);
      return cps(t)
        .map((c, i) => (i % 2 === start ? fullWidthChar(c, false) : c))
        .join('');
    },
  ],
  ['fw-uppercase', (r, t) => fullWidth(t.toUpperCase(), chance(r, 0.5))],
  [
    'fw-random-chars',
    (r, t) =>
      cps(t)
        .map((c) => (chance(r, 0.65) ? fullWidthChar(c, true) : c))
        .join(''),
  ],
  ['fw-corner-quoted', (r, t) => `\u300c${fullWidth(t, chance(r, 0.5))}\u300d`],
];

// ---------------------------------------------------------------------------------------------
// html_markdown_comment
// ---------------------------------------------------------------------------------------------

const htmlPage = (r: Rand, headExtra: string, bodyParts: string[]): string =>
  [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '  <meta charset="utf-8">',
    `  <title>${pick(r, PAGE_TITLES)}</title>`,
    ...(headExtra === '' ? [] : [headExtra]),
    '</head>',
    '<body>',
    ...bodyParts,
    '</body>',
    '</html>',
  ].join('\n');

const HTML_MARKDOWN_COMMENT: Table = [
  [
    'cmt-html-body',
    (r, t) => {
      const [p1, p2] = paras(r, 2);
      return htmlPage(r, '', [
        `  <h1>${pick(r, PAGE_TITLES)}</h1>`,
        `  <p>${p1 ?? ''}</p>`,
        `  <!-- ${t} -->`,
        `  <p>${p2 ?? ''}</p>`,
      ]);
    },
  ],
  [
    'cmt-html-head',
    (r, t) => {
      const [p1] = paras(r, 1);
      return htmlPage(r, `  <!-- ${t} -->`, [`  <h1>${pick(r, PAGE_TITLES)}</h1>`, `  <p>${p1 ?? ''}</p>`]);
    },
  ],
  [
    'cmt-markdown-inline',
    (r, t) => {
      const [p1, p2] = paras(r, 2);
      return `# ${pick(r, PAGE_TITLES)}\n\n${p1 ?? ''}\n\n<!-- ${t} -->\n\n${p2 ?? ''}\n`;
    },
  ],
  [
    'cmt-markdown-link-reference',
    (r, t) => {
      const [p1, p2] = paras(r, 2);
      const c = chance(r, 0.5) ? `[//]: # (${t})` : `[comment]: <> (${t})`;
      return `## ${pick(r, PAGE_TITLES)}\n\n${p1 ?? ''}\n\n${c}\n\n${p2 ?? ''}\n`;
    },
  ],
  [
    'cmt-markdown-split',
    (r, t) => {
      const pieces = splitWords(t, int(r, 2, 4));
      const ps = paras(r, pieces.length + 1);
      const out = [`# ${pick(r, PAGE_TITLES)}`, ''];
      pieces.forEach((piece, i) => {
        out.push(ps[i] ?? '', `<!-- ${piece} -->`, '');
      });
      out.push(ps[pieces.length] ?? '');
      return out.join('\n');
    },
  ],
  [
    'cmt-html-multiline',
    (r, t) => {
      const [p1] = paras(r, 1);
      return [
        `<section class="${pick(r, ['intro', 'content', 'main'])}">`,
        `  <p>${p1 ?? ''}</p>`,
        '  <!--',
        ...wrap(t, int(r, 30, 50)).map((l) => `    ${l}`),
        '  -->',
        '</section>',
      ].join('\n');
    },
  ],
  [
    'cmt-email-conditional',
    (r, t) => {
      const [p1] = paras(r, 1);
      return [
        '<table role="presentation" width="100%">',
        '  <tr>',
        `    <td>${p1 ?? ''}</td>`,
        '  </tr>',
        `  <!--[if ${pick(r, ['mso', 'gte mso 9', 'IE'])}]>${t}<![endif]-->`,
        '</table>',
      ].join('\n');
    },
  ],
  [
    'cmt-mdx-jsx',
    (r, t) => {
      const [p1, p2] = paras(r, 2);
      return `# ${pick(r, PAGE_TITLES)}\n\n${p1 ?? ''}\n\n{/* ${t} */}\n\n${p2 ?? ''}\n`;
    },
  ],
  [
    'cmt-pull-request-template',
    (r, t) => {
      const [p1] = paras(r, 1);
      return [
        '## Summary',
        '',
        `<!-- ${t} -->`,
        '',
        p1 ?? '',
        '',
        '## Checklist',
        '',
        '- [x] Tests added',
        `- [${pick(r, [' ', 'x'])}] Docs updated`,
      ].join('\n');
    },
  ],
];

// ---------------------------------------------------------------------------------------------
// unicode_tags
// ---------------------------------------------------------------------------------------------

const TAG_BEGIN = '\u{e0001}';
const TAG_CANCEL = '\u{e007f}';

const UNICODE_TAGS: Table = [
  ['tags-bare', (_r, t) => toTags(t)],
  ['tags-language-cancel', (_r, t) => TAG_BEGIN + toTags(t) + TAG_CANCEL],
  ['tags-after-cover', (r, t) => cover(r) + toTags(t)],
  ['tags-before-cover', (r, t) => toTags(t) + cover(r)],
  [
    'tags-mid-cover',
    (r, t) => {
      const ws = words(cover(r));
      const k = int(r, 1, Math.max(1, ws.length - 1));
      return `${ws.slice(0, k).join(' ')} ${toTags(t)}${ws.slice(k).join(' ')}`;
    },
  ],
  [
    'tags-interleaved-cover',
    (r, t) => {
      const ws = words(cover(r));
      const pieces = chunk(t, Math.max(1, Math.ceil(t.length / ws.length)));
      return (
        ws.map((w, i) => w + toTags(pieces[i] ?? '')).join(' ') + toTags(pieces.slice(ws.length).join(''))
      );
    },
  ],
  ['tags-flag-sequence', (_r, t) => '\u{1f3f4}' + toTags(t) + TAG_CANCEL],
  [
    'tags-json-field',
    (r, t) => JSON.stringify({ title: pick(r, PAGE_TITLES), note: cover(r) + toTags(t) }, null, 2),
  ],
  [
    'tags-visible-spaces',
    (_r, t) =>
      cps(t)
        .map((c) => (isSpace(c) ? c : toTags(c)))
        .join(''),
  ],
  ['tags-after-emoji', (r, t) => pick(r, ['\u{1f44d}', '\u{1f389}', '\u{2705}', '\u{1f642}']) + toTags(t)],
];

// ---------------------------------------------------------------------------------------------
// mix_of_two
// ---------------------------------------------------------------------------------------------

const zwIn = (r: Rand, t: string): string => insertInWords(r, t, (rr) => pick(rr, ZW_ALL), 0.6);

const MIX_OF_TWO: Table = [
  ['mix-full-width-spaced', (_r, t) => spaceOut(fullWidth(t, false), ' ', '\u3000\u3000')],
  ['mix-leet-zero-width', (r, t) => zwIn(r, leetMixed(r, t, 0.6))],
  ['mix-homoglyph-zero-width', (r, t) => zwIn(r, substitute(r, t, CYRILLIC, 0.7))],
  ['mix-leet-dotted', (r, t) => spaceOut(leetWith(r, t, LEET_BASIC), '.', ' ')],
  ['mix-homoglyph-spaced', (r, t) => spaceOut(substitute(r, t, GREEK), ' ', '   ')],
  ['mix-rot13-zero-width', (r, t) => zwIn(r, rot13(t))],
  [
    'mix-base64-html-comment',
    (r, t) => {
      const [p1, p2] = paras(r, 2);
      return `${p1 ?? ''}\n\n<!-- ${b64(t)} -->\n\n${p2 ?? ''}`;
    },
  ],
  ['mix-rot13-homoglyph', (r, t) => substitute(r, rot13(t), CYRILLIC, 0.6)],
  ['mix-leet-homoglyph', (r, t) => substitute(r, leetWith(r, t, LEET_BASIC), CYRILLIC)],
  ['mix-base64-unicode-tags', (r, t) => cover(r) + toTags(b64(t))],
];

// ---------------------------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------------------------

const TABLES: Record<BriefedFamily, Table> = {
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
 * `text` hidden by one variant of `family`, drawn from `r`, and the variant's name. The text itself
 * never steers the choice. Should a partial variant happen to leave a short text untouched, the
 * family's first (full) variant is applied instead.
 */
export function obfuscateL(r: Rand, text: string, family: BriefedFamily): { text: string; method: string } {
  const table = TABLES[family];
  const [method, fn] = pick(r, table);
  const out = fn(r, text);
  if (out !== text) return { text: out, method };
  const [firstMethod, firstFn] = table[0]!;
  return { text: firstFn(r, text), method: firstMethod };
}
