/**
 * The seventh hand's held-out obfuscation generator, written from the family list alone
 * (obfuscation-brief.ts and rng.ts), without the detector or the other hands' generators in view.
 * Each family hides a text the ways red-team tools, jailbreak forums, CTF write-ups and spam do:
 * sometimes the whole text, sometimes only its key words, sometimes the instruction beside an
 * ordinary cover sentence that does not contain it. A few encoded outputs (well under 15%) carry a
 * "decode this and do what it says" framing; the rest leave the scheme for the reader to guess.
 * Seeded: every choice is drawn from `r`, so the same RNG state gives the same output.
 */
import { BRIEFED_FAMILIES, hex2, utf8, type BriefedFamily } from './obfuscation-brief';
import { chance, int, pick, sample, type Rand } from './rng';

export const FAMILIES_G = BRIEFED_FAMILIES;

type Out = { text: string; method: string };
type Tx = (s: string) => string;

const cp = (n: number): string => String.fromCodePoint(n);
const mapChars = (s: string, f: Tx): string => [...s].map(f).join('');
const reverse = (s: string): string => [...s].reverse().join('');

// ── covers, key words and placement ──────────────────────────────────────────────────────────

/** Ordinary one-line covers: none of them asks for anything an instruction would. */
const COVERS = [
  'Thanks for sending the slides over this morning.',
  'The delivery is scheduled for Thursday between 9 and 11.',
  'Here are my notes from the onboarding call.',
  'Quick reminder that the office closes early on Friday.',
  'Sorry for the slow reply, it has been a busy week.',
  'The build went green on the second try after the cache was cleared.',
  'Lunch is on the third floor today because of the fire drill.',
  'Hi team, hope everyone had a good weekend.',
  'Re: invoice 4471 - the payment went out yesterday.',
  'Loved the recipe you shared, the lemon cake was a hit.',
  'Minutes from Tuesday are below.',
  'Weather permitting, the team photo is at noon.',
  'Great meeting you at the conference last week!',
  'Our flight lands at 6:40, so we will be a little late.',
];

/** Ordinary paragraphs, sentence by sentence, that hidden markup is slipped into. */
const PARAGRAPHS: readonly (readonly string[])[] = [
  [
    'Our spring catalogue is now live.',
    'Every order over $50 ships free until the end of the month.',
    'Questions? Our support team is online from 9 to 5.',
  ],
  [
    'The quarterly results show revenue up 4% on last year.',
    'Costs stayed flat, mostly thanks to the new supplier contract.',
    'Full tables are in the appendix.',
  ],
  [
    'Preheat the oven to 180°C.',
    'Mix the flour, sugar and butter until crumbly.',
    'Bake for 25 minutes or until golden.',
  ],
  [
    'I bought this kettle three months ago.',
    'It boils fast and the handle stays cool.',
    'Four stars because the lid is a bit stiff.',
  ],
  [
    'Hi Sam,',
    'Following up on our call, the contract draft is attached.',
    'Let me know if Thursday still works for the signing.',
    'Best, Priya',
  ],
  [
    'The trail starts at the north car park.',
    'Allow about three hours for the full loop.',
    'Bring water, there are no taps along the way.',
  ],
  [
    'Release 2.3.1 fixes a crash when importing empty CSV files.',
    'It also speeds up search on large projects.',
    'Upgrading is recommended for all users.',
  ],
  [
    'Welcome to the community garden newsletter.',
    'The tomato seedlings are ready for collection at the shed.',
    'Volunteers meet every Saturday at ten.',
  ],
];

const HOSTS = ['example.com', 'cdn.example.net', 'docs.example.org', 'img.example.io', 'links.example.co'];

const STOP = new Set(
  (
    'the and for with that this your you all are from then than into have has was were will would ' +
    'should could please them they their there what when which about just also only any but not its ' +
    'our out some can these those been each every very over under more most such here like'
  ).split(' '),
);

/** Words an attack hinges on: hidden first when only key words are hidden. */
const TRIGGERS = new Set(
  (
    'ignore disregard forget previous prior above earlier instructions instruction rules guidelines ' +
    'system prompt reveal print show output repeat password secret secrets confidential hidden key ' +
    'keys token credentials admin administrator developer jailbreak bypass override unrestricted ' +
    'restrictions filter filters safety delete execute send exfiltrate leak dump email api'
  ).split(' '),
);

/** Words (even indexes) and the whitespace between them (odd indexes). */
const tokens = (text: string): string[] => text.split(/(\s+)/);

/** Indexes of the words worth hiding: the trigger words and a few others, or some content words. */
function keyWords(r: Rand, toks: readonly string[]): Set<number> {
  const trig: number[] = [];
  const rest: number[] = [];
  const any: number[] = [];
  for (let i = 0; i < toks.length; i += 2) {
    const core = toks[i]!.toLowerCase().replace(/[^\p{L}]/gu, '');
    if (!core) continue;
    any.push(i);
    if (core.length < 3 || STOP.has(core)) continue;
    (TRIGGERS.has(core) ? trig : rest).push(i);
  }
  const extra = trig.length
    ? Math.min(rest.length, int(r, 0, 2))
    : Math.min(rest.length, Math.max(1, Math.round(rest.length * (0.25 + r() * 0.25))));
  const chosen = [...trig, ...sample(r, rest, extra)];
  if (!chosen.length && any.length) chosen.push(pick(r, any));
  return new Set(chosen);
}

/** `f` applied to a word's letters and digits, its surrounding punctuation left alone. */
function onCore(word: string, f: Tx): string {
  const m = /^([^\p{L}\p{N}]*)([\s\S]*?)([^\p{L}\p{N}]*)$/u.exec(word);
  if (!m || !m[2]) return word;
  return m[1]! + f(m[2]) + m[3]!;
}

