/**
 * Obfuscation generator M — the thirteenth independent hand.
 *
 * It was written from the family names in obfuscation-brief.ts and nothing else: whoever wrote it
 * never looked at the detector, its tests, or any of the other generators. It is a held-out
 * generator: its output is used only to measure how well the detector copes with obfuscated text,
 * and is never fed back to tune the detector.
 *
 * Randomness comes solely from the seeded `Rand` handed to `obfuscateM`, so a given seed always
 * yields the same output. The generator never reads what the text means: framings, carriers and
 * cover sentences are neutral and are drawn in the same way whether the text is benign or hostile.
 */
import { BRIEFED_FAMILIES, type BriefedFamily, hex2, utf8 } from './obfuscation-brief';
import { chance, int, pick, type Rand, sample } from './rng';

export const FAMILIES_M = BRIEFED_FAMILIES;

type Fn = (r: Rand, text: string) => string;
type Variant = readonly [name: string, fn: Fn];

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

const cps = (s: string): string[] => [...s];
const mapChars = (s: string, f: (c: string) => string): string => cps(s).map(f).join('');
const isAsciiLetter = (c: string): boolean => /^[A-Za-z]$/.test(c);
const isSpace = (t: string): boolean => /^\s+$/.test(t);
const letterCount = (w: string): number => cps(w).filter(isAsciiLetter).length;
/** Words and whitespace runs, in order, so that joining them gives back the text. */
const tokens = (s: string): string[] => s.split(/(\s+)/).filter((t) => t !== '');
const words = (s: string): string[] => s.split(/\s+/).filter((w) => w !== '');

/** `f` applied to some of the words (each with probability p, at least one), the rest untouched. */
function someWords(r: Rand, text: string, p: number, f: (w: string) => string, minLetters = 3): string {
  const toks = tokens(text);
  const idx = toks.map((_, i) => i).filter((i) => !isSpace(toks[i]!));
  let eligible = idx.filter((i) => letterCount(toks[i]!) >= minLetters);
  if (eligible.length === 0) eligible = idx;
  const chosen = new Set(eligible.filter(() => chance(r, p)));
  if (chosen.size === 0 && eligible.length > 0) chosen.add(pick(r, eligible));
  return toks.map((t, i) => (chosen.has(i) ? f(t) : t)).join('');
}

/** Each character passed through `f` with probability p; at least one that `f` changes, if any. */
function someChars(r: Rand, s: string, p: number, f: (c: string) => string): string {
  const cs = cps(s);
  const changeable = cs.map((_, i) => i).filter((i) => f(cs[i]!) !== cs[i]);
  const chosen = new Set(changeable.filter(() => chance(r, p)));
  if (chosen.size === 0 && changeable.length > 0) chosen.add(pick(r, changeable));
  return cs.map((c, i) => (chosen.has(i) ? f(c) : c)).join('');
}

const chunk = (s: string, n: number): string[] => {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out;
};

const escAttr = (s: string): string =>
  s.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const escText = (s: string): string =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const commentSafe = (s: string): string => s.replaceAll('-->', '-- >').replaceAll('--!>', '-- !>');
const oneLine = (s: string): string => s.replace(/\s*\n\s*/g, ' ');

// ---------------------------------------------------------------------------------------------
// Neutral material: cover sentences, names, keys, framings
// ---------------------------------------------------------------------------------------------

const COVERS = [
  'Thanks for the update, see you at the meeting on Thursday.',
  'Here is the summary you asked for.',
  'Please find my notes below.',
  'The quarterly figures are in the attached sheet.',
  'Let me know if anything is unclear.',
  'I have attached the draft for your review.',
  'Hope you had a good weekend!',
  'Sharing the document we discussed earlier.',
  'Quick reminder about tomorrow.',
  'This is the text from the form submission.',
  'Below is the content I copied from the page.',
  'Forwarding this for your reference.',
] as const;

const CLOSERS = [
  'Best regards.',
  'Thanks in advance!',
  'Cheers.',
  'Talk soon.',
  'Have a nice day.',
  'Let me know what you think.',
] as const;

const PEOPLE = [
  'Alex Morgan <alex.morgan@example.com>',
  'Priya Shah <priya@example.org>',
  'Jordan Lee <jlee@example.net>',
  'Sam Carter <sam.carter@example.com>',
  'Noor Haddad <noor.h@example.org>',
  'Chris Novak <c.novak@example.net>',
  'Mei Tanaka <mei.tanaka@example.com>',
] as const;

const SUBJECTS = [
  'Re: notes',
  'Follow-up',
  'Document',
  'Fwd: message',
  'Quick question',
  'Update',
  'Request',
] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'] as const;
const JSON_KEYS = ['data', 'payload', 'message', 'content', 'body', 'text', 'input', 'value'] as const;
const JSON_TYPES = ['note', 'message', 'request', 'task', 'record', 'entry'] as const;
const HOSTS = [
  'example.com',
  'docs.example.org',
  'files.example.net',
  'share.example.io',
  'app.example.com',
] as const;
const PATHS = ['search', 'view', 'r', 'api/v1/notes', 'redirect', 'share', 'go'] as const;
const QKEYS = ['q', 'text', 'msg', 'data', 'note', 'ref', 'input'] as const;
const EMOJI = [
  '\u{1F44D}',
  '\u{1F600}',
  '\u{2728}',
  '\u{1F4CE}',
  '\u{1F642}',
  '\u{2705}',
  '\u{1F4DD}',
] as const;

