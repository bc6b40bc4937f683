/**
 * Held-out obfuscation generator (set C), written independently of the detector and of the other
 * generators. Each family draws one of several real-world variants per call; every choice comes from
 * the seeded `Rand` passed in, so a given RNG state always yields the same output.
 */
import { BRIEFED_FAMILIES, hex2, utf8, type BriefedFamily } from './obfuscation-brief';
import { chance, int, pick, sample, type Rand } from './rng';

export const FAMILIES_C = BRIEFED_FAMILIES;
export type FamilyC = BriefedFamily;

type Out = { text: string; method: string };

// ---------------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------------

/** Code points of `s` (astral-safe). */
const chars = (s: string): string[] => Array.from(s);
const isAsciiLetter = (c: string): boolean => /^[A-Za-z]$/.test(c);
const isWs = (s: string): boolean => /^\s*$/.test(s);
const cp = (n: number): string => String.fromCodePoint(n);

/** Standard padded base64 of a byte list. */
const base64 = (bytes: readonly number[]): string => Buffer.from(bytes).toString('base64');

/** `s` broken into lines of at most `width` characters. */
const wrap = (s: string, width: number, eol: string): string =>
  (s.match(new RegExp(`.{1,${width}}`, 'g')) ?? []).join(eol);

/** Splits text into alternating word / whitespace runs (whitespace runs kept verbatim). */
const runs = (text: string): string[] => text.split(/(\s+)/).filter((p) => p !== '');

// ---------------------------------------------------------------------------------------------------
// leetspeak
// ---------------------------------------------------------------------------------------------------

const LEET_LIGHT: Record<string, string> = { a: '4', e: '3', i: '1', o: '0' };
const LEET_MEDIUM: Record<string, string> = { ...LEET_LIGHT, s: '5', t: '7', l: '1', g: '9', b: '8', z: '2' };
const LEET_HEAVY: Record<string, readonly string[]> = {
  a: ['4', '@', '/\\'],
  b: ['8', '|3'],
  c: ['(', '<'],
  d: ['|)'],
  e: ['3'],
  f: ['|='],
  g: ['9', '6'],
  h: ['#', '|-|'],
  i: ['1', '!'],
  k: ['|<'],
  l: ['1', '|_'],
  m: ['|\\/|'],
  n: ['|\\|'],
  o: ['0', '()'],
  s: ['5', '$'],
  t: ['7', '+'],
  u: ['|_|'],
  v: ['\\/'],
  w: ['\\/\\/'],
  x: ['><'],
  z: ['2'],
};

/** Substitutes each letter via `sub` (undefined = keep); forces one substitution if nothing changed. */
function leetWith(r: Rand, text: string, sub: (c: string) => string | undefined): string {
  return forceLeet(
    r,
    text,
    chars(text)
      .map((c) => sub(c) ?? c)
      .join(''),
  );
}

/** `out`, or `text` with one light substitution when `out` did not change anything. */
function forceLeet(r: Rand, text: string, out: string): string {
  if (out !== text) return out;
  const cs = chars(text);
  const idx = cs.map((c, i) => (LEET_LIGHT[c.toLowerCase()] !== undefined ? i : -1)).filter((i) => i >= 0);
  if (idx.length === 0) return out;
  const i = pick(r, idx);
  cs[i] = LEET_LIGHT[cs[i]!.toLowerCase()]!;
  return cs.join('');
}

