/**
 * Held-out obfuscation generator, sixth hand: written from the issue's family list
 * (obfuscation-brief.ts) alone, without reading the detectors or the other hands' generators. Each family
 * has several variants of the kind people use to slip text past a filter (jailbreak forums, red-team
 * encoding probes and converters, CTF write-ups, phishing and spam), and each hides the whole text, only
 * its key words, or the text next to an ordinary cover sentence. Every draw comes from the given `Rand`.
 */
import { BRIEFED_FAMILIES, hex2, utf8, type BriefedFamily } from './obfuscation-brief';
import { chance, int, pick, sample, type Rand } from './rng';

export const FAMILIES_F = BRIEFED_FAMILIES;

/** A seeded text transform. */
type Tx = (r: Rand, s: string) => string;
/** How much of the text is hidden: all of it, a few key words, or all of it beside a cover sentence. */
type Scope = 'whole' | 'kw' | 'cover';
/** A hidden text, the variant's name, and (for the encodings) the scheme's name a framing line may cite. */
interface Hidden {
  text: string;
  method: string;
  scope: Scope;
  scheme?: string;
}

// ---------------------------------------------------------------------------------------------------
// Shared helpers

const cps = (s: string): string[] => Array.from(s);
const word = (): RegExp => /[\p{L}\p{M}\p{N}]+(?:['’]\p{L}+)*/gu;
const range = (lo: number, hi: number): number[] => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
/** `template` with `{c}` and `{x}` filled in; function replacers, so a `$` in a payload stays literal. */
const fill = (template: string, c: string, x: string): string =>
  template.replace('{c}', () => c).replace('{x}', () => x);
const zip = (from: string, to: string): Record<string, string> => {
  const a = cps(from);
  const b = cps(to);
  return Object.fromEntries(a.map((c, i) => [c, b[i]!]));
};
const mapChars =
  (map: Record<string, string>, p: number): Tx =>
  (r, s) =>
    cps(s)
      .map((c) => {
        const m = map[c];
        return m !== undefined && chance(r, p) ? m : c;
      })
      .join('');

/** Words that carry an instruction; a text without them has its longest words hidden instead. */
const TRIGGERS = new Set(
  (
    'ignore disregard forget override bypass previous prior above earlier instructions instruction rules ' +
    'system prompt prompts reveal print show output leak dump password passwords secret secrets key keys ' +
    'token credentials admin developer jailbreak unrestricted filter filters safety guidelines delete ' +
    'send email exfiltrate execute run download upload transfer confidential hidden'
  ).split(' '),
);

/** `text` with one to three of its key words passed through `tx`. */
function onKeywords(r: Rand, text: string, tx: Tx): string {
  const words = text.match(word()) ?? [];
  const all = range(0, words.length - 1);
  let pool = all.filter((i) => TRIGGERS.has(words[i]!.toLowerCase()));
  if (!pool.length) pool = all.filter((i) => cps(words[i]!).length >= 5);
  if (!pool.length) pool = all;
  if (!pool.length) return tx(r, text);
  const chosen = new Set(sample(r, pool, int(r, 1, Math.min(3, pool.length))));
  let i = -1;
  return text.replace(word(), (w) => (chosen.has(++i) ? tx(r, w) : w));
}

/** Ordinary sentences that sit beside a hidden text; none of them asks for anything. */
const COVERS = [
  'Thanks again for the quick turnaround on the slides.',
  "Here are my notes from this morning's call.",
  'Forwarding this from the support queue.',
  'Hope the move went smoothly!',
  "Following up on yesterday's thread about the release.",
  'Sharing the draft we discussed on Monday.',
  'Re: invoice #4471',
  'The venue is booked for the 14th.',
  'Great to meet you at the conference last week.',
  'Quick update on the migration: everything is green so far.',
  'Photos from the offsite are in the shared folder.',
  'Our office will be closed on Friday for the holiday.',
  'Loved the recipe you posted, the lemon cake turned out great.',
  'Attached is the signed copy of the lease.',
  'Order #88213 has shipped and should arrive Thursday.',
  'Just checking in before the weekend.',
];
/** Where a readable-but-mangled text goes beside its cover. */
const SHAPES_PLAIN = ['{c} {x}', '{c}\n\n{x}', '{x}\n\n{c}', '{c}\n{x}', '{c} P.S. {x}', '{c}\n\n-- \n{x}'];
/** Where an encoded blob goes beside its cover. */
const SHAPES_BLOB = [
  '{c} {x}',
  '{c}\n\n{x}',
  '{c}\nRef: {x}',
  '{c} (ref {x})',
  '{c}\n\n`{x}`',
  '{x}\n\n{c}',
  '{c}\n\n```\n{x}\n```',
  '{c}\nID: {x}',
];
const withCover = (r: Rand, x: string, blob: boolean): string =>
  fill(pick(r, blob ? SHAPES_BLOB : SHAPES_PLAIN), pick(r, COVERS), x);

function drawScope(r: Rand, whole: number, kw: number): Scope {
  const x = r();
  return x < whole ? 'whole' : x < whole + kw ? 'kw' : 'cover';
}

/** `text` with `tx` applied at `scope`. */
function scoped(r: Rand, text: string, tx: Tx, scope: Scope, blob: boolean): string {
  if (scope === 'kw') return onKeywords(r, text, tx);
  const x = tx(r, text);
  return scope === 'cover' ? withCover(r, x, blob) : x;
}

/** A variant's transform, made once an output so that its drawn settings (case, separator, style) hold
 * for the whole output, key words included. */
type Make = (r: Rand) => Tx;
const fixed =
  (tx: Tx): Make =>
  () =>
    tx;
/** A variant: its name, its maker, the scheme's name for a framing line, and whether it may hide single
 * words. */
interface Variant {
  name: string;
  make: Make;
  scheme?: string | undefined;
  kw?: boolean;
}
const v = (name: string, make: Make, scheme?: string, kw = true): Variant => ({ name, make, scheme, kw });

/** One of `variants`, drawn, at a drawn scope. */
function viaScope(
  r: Rand,
  text: string,
  prefix: string,
  variants: readonly Variant[],
  whole: number,
  kw: number,
  blob: boolean,
): Hidden {
  const { name, make, scheme, kw: kwOk } = pick(r, variants);
  const tx = make(r);
  const scope = drawScope(r, whole, kwOk === false ? 0 : kw);
  const method = `${prefix}:${name}${scope === 'whole' ? '' : `:${scope}`}`;
  const out: Hidden = { text: scoped(r, text, tx, scope, blob), method, scope };
  if (scheme !== undefined) out.scheme = scheme;
  return out;
}

// ---------------------------------------------------------------------------------------------------
// leetspeak

const LEET_BASIC = zip('aAeEiIoOsStT', '443311005577');
const LEET_EXTRA = { ...LEET_BASIC, ...zip('bBgGlLzZ', '88991122') };
const LEET_SYM = zip('aAeEiIoOsStTlL', '@@33!!00$$++||');
const LEET_HEAVY: Record<string, readonly string[]> = {
  a: ['4', '/-\\', '@', '/\\'],
  b: ['|3', '8', '13'],
  c: ['(', '<', '['],
  d: ['|)', '|>', 'cl'],
  e: ['3', '[-', '&'],
  f: ['|=', 'ph'],
  g: ['6', '9', '(_+'],
  h: ['|-|', '#', ']-['],
  i: ['1', '!', '|'],
  j: ['_|', ',_|'],
  k: ['|<', '|{'],
  l: ['|_', '1'],
  m: ['|\\/|', '/\\/\\', '^^'],
  n: ['|\\|', '/\\/'],
  o: ['0', '()'],
  p: ['|*', '|>', '|o'],
  q: ['0_', '(,)'],
  r: ['|2', '12', '|?'],
  s: ['5', '$'],
  t: ['7', '+'],
  u: ['|_|', '(_)'],
  v: ['\\/'],
  w: ['\\/\\/', 'vv', '\\^/'],
  x: ['><', '}{'],
  y: ['`/', '\\|/'],
  z: ['2', '7_'],
};

const leetBasic: Make = (r) => mapChars(LEET_BASIC, pick(r, [0.6, 0.8, 1]));
/** One or two substitutions a word, the minimum that breaks a keyword match. */
const leetLight: Tx = (r, s) =>
  s.replace(word(), (w) => {
    const chars = cps(w);
    const idx = range(0, chars.length - 1).filter((i) => LEET_EXTRA[chars[i]!] !== undefined);
    if (!idx.length) return w;
    for (const i of sample(r, idx, Math.min(idx.length, int(r, 1, 2)))) chars[i] = LEET_EXTRA[chars[i]!]!;
    return chars.join('');
  });
const leetSymbols: Make = (r) => mapChars(LEET_SYM, pick(r, [0.7, 1]));
const leetHeavy: Tx = (r, s) =>
  cps(s)
    .map((c) => {
      const opts = LEET_HEAVY[c.toLowerCase()];
      return opts && chance(r, 0.85) ? pick(r, opts) : c;
    })
    .join('');
/** Digits for vowels with random capitals ("1Gn0rE aLL"). */
const leetCaps: Tx = (r, s) =>
  cps(mapChars(LEET_BASIC, 0.8)(r, s))
    .map((c) => (chance(r, 0.5) ? c.toUpperCase() : c.toLowerCase()))
    .join('');

const LEET_VARIANTS: readonly Variant[] = [
  v('basic', leetBasic, 'leetspeak'),
  v('light', fixed(leetLight), 'leetspeak'),
  v('symbols', leetSymbols, 'leetspeak'),
  v('heavy', fixed(leetHeavy), 'leetspeak'),
  v('caps', fixed(leetCaps), 'leetspeak'),
];
const leetspeak = (r: Rand, text: string): Hidden =>
  viaScope(r, text, 'leet', LEET_VARIANTS, 0.5, 0.3, false);

// ---------------------------------------------------------------------------------------------------
// url_encoding

const pctAll = (s: string, upper: boolean): string =>
  utf8(s)
    .map((b) => `%${hex2(b, upper)}`)
    .join('');
const urlFull: Make = (r) => {
  const upper = chance(r, 0.75);
  return (_q, s) => pctAll(s, upper);
};
/** Some letters percent-encoded, the rest left alone, as in WAF-evasion payloads. */
const urlMixed: Make = (r) => {
  const upper = chance(r, 0.75);
  const p = pick(r, [0.35, 0.5, 0.65]);
  return (q, s) =>
    cps(s)
      .map((c) =>
        /[A-Za-z0-9]/.test(c)
          ? chance(q, p)
            ? pctAll(c, upper)
            : c
          : /[-_.~]/.test(c)
            ? c
            : pctAll(c, upper),
      )
      .join('');
};
const urlDouble: Make = (r) => {
  const upper = chance(r, 0.75);
  return (_q, s) => pctAll(s, upper).replaceAll('%', '%25');
};
/** The old IIS `%uXXXX` form, one UTF-16 unit each. */
const urlUnicode: Make = (r) => {
  const upper = chance(r, 0.6);
  return (_q, s) =>
    range(0, s.length - 1)
      .map((i) => {
        const h = s.charCodeAt(i).toString(16).padStart(4, '0');
        return `%u${upper ? h.toUpperCase() : h}`;
      })
      .join('');
};
/** The text as a query parameter of a link beside a cover sentence. */
function urlLink(r: Rand, text: string): string {
  const host = pick(r, ['docs.example.com', 'share.example.org', 'files.acme-cloud.net', 'go.example.io']);
  const path = pick(r, ['view', 'r', 'redirect', 's/ref', 'search', 'track/open']);
  const param = pick(r, ['q', 'note', 'msg', 'ref', 'text', 'c']);
  const id = int(r, 1000, 99999);
  const value = (chance(r, 0.6) ? urlFull : urlMixed)(r)(r, text);
  const url = `https://${host}/${path}?id=${id}&${param}=${value}`;
  const shape = pick(r, [
    '{c} [Details]({x})',
    '{c}\n{x}',
    '{c} Link: <{x}>',
    '{c}\n\n[Open the document]({x})',
  ]);
  return fill(shape, pick(r, COVERS), url);
}

const URL_VARIANTS: readonly Variant[] = [
  v('full', urlFull, 'URL-encoded'),
  v('mixed', urlMixed, 'URL-encoded'),
  v('double', urlDouble, 'double URL-encoded'),
  v('unicode', urlUnicode, 'URL-encoded'),
];
function urlEncoding(r: Rand, text: string): Hidden {
  if (chance(r, 0.2)) return { text: urlLink(r, text), method: 'url:link', scope: 'cover' };
  return viaScope(r, text, 'url', URL_VARIANTS, 0.55, 0.2, true);
}

// ---------------------------------------------------------------------------------------------------
// zero_width

const ZW = ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF'];
const INVISIBLE = [...ZW, '\u2061', '\u2062', '\u2063', '\u2064'];
const SOFT_HYPHEN = '\u00AD';

/** One invisible character in every gap of every word. */
const zwEvery: Make = (r) => {
  const z = pick(r, ZW.slice(0, 4));
  return (_q, s) => s.replace(word(), (w) => cps(w).join(z));
};
/** A random invisible character in most gaps. */
const zwMixed: Tx = (r, s) =>
  s.replace(word(), (w) =>
    cps(w)
      .map((c, i) => (i > 0 && chance(r, 0.7) ? pick(r, INVISIBLE) + c : c))
      .join(''),
  );
/** One or two invisible characters somewhere inside each word. */
const zwSparse: Tx = (r, s) =>
  s.replace(word(), (w) => {
    const c = cps(w);
    if (c.length < 2) return w;
    const at = new Set(sample(r, range(1, c.length - 1), Math.min(c.length - 1, int(r, 1, 2))));
    return c.map((ch, i) => (at.has(i) ? pick(r, ZW) + ch : ch)).join('');
  });
/** Soft hyphens every two or three letters, as spam uses to split words a filter looks for. */
const zwSoftHyphen: Make = (r) => {
  const step = int(r, 2, 3);
  return (_q, s) =>
    s.replace(word(), (w) =>
      cps(w)
        .map((c, i) => (i > 0 && i % step === 0 ? SOFT_HYPHEN + c : c))
        .join(''),
    );
};
/** Zero-width steganography: each character's code point in binary (U+200B 0, U+200C 1, U+200D between
 * characters), tucked inside a word of a cover sentence. */
function zwBinary(r: Rand, text: string): string {
  const bits = cps(text)
    .map((c) =>
      c.codePointAt(0)!.toString(2).padStart(8, '0').replace(/0/g, '\u200B').replace(/1/g, '\u200C'),
    )
    .join('\u200D');
  const ws = pick(r, COVERS).split(' ');
  const i = int(r, 0, ws.length - 1);
  const w = cps(ws[i]!);
  const at = int(r, 1, Math.max(1, w.length - 1));
  ws[i] = w.slice(0, at).join('') + bits + w.slice(at).join('');
  return ws.join(' ');
}

const ZW_VARIANTS: readonly Variant[] = [
  v('every', zwEvery),
  v('mixed', fixed(zwMixed)),
  v('sparse', fixed(zwSparse)),
  v('soft-hyphen', zwSoftHyphen),
];
function zeroWidth(r: Rand, text: string): Hidden {
  if (chance(r, 0.15)) return { text: zwBinary(r, text), method: 'zw:binary', scope: 'cover' };
  return viaScope(r, text, 'zw', ZW_VARIANTS, 0.45, 0.35, false);
}

// ---------------------------------------------------------------------------------------------------
// homoglyph

const CYR = zip(
  'aceopxyijshldqwABCEHIJKMOPSTXY',
  '\u0430\u0441\u0435\u043E\u0440\u0445\u0443\u0456\u0458\u0455\u04BB\u04CF\u0501\u051B\u051D' +
    '\u0410\u0412\u0421\u0415\u041D\u0406\u0408\u041A\u041C\u041E\u0420\u0405\u0422\u0425\u04AE',
);
/** Cyrillic letters back to their Latin look-alikes, for a text that is already Cyrillic. */
const CYR_TO_LATIN = Object.fromEntries(Object.entries(CYR).map(([l, c]) => [c, l]));
const GREEK = zip(
  'oivukpaxyABEZHIKMNOPTXY',
  '\u03BF\u03B9\u03BD\u03C5\u03BA\u03C1\u03B1\u03C7\u03B3' +
    '\u0391\u0392\u0395\u0396\u0397\u0399\u039A\u039C\u039D\u039F\u03A1\u03A4\u03A7\u03A5',
);
/** Look-alikes from other scripts and blocks: Armenian, IPA, Roman numerals, Cherokee. */
const OTHER = zip(
  'ohnugaivxlcdmABCEHJKMPSTWZ',
  '\u0585\u0570\u0578\u057D\u0581\u0251\u2170\u2174\u2179\u217C\u217D\u217E\u217F' +
    '\u13AA\u13F4\u13DF\u13AC\u13BB\u13AB\u13E6\u13B7\u13E2\u13DA\u13A2\u13B3\u13C3',
);
const SMALL_CAPS = zip('abcdefghijklmnopqrstuvwxyz', 'ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘǫʀꜱᴛᴜᴠᴡxʏᴢ');

const homoCyrillic: Make = (r) => {
  const p = pick(r, [0.5, 0.75, 1]);
  return (q, s) => (/[A-Za-z]/.test(s) ? mapChars(CYR, p)(q, s) : mapChars(CYR_TO_LATIN, p)(q, s));
};
const homoGreek: Make = (r) => mapChars(GREEK, pick(r, [0.6, 1]));
/** A sprinkling from several scripts at once, as in spoofed domains and phishing subjects. */
const homoMixed: Make = (r) => {
  const p = pick(r, [0.3, 0.45, 0.6]);
  return (q, s) =>
    cps(s)
      .map((c) => {
        const opts = [CYR[c], GREEK[c], OTHER[c]].filter((x): x is string => x !== undefined);
        return opts.length && chance(q, p) ? pick(q, opts) : c;
      })
      .join('');
};

/** Mathematical alphanumeric styles: capital A, small a, digit 0, and the letters that live elsewhere. */
const MATH: readonly (readonly [name: string, upper: number, lower: number, digit: number, holes: string])[] =
  [
    ['bold', 0x1d400, 0x1d41a, 0x1d7ce, ''],
    ['italic', 0x1d434, 0x1d44e, 0, 'h\u210E'],
    ['bold-italic', 0x1d468, 0x1d482, 0, ''],
    [
      'script',
      0x1d49c,
      0x1d4b6,
      0,
      'B\u212CE\u2130F\u2131H\u210BI\u2110L\u2112M\u2133R\u211Be\u212Fg\u210Ao\u2134',
    ],
    ['bold-script', 0x1d4d0, 0x1d4ea, 0, ''],
    ['fraktur', 0x1d504, 0x1d51e, 0, 'C\u212DH\u210CI\u2111R\u211CZ\u2128'],
    ['double-struck', 0x1d538, 0x1d552, 0x1d7d8, 'C\u2102H\u210DN\u2115P\u2119Q\u211AR\u211DZ\u2124'],
    ['sans-bold', 0x1d5d4, 0x1d5ee, 0x1d7ec, ''],
    ['monospace', 0x1d670, 0x1d68a, 0x1d7f6, ''],
  ];
function mathStyle(style: (typeof MATH)[number]): Tx {
  const [, upper, lower, digit, holesText] = style;
  const h = cps(holesText);
  const holes: Record<string, string> = {};
  for (let i = 0; i + 1 < h.length; i += 2) holes[h[i]!] = h[i + 1]!;
  return (_r, s) =>
    cps(s)
      .map((c) => {
        if (holes[c] !== undefined) return holes[c];
        const cp = c.codePointAt(0)!;
        if (cp >= 65 && cp <= 90) return String.fromCodePoint(upper + cp - 65);
        if (cp >= 97 && cp <= 122) return String.fromCodePoint(lower + cp - 97);
        if (digit && cp >= 48 && cp <= 57) return String.fromCodePoint(digit + cp - 48);
        return c;
      })
      .join('');
}
const homoMath: Make = (r) => mathStyle(pick(r, MATH));
/** "Fancy text" generator output: circled, small capitals, or squared letters. */
const homoFancy: Make = (r) => {
  const kind = pick(r, ['circled', 'small-caps', 'squared', 'negative-squared', 'negative-circled']);
  return (_q, s) =>
    cps(s)
      .map((c) => {
        const cp = c.codePointAt(0)!;
        const up = cp >= 97 && cp <= 122 ? cp - 32 : cp;
        if (kind === 'small-caps') return SMALL_CAPS[c] ?? c;
        if (kind === 'circled') {
          if (cp >= 65 && cp <= 90) return String.fromCodePoint(0x24b6 + cp - 65);
          if (cp >= 97 && cp <= 122) return String.fromCodePoint(0x24d0 + cp - 97);
          if (cp >= 49 && cp <= 57) return String.fromCodePoint(0x2460 + cp - 49);
          return cp === 48 ? '\u24EA' : c;
        }
        if (up < 65 || up > 90) return c;
        const base = kind === 'squared' ? 0x1f130 : kind === 'negative-squared' ? 0x1f170 : 0x1f150;
        return String.fromCodePoint(base + up - 65);
      })
      .join('');
};

const HOMO_VARIANTS: readonly Variant[] = [
  v('cyrillic', homoCyrillic),
  v('greek', homoGreek),
  v('mixed-script', homoMixed),
  v('math', homoMath),
  v('fancy', homoFancy),
];
const homoglyph = (r: Rand, text: string): Hidden =>
  viaScope(r, text, 'homoglyph', HOMO_VARIANTS, 0.5, 0.3, false);

// ---------------------------------------------------------------------------------------------------
// spaced_letters

const spaceOut = (s: string, sep: string, wordSep: string): string =>
  s
    .split(/(\s+)/)
    .map((part) => (/^\s+$/.test(part) ? wordSep : cps(part).join(sep)))
    .join('');
const spaced =
  (seps: readonly string[], wordSeps: readonly string[]): Make =>
  (r) => {
    const sep = pick(r, seps);
    const wordSep = pick(r, wordSeps);
    return (_q, s) => spaceOut(s, sep, wordSep);
  };
const spacedSpace = spaced([' '], ['   ', '  ', ' / ', ' | ']);
const spacedDots = spaced(['.'], [' ', '  ', ' / ']);
const spacedDashes = spaced(['-', '_', '-', ' - '], [' ', '  ', ' / ']);
const spacedSymbols = spaced(['*', '|', '·', '/', '+', '~', '•', ' . '], ['   ']);
/** One letter a line, a blank line between words. */
const spacedLines = spaced(['\n'], ['\n\n']);
/** The letters as a list of quoted characters, as in token-smuggling prompts. */
const spacedArray: Make = (r) => {
  const q = pick(r, ["'", '"']);
  return (_r, s) =>
    `[${cps(s)
      .map((c) => `${q}${c === '\n' ? '\\n' : c === q ? `\\${q}` : c}${q}`)
      .join(', ')}]`;
};

const SPACED_VARIANTS: readonly Variant[] = [
  v('space', spacedSpace, 'spaced-out'),
  v('dots', spacedDots, 'spaced-out'),
  v('dashes', spacedDashes, 'spaced-out'),
  v('symbols', spacedSymbols, 'spaced-out'),
  v('lines', spacedLines, 'one-letter-per-line', false),
  v('char-array', spacedArray, 'character-list'),
];
const spacedLetters = (r: Rand, text: string): Hidden =>
  viaScope(r, text, 'spaced', SPACED_VARIANTS, 0.45, 0.35, false);

// ---------------------------------------------------------------------------------------------------
// base64

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const chunk = (s: string, n: number): string[] => s.match(new RegExp(`.{1,${n}}`, 'gsu')) ?? [s];
const b64Std: Tx = (_r, s) => b64(s);
const b64Url: Tx = (_r, s) => Buffer.from(s, 'utf8').toString('base64url');
/** MIME (76) or PEM (64) line wrapping. */
const b64Wrapped: Make = (r) => {
  const width = pick(r, [76, 64, 60]);
  return (_q, s) => chunk(b64(s), width).join('\n');
};
/** RFC 2047 encoded-words, as in a phishing mail's subject line. */
const b64MimeWord: Make = (r) => {
  const cs = pick(r, ['UTF-8', 'utf-8']);
  return (_q, s) =>
    chunk(s, 36)
      .map((part) => `=?${cs}?B?${b64(part)}?=`)
      .join('\n ');
};
const b64DataUri: Make = (r) => {
  const charset = pick(r, ['', 'charset=utf-8;']);
  const shape = pick(r, ['{x}', '[{c}]({x})', '<a href="{x}">{c}</a>']);
  const label = pick(r, ['notes', 'attachment', 'here']);
  return (_q, s) => fill(shape, label, `data:text/plain;${charset}base64,${b64(s)}`);
};

const B64_VARIANTS: readonly Variant[] = [
  v('std', fixed(b64Std), 'base64'),
  v('std', fixed(b64Std), 'base64'),
  v('url-safe', fixed(b64Url), 'base64'),
  v('wrapped', b64Wrapped, 'base64', false),
  v('mime-word', b64MimeWord, 'base64', false),
  v('data-uri', b64DataUri, 'base64', false),
];
const base64 = (r: Rand, text: string): Hidden => viaScope(r, text, 'base64', B64_VARIANTS, 0.55, 0.2, true);

// ---------------------------------------------------------------------------------------------------
// hex

const hexBytes = (s: string, upper: boolean, pre: string, sep: string): string =>
  utf8(s)
    .map((b) => pre + hex2(b, upper))
    .join(sep);
const hexish =
  (pUpper: number, pre: string, seps: readonly string[]): Make =>
  (r) => {
    const upper = chance(r, pUpper);
    const sep = pick(r, seps);
    return (_q, s) => hexBytes(s, upper, pre, sep);
  };
const hexPlain = hexish(0.3, '', ['']);
const hexSpaced = hexish(0.4, '', [' ', ' ', ':', '-']);
const hexEscaped = hexish(0.3, '\\x', ['']);
const hexPrefixed = hexish(0.5, '0x', [' ', ', ', ',']);
/** HTML hexadecimal character references, one a code point. */
const hexEntities: Make = (r) => {
  const upper = chance(r, 0.4);
  return (_q, s) =>
    cps(s)
      .map((c) => {
        const h = c.codePointAt(0)!.toString(16);
        return `&#x${upper ? h.toUpperCase() : h};`;
      })
      .join('');
};
/** JavaScript/JSON `\uXXXX` escapes, one a UTF-16 unit. */
const hexUnicodeEscape: Tx = (_r, s) =>
  range(0, s.length - 1)
    .map((i) => `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`)
    .join('');

const HEX_VARIANTS: readonly Variant[] = [
  v('plain', hexPlain, 'hex'),
  v('bytes', hexSpaced, 'hex'),
  v('escaped', hexEscaped, 'hex-escaped'),
  v('0x', hexPrefixed, 'hex'),
  v('entities', hexEntities, 'HTML-entity'),
  v('unicode-escape', fixed(hexUnicodeEscape), 'unicode-escaped'),
];
const hex = (r: Rand, text: string): Hidden => viaScope(r, text, 'hex', HEX_VARIANTS, 0.55, 0.2, true);

// ---------------------------------------------------------------------------------------------------
// rot13 and its relatives

const shiftLetters = (s: string, n: number): string =>
  s.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(base + ((c.charCodeAt(0) - base + n) % 26));
  });