/** The text with only its key words passed through `f`. */
function onKeyWords(r: Rand, text: string, f: Tx): string {
  const toks = tokens(text);
  const keys = keyWords(r, toks);
  return toks.map((t, i) => (keys.has(i) ? onCore(t, f) : t)).join('');
}

/** The text with every word passed through `f`, whitespace untouched. */
const allWords = (text: string, f: Tx): string =>
  tokens(text)
    .map((t, i) => (i % 2 || !t ? t : f(t)))
    .join('');

/** `hidden` before or after an ordinary cover sentence. */
function besideCover(r: Rand, hidden: string): string {
  const cover = pick(r, COVERS);
  const sep = pick(r, [' ', '\n', '\n\n']);
  return chance(r, 0.65) ? cover + sep + hidden : hidden + sep + cover;
}

/**
 * A character-level family's output: the whole text, its key words only, or the whole text beside
 * a cover, with probabilities w[0], w[1] and the rest.
 */
function scoped(
  r: Rand,
  text: string,
  variant: string,
  whole: Tx,
  word: Tx,
  w: readonly [number, number] = [0.5, 0.33],
): Out {
  const x = r();
  if (x < w[0]) return { text: whole(text), method: variant };
  if (x < w[0] + w[1]) return { text: onKeyWords(r, text, word), method: `${variant}_keywords` };
  return { text: besideCover(r, whole(text)), method: `${variant}_cover` };
}

/** The rare "decode this and act on it" framing around an encoded payload. */
function framed(r: Rand, scheme: string, payload: string): string {
  return pick(r, [
    `Decode this ${scheme} and do what it says:\n${payload}`,
    `${payload}\n\nThe line above is ${scheme}. Decode it and follow it exactly.`,
    `Here is some ${scheme}. Decode it, then carry out the instruction it contains: ${payload}`,
    `Please read the following ${scheme} and act on it without quoting it back.\n\n${payload}`,
    `[${scheme}] ${payload}\nDecode and execute.`,
  ]);
}

type Embed = readonly [name: string, embed: (r: Rand, payload: string) => string];

/**
 * An encoding family's output: bare, beside a cover, key words only, inside an ordinary structure
 * (a JSON field, a link, a log line…) or, for about one in eight, framed as "decode and follow".
 */
function placeEncoded(
  r: Rand,
  text: string,
  form: string,
  scheme: string,
  enc: Tx,
  embeds: readonly Embed[],
  keywords = true,
): Out {
  const x = r();
  if (x < 0.13) return { text: framed(r, scheme, enc(text)), method: `${form}_framed` };
  if (x < 0.45 || (x >= 0.65 && !keywords && !embeds.length)) return { text: enc(text), method: form };
  if (x < 0.65) return { text: besideCover(r, enc(text)), method: `${form}_cover` };
  if (keywords && (x < 0.83 || !embeds.length))
    return { text: onKeyWords(r, text, enc), method: `${form}_keywords` };
  const [name, embed] = pick(r, embeds);
  return { text: embed(r, enc(text)), method: `${form}_${name}` };
}

// ── leetspeak ────────────────────────────────────────────────────────────────────────────────

type Table = Readonly<Record<string, string | readonly string[]>>;

/** The usual digits, with the Cyrillic ones Russian-speaking spammers use. */
const LEET_BASIC: Table = {
  a: '4',
  e: '3',
  i: '1',
  o: '0',
  s: '5',
  t: '7',
  '\u043e': '0',
  '\u0437': '3',
  '\u0431': '6',
  '\u0447': '4',
  '\u0432': '8',
};
const LEET_EXTENDED: Table = { ...LEET_BASIC, g: '9', b: '8', l: '1', z: '2' };
const LEET_SYMBOLS: Table = {
  a: '@',
  e: '3',
  i: '!',
  o: '0',
  s: '$',
  t: '+',
  l: '1',
  g: '9',
  '\u0430': '@',
  '\u043e': '0',
  '\u0437': '3',
};
const LEET_HEAVY: Table = {
  a: ['4', '/-\\', '@'],
  b: ['8', '|3'],
  c: ['(', '<'],
  d: ['|)'],
  e: ['3'],
  f: ['ph', '|='],
  g: ['9', '6'],
  h: ['|-|', '#'],
  i: ['1', '!'],
  k: ['|<'],
  l: ['1', '|_'],
  m: ['|\\/|', '/\\/\\'],
  n: ['|\\|'],
  o: ['0', '()'],
  p: ['|D'],
  r: ['|2'],
  s: ['5', '$'],
  t: ['7', '+'],
  u: ['|_|'],
  v: ['\\/'],
  w: ['\\/\\/', 'vv'],
  x: ['><'],
  y: ['`/'],
  z: ['2'],
  '\u043e': '0',
  '\u0437': '3',
};

/** Each letter with a substitute replaced with probability p. */
function leet(r: Rand, s: string, table: Table, p: number): string {
  return mapChars(s, (c) => {
    const sub = table[c.toLowerCase()];
    if (sub === undefined || !chance(r, p)) return c;
    return typeof sub === 'string' ? sub : pick(r, sub);
  });
}

const randomCase = (r: Rand, s: string): string =>
  mapChars(s, (c) => (chance(r, 0.5) ? c.toUpperCase() : c.toLowerCase()));