function leetspeak(r: Rand, text: string): Out {
  const variant = pick(r, ['light', 'medium', 'heavy_symbols', 'mixed_case', 'partial_words'] as const);
  switch (variant) {
    case 'light': {
      const p = 0.55 + r() * 0.4;
      return {
        text: leetWith(r, text, (c) => (chance(r, p) ? LEET_LIGHT[c.toLowerCase()] : undefined)),
        method: 'light',
      };
    }
    case 'medium': {
      const p = 0.75 + r() * 0.25;
      return {
        text: leetWith(r, text, (c) => (chance(r, p) ? LEET_MEDIUM[c.toLowerCase()] : undefined)),
        method: 'medium',
      };
    }
    case 'heavy_symbols': {
      const p = 0.8 + r() * 0.2;
      const sub = (c: string): string | undefined => {
        const opts = LEET_HEAVY[c.toLowerCase()];
        return opts && chance(r, p) ? pick(r, opts) : undefined;
      };
      return { text: leetWith(r, text, sub), method: 'heavy_symbols' };
    }
    case 'mixed_case': {
      // "1Gn0R3 4lL" style: medium digits plus random capitalisation of the letters left.
      const sub = (c: string): string | undefined => {
        const d = LEET_MEDIUM[c.toLowerCase()];
        if (d !== undefined && chance(r, 0.7)) return d;
        if (isAsciiLetter(c)) return chance(r, 0.5) ? c.toUpperCase() : c.toLowerCase();
        return undefined;
      };
      return { text: leetWith(r, text, sub), method: 'mixed_case' };
    }
    case 'partial_words': {
      // Only the longer words (the likely trigger words) are rewritten, fully, at medium level.
      const out = runs(text).map((w) =>
        !isWs(w) && w.length >= 4 && chance(r, 0.7)
          ? chars(w)
              .map((c) => LEET_MEDIUM[c.toLowerCase()] ?? c)
              .join('')
          : w,
      );
      return { text: forceLeet(r, text, out.join('')), method: 'partial_words' };
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// url_encoding
// ---------------------------------------------------------------------------------------------------

const UNRESERVED = /^[A-Za-z0-9\-_.~]$/;

/** Percent-encodes each character of `text` for which `enc` says so (by its UTF-8 bytes). */
function pctEach(text: string, enc: (c: string) => boolean, fmt: (b: number) => string): string {
  return chars(text)
    .map((c) => (enc(c) || !UNRESERVED.test(c) ? utf8(c).map(fmt).join('') : c))
    .join('');
}

function urlEncoding(r: Rand, text: string): Out {
  const variant = pick(r, [
    'full_upper',
    'full_lower',
    'form_plus',
    'partial_mixed_case',
    'double',
    'iis_u',
  ] as const);
  switch (variant) {
    case 'full_upper':
      return {
        text: pctEach(
          text,
          () => true,
          (b) => '%' + hex2(b, true),
        ),
        method: variant,
      };
    case 'full_lower':
      return {
        text: pctEach(
          text,
          () => true,
          (b) => '%' + hex2(b, false),
        ),
        method: variant,
      };
    case 'form_plus': {
      // application/x-www-form-urlencoded: space as '+', everything else escaped.
      const enc = chars(text)
        .map((c) =>
          c === ' '
            ? '+'
            : utf8(c)
                .map((b) => '%' + hex2(b, true))
                .join(''),
        )
        .join('');
      return { text: enc, method: variant };
    }
    case 'partial_mixed_case': {
      // Hand-crafted evasion: a random share of letters escaped, hex case mixed at random.
      const p = 0.45 + r() * 0.4;
      const fmt = (b: number): string => '%' + hex2(b, chance(r, 0.5));
      let t = pctEach(text, () => chance(r, p), fmt);
      if (!/%[0-9a-fA-F]{2}/.test(t)) t = pctEach(text, () => true, fmt);
      return { text: t, method: variant };
    }
    case 'double': {
      // Double encoding: every '%' of the first pass escaped again as %25.
      const once = pctEach(
        text,
        () => true,
        (b) => '%' + hex2(b, true),
      );
      return { text: once.replace(/%/g, '%25'), method: variant };
    }
    case 'iis_u': {
      // Non-standard %uXXXX form (IIS / JavaScript escape()) applied to every character.
      const t = chars(text)
        .map((c) => {
          const n = c.codePointAt(0) ?? 0;
          return n > 0xffff ? c : '%u' + n.toString(16).toUpperCase().padStart(4, '0');
        })
        .join('');
      return { text: t, method: variant };
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// zero_width
// ---------------------------------------------------------------------------------------------------

const INVISIBLES = [
  '\u200b', // zero width space
  '\u200c', // zero width non-joiner
  '\u200d', // zero width joiner
  '\u2060', // word joiner
  '\ufeff', // zero width no-break space (BOM)
  '\u00ad', // soft hyphen
  '\u180e', // mongolian vowel separator
  '\u2061', // function application
  '\u2062', // invisible times
  '\u2063', // invisible separator
  '\u2064', // invisible plus
  '\u034f', // combining grapheme joiner
] as const;

/** Inserts `draw()` into gaps inside words, each with probability `density`; every word of 3+ chars gets one. */
function insertInvisible(r: Rand, text: string, draw: () => string, density: number): string {
  let inserted = 0;
  const out = runs(text).map((w) => {
    if (isWs(w)) return w;
    const cs = chars(w);
    const gaps = new Set<number>();
    for (let g = 1; g < cs.length; g++) if (chance(r, density)) gaps.add(g);
    if (gaps.size === 0 && cs.length >= 3) gaps.add(int(r, 1, cs.length - 1));
    inserted += gaps.size;
    return cs.map((c, i) => (gaps.has(i) ? draw() : '') + c).join('');
  });
  if (inserted > 0) return out.join('');
  // Text made only of 1–2 char tokens: sprinkle after random characters instead.
  const cs = chars(text);
  const at = new Set(sample(r, [...cs.keys()], Math.max(1, Math.ceil(cs.length / 3))));
  return cs.map((c, i) => c + (at.has(i) ? draw() : '')).join('');
}

function zeroWidth(r: Rand, text: string): Out {
  const variant = pick(r, [
    'zwsp_every',
    'zwnj_zwj',
    'word_joiner',
    'bom_sparse',
    'soft_hyphen',
    'mixed',
  ] as const);
  switch (variant) {
    case 'zwsp_every':
      return { text: insertInvisible(r, text, () => '\u200b', 1), method: variant };
    case 'zwnj_zwj':
      return {
        text: insertInvisible(r, text, () => pick(r, ['\u200c', '\u200d']), 0.6 + r() * 0.4),
        method: variant,
      };
    case 'word_joiner':
      return { text: insertInvisible(r, text, () => '\u2060', pick(r, [0.5, 1])), method: variant };
    case 'bom_sparse':
      return { text: insertInvisible(r, text, () => '\ufeff', 0.3), method: variant };
    case 'soft_hyphen':
      return { text: insertInvisible(r, text, () => '\u00ad', 0.5 + r() * 0.5), method: variant };
    case 'mixed': {
      // Clumps of 1–3 assorted invisible / format characters.
      const draw = (): string => Array.from({ length: int(r, 1, 3) }, () => pick(r, INVISIBLES)).join('');
      return { text: insertInvisible(r, text, draw, 0.4 + r() * 0.5), method: variant };
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// homoglyph
// ---------------------------------------------------------------------------------------------------

const CYRILLIC: Record<string, string> = {
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
  l: '\u04cf',
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
const GREEK: Record<string, string> = {
  a: '\u03b1',
  o: '\u03bf',
  v: '\u03bd',
  u: '\u03c5',
  p: '\u03c1',
  i: '\u03b9',
  k: '\u03ba',
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
};
/** Armenian, Latin-extended and Cherokee look-alikes, used only in the mixed-script variant. */
const OTHER: Record<string, string> = {
  o: '\u0585',
  u: '\u057d',
  h: '\u0570',
  n: '\u0578',
  g: '\u0261',
  a: '\u0251',
  A: '\u13aa',
  B: '\u13f4',
  C: '\u13df',
  E: '\u13ac',
  H: '\u13bb',
  J: '\u13ab',
  K: '\u13e6',
  M: '\u13b7',
  P: '\u13e2',
  S: '\u13da',
  T: '\u13a2',
  W: '\u13b3',
  Z: '\u13c3',
};

/** Mathematical Alphanumeric Symbols styles: bases for A, a, 0 and the letters that live elsewhere. */
type MathStyle = { upper: number; lower: number; digit?: number; holes?: Record<string, number> };
const MATH: Record<string, MathStyle> = {
  bold: { upper: 0x1d400, lower: 0x1d41a, digit: 0x1d7ce },
  italic: { upper: 0x1d434, lower: 0x1d44e, holes: { h: 0x210e } },
  bold_italic: { upper: 0x1d468, lower: 0x1d482 },
  script: {
    upper: 0x1d49c,
    lower: 0x1d4b6,
    holes: {
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
  },
  bold_script: { upper: 0x1d4d0, lower: 0x1d4ea },
  fraktur: {
    upper: 0x1d504,
    lower: 0x1d51e,
    holes: { C: 0x212d, H: 0x210c, I: 0x2111, R: 0x211c, Z: 0x2128 },
  },
  double_struck: {
    upper: 0x1d538,
    lower: 0x1d552,
    digit: 0x1d7d8,
    holes: { C: 0x2102, H: 0x210d, N: 0x2115, P: 0x2119, Q: 0x211a, R: 0x211d, Z: 0x2124 },
  },
  sans: { upper: 0x1d5a0, lower: 0x1d5ba, digit: 0x1d7e2 },
  sans_bold: { upper: 0x1d5d4, lower: 0x1d5ee, digit: 0x1d7ec },
  sans_italic: { upper: 0x1d608, lower: 0x1d622 },
  monospace: { upper: 0x1d670, lower: 0x1d68a, digit: 0x1d7f6 },
};

function mathChar(st: MathStyle, c: string): string {
  const hole = st.holes?.[c];
  if (hole !== undefined) return cp(hole);
  const n = c.charCodeAt(0);
  if (c >= 'A' && c <= 'Z') return cp(st.upper + n - 65);
  if (c >= 'a' && c <= 'z') return cp(st.lower + n - 97);
  if (c >= '0' && c <= '9' && st.digit !== undefined) return cp(st.digit + n - 48);
  return c;
}

const SMALL_CAPS = 'ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘǫʀꜱᴛᴜᴠᴡxʏᴢ';

/** Replaces mappable chars with probability `p`, forcing at least one replacement. */
function swapSome(r: Rand, text: string, p: number, sub: (c: string) => string | undefined): string {
  const cs = chars(text);
  let n = 0;
  const out = cs.map((c) => {
    const s = sub(c);
    if (s === undefined || !chance(r, p)) return c;
    n++;
    return s;
  });
  if (n === 0) {
    const idx = cs.map((c, i) => (sub(c) !== undefined ? i : -1)).filter((i) => i >= 0);
    if (idx.length > 0) {
      const i = pick(r, idx);
      out[i] = sub(cs[i]!) ?? cs[i]!;
    }
  }
  return out.join('');
}

function homoglyph(r: Rand, text: string): Out {
  const variant = pick(r, ['cyrillic', 'greek', 'mixed_script', 'math', 'small_caps', 'circled'] as const);
  switch (variant) {
    case 'cyrillic': {
      const p = pick(r, [1, 0.5 + r() * 0.5]);
      return {
        text: swapSome(r, text, p, (c) => CYRILLIC[c]),
        method: p === 1 ? 'cyrillic_all' : 'cyrillic_some',
      };
    }
    case 'greek':
      return { text: swapSome(r, text, 0.6 + r() * 0.4, (c) => GREEK[c]), method: variant };
    case 'mixed_script': {
      // Each letter independently from whichever scripts offer a look-alike for it.
      const sub = (c: string): string | undefined => {
        const opts = [CYRILLIC[c], GREEK[c], OTHER[c]].filter((x): x is string => x !== undefined);
        return opts.length > 0 ? pick(r, opts) : undefined;
      };
      return { text: swapSome(r, text, 0.5 + r() * 0.5, sub), method: variant };
    }
    case 'math': {
      const name = pick(r, Object.keys(MATH));
      const st = MATH[name]!;
      return {
        text: chars(text)
          .map((c) => mathChar(st, c))
          .join(''),
        method: `math_${name}`,
      };
    }
    case 'small_caps': {
      const t = chars(text)
        .map((c) => (isAsciiLetter(c) ? (chars(SMALL_CAPS)[c.toLowerCase().charCodeAt(0) - 97] ?? c) : c))
        .join('');
      return { text: t, method: variant };
    }
    case 'circled': {
      const t = chars(text)
        .map((c) => {
          const n = c.charCodeAt(0);
          if (c >= 'a' && c <= 'z') return cp(0x24d0 + n - 97);
          if (c >= 'A' && c <= 'Z') return cp(0x24b6 + n - 65);
          if (c >= '1' && c <= '9') return cp(0x2460 + n - 49);
          return c === '0' ? '\u24ea' : c;
        })
        .join('');
      return { text: t, method: variant };
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// spaced_letters
// ---------------------------------------------------------------------------------------------------

/** Letters of each word joined by `sep()`, words joined by `wordSep`. */
const spaceOut = (text: string, sep: () => string, wordSep: string): string =>
  text
    .split(/\s+/)
    .filter((w) => w !== '')
    .map((w) => chars(w).reduce((acc, c, i) => (i === 0 ? c : acc + sep() + c), ''))
    .join(wordSep);

function spacedLetters(r: Rand, text: string): Out {
  const variant = pick(r, ['space', 'dot', 'hyphen', 'underscore', 'pipe', 'newline', 'random_sep'] as const);
  switch (variant) {
    case 'space':
      return { text: spaceOut(text, () => ' ', pick(r, ['   ', '  ', ' / ', ' | '])), method: variant };
    case 'dot':
      return { text: spaceOut(text, () => '.', ' '), method: variant };
    case 'hyphen':
      return { text: spaceOut(text, () => '-', pick(r, [' ', '  '])), method: variant };
    case 'underscore':
      return { text: spaceOut(text, () => '_', ' '), method: variant };
    case 'pipe':
      return { text: spaceOut(text, () => '|', ' '), method: variant };
    case 'newline':
      // One character per line, a blank line between words (vertical text).
      return { text: spaceOut(text, () => '\n', '\n\n'), method: variant };
    case 'random_sep': {
      const seps = sample(r, [' ', '.', '-', '_', '*', '/', '+'], int(r, 2, 4));
      return { text: spaceOut(text, () => pick(r, seps), '   '), method: variant };
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// base64
// ---------------------------------------------------------------------------------------------------

function base64Family(r: Rand, text: string): Out {
  const std = base64(utf8(text));
  const variant = pick(r, ['standard', 'no_padding', 'urlsafe', 'mime_wrapped', 'data_uri'] as const);
  switch (variant) {
    case 'standard':
      return { text: std, method: variant };
    case 'no_padding':
      return { text: std.replace(/=+$/, ''), method: variant };
    case 'urlsafe':
      return { text: std.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''), method: variant };
    case 'mime_wrapped': {
      const width = pick(r, [76, 64]);
      return { text: wrap(std, width, pick(r, ['\n', '\r\n'])), method: `wrapped_${width}` };
    }
    case 'data_uri': {
      const mime = pick(r, ['text/plain', 'text/plain;charset=utf-8', 'text/markdown']);
      return { text: `data:${mime};base64,${std}`, method: variant };
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// hex
// ---------------------------------------------------------------------------------------------------

function hexFamily(r: Rand, text: string): Out {
  const bytes = utf8(text);
  const up = chance(r, 0.5);
  const variant = pick(r, ['plain', 'spaced', 'backslash_x', 'c_array', 'colon', 'html_entity'] as const);
  const h = (sep: string, pre = '', post = ''): string =>
    bytes.map((b) => pre + hex2(b, up) + post).join(sep);
  switch (variant) {
    case 'plain':
      return { text: h(''), method: variant };
    case 'spaced':
      return { text: h(' '), method: variant };
    case 'backslash_x':
      return { text: h('', '\\x'), method: variant };
    case 'c_array':
      return { text: h(pick(r, [', ', ',', ' ']), '0x'), method: variant };
    case 'colon':
      return { text: h(':'), method: variant };
    case 'html_entity': {
      // Numeric character references work on code points, not bytes.
      const t = chars(text)
        .map((c) => {
          const x = (c.codePointAt(0) ?? 0).toString(16);
          return `&#x${up ? x.toUpperCase() : x};`;
        })
        .join('');
      return { text: t, method: variant };
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// rot13 and relatives
// ---------------------------------------------------------------------------------------------------

/** Caesar shift of ASCII letters (and, when `digits` is set, ROT5 of digits). */
function shiftLetters(text: string, k: number, digits = false): string {
  return text.replace(/[A-Za-z0-9]/g, (c) => {
    const n = c.charCodeAt(0);
    if (n >= 65 && n <= 90) return String.fromCharCode(((n - 65 + k) % 26) + 65);
    if (n >= 97 && n <= 122) return String.fromCharCode(((n - 97 + k) % 26) + 97);
    return digits ? String.fromCharCode(((n - 48 + 5) % 10) + 48) : c;
  });
}

const rot13 = (text: string): string => shiftLetters(text, 13);

/** ROT47 over the printable ASCII range 33–126. */
const rot47 = (text: string): string =>
  text.replace(/[!-~]/g, (c) => String.fromCharCode(33 + ((c.charCodeAt(0) - 33 + 47) % 94)));

const atbash = (text: string): string =>
  text.replace(/[A-Za-z]/g, (c) => {
    const n = c.charCodeAt(0);
    return n <= 90 ? String.fromCharCode(155 - n) : String.fromCharCode(219 - n);
  });

function rot13Family(r: Rand, text: string): Out {
  const variant = pick(r, ['rot13', 'rot13', 'rot13', 'rot18', 'rot47', 'caesar', 'atbash'] as const);
  switch (variant) {
    case 'rot13':
      return { text: rot13(text), method: variant };
    case 'rot18':
      return { text: shiftLetters(text, 13, true), method: variant };
    case 'rot47':
      return { text: rot47(text), method: variant };
    case 'caesar': {
      const k = pick(r, [3, 3, 1, 5, 7]);
      return { text: shiftLetters(text, k), method: `caesar_${k}` };
    }
    case 'atbash':
      return { text: atbash(text), method: variant };
  }
}

// ---------------------------------------------------------------------------------------------------
// nested
// ---------------------------------------------------------------------------------------------------

type Layer = 'base64' | 'hex' | 'rot13' | 'url';

/** One plain, machine-reversible layer (the forms most often stacked). */
function layer(r: Rand, text: string, kind: Layer): Out {
  switch (kind) {
    case 'base64': {
      const v = pick(r, ['standard', 'standard', 'no_padding', 'urlsafe'] as const);
      const s = base64(utf8(text));
      if (v === 'standard') return { text: s, method: 'base64' };
      if (v === 'no_padding') return { text: s.replace(/=+$/, ''), method: 'base64_nopad' };
      return { text: s.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''), method: 'base64_urlsafe' };
    }
    case 'hex': {
      const up = chance(r, 0.3);
      const sep = pick(r, ['', '', ' ']);
      return {
        text: utf8(text)
          .map((b) => hex2(b, up))
          .join(sep),
        method: sep === '' ? 'hex' : 'hex_spaced',
      };
    }
    case 'rot13':
      return { text: rot13(text), method: 'rot13' };
    case 'url':
      return {
        text: pctEach(
          text,
          () => true,
          (b) => '%' + hex2(b, true),
        ),
        method: 'url',
      };
  }
}

function nested(r: Rand, text: string): Out {
  const kinds: readonly Layer[] = ['base64', 'hex', 'rot13', 'url'];
  // ROT13 over hex digits or %XX escapes is not something anyone does; skip those pairs.
  const pairs = kinds.flatMap((a) =>
    kinds
      .filter((b) => b !== a && !(b === 'rot13' && (a === 'hex' || a === 'url')))
      .map((b) => [a, b] as const),
  );
  const [inner, outer] = pick(r, pairs);
  const a = layer(r, text, inner);
  const b = layer(r, a.text, outer);
  return { text: b.text, method: `${a.method}>${b.method}` };
}

// ---------------------------------------------------------------------------------------------------
// full_width
// ---------------------------------------------------------------------------------------------------

const fw = (c: string): string => {
  const n = c.charCodeAt(0);
  return n >= 0x21 && n <= 0x7e && c.length === 1 ? String.fromCharCode(n + 0xfee0) : c;
};

function fullWidth(r: Rand, text: string): Out {
  const variant = pick(r, [
    'all_ideographic_space',
    'keep_spaces',
    'alnum_only',
    'some_words',
    'some_chars',
  ] as const);
  const cs = chars(text);
  switch (variant) {
    case 'all_ideographic_space':
      return { text: cs.map((c) => (c === ' ' ? '\u3000' : fw(c))).join(''), method: variant };
    case 'keep_spaces':
      return { text: cs.map(fw).join(''), method: variant };
    case 'alnum_only':
      return { text: cs.map((c) => (/[A-Za-z0-9]/.test(c) ? fw(c) : c)).join(''), method: variant };
    case 'some_words': {
      const rs = runs(text);
      const words = rs.map((w, i) => (isWs(w) ? -1 : i)).filter((i) => i >= 0);
      const k = Math.max(1, Math.ceil(words.length * (0.4 + r() * 0.4)));
      const chosen = new Set(sample(r, words, Math.min(k, words.length)));
      return {
        text: rs.map((w, i) => (chosen.has(i) ? chars(w).map(fw).join('') : w)).join(''),
        method: variant,
      };
    }
    case 'some_chars':
      return {
        text: swapSome(r, text, 0.5 + r() * 0.3, (c) => (c === ' ' ? undefined : fw(c))),
        method: variant,
      };
  }
}

// ---------------------------------------------------------------------------------------------------
// html_markdown_comment
// ---------------------------------------------------------------------------------------------------

/** Ordinary carrier documents, as paragraphs. */
const CARRIERS: readonly (readonly string[])[] = [
  [
    '## Weekly sync notes',
    'Attendees: Priya, Marcus, Dana. We reviewed the open tickets for the billing migration and agreed to freeze the schema on Thursday.',
    'Action items: Marcus to update the runbook, Dana to confirm the rollback window with support.',
  ],
  [
    '# Lemon olive oil cake',
    'This cake keeps well for three days and tastes better on the second. Use a good fruity oil and unwaxed lemons.',
    'Whisk the eggs and sugar until pale, fold in the flour, then the oil and zest. Bake at 175 C for about 40 minutes.',
  ],
  [
    'Hi team,',
    'Quick reminder that the office will be closed on Monday for the public holiday. The VPN stays up as usual.',
    'If you need building access over the weekend, let facilities know by Friday noon.',
    'Thanks, Helen',
  ],
  [
    '## Release 2.4.1',
    '- Fixed a crash when opening very large CSV files.',
    '- The export dialog now remembers the last folder you used.',
    'Upgrading is recommended for everyone on the 2.4 line.',
  ],
  [
    'Product description',
    'The Trailhead 30L backpack is built from recycled ripstop nylon with a padded laptop sleeve and two side pockets.',
    'It weighs 900 grams and comes with a lifetime repair guarantee.',
  ],
  [
    '# Contributing',
    'Thanks for taking the time to contribute! Please open an issue before starting work on a large change.',
    'Run the linter and the test suite locally before you push, and keep pull requests focused on one topic.',
  ],
  [
    'Customer review: 4 out of 5 stars',
    'The kettle boils quickly and is quieter than my old one. The handle gets a little warm, but nothing serious.',
    'Would buy again, especially at the sale price.',
  ],
  [
    '### Trip itinerary',
    'Day 1: arrive in Porto, check in near Ribeira, dinner by the river.',
    'Day 2: morning train up the Douro valley, wine tasting in the afternoon, back by 9 pm.',
  ],
  [
    'Abstract',
    'We study the effect of sleep duration on short-term recall in a sample of 120 undergraduate students.',
    'Participants who slept more than seven hours recalled on average 14 percent more items.',
  ],
  [
    'Dear Mr. Alvarez,',
    'Thank you for your application for the position of data analyst. We would like to invite you to a first interview.',
    'Please reply with two or three time slots that suit you next week.',
    'Kind regards, the hiring team',
  ],
  [
    '## FAQ',
    '**Can I change my plan later?** Yes, you can upgrade or downgrade at any time from the account page.',
    '**Do you offer refunds?** We refund unused months on annual plans within 30 days.',
  ],
];

type CommentStyle =
  | 'html'
  | 'html_tight'
  | 'html_multiline'
  | 'html_triple_dash'
  | 'md_ref_paren'
  | 'md_ref_angle'
  | 'md_ref_quote';

function makeComment(style: CommentStyle, t: string): string {
  switch (style) {
    case 'html':
      return `<!-- ${t} -->`;
    case 'html_tight':
      return `<!--${t}-->`;
    case 'html_multiline':
      return `<!--\n${t}\n-->`;
    case 'html_triple_dash':
      return `<!--- ${t} --->`;
    case 'md_ref_paren':
      return `[//]: # (${t})`;
    case 'md_ref_angle':
      return `[comment]: <> (${t})`;
    case 'md_ref_quote':
      return `[//]: # "${t}"`;
  }
}

/** One Markdown-ish carrier paragraph as an HTML element. */
function toHtml(p: string): string {
  const heading = /^(#+) (.*)$/.exec(p);
  if (heading) return `<h${heading[1]!.length}>${heading[2]!}</h${heading[1]!.length}>`;
  const body = p.replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>');
  return body.startsWith('- ') ? `<ul><li>${body.slice(2)}</li></ul>` : `<p>${body}</p>`;
}

function htmlMarkdownComment(r: Rand, text: string): Out {
  const doc = pick(r, CARRIERS);
  const asHtml = chance(r, 0.35);
  const htmlStyles: CommentStyle[] = ['html', 'html_tight', 'html_multiline', 'html_triple_dash'];
  const mdStyles: CommentStyle[] = ['md_ref_paren', 'md_ref_angle', 'md_ref_quote'];
  let style = pick(r, asHtml ? htmlStyles : [...htmlStyles, ...mdStyles]);
  // Fall back when the hidden text would close the chosen comment early.
  if ((style === 'md_ref_paren' || style === 'md_ref_angle') && text.includes(')')) style = 'md_ref_quote';
  if (style === 'md_ref_quote' && text.includes('"')) style = 'html';
  if (style.startsWith('html') && /--!?>/.test(text))
    style = text.includes(')') ? 'md_ref_quote' : 'md_ref_paren';
  if (style.startsWith('md') && text.includes('\n')) style = 'html_multiline';
  const comment = makeComment(style, text);

  const paras = asHtml ? doc.map(toHtml) : [...doc];
  const inlineOk = style.startsWith('html') && style !== 'html_multiline';
  const where = pick(
    r,
    inlineOk ? (['start', 'end', 'between', 'inline'] as const) : (['start', 'end', 'between'] as const),
  );
  const sep = asHtml ? '\n' : '\n\n';
  let out: string;
  if (where === 'start') out = [comment, ...paras].join(sep);
  else if (where === 'end') out = [...paras, comment].join(sep);
  else if (where === 'between') {
    const i = int(r, 1, paras.length - 1);
    out = [...paras.slice(0, i), comment, ...paras.slice(i)].join(sep);
  } else {
    // Inside a paragraph, right after one of its sentence ends (or at its end).
    const i = int(r, 0, paras.length - 1);
    const p = paras[i]!;
    const ends = [...p.matchAll(/[.!?] /g)].map((m) => (m.index ?? 0) + 1);
    const close = p.lastIndexOf('</');
    const at = ends.length > 0 ? pick(r, ends) : close > 0 ? close : p.length;
    paras[i] = p.slice(0, at) + ' ' + comment + p.slice(at);
    out = paras.join(sep);
  }
  return { text: out, method: `${asHtml ? 'html' : 'md'}:${style}:${where}` };
}

// ---------------------------------------------------------------------------------------------------
// unicode_tags
// ---------------------------------------------------------------------------------------------------

const TAG_CARRIERS = [
  'Thanks for the quick turnaround on this!',
  'Here is the summary you asked for.',
  'Looks good to me, merging now.',
  'Please see the attached file for details.',
  'Happy Friday everyone',
  'Can you review this before the meeting?',
  'The meeting has moved to 3 pm.',
  'Great photo, where was this taken?',
  'Totally agree with the points above.',
  'Order #48213 has shipped.',
];

/** Printable ASCII mapped into the invisible Unicode tag block (U+E0020–U+E007E). */
const toTags = (s: string): string =>
  chars(s)
    .map((c) => {
      const n = c.codePointAt(0) ?? 0;
      // Control characters (e.g. newlines) have no tag form: they become a tag space.
      return n < 0x20 ? cp(0xe0020) : n < 0x80 ? cp(0xe0000 + n) : c;
    })
    .join('');

function unicodeTags(r: Rand, text: string): Out {
  const carrier = pick(r, TAG_CARRIERS);
  const tags = toTags(text);
  const variant = pick(r, ['append', 'prepend', 'middle', 'begin_cancel', 'after_emoji', 'split'] as const);
  const words = carrier.split(' ');
  switch (variant) {
    case 'append':
      return { text: carrier + tags, method: variant };
    case 'prepend':
      return { text: tags + carrier, method: variant };
    case 'middle': {
      const i = int(r, 1, words.length - 1);
      return {
        text: [...words.slice(0, i), tags + words[i]!, ...words.slice(i + 1)].join(' '),
        method: variant,
      };
    }
    case 'begin_cancel':
      // Deprecated LANGUAGE TAG opener and CANCEL TAG closer around the payload.
      return { text: carrier + '\u{e0001}' + tags + '\u{e007f}', method: variant };
    case 'after_emoji': {
      const emoji = pick(r, ['\u{1f44d}', '\u{1f3f4}', '\u{1f642}', '\u{2705}', '\u{1f680}']);
      return { text: `${carrier} ${emoji}${tags}`, method: variant };
    }
    case 'split': {
      // Payload cut into chunks hidden after several words of the carrier.
      const k = Math.min(int(r, 2, 4), words.length);
      const at = sample(r, [...words.keys()], k).sort((x, y) => x - y);
      const pieces = chars(tags);
      const size = Math.ceil(pieces.length / k);
      const out = words.map((w, i) => {
        const j = at.indexOf(i);
        return j < 0 ? w : w + pieces.slice(j * size, (j + 1) * size).join('');
      });
      return { text: out.join(' '), method: `split_${k}` };
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// mix_of_two
// ---------------------------------------------------------------------------------------------------

type Single = Exclude<FamilyC, 'mix_of_two' | 'nested'>;

/** Ordered pairs seen in practice: a surface disguise first, then a second disguise or a hiding place. */
const MIX_PAIRS: readonly (readonly [Single, Single])[] = [
  ['leetspeak', 'zero_width'],
  ['homoglyph', 'zero_width'],
  ['leetspeak', 'spaced_letters'],
  ['homoglyph', 'spaced_letters'],
  ['full_width', 'zero_width'],
  ['leetspeak', 'homoglyph'],
  ['full_width', 'spaced_letters'],
  ['leetspeak', 'base64'],
  ['rot13', 'base64'],
  ['leetspeak', 'url_encoding'],
  ['homoglyph', 'url_encoding'],
  ['leetspeak', 'html_markdown_comment'],
  ['homoglyph', 'html_markdown_comment'],
  ['zero_width', 'html_markdown_comment'],
  ['base64', 'html_markdown_comment'],
  ['rot13', 'html_markdown_comment'],
  ['leetspeak', 'unicode_tags'],
  ['rot13', 'unicode_tags'],
  ['spaced_letters', 'unicode_tags'],
];

function single(r: Rand, text: string, family: Single): Out {
  switch (family) {
    case 'leetspeak':
      return leetspeak(r, text);
    case 'url_encoding':
      return urlEncoding(r, text);
    case 'zero_width':
      return zeroWidth(r, text);
    case 'homoglyph':
      return homoglyph(r, text);
    case 'spaced_letters':
      return spacedLetters(r, text);
    case 'base64':
      return base64Family(r, text);
    case 'hex':
      return hexFamily(r, text);
    case 'rot13':
      return rot13Family(r, text);
    case 'full_width':
      return fullWidth(r, text);
    case 'html_markdown_comment':
      return htmlMarkdownComment(r, text);
    case 'unicode_tags':
      return unicodeTags(r, text);
  }
}

function mixOfTwo(r: Rand, text: string): Out {
  const [f1, f2] = pick(r, MIX_PAIRS);
  const a = single(r, text, f1);
  const b = single(r, a.text, f2);
  return { text: b.text, method: `${f1}:${a.method}+${f2}:${b.method}` };
}

// ---------------------------------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------------------------------

/** Hide `text` (plain English, ASCII, 40–300 chars) by one family, drawing every choice from `r`. `method` names the variant used. */
export function obfuscateC(r: Rand, text: string, family: FamilyC): { text: string; method: string } {
  if (family === 'nested') return nested(r, text);
  if (family === 'mix_of_two') return mixOfTwo(r, text);
  return single(r, text, family);
}