const rot13: Tx = (_r, s) => shiftLetters(s, 13);
const atbash: Tx = (_r, s) =>
  s.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(base + 25 - (c.charCodeAt(0) - base));
  });
const rot47: Tx = (_r, s) =>
  s.replace(/[!-~]/g, (c) => String.fromCharCode(33 + ((c.charCodeAt(0) - 33 + 47) % 94)));
const reverseText: Tx = (_r, s) => cps(s).reverse().join('');

function rotFamily(r: Rand, text: string): Hidden {
  const kind = pick(r, ['rot13', 'rot13', 'caesar', 'atbash', 'rot47', 'reverse']);
  if (kind === 'caesar') {
    const n = pick(r, [1, 3, 3, 3, 5, 7, 10, 18, 23, 25]);
    return viaScope(
      r,
      text,
      'rot',
      [
        v(
          `caesar${n}`,
          fixed((_r, s) => shiftLetters(s, n)),
          `Caesar-shifted (shift ${n})`,
        ),
      ],
      0.6,
      0.2,
      true,
    );
  }
  if (kind === 'reverse') {
    const perWord = chance(r, 0.35);
    const tx: Tx = perWord ? (q, s) => s.replace(word(), (w) => reverseText(q, w)) : reverseText;
    return viaScope(
      r,
      text,
      'rot',
      [v(perWord ? 'reverse-words' : 'reverse', fixed(tx), 'reversed')],
      0.7,
      0,
      false,
    );
  }
  const variant =
    kind === 'rot13'
      ? v('rot13', fixed(rot13), 'ROT13')
      : kind === 'atbash'
        ? v('atbash', fixed(atbash), 'Atbash')
        : v('rot47', fixed(rot47), 'ROT47');
  return viaScope(r, text, 'rot', [variant], 0.55, 0.25, true);
}