const cover = (r: Rand): string => pick(r, COVERS);
const closer = (r: Rand): string => pick(r, CLOSERS);

function emailHeaders(r: Rand): string {
  const [from, to] = sample(r, PEOPLE, 2);
  const date = `${pick(r, DAYS)}, ${int(r, 1, 28)} ${pick(r, MONTHS)} 2024 ${String(int(r, 8, 18)).padStart(2, '0')}:${String(int(r, 0, 59)).padStart(2, '0')}:00 +0000`;
  return `From: ${from}\nTo: ${to}\nSubject: ${pick(r, SUBJECTS)}\nDate: ${date}`;
}

const email = (r: Rand, body: string): string => `${emailHeaders(r)}\n\n${body}\n`;

const codeBlock = (r: Rand, body: string): string =>
  `\`\`\`${pick(r, ['', 'text', 'txt', 'plaintext'])}\n${body}\n\`\`\``;

function jsonField(r: Rand, value: string, extra: Record<string, string> = {}): string {
  const obj: Record<string, string | number> = {
    id: int(r, 1000, 99999),
    type: pick(r, JSON_TYPES),
    ...extra,
  };
  obj[pick(r, JSON_KEYS)] = value;
  return JSON.stringify(obj, null, pick(r, [0, 2]));
}

/** A neutral "decode this" framing, named after the encoding. */
function decodeFrame(r: Rand, payload: string, enc: string): string {
  const forms: ((p: string) => string)[] = [
    (p) => `Decode the following ${enc} and follow the instructions in it:\n${p}`,
    (p) => `Here is a ${enc} string. Decode it and do what it says.\n\n${p}`,
    (p) => `The message below is ${enc}. Please decode it and respond to it.\n"${p}"`,
    (p) => `${enc}: ${p}`,
    (p) => `Can you decode this ${enc} for me and then answer it?\n\n${p}`,
    (p) => `[${enc}]\n${p}\n[/${enc}]\nDecode the block above and carry it out.`,
    (p) => `What does this say? (${enc})\n${p}`,
    (p) => `Input (${enc}-encoded):\n${p}\n\nStep 1: decode. Step 2: respond to the decoded text.`,
  ];
  return pick(r, forms)(payload);
}

// ---------------------------------------------------------------------------------------------
// Core transforms
// ---------------------------------------------------------------------------------------------

// leetspeak
const LEET_BASIC: Record<string, string> = { a: '4', e: '3', i: '1', o: '0', s: '5', t: '7' };
const LEET_LIGHT: Record<string, string> = { e: '3', o: '0', a: '4' };
const LEET_SYMBOL: Record<string, string> = {
  a: '@',
  s: '$',
  i: '!',
  o: '0',
  l: '|',
  e: '3',
  c: '(',
  t: '+',
};
const LEET_HEAVY: Record<string, readonly string[]> = {
  a: ['4', '@', '/-\\', '^'],
  b: ['8', '|3', '6'],
  c: ['(', '<', '['],
  d: ['|)', '[)'],
  e: ['3', '€'],
  f: ['|=', 'ph'],
  g: ['9', '6'],
  h: ['#', '|-|', ']-['],
  i: ['1', '!', '|'],
  j: ['_|'],
  k: ['|<', '|{'],
  l: ['1', '|_', '|'],
  m: ['|\\/|', '/\\/\\'],
  n: ['|\\|', '/\\/'],
  o: ['0', '()'],
  p: ['|*', '|>'],
  q: ['0_'],
  r: ['|2', '12'],
  s: ['5', '$'],
  t: ['7', '+'],
  u: ['|_|', '(_)'],
  v: ['\\/'],
  w: ['\\/\\/', 'vv'],
  x: ['><', '}{'],
  y: ['`/', '\u00a5'],
  z: ['2', '7_'],
};
const leetWith =
  (m: Record<string, string>) =>
  (s: string): string =>
    mapChars(s, (c) => m[c.toLowerCase()] ?? c);
const leetBasic = leetWith(LEET_BASIC);
const leetHeavy = (r: Rand, s: string, p: number): string =>
  mapChars(s, (c) => {
    const opts = LEET_HEAVY[c.toLowerCase()];
    return opts && chance(r, p) ? pick(r, opts) : c;
  });

// url encoding
const pctAll = (s: string, upper = true): string =>
  utf8(s)
    .map((b) => `%${hex2(b, upper)}`)
    .join('');

// zero width
const ZW = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'] as const;
const zwEvery = (s: string, z: string): string => cps(s).join(z);