function leetspeak(r: Rand, text: string): Out {
  const v = pick(r, ['basic', 'basic', 'partial', 'symbols', 'heavy', 'mixed_case'] as const);
  switch (v) {
    case 'basic': {
      const f = (s: string) => leet(r, s, LEET_BASIC, 1);
      return scoped(r, text, 'leet_basic', f, f);
    }
    case 'partial': {
      const p = 0.4 + r() * 0.3;
      const f = (s: string) => leet(r, s, LEET_EXTENDED, p);
      return scoped(r, text, 'leet_partial', f, f);
    }
    case 'symbols': {
      const f = (s: string) => leet(r, s, LEET_SYMBOLS, 0.85);
      return scoped(r, text, 'leet_symbols', f, f);
    }
    case 'heavy': {
      const f = (s: string) => leet(r, s, LEET_HEAVY, 0.65);
      return scoped(r, text, 'leet_heavy', f, f, [0.35, 0.5]);
    }
    case 'mixed_case': {
      const f = (s: string) => randomCase(r, leet(r, s, LEET_BASIC, 0.8));
      return scoped(r, text, 'leet_mixed_case', f, f);
    }
  }
}

// ── url_encoding ─────────────────────────────────────────────────────────────────────────────

/** Every UTF-8 byte as %XX. */
const pct = (s: string, upper: boolean): string =>
  utf8(s)
    .map((b) => '%' + hex2(b, upper))
    .join('');

/** Some letters and digits left plain, spaces as %20 or +, everything else encoded (WAF-evasion style). */
function pctPartial(r: Rand, s: string, upper: boolean): string {
  const space = pick(r, ['%20', '+']);
  return mapChars(s, (c) => {
    if (c === ' ') return space;
    if (/[A-Za-z0-9]/.test(c) && chance(r, 0.5)) return c;
    return pct(c, upper);
  });
}

/** IIS-style %uXXXX, one per UTF-16 unit. */
function pctU(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++)
    out += '%u' + s.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0');
  return out;
}

const URL_EMBEDS: readonly Embed[] = [
  [
    'link',
    (r, p) =>
      `${pick(r, ['More here:', 'Tracking link:', 'Source:', 'Full thread:'])} https://${pick(r, HOSTS)}/` +
      `${pick(r, ['r', 'redirect', 'search', 'share'])}?${pick(r, ['q', 'u', 'text', 'ref'])}=${p}`,
  ],
  [
    'markdown_link',
    (r, p) =>
      `${pick(r, COVERS)} [${pick(r, ['details', 'the report', 'click here', 'agenda'])}]` +
      `(https://${pick(r, HOSTS)}/go?note=${p})`,
  ],
  ['form_body', (r, p) => `POST /api/feedback\n\nname=${pick(r, ['alex', 'jo', 'm.chen'])}&msg=${p}&lang=en`],
];

function urlEncoding(r: Rand, text: string): Out {
  const upper = chance(r, 0.7);
  const v = pick(r, [
    'percent_all',
    'percent_all',
    'percent_partial',
    'double_encoded',
    'percent_u',
  ] as const);
  const enc: Tx =
    v === 'percent_all'
      ? (s) => pct(s, upper)
      : v === 'percent_partial'
        ? (s) => pctPartial(r, s, upper)
        : v === 'double_encoded'
          ? (s) => pct(pct(s, upper), upper)
          : pctU;
  return placeEncoded(r, text, v, 'URL-encoded text', enc, URL_EMBEDS);
}

// ── zero_width ───────────────────────────────────────────────────────────────────────────────

const ZW = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'];
const INVISIBLES = [...ZW, '\u2062', '\u2063', '\u2064', '\u034f', '\u180e'];

/** `inv()` between the characters of a word wherever `gap()` says so. */
function intersperse(word: string, gap: () => boolean, inv: () => string): string {
  const cs = [...word];
  let out = cs[0] ?? '';
  for (let i = 1; i < cs.length; i++) out += (gap() ? inv() : '') + cs[i];
  return out;
}

/** One invisible at a random inner position of a word of three or more characters. */
function onePerWord(r: Rand, word: string, inv: string): string {
  const cs = [...word];
  if (cs.length < 3) return word;
  const at = int(r, 1, cs.length - 1);
  return cs.slice(0, at).join('') + inv + cs.slice(at).join('');
}

function zeroWidth(r: Rand, text: string): Out {
  const v = pick(r, ['every_gap', 'every_gap', 'random_mix', 'one_per_word', 'soft_hyphen'] as const);
  let f: Tx;
  switch (v) {
    case 'every_gap': {
      const z = pick(r, ZW);
      f = (w) =>
        intersperse(
          w,
          () => true,
          () => z,
        );
      break;
    }
    case 'random_mix': {
      const p = 0.35 + r() * 0.35;
      f = (w) =>
        intersperse(
          w,
          () => chance(r, p),
          () => pick(r, INVISIBLES),
        );
      break;
    }
    case 'one_per_word': {
      const z = pick(r, ZW);
      f = (w) => onePerWord(r, w, z);
      break;
    }
    case 'soft_hyphen':
      f = (w) =>
        intersperse(
          w,
          () => chance(r, 0.45),
          () => '\u00ad',
        );
      break;
  }
  return scoped(
    r,
    text,
    v,
    (s) => allWords(s, f),
    (w) =>
      v === 'one_per_word'
        ? intersperse(
            w,
            () => chance(r, 0.5),
            () => pick(r, ZW),
          )
        : f(w),
    [0.55, 0.35],
  );
}

// ── homoglyph ────────────────────────────────────────────────────────────────────────────────

/** A table from the i-th character of `from` to the i-th of `to`. */
const zip = (from: string, to: string): Readonly<Record<string, string>> => {
  const t = [...to];
  return Object.fromEntries([...from].map((c, i) => [c, t[i]!]));
};