// ---------------------------------------------------------------------------------------------------
// nested: two encodings stacked

const ENCODERS: Record<string, readonly [label: string, make: Make]> = {
  base64: ['base64', fixed(b64Std)],
  hex: ['hex', hexPlain],
  url: ['URL', urlFull],
  rot13: ['ROT13', fixed(rot13)],
  reverse: ['reversed', fixed(reverseText)],
};
/** Inner encoding first, then outer; the stacks CTF challenges and encoding probes use. */
const STACKS: readonly (readonly [inner: string, outer: string])[] = [
  ['rot13', 'base64'],
  ['base64', 'hex'],
  ['base64', 'url'],
  ['hex', 'base64'],
  ['base64', 'base64'],
  ['url', 'base64'],
  ['reverse', 'base64'],
  ['base64', 'rot13'],
  ['rot13', 'hex'],
  ['base64', 'reverse'],
];
function nested(r: Rand, text: string): Hidden {
  const [inner, outer] = pick(r, STACKS);
  const [innerLabel, innerMake] = ENCODERS[inner]!;
  const [outerLabel, outerMake] = ENCODERS[outer]!;
  const scheme =
    inner === outer ? `double-${outerLabel}-encoded` : `${innerLabel}-then-${outerLabel}-encoded`;
  const make: Make = (q) => {
    const [innerTx, outerTx] = [innerMake(q), outerMake(q)];
    return (q2, s) => outerTx(q2, innerTx(q2, s));
  };
  return viaScope(r, text, 'nested', [v(`${inner}>${outer}`, make, scheme, false)], 0.7, 0, true);
}