// homoglyph
const CYRILLIC: Record<string, string> = {
  a: 'а',
  c: 'с',
  e: 'е',
  o: 'о',
  p: 'р',
  x: 'х',
  y: 'у',
  i: 'і',
  j: 'ј',
  s: 'ѕ',
  h: 'һ',
  d: 'ԁ',
  q: 'ԛ',
  w: 'ԝ',
  A: 'А',
  B: 'В',
  C: 'С',
  E: 'Е',
  H: 'Н',
  I: 'І',
  J: 'Ј',
  K: 'К',
  M: 'М',
  O: 'О',
  P: 'Р',
  S: 'Ѕ',
  T: 'Т',
  X: 'Х',
  Y: 'У',
};
const GREEK: Record<string, string> = {
  A: 'Α',
  B: 'Β',
  E: 'Ε',
  H: 'Η',
  I: 'Ι',
  K: 'Κ',
  M: 'Μ',
  N: 'Ν',
  O: 'Ο',
  P: 'Ρ',
  T: 'Τ',
  X: 'Χ',
  Y: 'Υ',
  Z: 'Ζ',
  a: 'α',
  i: 'ι',
  k: 'κ',
  n: 'η',
  o: 'ο',
  p: 'ρ',
  u: 'υ',
  v: 'ν',
  w: 'ω',
  y: 'γ',
};
const cyrillic = (s: string): string => mapChars(s, (c) => CYRILLIC[c] ?? c);
const SMALL_CAPS = cps('ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘǫʀꜱᴛᴜᴠᴡxʏᴢ');
const COMBINING = [
  '\u0301',
  '\u0300',
  '\u0308',
  '\u0302',
  '\u0303',
  '\u0307',
  '\u0323',
  '\u0331',
  '\u0330',
  '\u030c',
] as const;
/** Mathematical alphanumeric styles without holes: [capital A, small a, digit 0 or null]. */
const MATH_STYLES = [
  [0x1d400, 0x1d41a, 0x1d7ce], // bold
  [0x1d5a0, 0x1d5ba, 0x1d7e2], // sans-serif
  [0x1d5d4, 0x1d5ee, 0x1d7ec], // sans-serif bold
  [0x1d670, 0x1d68a, 0x1d7f6], // monospace
  [0x1d608, 0x1d622, null], // sans-serif italic
  [0x1d63c, 0x1d656, null], // sans-serif bold italic
] as const;
function mathChar(c: string, style: (typeof MATH_STYLES)[number]): string {
  const code = c.charCodeAt(0);
  if (c >= 'A' && c <= 'Z') return String.fromCodePoint(style[0] + code - 65);
  if (c >= 'a' && c <= 'z') return String.fromCodePoint(style[1] + code - 97);
  if (c >= '0' && c <= '9' && style[2] !== null) return String.fromCodePoint(style[2] + code - 48);
  return c;
}
function circled(c: string): string {
  const code = c.charCodeAt(0);
  if (c >= 'A' && c <= 'Z') return String.fromCodePoint(0x24b6 + code - 65);
  if (c >= 'a' && c <= 'z') return String.fromCodePoint(0x24d0 + code - 97);
  if (c === '0') return '\u24ea';
  if (c >= '1' && c <= '9') return String.fromCodePoint(0x2460 + code - 49);
  return c;
}

// spaced letters
const spaceWords = (text: string, sep: string, wordSep: string): string =>
  words(text)
    .map((w) => cps(w).join(sep))
    .join(wordSep);

// base64
const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const b64url = (s: string): string => Buffer.from(s, 'utf8').toString('base64url');

// hex
const hexBytes = (s: string, upper: boolean, sep: string, prefix = ''): string =>
  utf8(s)
    .map((b) => prefix + hex2(b, upper))
    .join(sep);

// rot
const rotN = (s: string, n: number): string =>
  mapChars(s, (c) => {
    const code = c.charCodeAt(0);
    if (c >= 'a' && c <= 'z') return String.fromCharCode(97 + ((code - 97 + n) % 26));
    if (c >= 'A' && c <= 'Z') return String.fromCharCode(65 + ((code - 65 + n) % 26));
    return c;
  });
const rot13 = (s: string): string => rotN(s, 13);
const rot5 = (s: string): string =>
  mapChars(s, (c) =>
    c >= '0' && c <= '9' ? String.fromCharCode(48 + ((c.charCodeAt(0) - 48 + 5) % 10)) : c,
  );
const rot47 = (s: string): string =>
  mapChars(s, (c) => {
    const code = c.charCodeAt(0);
    return code >= 33 && code <= 126 ? String.fromCharCode(33 + ((code - 33 + 47) % 94)) : c;
  });

// full width
const fwChar = (c: string, ideoSpace: boolean): string => {
  const code = c.charCodeAt(0);
  if (c.length === 1 && code >= 0x21 && code <= 0x7e) return String.fromCharCode(code + 0xfee0);
  if (c === ' ' && ideoSpace) return '\u3000';
  return c;
};
const fullWidth = (s: string, ideoSpace = true): string => mapChars(s, (c) => fwChar(c, ideoSpace));