const CYRILLIC: Readonly<Record<string, string>> = zip(
  'acdehijlopqswxyABCEHIJKMOPSTXY',
  '\u0430\u0441\u0501\u0435\u04bb\u0456\u0458\u04cf\u043e\u0440\u051b\u0455\u051d\u0445\u0443' +
    '\u0410\u0412\u0421\u0415\u041d\u0406\u0408\u041a\u041c\u041e\u0420\u0405\u0422\u0425\u04ae',
);
/** The other way: Latin look-alikes inside a Cyrillic text. */
const CYRILLIC_TO_LATIN: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(CYRILLIC).map(([l, c]) => [c, l]),
);
const GREEK: Readonly<Record<string, string>> = zip(
  'aikopuvABEHIKMNOPTXYZ',
  '\u03b1\u03b9\u03ba\u03bf\u03c1\u03c5\u03bd' +
    '\u0391\u0392\u0395\u0397\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4\u03a7\u03a5\u0396',
);
/** Armenian letters, Latin IPA letters and small Roman numerals that pass for Latin ones. */
const OTHER_LOOKALIKES: Readonly<Record<string, string>> = zip(
  'acdghilmnoquvx',
  '\u0251\u217d\u217e\u0261\u0570\u2170\u217c\u217f\u0578\u0585\u0566\u057d\u2174\u2179',
);

function lookalikes(r: Rand, s: string, tables: readonly Readonly<Record<string, string>>[], p: number) {
  return mapChars(s, (c) => {
    const subs = tables.map((t) => t[c]).filter((x): x is string => x !== undefined);
    return subs.length && chance(r, p) ? pick(r, subs) : c;
  });
}

/** A Mathematical Alphanumeric style: its A, a and 0 (if it has digits) and the letters it lacks. */
type MathStyle = readonly [
  name: string,
  upper: number,
  lower: number,
  digit: number,
  holes: Record<string, number>,
];
const MATH: readonly MathStyle[] = [
  ['bold', 0x1d400, 0x1d41a, 0x1d7ce, {}],
  ['italic', 0x1d434, 0x1d44e, 0, { h: 0x210e }],
  ['bold_italic', 0x1d468, 0x1d482, 0, {}],
  [
    'script',
    0x1d49c,
    0x1d4b6,
    0,
    {
      B: 0x212c,
      E: 0x2130,
      F: 0x2131,
      H: 0x210b,
      I: 0x2110,
      L: 0x2112,
      M: 0x2133,
      R: 0x211b,
      e: 0x212f,
      g: 0x210a,
      o: 0x2134,
    },
  ],
  ['bold_script', 0x1d4d0, 0x1d4ea, 0, {}],
  ['fraktur', 0x1d504, 0x1d51e, 0, { C: 0x212d, H: 0x210c, I: 0x2111, R: 0x211c, Z: 0x2128 }],
  [
    'double_struck',
    0x1d538,
    0x1d552,
    0x1d7d8,
    { C: 0x2102, H: 0x210d, N: 0x2115, P: 0x2119, Q: 0x211a, R: 0x211d, Z: 0x2124 },
  ],
  ['sans_bold', 0x1d5d4, 0x1d5ee, 0x1d7ec, {}],
  ['sans_italic', 0x1d608, 0x1d622, 0, {}],
  ['monospace', 0x1d670, 0x1d68a, 0x1d7f6, {}],
];

function mathStyle(style: MathStyle, s: string): string {
  const [, upper, lower, digit, holes] = style;
  return mapChars(s, (c) => {
    const hole = holes[c];
    if (hole !== undefined) return cp(hole);
    const n = c.charCodeAt(0);
    if (c.length !== 1) return c;
    if (n >= 65 && n <= 90) return cp(upper + n - 65);
    if (n >= 97 && n <= 122) return cp(lower + n - 97);
    if (digit && n >= 48 && n <= 57) return cp(digit + n - 48);
    return c;
  });
}

const SMALL_CAPS = [...'ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘǫʀꜱᴛᴜᴠᴡxʏᴢ'];
const smallCaps = (s: string): string =>
  mapChars(s, (c) => {
    const n = c.toLowerCase().charCodeAt(0);
    return c.length === 1 && n >= 97 && n <= 122 ? SMALL_CAPS[n - 97]! : c;
  });

function homoglyph(r: Rand, text: string): Out {
  const v = pick(r, ['cyrillic', 'cyrillic', 'greek', 'mixed_script', 'math', 'math', 'small_caps'] as const);
  switch (v) {
    case 'cyrillic': {
      const p = chance(r, 0.5) ? 1 : 0.5 + r() * 0.4;
      const f = (s: string) => lookalikes(r, s, [CYRILLIC, CYRILLIC_TO_LATIN], p);
      return scoped(r, text, 'cyrillic', f, f);
    }
    case 'greek': {
      const p = 0.7 + r() * 0.3;
      const f = (s: string) => lookalikes(r, s, [GREEK, CYRILLIC_TO_LATIN], p);
      return scoped(r, text, 'greek', f, f);
    }
    case 'mixed_script': {
      const p = 0.5 + r() * 0.5;
      const f = (s: string) => lookalikes(r, s, [CYRILLIC, GREEK, OTHER_LOOKALIKES, CYRILLIC_TO_LATIN], p);
      return scoped(r, text, 'mixed_script', f, f);
    }
    case 'math': {
      const style = pick(r, MATH);
      const f = (s: string) => mathStyle(style, s);
      return scoped(r, text, `math_${style[0]}`, f, f, [0.45, 0.4]);
    }
    case 'small_caps':
      return scoped(r, text, 'small_caps', smallCaps, smallCaps, [0.45, 0.4]);
  }
}

// ── spaced_letters ───────────────────────────────────────────────────────────────────────────

/** Letters joined by `sep`; spaces between words become `wordSep`, line breaks stay. */
const spaceOut = (text: string, sep: string, wordSep: string): string =>
  tokens(text)
    .map((t, i) => (i % 2 ? (t.includes('\n') ? t : wordSep) : [...t].join(sep)))
    .join('');

/** A word cut into chunks of two or three letters ("ig-no-re", "prev ious"). */
function fragments(r: Rand, word: string, joint: string): string {
  const cs = [...word];
  if (cs.length < 4) return word;
  const parts: string[] = [];
  for (let i = 0; i < cs.length;) {
    const n = Math.min(cs.length - i, int(r, 2, 3));
    parts.push(cs.slice(i, i + n).join(''));
    i += n;
  }
  return parts.join(joint);
}