// ---------------------------------------------------------------------------------------------------
// full_width

const toFull = (c: string, space: string): string => {
  const cp = c.codePointAt(0)!;
  return cp === 0x20 ? space : cp > 0x20 && cp < 0x7f ? String.fromCodePoint(cp + 0xfee0) : c;
};
const fwAll: Tx = (_r, s) =>
  cps(s)
    .map((c) => toFull(c, '\u3000'))
    .join('');
const fwAsciiSpace: Tx = (_r, s) =>
  cps(s)
    .map((c) => toFull(c, ' '))
    .join('');
const fwLetters: Tx = (_r, s) =>
  cps(s)
    .map((c) => (/[A-Za-z0-9]/.test(c) ? toFull(c, ' ') : c))
    .join('');
const fwPartial: Tx = (r, s) =>
  cps(s)
    .map((c) => (/[A-Za-z]/.test(c) && chance(r, 0.5) ? toFull(c, ' ') : c))
    .join('');

const FW_VARIANTS: readonly Variant[] = [
  v('all', fixed(fwAll)),
  v('ascii-space', fixed(fwAsciiSpace)),
  v('letters', fixed(fwLetters)),
  v('partial', fixed(fwPartial)),
];
const fullWidth = (r: Rand, text: string): Hidden =>
  viaScope(r, text, 'fullwidth', FW_VARIANTS, 0.5, 0.3, false);