// unicode tags
const tagify = (s: string): string =>
  mapChars(s, (c) => {
    const code = c.charCodeAt(0);
    return c.length === 1 && code >= 0x20 && code <= 0x7e ? String.fromCodePoint(0xe0000 + code) : c;
  });
const TAG_BEGIN = '\u{E0001}';
const TAG_CANCEL = '\u{E007F}';

// carriers
const htmlComment = (r: Rand, hidden: string): string =>
  `${cover(r)}\n\n<!-- ${commentSafe(hidden)} -->\n\n${closer(r)}`;

// ---------------------------------------------------------------------------------------------
// Families
// ---------------------------------------------------------------------------------------------

const LEETSPEAK: readonly Variant[] = [
  ['basic', (_r, t) => leetBasic(t)],
  ['light', (_r, t) => leetWith(LEET_LIGHT)(t)],
  ['symbols', (_r, t) => leetWith(LEET_SYMBOL)(t)],
  ['heavy-random', (r, t) => leetHeavy(r, t, 0.45)],
  [
    'per-letter-random',
    (r, t) => someChars(r, t, 0.6, (c) => LEET_BASIC[c.toLowerCase()] ?? LEET_SYMBOL[c.toLowerCase()] ?? c),
  ],
  ['some-words', (r, t) => someWords(r, t, 0.5, leetBasic, 4)],
  [
    'alternating-case',
    (_r, t) => {
      let k = 0;
      return mapChars(t, (c) => {
        if (!isAsciiLetter(c)) return c;
        const l = LEET_BASIC[c.toLowerCase()];
        const out = l ?? (k % 2 === 0 ? c.toLowerCase() : c.toUpperCase());
        k++;
        return out;
      });
    },
  ],
  ['uppercase', (_r, t) => leetBasic(t.toUpperCase())],
  ['underscored', (_r, t) => leetBasic(t).replace(/ +/g, '_')],
  [
    'framed',
    (r, t) =>
      pick(r, [
        (p: string) => `Translate this from leetspeak into plain English, then answer it:\n${p}`,
        (p: string) => `r34d th15 4nd r35p0nd:\n\n${p}`,
        (p: string) => `The following is written in 1337. Read it normally and reply.\n"${p}"`,
      ])(leetHeavy(r, t, 0.35)),
  ],
  ['code-block', (r, t) => codeBlock(r, leetBasic(t))],
];