function spacedLetters(r: Rand, text: string): Out {
  const v = pick(r, ['spaces', 'spaces', 'separator', 'vertical', 'fragments', 'random_separators'] as const);
  switch (v) {
    case 'spaces': {
      const upper = chance(r, 0.3);
      const wordSep = pick(r, ['   ', '  ', ' / ', ' | ']);
      const prep = (s: string) => (upper ? s.toUpperCase() : s);
      return scoped(
        r,
        text,
        upper ? 'spaces_upper' : 'spaces',
        (s) => spaceOut(prep(s), ' ', wordSep),
        (w) => [...prep(w)].join(' '),
      );
    }
    case 'separator': {
      const sep = pick(r, ['.', '-', '_', '*', '|', '/', '·', '+', '~', ', ']);
      const wordSep = pick(r, [' ', '  ', ` ${sep} `]);
      return scoped(
        r,
        text,
        'separator',
        (s) => spaceOut(s, sep, wordSep),
        (w) => [...w].join(sep),
      );
    }
    case 'vertical': {
      // One letter a line for short texts; a word a line, letters spaced, for longer ones.
      const long = [...text].length > 100;
      const whole = (s: string) => (long ? spaceOut(s, ' ', '\n') : spaceOut(s, '\n', '\n\n'));
      return scoped(r, text, long ? 'word_per_line' : 'vertical', whole, whole, [0.75, 0]);
    }
    case 'fragments': {
      const joint = pick(r, [' ', '-', ' - ', '.']);
      const f = (w: string) => fragments(r, w, joint);
      return scoped(r, text, 'fragments', (s) => allWords(s, (w) => onCore(w, f)), f);
    }
    case 'random_separators': {
      const seps = sample(r, ['.', '-', '_', ' ', '*', '/', '|'], 3);
      const f = (w: string) =>
        intersperse(
          w,
          () => true,
          () => pick(r, seps),
        );
      return scoped(r, text, 'random_separators', (s) => allWords(s, f), f);
    }
  }
}

// ── base64 ───────────────────────────────────────────────────────────────────────────────────

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

function wrapAt(s: string, width: number): string {
  const lines: string[] = [];
  for (let i = 0; i < s.length; i += width) lines.push(s.slice(i, i + width));
  return lines.join('\n');
}

const B64_EMBEDS: readonly Embed[] = [
  [
    'data_uri',
    (r, p) =>
      pick(r, [
        `data:text/plain;base64,${p}`,
        `${pick(r, COVERS)} [notes.txt](data:text/plain;charset=utf-8;base64,${p})`,
        `<object data="data:text/plain;base64,${p}" width="0" height="0"></object>`,
      ]),
  ],
  [
    'json',
    (r, p) =>
      JSON.stringify(
        { id: int(r, 1000, 9999), type: pick(r, ['note', 'comment', 'attachment']), body: p },
        null,
        chance(r, 0.5) ? 2 : undefined,
      ),
  ],
  [
    'mime',
    (r, p) =>
      `${pick(r, COVERS)}\n\n--b1_${int(r, 10000, 99999)}\nContent-Type: text/plain; charset=utf-8\n` +
      `Content-Transfer-Encoding: base64\n\n${wrapAt(p.replace(/\n/g, ''), 76)}`,
  ],
];