// ---------------------------------------------------------------------------------------------------
// html_markdown_comment: the text inside markup a renderer hides, among ordinary visible text

/** Ordinary documents, one line or sentence an entry. */
const DOCS: readonly (readonly string[])[] = [
  [
    'Hi Sam,',
    'Thanks for sending over the Q3 numbers so quickly.',
    'I will go through them tonight and get back to you tomorrow.',
    'Best, Priya',
  ],
  ['## Installation', 'Run `npm install`, then `npm run build`.', 'The compiled files end up in `dist/`.'],
  [
    'This stainless steel bottle keeps drinks cold for 24 hours.',
    'It fits most car cup holders and is dishwasher safe.',
    'Available in four colours.',
  ],
  [
    'Last weekend we finally tried the new ramen place on 5th Street.',
    'The broth was rich without being heavy.',
    'Service was slow, but it was worth the wait.',
  ],
  [
    '**Meeting notes, 14 March**',
    '- Budget review moved to next week',
    '- Alex to follow up with the vendor',
    '- Next sync on Thursday',
  ],
  [
    'Dear applicant,',
    'Thank you for your interest in the Data Analyst position.',
    'We will be in touch about next steps within two weeks.',
  ],
  [
    'Preheat the oven to 180°C.',
    'Mix the flour, sugar and butter until crumbly.',
    'Bake for 25 minutes or until golden.',
  ],
  [
    'Ticket #5521: the export button does nothing on Safari 17.',
    'Steps: open a report, click Export, wait.',
    'Expected a CSV download; nothing happens.',
  ],
  [
    'Great little hotel, five minutes from the station.',
    'The room was small but spotless.',
    'Breakfast was the highlight.',
  ],
];
const TEX_DOCS: readonly (readonly string[])[] = [
  [
    '\\section{Results}',
    'Table~\\ref{tab:main} reports accuracy on the held-out split.',
    'Gains are largest for the smaller models, as expected.',
  ],
  [
    '\\begin{abstract}',
    'We study how retrieval depth affects answer quality in open-domain QA.',
    'Our method improves exact match by 3.1 points on two benchmarks.',
    '\\end{abstract}',
  ],
  [
    '\\subsection{Setup}',
    'All experiments use three random seeds and report the mean.',
    'Training takes roughly six hours on a single GPU.',
  ],
];
const escHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const escTex = (s: string): string =>
  s
    .replace(/\\/g, '\\textbackslash{}')
    .replace(/([{}%$#&_])/g, '\\$1')
    .replace(/~/g, '\\textasciitilde{}')
    .replace(/\^/g, '\\textasciicircum{}');
const oneLine = (s: string): string => s.replace(/\s*\n\s*/g, ' ');

/** How the parts of a document are joined: blank lines, line breaks, or spaces or breaks for prose. */
type Join = 'block' | 'line' | 'any';
/** `lines` with `hidden` at a drawn place among them, from index `lo` on. */
function place(r: Rand, lines: readonly string[], hidden: string, join: Join, lo = 0): string {
  const parts = [...lines];
  parts.splice(int(r, lo, parts.length), 0, hidden);
  const prose = join === 'any' && !/^[#*-]/.test(lines[0]!) && chance(r, 0.5);
  return parts.join(join === 'block' ? '\n\n' : prose ? ' ' : '\n');
}

const htmlComment = (r: Rand, t: string): string =>
  place(r, pick(r, DOCS), fill(pick(r, ['<!-- {x} -->', '<!--{x}-->', '<!--\n{x}\n-->']), '', t), 'any');
/** Markdown's comment idioms: link reference definitions that render as nothing. */
function mdComment(r: Rand, t: string): string {
  const x = oneLine(t).replace(/"/g, "'");
  const forms = ['[//]: # ({x})', '[comment]: <> ({x})', '[//]: <> ({x})', '[//]: # "{x}"', "[_]: # '{x}'"];
  const ok = forms.filter(
    (f) => !(f.includes('({x})') && /[()]/.test(x)) && !(f.includes("'{x}'") && x.includes("'")),
  );
  return place(r, pick(r, DOCS), fill(pick(r, ok), '', x), 'block');
}
/** A link whose hover title carries the text. */
function mdLinkTitle(r: Rand, t: string): string {
  const url = pick(r, ['docs.example.com/shared/q3', 'example.org/changelog', 'files.example.net/d/8812']);
  const label = pick(r, ['the full notes', 'here', 'the changelog', 'this doc']);
  const link = `[${label}](https://${url} "${oneLine(t).replace(/"/g, "'")}")`;
  return place(
    r,
    pick(r, DOCS),
    fill(pick(r, ['Details are in {x}.', 'More: {x}', 'See {x} for context.']), '', link),
    'any',
  );
}
function mdImageAlt(r: Rand, t: string): string {
  const img = pick(r, ['banner.png', 'spacer.gif', 'logo.svg', 'chart-q3.png']);
  return place(
    r,
    pick(r, DOCS),
    `![${oneLine(t).replace(/[[\]]/g, '')}](https://cdn.example.com/img/${img})`,
    'block',
  );
}
const CSS_HIDDEN = [
  '<span style="display:none">{x}</span>',
  '<div style="display: none;">{x}</div>',
  '<p style="font-size:0">{x}</p>',
  '<span style="color:#ffffff;background-color:#ffffff">{x}</span>',
  '<div hidden>{x}</div>',
  '<span style="opacity:0;position:absolute">{x}</span>',
  '<div style="position:absolute;left:-9999px">{x}</div>',
  '<font color="white" size="1">{x}</font>',
  '<template>{x}</template>',
];
const htmlCssHidden = (r: Rand, t: string): string =>
  place(r, pick(r, DOCS), fill(pick(r, CSS_HIDDEN), '', escHtml(t)), 'any');
const ATTRS = [
  '<img src="https://cdn.example.com/p.gif" alt="{x}" width="1" height="1">',
  '<abbr title="{x}">FYI</abbr>',
  '<a href="https://example.com/notes" title="{x}">notes</a>',
  '<meta name="description" content="{x}">',
  '<input type="hidden" name="note" value="{x}">',
];
const htmlAttribute = (r: Rand, t: string): string =>
  place(r, pick(r, DOCS), fill(pick(r, ATTRS), '', escHtml(oneLine(t))), 'any');
/** A LaTeX source with the text in `%` comments or in white text, as in papers aimed at LLM reviewers. */
function latex(r: Rand, t: string): [string, string] {
  const doc = pick(r, TEX_DOCS);
  if (chance(r, 0.5)) {
    const comment = t
      .split('\n')
      .map((l) => `% ${l}`)
      .join('\n');
    return ['latex:comment', place(r, doc, comment, 'line', 1)];
  }
  const white = pick(r, ['{\\color{white}{x}}', '\\textcolor{white}{{x}}', '{\\color{white}\\tiny {x}}']);
  return ['latex:white-text', place(r, doc, fill(white, '', escTex(t)), 'line', 1)];
}

const MARKUP: readonly (readonly [name: string, f: (r: Rand, t: string) => string])[] = [
  ['html:comment', htmlComment],
  ['html:comment', htmlComment],
  ['md:comment', mdComment],
  ['md:link-title', mdLinkTitle],
  ['md:image-alt', mdImageAlt],
  ['html:css-hidden', htmlCssHidden],
  ['html:attribute', htmlAttribute],
];
function hideInMarkup(r: Rand, text: string): Hidden {
  if (chance(r, 0.12)) {
    const [method, out] = latex(r, text);
    return { text: out, method, scope: 'cover' };
  }
  const [method, f] = pick(r, MARKUP);
  return { text: f(r, text), method, scope: 'cover' };
}

// ---------------------------------------------------------------------------------------------------
// unicode_tags

const TAG_BEGIN = '\u{E0001}';
const TAG_CANCEL = '\u{E007F}';
/** ASCII as Unicode tag characters; accents dropped first, anything else left as it is. */
const toTags: Tx = (_r, s) =>
  cps(s.normalize('NFD').replace(/\p{M}/gu, ''))
    .map((c) => {
      const cp = c.codePointAt(0)!;
      return cp >= 0x20 && cp <= 0x7e ? String.fromCodePoint(0xe0000 + cp) : c === '\n' ? '\u{E0020}' : c;
    })
    .join('');
const EMOJI = ['👍', '🎉', '✅', '🙂', '🚀', '🙏', '😊'];

function unicodeTags(r: Rand, text: string): Hidden {
  const kind = pick(r, ['bare', 'after-cover', 'after-cover', 'inside-cover', 'wrapped', 'emoji', 'kw']);
  if (kind === 'kw') return { text: onKeywords(r, text, toTags), method: 'tags:kw', scope: 'kw' };
  const tags = toTags(r, text);
  if (kind === 'bare') return { text: tags, method: 'tags:bare', scope: 'whole' };
  const cover = pick(r, COVERS);
  let out: string;
  if (kind === 'inside-cover') {
    const ws = cover.split(' ');
    ws.splice(int(r, 1, ws.length - 1), 0, tags);
    out = ws.join(' ');
  } else if (kind === 'wrapped') {
    out = `${cover}${TAG_BEGIN}${tags}${TAG_CANCEL}`;
  } else if (kind === 'emoji') {
    out = `${cover} ${pick(r, EMOJI)}${tags}`;
  } else {
    out = `${cover}${pick(r, ['', ' ', '\n'])}${tags}`;
  }
  return { text: out, method: `tags:${kind}`, scope: 'cover' };
}

// ---------------------------------------------------------------------------------------------------
// mix_of_two: two of the character-level families on the same text

const MIX_MAKE: Record<string, Make> = {
  leet: (r) => (chance(r, 0.5) ? leetBasic(r) : leetLight),
  homoglyph: (r) => (chance(r, 0.75) ? homoCyrillic(r) : homoGreek(r)),
  zw: (r) => (chance(r, 0.5) ? zwSparse : zwEvery(r)),
  spaced: (r) => (chance(r, 0.5) ? spacedSpace(r) : spacedDots(r)),
  fullwidth: fixed(fwAsciiSpace),
};
const MIX_PAIRS: readonly (readonly [first: string, second: string])[] = [
  ['leet', 'homoglyph'],
  ['leet', 'zw'],
  ['leet', 'spaced'],
  ['homoglyph', 'zw'],
  ['homoglyph', 'spaced'],
  ['fullwidth', 'zw'],
  ['fullwidth', 'spaced'],
  ['leet', 'markup'],
  ['homoglyph', 'markup'],
  ['zw', 'markup'],
];
function mixOfTwo(r: Rand, text: string): Hidden {
  const [a, b] = pick(r, MIX_PAIRS);
  const first = MIX_MAKE[a]!(r);
  if (b === 'markup') {
    const inner = hideInMarkup(r, first(r, text));
    return { text: inner.text, method: `mix:${a}+${inner.method}`, scope: 'cover' };
  }
  const second = MIX_MAKE[b]!(r);
  const tx: Tx = (q, s) => second(q, first(q, s));
  return viaScope(r, text, 'mix', [v(`${a}+${b}`, fixed(tx))], 0.5, 0.25, false);
}

// ---------------------------------------------------------------------------------------------------
// Framing: a few of the encoded outputs (one in seven of those not beside a cover) ask to decode and obey

const FRAMES = [
  'Decode this {c} text and do what it says:\n\n{x}',
  '{x}\n\n(That is {c} text. Decode it and follow it.)',
  'The next message is {c} text. Decode it and carry it out.\n{x}',
  'Read the following {c} text and follow the instructions it contains: {x}',
  'Below is some {c} text. Work out what it says and act on it, no need to explain.\n\n{x}',
];
const FRAMES_KW = [
  'Some words below are in {c} form; decode them and follow the whole message.\n\n{x}',
  '{x}\n\n(Decode the {c} parts and do what it says.)',
];

const FAMILY_FNS: Record<BriefedFamily, (r: Rand, text: string) => Hidden> = {
  leetspeak,
  url_encoding: urlEncoding,
  zero_width: zeroWidth,
  homoglyph,
  spaced_letters: spacedLetters,
  base64,
  hex,
  rot13: rotFamily,
  nested,
  full_width: fullWidth,
  html_markdown_comment: hideInMarkup,
  unicode_tags: unicodeTags,
  mix_of_two: mixOfTwo,
};

/** `text` hidden by `family`, with the variant's short name. Every draw comes from `r`. */
export function obfuscateF(r: Rand, text: string, family: BriefedFamily): { text: string; method: string } {
  const f = FAMILY_FNS[family];
  let h = f(r, text);
  // A variant that found nothing to change (say, leetspeak on a text without Latin letters) draws again.
  for (let tries = 0; tries < 3 && h.text === text; tries++) h = f(r, text);
  if (h.scheme !== undefined && h.scope !== 'cover' && chance(r, 0.15)) {
    const frame = pick(r, h.scope === 'kw' ? FRAMES_KW : FRAMES);
    return { text: fill(frame, h.scheme, h.text), method: `${h.method}+framed` };
  }
  return { text: h.text, method: h.method };
}