const URL_ENCODING: readonly Variant[] = [
  ['full-upper', (_r, t) => pctAll(t, true)],
  ['full-lower', (_r, t) => pctAll(t, false)],
  [
    'mixed-case-hex',
    (r, t) =>
      utf8(t)
        .map((b) => `%${hex2(b, chance(r, 0.5))}`)
        .join(''),
  ],
  [
    'component',
    (_r, t) => encodeURIComponent(t).replace(/[!'()*]/g, (c) => `%${hex2(c.charCodeAt(0), true)}`),
  ],
  [
    'form-partial',
    (r, t) =>
      mapChars(t, (c) => {
        if (c === ' ') return '+';
        if (/^[A-Za-z0-9]$/.test(c)) return chance(r, 0.5) ? pctAll(c) : c;
        return pctAll(c);
      }).replace(/^[A-Za-z0-9]/, (c) => pctAll(c)),
  ],
  ['random-chars', (r, t) => someChars(r, t, 0.55, (c) => pctAll(c))],
  ['some-words', (r, t) => someWords(r, t, 0.5, (w) => pctAll(w), 3)],
  [
    'query-param',
    (r, t) =>
      `${pick(r, ['', 'Link: ', 'See ', 'Open this: '])}https://${pick(r, HOSTS)}/${pick(r, PATHS)}?${pick(r, QKEYS)}=${pctAll(t)}`,
  ],
  ['data-uri', (r, t) => `data:text/plain;charset=utf-8,${pctAll(t, chance(r, 0.5))}`],
  [
    'iis-unicode',
    (_r, t) =>
      t
        .split('')
        .map((c) => `%u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)
        .join(''),
  ],
  [
    'framed',
    (r, t) => decodeFrame(r, pctAll(t), pick(r, ['URL-encoded text', 'percent-encoding', 'URL encoding'])),
  ],
];

const ZERO_WIDTH: readonly Variant[] = [
  ['zwsp-every', (_r, t) => zwEvery(t, '\u200b')],
  [
    'mixed-every',
    (r, t) =>
      cps(t)
        .map((c, i) => (i === 0 ? c : pick(r, ZW) + c))
        .join(''),
  ],
  [
    'inside-words',
    (r, t) =>
      tokens(t)
        .map((w) => {
          if (isSpace(w) || cps(w).length < 2) return w;
          const cs = cps(w);
          const cut = int(r, 1, cs.length - 1);
          return cs.map((c, i) => (i > 0 && (i === cut || chance(r, 0.35)) ? pick(r, ZW) + c : c)).join('');
        })
        .join(''),
  ],
  [
    'runs',
    (r, t) =>
      cps(t)
        .map((c, i) => (i === 0 ? c : Array.from({ length: int(r, 1, 4) }, () => pick(r, ZW)).join('') + c))
        .join(''),
  ],
  ['word-joiner', (_r, t) => zwEvery(t, '\u2060')],
  [
    'soft-hyphen',
    (r, t) =>
      tokens(t)
        .map((w) =>
          isSpace(w)
            ? w
            : cps(w)
                .map((c, i) => (i > 0 && chance(r, 0.6) ? '\u00ad' + c : c))
                .join(''),
        )
        .join(''),
  ],
  ['bom', (_r, t) => zwEvery(t, '\ufeff')],
  ['spaces-replaced', (r, t) => zwEvery(t.replace(/ +/g, '\u200b'), pick(r, ['\u200c', '\u200d', '\u2060']))],
  [
    'invisible-operators',
    (r, t) =>
      cps(t)
        .map((c, i) => (i === 0 ? c : pick(r, ['\u2061', '\u2062', '\u2063', '\u2064']) + c))
        .join(''),
  ],
  ['some-words', (r, t) => someWords(r, t, 0.5, (w) => zwEvery(w, pick(r, ZW)), 3)],
  [
    'binary-steg',
    (r, t) => {
      const bits = utf8(t)
        .map((b) => b.toString(2).padStart(8, '0').replaceAll('0', '\u200b').replaceAll('1', '\u200c'))
        .join('\u200d');
      const c = words(cover(r));
      const at = int(r, 1, Math.max(1, c.length - 1));
      return [...c.slice(0, at), '\ufeff' + bits + '\ufeff', ...c.slice(at)].join(' ');
    },
  ],
];

const HOMOGLYPH: readonly Variant[] = [
  ['cyrillic-full', (_r, t) => cyrillic(t)],
  ['greek-full', (_r, t) => mapChars(t, (c) => GREEK[c] ?? c)],
  [
    'mixed-script',
    (r, t) =>
      mapChars(t, (c) => {
        const opts = [CYRILLIC[c], GREEK[c]].filter((x): x is string => x !== undefined);
        return opts.length > 0 ? pick(r, opts) : c;
      }),
  ],
  ['cyrillic-partial', (r, t) => someChars(r, t, 0.4, (c) => CYRILLIC[c] ?? c)],
  ['some-words', (r, t) => someWords(r, t, 0.5, cyrillic, 3)],
  [
    'upper-lookalike',
    (r, t) =>
      mapChars(t.toUpperCase(), (c) =>
        chance(r, 0.5) ? (GREEK[c] ?? CYRILLIC[c] ?? c) : (CYRILLIC[c] ?? GREEK[c] ?? c),
      ),
  ],
  [
    'math-style',
    (r, t) => {
      const style = pick(r, MATH_STYLES);
      return mapChars(t, (c) => mathChar(c, style));
    },
  ],
  ['math-ransom', (r, t) => mapChars(t, (c) => mathChar(c, pick(r, MATH_STYLES)))],
  [
    'small-caps',
    (_r, t) => mapChars(t, (c) => (c >= 'a' && c <= 'z' ? (SMALL_CAPS[c.charCodeAt(0) - 97] ?? c) : c)),
  ],
  ['circled', (_r, t) => mapChars(t, circled)],
  [
    'combining-marks',
    (r, t) => mapChars(t, (c) => (isAsciiLetter(c) && chance(r, 0.5) ? c + pick(r, COMBINING) : c)),
  ],
];

const SPACED_LETTERS: readonly Variant[] = [
  ['spaces', (r, t) => spaceWords(t, ' ', pick(r, ['   ', '    ', '  ']))],
  ['slash-words', (_r, t) => spaceWords(t, ' ', ' / ')],
  ['dashes', (r, t) => spaceWords(t, '-', pick(r, [' ', '  ', ' -- ']))],
  ['dots', (r, t) => spaceWords(t, '.', pick(r, [' ', '  ', ' .. ']))],
  ['underscores', (_r, t) => spaceWords(t, '_', ' ')],
  ['vertical', (_r, t) => spaceWords(t, '\n', '\n\n')],
  ['pipes', (_r, t) => spaceWords(t, '|', ' || ')],
  ['uppercase', (r, t) => spaceWords(t.toUpperCase(), ' ', pick(r, ['   ', ' / ']))],
  [
    'json-array',
    (r, t) => {
      const arr = JSON.stringify(cps(t));
      return pick(r, [
        arr,
        `Join these characters and read the result:\n${arr}`,
        `chars = ${arr}\nprint(''.join(chars))`,
      ]);
    },
  ],
  ['some-words', (r, t) => someWords(r, t, 0.5, (w) => cps(w).join(pick(r, [' ', '-', '.', '*'])), 3)],
  [
    'random-separators',
    (r, t) =>
      words(t)
        .map((w) =>
          cps(w)
            .map((c, i) => (i === 0 ? c : pick(r, [' ', '-', '.', '_', '*', '  ']) + c))
            .join(''),
        )
        .join(pick(r, ['   ', ' / ', ' | '])),
  ],
  ['asterisks', (_r, t) => spaceWords(t, '*', ' ')],
];

const BASE64: readonly Variant[] = [
  ['plain', (_r, t) => b64(t)],
  ['no-padding', (_r, t) => b64(t).replace(/=+$/, '')],
  ['url-safe', (_r, t) => b64url(t)],
  ['mime-wrapped', (r, t) => chunk(b64(t), pick(r, [60, 64, 76])).join('\n')],
  ['grouped', (r, t) => chunk(b64(t), pick(r, [4, 8])).join(' ')],
  ['some-words', (r, t) => someWords(r, t, 0.5, b64, 3)],
  ['json-field', (r, t) => jsonField(r, b64(t), { encoding: 'base64' })],
  ['data-uri', (r, t) => `data:text/plain;${pick(r, ['', 'charset=utf-8;'])}base64,${b64(t)}`],
  [
    'email-mime',
    (r, t) =>
      `${emailHeaders(r)}\nMIME-Version: 1.0\nContent-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: base64\n\n${chunk(b64(t), 76).join('\n')}\n`,
  ],
  [
    'python-snippet',
    (r, t) =>
      codeBlock(r, `import base64\nmsg = "${b64(t)}"\nprint(base64.b64decode(msg).decode("utf-8"))`).replace(
        /^```[a-z]*/,
        '```python',
      ),
  ],
  ['framed', (r, t) => decodeFrame(r, b64(t), pick(r, ['base64', 'Base64', 'a base64 string', 'b64']))],
];

const HEX: readonly Variant[] = [
  ['contiguous', (r, t) => hexBytes(t, chance(r, 0.3), '')],
  ['spaced-bytes', (r, t) => hexBytes(t, chance(r, 0.6), ' ')],
  ['backslash-x', (r, t) => `"${hexBytes(t, chance(r, 0.3), '', '\\x')}"`],
  ['c-array', (r, t) => `{ ${hexBytes(t, chance(r, 0.5), ', ', '0x')} }`],
  ['colon-separated', (r, t) => hexBytes(t, chance(r, 0.5), ':')],
  [
    'codepoints',
    (_r, t) =>
      cps(t)
        .map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`)
        .join(' '),
  ],
  ['html-entities', (_r, t) => mapChars(t, (c) => `&#x${c.codePointAt(0)!.toString(16)};`)],
  [
    'js-unicode-escapes',
    (_r, t) =>
      t
        .split('')
        .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
        .join(''),
  ],
  ['some-words', (r, t) => someWords(r, t, 0.5, (w) => hexBytes(w, false, ''), 3)],
  [
    'hexdump',
    (_r, t) =>
      chunk(hexBytes(t, false, ''), 32)
        .map((line, i) => `${(i * 16).toString(16).padStart(8, '0')}  ${chunk(line, 2).join(' ')}`)
        .join('\n'),
  ],
  [
    'framed',
    (r, t) =>
      decodeFrame(
        r,
        hexBytes(t, chance(r, 0.4), pick(r, ['', ' '])),
        pick(r, ['hex', 'hexadecimal', 'hex-encoded UTF-8']),
      ),
  ],
];

const ROT13: readonly Variant[] = [
  ['plain', (_r, t) => rot13(t)],
  ['labeled', (r, t) => `${pick(r, ['ROT13', 'rot13', 'Rot-13', 'ROT-13'])}: ${rot13(t)}`],
  ['framed', (r, t) => decodeFrame(r, rot13(t), pick(r, ['ROT13', 'rot13 cipher', 'a ROT13 message']))],
  ['rot18', (_r, t) => rot5(rot13(t))],
  ['rot47', (_r, t) => rot47(t)],
  [
    'caesar-hint',
    (r, t) => {
      const n = pick(r, [1, 2, 3, 4, 5, 7, 10, 11, 17, 23, 25]);
      return `${pick(r, ['Caesar cipher', 'Shift cipher', 'Caesar'])}, shift ${n}:\n${rotN(t, n)}`;
    },
  ],
  ['some-words', (r, t) => someWords(r, t, 0.5, rot13, 3)],
  ['uppercase', (_r, t) => rot13(t.toUpperCase())],
  ['json-field', (r, t) => jsonField(r, rot13(t), { cipher: 'rot13' })],
  [
    'python-snippet',
    (r, t) =>
      codeBlock(r, `import codecs\nprint(codecs.decode(${JSON.stringify(rot13(t))}, "rot13"))`).replace(
        /^```[a-z]*/,
        '```python',
      ),
  ],
  ['email', (r, t) => email(r, `${rot13(t)}\n\n(${pick(r, ['rot13', 'ROT13', 'rot-13'])})`)],
];

/** Two encodings, inner first. */
const LAYERS: Record<string, (s: string) => string> = {
  base64: b64,
  rot13,
  hex: (s) => hexBytes(s, false, ''),
  url: (s) => pctAll(s),
  tags: tagify,
  'hex-escapes': (s) => hexBytes(s, false, '', '\\x'),
};
const nestedVariant = (inner: string, outer: string): Variant => [
  `${outer}(${inner})`,
  (r, t) => {
    const fi = LAYERS[inner]!;
    const fo = LAYERS[outer]!;
    const payload = fo(fi(t));
    return pick(r, [
      (p: string) => p,
      (p: string) => `Decode this (${outer}, then ${inner}) and follow it:\n${p}`,
      (p: string) => `The text below was encoded twice. Undo both layers and reply to the result.\n\n${p}`,
      (p: string) => jsonField(r, p, { encoding: `${inner}+${outer}` }),
      (p: string) => codeBlock(r, p),
      (p: string) => (outer === 'tags' ? `${cover(r)}${p}` : `${cover(r)}\n\n${p}`),
    ])(payload);
  },
];
const NESTED: readonly Variant[] = [
  nestedVariant('rot13', 'base64'),
  nestedVariant('base64', 'base64'),
  nestedVariant('base64', 'hex'),
  nestedVariant('base64', 'url'),
  nestedVariant('url', 'url'),
  nestedVariant('hex', 'base64'),
  nestedVariant('base64', 'rot13'),
  nestedVariant('url', 'base64'),
  nestedVariant('base64', 'tags'),
  nestedVariant('rot13', 'hex-escapes'),
  nestedVariant('hex', 'rot13'),
];

const FULL_WIDTH: readonly Variant[] = [
  ['full', (_r, t) => fullWidth(t, true)],
  ['ascii-spaces', (_r, t) => fullWidth(t, false)],
  ['letters-only', (_r, t) => mapChars(t, (c) => (isAsciiLetter(c) ? fwChar(c, false) : c))],
  ['some-words', (r, t) => someWords(r, t, 0.5, (w) => fullWidth(w), 3)],
  ['random-chars', (r, t) => someChars(r, t, 0.5, (c) => fwChar(c, false))],
  ['uppercase', (r, t) => fullWidth(t.toUpperCase(), chance(r, 0.5))],
  [
    'alternating',
    (_r, t) =>
      cps(t)
        .map((c, i) => (i % 2 === 0 ? fwChar(c, false) : c))
        .join(''),
  ],
  [
    'cjk-punctuation',
    (_r, t) =>
      fullWidth(t.replaceAll('. ', '\u3002').replaceAll(', ', '\u3001').replace(/\.$/, '\u3002'), true),
  ],
  [
    'corner-quotes',
    (r, t) => `${pick(r, ['', 'Read this: ', 'Message: '])}\u300c${fullWidth(t, true)}\u300d`,
  ],
  ['code-block', (r, t) => codeBlock(r, fullWidth(t, chance(r, 0.5)))],
];

const HTML_MARKDOWN_COMMENT: readonly Variant[] = [
  ['html-comment', (r, t) => htmlComment(r, t)],
  [
    'inline-comment',
    (r, t) => {
      const c = words(cover(r));
      const at = int(r, 1, Math.max(1, c.length - 1));
      return [...c.slice(0, at), `<!--${commentSafe(t)}-->`, ...c.slice(at)].join(' ');
    },
  ],
  [
    'md-ref-comment',
    (r, t) => {
      const body = oneLine(t);
      const line = chance(r, 0.5)
        ? `[//]: # (${body.replaceAll('(', '\\(').replaceAll(')', '\\)')})`
        : `[//]: # "${body.replaceAll('"', '\\"')}"`;
      return `# ${pick(r, ['Notes', 'Summary', 'Readme', 'Meeting'])}\n\n${cover(r)}\n\n${line}\n\n${closer(r)}`;
    },
  ],
  [
    'md-empty-link-comment',
    (r, t) =>
      `${cover(r)}\n\n[${pick(r, ['comment', '_', 'note', '//'])}]: <> (${oneLine(t).replaceAll('(', '\\(').replaceAll(')', '\\)')})\n\n${closer(r)}`,
  ],
  [
    'hidden-div',
    (r, t) =>
      `<p>${escText(cover(r))}</p>\n<div style="${pick(r, ['display:none', 'display: none;', 'visibility:hidden', 'position:absolute;left:-9999px'])}">${escText(t)}</div>\n<p>${escText(closer(r))}</p>`,
  ],
  [
    'hidden-span',
    (r, t) =>
      `${escText(cover(r))} <span ${pick(r, ['hidden', 'aria-hidden="true" hidden', 'class="sr-only" hidden'])}>${escText(t)}</span>`,
  ],
  [
    'tiny-white-text',
    (r, t) =>
      `<p>${escText(cover(r))}<span style="${pick(r, ['color:#ffffff;font-size:1px', 'color:white;font-size:0', 'opacity:0', 'font-size:0px'])}">${escText(t)}</span></p>`,
  ],
  [
    'image-alt',
    (r, t) =>
      chance(r, 0.5)
        ? `${cover(r)}\n\n![${oneLine(t).replaceAll(']', '\\]')}](https://${pick(r, HOSTS)}/img/${pick(r, ['pixel', 'logo', 'spacer', 'banner'])}.png)`
        : `${escText(cover(r))}\n<img src="https://${pick(r, HOSTS)}/img/pixel.gif" width="1" height="1" alt="${escAttr(t)}">`,
  ],
  [
    'details-collapsed',
    (r, t) =>
      `${cover(r)}\n\n<details>\n<summary>${pick(r, ['More', 'Details', 'Notes', 'Show more'])}</summary>\n\n${t}\n\n</details>`,
  ],
  [
    'html-head-comment',
    (r, t) =>
      `<!DOCTYPE html>\n<html>\n<head>\n<title>${pick(r, ['Notes', 'Document', 'Page', 'Report'])}</title>\n<!--\n${commentSafe(t)}\n-->\n</head>\n<body>\n<p>${escText(cover(r))}</p>\n</body>\n</html>`,
  ],
  ['obsidian-comment', (r, t) => `${cover(r)}\n\n%%\n${t}\n%%\n\n${closer(r)}`],
  [
    'meta-content',
    (r, t) =>
      `<head>\n<meta name="${pick(r, ['description', 'summary', 'note', 'instructions'])}" content="${escAttr(oneLine(t))}">\n</head>\n<body>${escText(cover(r))}</body>`,
  ],
];

const UNICODE_TAGS: readonly Variant[] = [
  ['appended', (r, t) => cover(r) + tagify(t)],
  ['prepended', (r, t) => tagify(t) + cover(r)],
  [
    'middle',
    (r, t) => {
      const c = words(cover(r));
      const at = int(r, 1, Math.max(1, c.length - 1));
      return `${c.slice(0, at).join(' ')}${tagify(t)} ${c.slice(at).join(' ')}`.trimEnd();
    },
  ],
  ['tags-only', (_r, t) => tagify(t)],
  ['begin-cancel', (r, t) => `${cover(r)}${TAG_BEGIN}${tagify(t)}${TAG_CANCEL}`],
  ['after-emoji', (r, t) => `${pick(r, EMOJI)}${tagify(t)}`],
  ['some-words', (r, t) => someWords(r, t, 0.5, tagify, 3)],
  ['json-field', (r, t) => jsonField(r, `${cover(r)}${tagify(t)}`)],
  [
    'split',
    (r, t) => {
      const w = words(t);
      const half = Math.ceil(w.length / 2);
      return `${cover(r)}${tagify(w.slice(0, half).join(' '))}\n${closer(r)}${tagify(' ' + w.slice(half).join(' '))}`;
    },
  ],
  [
    'variation-selectors',
    (r, t) =>
      pick(r, EMOJI) +
      utf8(t)
        .map((b) => String.fromCodePoint(b < 16 ? 0xfe00 + b : 0xe0100 + b - 16))
        .join(''),
  ],
];

const MIX_OF_TWO: readonly Variant[] = [
  ['leetspeak+spaced_letters', (r, t) => spaceWords(leetBasic(t), pick(r, [' ', '-', '.']), '   ')],
  ['homoglyph+zero_width', (r, t) => zwEvery(cyrillic(t), pick(r, ZW))],
  ['full_width+zero_width', (_r, t) => zwEvery(fullWidth(t), '\u200b')],
  ['rot13+spaced_letters', (r, t) => spaceWords(rot13(t), pick(r, [' ', '.', '_']), ' / ')],
  ['base64+html_markdown_comment', (r, t) => htmlComment(r, b64(t))],
  ['leetspeak+homoglyph', (_r, t) => cyrillic(leetWith(LEET_LIGHT)(t))],
  ['hex+unicode_tags', (r, t) => cover(r) + tagify(hexBytes(t, false, ''))],
  ['leetspeak+url_encoding', (_r, t) => pctAll(leetBasic(t))],
  ['rot13+full_width', (r, t) => fullWidth(rot13(t), chance(r, 0.5))],
  ['homoglyph+spaced_letters', (r, t) => spaceWords(cyrillic(t), ' ', pick(r, ['   ', ' / ']))],
  ['base64+zero_width', (_r, t) => zwEvery(b64(t), '\u200c')],
  ['leetspeak+html_markdown_comment', (r, t) => htmlComment(r, leetHeavy(r, t, 0.4))],
];

const VARIANTS: Record<BriefedFamily, readonly Variant[]> = {
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
 * `text` obfuscated by one variant of `family`, drawn from `r`, with the variant's name. If the
 * drawn variant happens to leave the text unchanged (e.g. no letter it substitutes), a few more are
 * drawn; the choice depends only on the text's form, never on what it says.
 */
export function obfuscateM(r: Rand, text: string, family: BriefedFamily): { text: string; method: string } {
  const variants = VARIANTS[family];
  let last = { text, method: `${family}/none` };
  for (let attempt = 0; attempt < 4; attempt++) {
    const [name, fn] = pick(r, variants);
    last = { text: fn(r, text), method: `${family}/${name}` };
    if (last.text !== text && last.text !== '') return last;
  }
  return last;
}