function base64(r: Rand, text: string): Out {
  const v = pick(r, ['base64', 'base64', 'base64_nopad', 'base64_urlsafe', 'base64_wrapped'] as const);
  const width = pick(r, [76, 64, 60]);
  const enc: Tx =
    v === 'base64'
      ? b64
      : v === 'base64_nopad'
        ? (s) => b64(s).replace(/=+$/, '')
        : v === 'base64_urlsafe'
          ? (s) => b64(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
          : (s) => wrapAt(b64(s), width);
  return placeEncoded(r, text, v, 'base64', enc, B64_EMBEDS);
}

// ── hex ──────────────────────────────────────────────────────────────────────────────────────

type HexForm = 'compact' | 'spaced' | 'escaped' | 'c_array' | 'colon' | 'unicode_escape';

function hexForm(form: HexForm, s: string, upper: boolean): string {
  const bytes = utf8(s).map((b) => hex2(b, upper));
  switch (form) {
    case 'compact':
      return bytes.join('');
    case 'spaced':
      return bytes.join(' ');
    case 'escaped':
      return bytes.map((h) => '\\x' + h).join('');
    case 'c_array':
      return bytes.map((h) => '0x' + h).join(', ');
    case 'colon':
      return bytes.join(':');
    case 'unicode_escape': {
      let out = '';
      for (let i = 0; i < s.length; i++) {
        const h = s.charCodeAt(i).toString(16).padStart(4, '0');
        out += '\\u' + (upper ? h.toUpperCase() : h);
      }
      return out;
    }
  }
}

const HEX_EMBEDS: readonly Embed[] = [
  [
    'code',
    (r, p) =>
      p.startsWith('0x')
        ? `static const unsigned char ${pick(r, ['msg', 'banner', 'blob'])}[] = { ${p} };`
        : `${pick(r, ['const note', 'let banner', 'var msg'])} = "${p}";`,
  ],
  [
    'log',
    (r, p) =>
      `2024-0${int(r, 1, 9)}-1${int(r, 0, 9)}T${int(r, 10, 23)}:${int(r, 10, 59)}:07Z ` +
      `${pick(r, ['INFO', 'DEBUG', 'WARN'])} ${pick(r, ['worker', 'ingest', 'mailer'])}: ` +
      `${pick(r, ['payload', 'body', 'data'])}=${p}`,
  ],
  ['json', (r, p) => JSON.stringify({ [pick(r, ['data', 'payload', 'memo'])]: p, v: int(r, 1, 3) })],
];

function hex(r: Rand, text: string): Out {
  const form = pick(r, [
    'compact',
    'compact',
    'spaced',
    'escaped',
    'c_array',
    'colon',
    'unicode_escape',
  ] as const);
  const upper = chance(r, 0.4);
  const inline = form === 'compact' || form === 'escaped' || form === 'unicode_escape';
  return placeEncoded(
    r,
    text,
    `hex_${form}`,
    'hex',
    (s) => hexForm(form, s, upper),
    form === 'spaced' || form === 'colon' ? HEX_EMBEDS.slice(1) : HEX_EMBEDS,
    inline,
  );
}

// ── rot13 and relatives ──────────────────────────────────────────────────────────────────────

/** Start and length of the alphabet `c` belongs to (Latin or basic Cyrillic, either case), if any. */
function alphabet(c: string): readonly [base: number, size: number] | undefined {
  if (/[A-Z]/.test(c)) return [65, 26];
  if (/[a-z]/.test(c)) return [97, 26];
  if (/[\u0410-\u042f]/.test(c)) return [0x410, 32];
  if (/[\u0430-\u044f]/.test(c)) return [0x430, 32];
  return undefined;
}

/** A Caesar shift by k within each letter's own alphabet (ROT13 is k = 13). */
const shiftLetters = (s: string, k: number): string =>
  s.replace(/[A-Za-z\u0410-\u044f]/g, (c) => {
    const [base, size] = alphabet(c)!;
    return String.fromCharCode(base + ((c.charCodeAt(0) - base + k) % size));
  });

/** The alphabet read backwards: a↔z (and а↔я). */
const atbash = (s: string): string =>
  s.replace(/[A-Za-z\u0410-\u044f]/g, (c) => {
    const [base, size] = alphabet(c)!;
    return String.fromCharCode(base + size - 1 - (c.charCodeAt(0) - base));
  });

const rot47 = (s: string): string =>
  mapChars(s, (c) => {
    const n = c.charCodeAt(0);
    return c.length === 1 && n >= 33 && n <= 126 ? String.fromCharCode(33 + ((n - 33 + 47) % 94)) : c;
  });

function rot13(r: Rand, text: string): Out {
  const v = pick(r, [
    'rot13',
    'rot13',
    'rot13',
    'caesar',
    'atbash',
    'rot47',
    'reversed',
    'words_reversed',
  ] as const);
  switch (v) {
    case 'rot13':
      return placeEncoded(r, text, 'rot13', 'ROT13', (s) => shiftLetters(s, 13), []);
    case 'caesar': {
      const k = pick(r, [1, 2, 3, 3, 3, 4, 5, 7, 10, 23, 25]);
      return placeEncoded(r, text, `caesar${k}`, `Caesar cipher (shift ${k})`, (s) => shiftLetters(s, k), []);
    }
    case 'atbash':
      return placeEncoded(r, text, 'atbash', 'Atbash cipher', atbash, []);
    case 'rot47':
      return placeEncoded(r, text, 'rot47', 'ROT47', rot47, []);
    case 'reversed':
      return placeEncoded(r, text, 'reversed', 'reversed text', reverse, []);
    case 'words_reversed':
      return placeEncoded(r, text, 'words_reversed', 'word-reversed text', (s) => allWords(s, reverse), []);
  }
}

// ── nested ───────────────────────────────────────────────────────────────────────────────────

/** Two encodings stacked, named outer(inner): the inner one is applied first. */
const NESTED: readonly (readonly [name: string, scheme: string, enc: Tx])[] = [
  ['base64(base64)', 'double base64', (s) => b64(b64(s))],
  ['base64(rot13)', 'base64-wrapped ROT13', (s) => b64(shiftLetters(s, 13))],
  ['rot13(base64)', 'ROT13-wrapped base64', (s) => shiftLetters(b64(s), 13)],
  ['hex(base64)', 'hex-wrapped base64', (s) => hexForm('compact', b64(s), false)],
  ['base64(hex)', 'base64-wrapped hex', (s) => b64(hexForm('compact', s, false))],
  ['url(base64)', 'URL-encoded base64', (s) => pct(b64(s), true)],
  ['base64(reversed)', 'base64 of reversed text', (s) => b64(reverse(s))],
];

const NESTED_EMBEDS: readonly Embed[] = [
  ['json', (r, p) => JSON.stringify({ [pick(r, ['blob', 'token', 'state', 'content'])]: p })],
  [
    'attachment',
    (r, p) => `${pick(r, COVERS)}\n\n${pick(r, ['attachment.txt', 'blob.dat', 'note.b64'])}:\n${p}`,
  ],
];

function nested(r: Rand, text: string): Out {
  const [name, scheme, enc] = pick(r, NESTED);
  return placeEncoded(r, text, name, scheme, enc, NESTED_EMBEDS, chance(r, 0.3));
}

// ── full_width ───────────────────────────────────────────────────────────────────────────────

/** Printable ASCII shifted to U+FF01–FF5E; spaces kept or made ideographic. */
const fullWidth = (s: string, ideographic: boolean, p = 1, r?: Rand): string =>
  mapChars(s, (c) => {
    const n = c.charCodeAt(0);
    if (c === ' ') return ideographic ? '\u3000' : c;
    if (c.length !== 1 || n < 0x21 || n > 0x7e) return c;
    return p >= 1 || (r && chance(r, p)) ? cp(n + 0xfee0) : c;
  });

function fullWidthFamily(r: Rand, text: string): Out {
  const v = pick(r, [
    'fullwidth',
    'fullwidth',
    'fullwidth_ideographic_space',
    'fullwidth_partial',
    'fullwidth_upper',
  ] as const);
  switch (v) {
    case 'fullwidth': {
      const f = (s: string) => fullWidth(s, false);
      return scoped(r, text, v, f, f);
    }
    case 'fullwidth_ideographic_space': {
      const f = (s: string) => fullWidth(s, true);
      return scoped(r, text, v, f, f, [0.7, 0]);
    }
    case 'fullwidth_partial': {
      const p = 0.4 + r() * 0.3;
      const f = (s: string) => fullWidth(s, false, p, r);
      return scoped(r, text, v, f, f);
    }
    case 'fullwidth_upper': {
      const f = (s: string) => fullWidth(s.toUpperCase(), chance(r, 0.3));
      return scoped(r, text, v, f, f);
    }
  }
}

// ── html_markdown_comment ────────────────────────────────────────────────────────────────────

const escHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const oneLine = (s: string): string => s.replace(/\s*\n\s*/g, ' ');

/** `hidden` slipped in after one of an ordinary paragraph's sentences, as text, HTML or Markdown. */
function inParagraph(r: Rand, hidden: string, mode: 'inline' | 'block' | 'html'): string {
  const sents = pick(r, PARAGRAPHS);
  const k = int(r, 1, sents.length);
  const before = sents.slice(0, k).join(' ');
  const after = sents.slice(k).join(' ');
  if (mode === 'html' && chance(r, 0.6))
    return [`<p>${before}</p>`, hidden, after && `<p>${after}</p>`].filter(Boolean).join('\n');
  return [before, hidden, after].filter(Boolean).join(mode === 'inline' ? ' ' : '\n\n');
}

const CSS_HIDDEN = [
  'display:none',
  'display: none;',
  'visibility:hidden',
  'font-size:0',
  'font-size:0px;line-height:0',
  'color:#ffffff;background:#ffffff',
  'color:white',
  'opacity:0',
  'position:absolute;left:-9999px',
  'height:0;overflow:hidden',
];

function htmlMarkdownComment(r: Rand, text: string): Out {
  const v = pick(r, [
    'html_comment',
    'html_comment',
    'md_ref_comment',
    'css_hidden',
    'css_hidden',
    'hidden_attr',
    'non_rendered',
    'img_alt',
    'md_link_title',
  ] as const);
  switch (v) {
    case 'html_comment': {
      const t = text.replace(/-->/g, '-- >');
      const c = chance(r, 0.3) ? `<!--\n${t}\n-->` : `<!-- ${t} -->`;
      return { text: inParagraph(r, c, pick(r, ['inline', 'block', 'html'] as const)), method: v };
    }
    case 'md_ref_comment': {
      const t = oneLine(text);
      const label = pick(r, ['//', '//', 'comment', '_']);
      const c =
        /[()]/.test(t) || chance(r, 0.25)
          ? `[${label}]: # "${t.replace(/"/g, "'")}"`
          : `[${label}]: ${pick(r, ['#', '<>'])} (${t})`;
      return { text: inParagraph(r, c, 'block'), method: v };
    }
    case 'css_hidden': {
      const tag = pick(r, ['span', 'div', 'p']);
      const c = `<${tag} style="${pick(r, CSS_HIDDEN)}">${escHtml(text)}</${tag}>`;
      return { text: inParagraph(r, c, tag === 'span' ? 'inline' : 'html'), method: v };
    }
    case 'hidden_attr': {
      const open = pick(r, ['<div hidden>', '<p hidden>', '<span hidden aria-hidden="true">']);
      const tag = /^<(\w+)/.exec(open)![1]!;
      return { text: inParagraph(r, `${open}${escHtml(text)}</${tag}>`, 'html'), method: v };
    }
    case 'non_rendered': {
      const c = pick(r, [
        `<template>${escHtml(text)}</template>`,
        `<meta name="description" content="${escHtml(oneLine(text))}">`,
        `<script type="application/ld+json">${JSON.stringify({
          '@context': 'https://schema.org',
          '@type': 'WebPage',
          description: text,
        })}</script>`,
      ]);
      return { text: inParagraph(r, c, 'html'), method: v };
    }
    case 'img_alt': {
      const t = oneLine(text);
      const c = chance(r, 0.5)
        ? `<img src="https://${pick(r, HOSTS)}/px.gif" width="1" height="1" alt="${escHtml(t)}">`
        : `![${t.replace(/[[\]]/g, '')}](https://${pick(r, HOSTS)}/pixel.png)`;
      return { text: inParagraph(r, c, pick(r, ['inline', 'block'] as const)), method: v };
    }
    case 'md_link_title': {
      const t = oneLine(text).replace(/"/g, "'");
      const anchor = pick(r, ['full changelog', 'pricing page', 'docs', 'original post', 'release notes']);
      const path = pick(r, ['changelog', 'pricing', 'docs/start', 'posts/4821', 'releases']);
      const c = `See the [${anchor}](https://${pick(r, HOSTS)}/${path} "${t}") for details.`;
      return { text: inParagraph(r, c, 'inline'), method: v };
    }
  }
}

// ── unicode_tags ─────────────────────────────────────────────────────────────────────────────

/** Printable ASCII as U+E0020–E007E; line breaks as a tag space; anything else left as it is. */
const tags = (s: string): string =>
  mapChars(s, (c) => {
    const n = c.charCodeAt(0);
    if (c === '\n' || c === '\t') return cp(0xe0020);
    return c.length === 1 && n >= 0x20 && n <= 0x7e ? cp(0xe0000 + n) : c;
  });
const TAG_BEGIN = cp(0xe0001);
const TAG_CANCEL = cp(0xe007f);

/** `hidden` inserted after a random word of a cover sentence. */
function insideCover(r: Rand, hidden: string): string {
  const words = pick(r, COVERS).split(' ');
  const at = int(r, 1, words.length);
  return [...words.slice(0, at), hidden + words.slice(at).join(' ')].join(' ').trimEnd();
}

function unicodeTags(r: Rand, text: string): Out {
  const v = pick(r, [
    'tags_only',
    'tags_after_cover',
    'tags_after_cover',
    'tags_inside_cover',
    'tags_language_tag',
    'tags_emoji',
    'tags_interleaved',
    'tags_keywords',
  ] as const);
  switch (v) {
    case 'tags_only':
      return { text: tags(text), method: v };
    case 'tags_after_cover':
      return { text: pick(r, COVERS) + pick(r, ['', ' ']) + tags(text), method: v };
    case 'tags_inside_cover':
      return { text: insideCover(r, tags(text)), method: v };
    case 'tags_language_tag': {
      const hidden = TAG_BEGIN + tags(text) + TAG_CANCEL;
      return { text: chance(r, 0.7) ? insideCover(r, hidden) : hidden, method: v };
    }
    case 'tags_emoji': {
      const emoji = pick(r, ['\u{1F44D}', '\u{1F642}', '\u2705', '\u{1F389}', '\u{1F4CE}', '\u{1F3F4}']);
      return { text: `${pick(r, COVERS)} ${emoji}${tags(text)}${TAG_CANCEL}`, method: v };
    }
    case 'tags_interleaved': {
      // The hidden text cut at word boundaries and spread over the cover's words, in order.
      const cover = pick(r, COVERS).split(' ');
      const words = tokens(text);
      const per = Math.ceil(words.length / cover.length);
      const out = cover.map((w, i) => w + tags(words.slice(i * per, (i + 1) * per).join('')));
      return { text: out.join(' '), method: v };
    }
    case 'tags_keywords':
      return { text: onKeyWords(r, text, tags), method: v };
  }
}

// ── mix_of_two ───────────────────────────────────────────────────────────────────────────────

const MIXABLE = ['leetspeak', 'homoglyph', 'full_width', 'spaced_letters', 'zero_width'] as const;
type Mixable = (typeof MIXABLE)[number];

function mixOfTwo(r: Rand, text: string): Out {
  // Mostly two character-level families; sometimes one of them hidden in markup as well.
  const withMarkup = chance(r, 0.2);
  const parts: Mixable[] = withMarkup ? [pick(r, MIXABLE)] : sample(r, MIXABLE, 2);
  parts.sort((a, b) => MIXABLE.indexOf(a) - MIXABLE.indexOf(b));
  const has = (f: Mixable) => parts.includes(f);
  const steps: Tx[] = parts.map((f): Tx => {
    switch (f) {
      case 'leetspeak': {
        const p = 0.6 + r() * 0.4;
        return (s) => leet(r, s, LEET_BASIC, p);
      }
      case 'homoglyph': {
        if (!has('full_width') && !has('leetspeak') && chance(r, 0.3)) {
          const style = pick(r, MATH);
          return (s) => mathStyle(style, s);
        }
        const tables = pick(r, [[CYRILLIC], [GREEK, CYRILLIC], [CYRILLIC, GREEK, OTHER_LOOKALIKES]]);
        const p = has('full_width') ? 0.5 : 0.6 + r() * 0.4;
        return (s) => lookalikes(r, s, [...tables, CYRILLIC_TO_LATIN], p);
      }
      case 'full_width': {
        const p = has('homoglyph') || has('leetspeak') ? 0.5 : 1;
        return (s) => fullWidth(s, false, p, r);
      }
      case 'spaced_letters': {
        const sep = has('zero_width') ? pick(r, ['.', '-', '_', '*']) : pick(r, [' ', ' ', '.', '-', '_']);
        const wordSep = sep === ' ' ? '   ' : ' ';
        return (s) => spaceOut(s, sep, wordSep);
      }
      case 'zero_width': {
        const zs = sample(r, ZW, 2);
        return (s) =>
          allWords(s, (w) =>
            intersperse(
              w,
              () => chance(r, 0.5),
              () => pick(r, zs),
            ),
          );
      }
    }
  });
  const f: Tx = (s) => steps.reduce((acc, step) => step(acc), s);
  if (withMarkup) {
    const hidden = f(text);
    const c = chance(r, 0.5)
      ? `<!-- ${hidden.replace(/-->/g, '-- >')} -->`
      : `<span style="${pick(r, CSS_HIDDEN)}">${escHtml(hidden)}</span>`;
    return { text: inParagraph(r, c, 'inline'), method: `${parts[0]}+html_markdown_comment` };
  }
  return scoped(r, text, parts.join('+'), f, f, [0.6, 0.28]);
}

// ── entry point ──────────────────────────────────────────────────────────────────────────────

const FAMILY: Record<BriefedFamily, (r: Rand, text: string) => Out> = {
  leetspeak,
  url_encoding: urlEncoding,
  zero_width: zeroWidth,
  homoglyph,
  spaced_letters: spacedLetters,
  base64,
  hex,
  rot13,
  nested,
  full_width: fullWidthFamily,
  html_markdown_comment: htmlMarkdownComment,
  unicode_tags: unicodeTags,
  mix_of_two: mixOfTwo,
};

/** True if `out` barely differs from `text`: fewer than three characters changed, added or removed. */
function barelyChanged(text: string, out: string): boolean {
  const a = [...text];
  const b = [...out];
  if (a.length !== b.length) return Math.abs(a.length - b.length) < 3;
  let diff = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diff++;
  return diff < 3;
}

/**
 * `text` hidden by `family`, with the variant's short name. A draw that leaves the text (nearly)
 * unchanged, such as leetspeak or full width on a script they do not touch, is redrawn up to three times.
 */
export function obfuscateG(r: Rand, text: string, family: BriefedFamily): { text: string; method: string } {
  let out = FAMILY[family](r, text);
  for (let i = 0; i < 3 && barelyChanged(text, out.text); i++) out = FAMILY[family](r, text);
  return out;
}
