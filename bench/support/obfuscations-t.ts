/**
 * Obfuscation generator T: the twentieth hand, written independently.
 *
 * The author of this file read nothing but obfuscation-brief.ts (the family names and byte helpers)
 * and rng.ts (the seeded random source); no other generator, detector code, test or document was
 * consulted. The generator is held out: its variants exist only to measure the detector and are
 * never used to tune it. It is seeded (every choice is drawn from the Rand it is handed, so a seed
 * always yields the same output), content-blind (it rewrites characters, bytes, words and whitespace
 * without ever looking at what the text says, and any cover text or carrier around the result is
 * neutral and drawn the same way for every input) and faithful (the original text can be read back
 * from every output, up to case or whitespace where a family inherently drops them).
 */
import { BRIEFED_FAMILIES, type BriefedFamily, hex2, utf8 } from './obfuscation-brief';
import { type Rand, type Slot, chance, fillEach, int, pick, sample } from './rng';

export const FAMILIES_T = BRIEFED_FAMILIES;

/** A rewrite of the text, drawing whatever it needs from `r`. */
type Step = (r: Rand, text: string) => string;

/** One named way of writing a family. */
interface Variant {
  readonly name: string;
  readonly run: Step;
}

/** A carrier whose neutral parts were already drawn; it places the payload. */
type Frame = (payload: string) => string;

/** Per-character replacement options, or undefined when a character is left alone. */
type Options = (c: string) => readonly string[] | undefined;

/** A variant from its name and step. */
const v = (name: string, run: Step): Variant => ({ name, run });

// ---------------------------------------------------------------------------------------------
// Small text and byte helpers
// ---------------------------------------------------------------------------------------------

/** The code points of `s`. */
const cps = (s: string): string[] => [...s];

/** Two-digit zero padding. */
const pad2 = (n: number): string => String(n).padStart(2, '0');

/** Integers lo..hi, both included. */
const range = (lo: number, hi: number): number[] => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);

/** `s` split into words at even indices and whitespace runs at odd ones. */
const tokens = (s: string): string[] => s.split(/(\s+)/);

/** The words of `s`, whitespace dropped. */
const wordsOf = (s: string): string[] => s.split(/\s+/).filter((w) => w !== '');

/** `s` with each word rewritten by `f`, whitespace kept as it was. */
const eachWord = (s: string, f: (w: string) => string): string =>
  tokens(s)
    .map((t, i) => (i % 2 === 0 && t !== '' ? f(t) : t))
    .join('');

/** `s` cut into pieces of at most `n` code units (used on ASCII encodings only). */
const chunks = (s: string, n: number): string[] => {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out;
};

/** The words of `s` packed greedily into lines of at most `width` characters. */
const wrapWords = (s: string, width: number): string[] => {
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

/** HTML text and attribute escaping. */
const escHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Standard padded base64 of the UTF-8 bytes of `s`. */
const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

/** URL-safe base64 without padding. */
const b64url = (s: string): string => b64(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** Base64 of the UTF-16LE bytes of `s`, as shells take encoded commands. */
const b64utf16 = (s: string): string => Buffer.from(s, 'utf16le').toString('base64');

/** Hex of the UTF-8 bytes of `s`, `sep` between bytes. */
const hexOf = (s: string, upper: boolean, sep = ''): string =>
  utf8(s)
    .map((b) => hex2(b, upper))
    .join(sep);

/** Every UTF-8 byte of `s` percent-encoded. */
const pctAll = (s: string, upper: boolean): string =>
  utf8(s)
    .map((b) => `%${hex2(b, upper)}`)
    .join('');

/** RFC 3986 unreserved characters, which a URL may carry as they are. */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** Component-style percent-encoding; each unreserved character is also encoded with probability p. */
const pctSome = (r: Rand, s: string, p: number, upper: boolean): string =>
  cps(s)
    .map((c) => (UNRESERVED.test(c) && (p <= 0 || !chance(r, p)) ? c : pctAll(c, upper)))
    .join('');

/** Percent-encoding with the case of each byte's hex digits drawn. */
const pctMixedCase = (r: Rand, s: string): string =>
  utf8(s)
    .map((b) => `%${hex2(b, chance(r, 0.5))}`)
    .join('');

/** Every UTF-16 code unit as a legacy `%uXXXX` escape. */
const pctU = (s: string): string =>
  s
    .split('')
    .map((c) => `%u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)
    .join('');

/** ROT13 of the ASCII letters of `s`. */
const rot13 = (s: string): string =>
  s.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });

/** ROT5 of the ASCII digits of `s`. */
const rot5 = (s: string): string => s.replace(/[0-9]/g, (d) => String((Number(d) + 5) % 10));

/** ROT47 over the printable ASCII range. */
const rot47 = (s: string): string =>
  s.replace(/[!-~]/g, (c) => String.fromCharCode(33 + ((c.charCodeAt(0) - 33 + 47) % 94)));

/** Each UTF-16 code unit of `s` as a `\uXXXX` escape. */
const uEscapes = (s: string, upper: boolean): string =>
  s
    .split('')
    .map((c) => {
      const h = c.charCodeAt(0).toString(16).padStart(4, '0');
      return `\\u${upper ? h.toUpperCase() : h}`;
    })
    .join('');

/**
 * `s` with each character that `opts` covers replaced with probability `p` by one of its options;
 * if nothing was replaced, the first covered character is, so the text changes whenever it can.
 */
function substitute(r: Rand, s: string, p: number, opts: Options): string {
  const cs = cps(s);
  let changed = false;
  const choose = (o: readonly string[]): string => (o.length === 1 ? o[0]! : pick(r, o));
  const out = cs.map((c) => {
    const o = opts(c);
    if (o === undefined || (p < 1 && !chance(r, p))) return c;
    changed = true;
    return choose(o);
  });
  if (!changed) {
    const i = cs.findIndex((c) => opts(c) !== undefined);
    if (i >= 0) out[i] = choose(opts(cs[i]!)!);
  }
  return out.join('');
}

/** Options from a one-to-one table. */
const one =
  (table: Readonly<Record<string, string>>): Options =>
  (c) => {
    const t = table[c];
    return t === undefined ? undefined : [t];
  };

/** Options from a one-to-one table looked up case-insensitively. */
const oneNoCase =
  (table: Readonly<Record<string, string>>): Options =>
  (c) =>
    one(table)(c.toLowerCase());

/** Options from a one-to-many table. */
const many =
  (table: Readonly<Record<string, readonly string[]>>): Options =>
  (c) =>
    table[c];

/** `s` with each word passed through `f` with probability `p` (at least one word always is). */
function someWords(r: Rand, s: string, p: number, f: (w: string) => string): string {
  const ts = tokens(s);
  const idx = range(0, ts.length - 1).filter((i) => i % 2 === 0 && ts[i] !== '');
  if (idx.length === 0) return s;
  let chosen = idx.filter(() => chance(r, p));
  if (chosen.length === 0) chosen = [pick(r, idx)];
  for (const i of chosen) ts[i] = f(ts[i]!);
  return ts.join('');
}

/** `s` cut at a drawn word boundary: a plain head (with its trailing whitespace) and a tail. */
function splitTail(r: Rand, s: string): [string, string] {
  const cuts = [0, ...[...s.matchAll(/\s+/g)].map((m) => (m.index ?? 0) + m[0].length)].filter(
    (c) => c < s.length,
  );
  const cut = pick(r, cuts.length > 0 ? cuts : [0]);
  return [s.slice(0, cut), s.slice(cut)];
}

/** `s` with `gap(a, b)` inserted between each pair of adjacent code points a, b. */
function interleave(s: string, gap: (a: string, b: string) => string): string {
  const cs = cps(s);
  return cs.map((c, i) => (i === 0 ? c : gap(cs[i - 1]!, c) + c)).join('');
}

/** True for a whitespace character. */
const isSpace = (c: string): boolean => /\s/.test(c);

/** Each letter of `s` in a drawn case. */
const randomCase = (r: Rand, s: string): string =>
  cps(s)
    .map((c) => (/\p{L}/u.test(c) ? (chance(r, 0.5) ? c.toUpperCase() : c.toLowerCase()) : c))
    .join('');

// ---------------------------------------------------------------------------------------------
// Neutral carriers: every part is drawn before the payload is known and never depends on it
// ---------------------------------------------------------------------------------------------

const NAMES = ['alex', 'sam', 'jordan', 'priya', 'chen', 'maria', 'tom', 'noor', 'lee', 'dana', 'kofi'];
const HOSTS = ['example.com', 'example.org', 'files.example.net', 'intranet.example.com', 'api.example.io'];
const PATHS = ['search', 'api/v2/items', 'share', 'view', 'notes/save', 'redirect', 'feedback'];
const KEYS = ['q', 'text', 'msg', 'note', 'data', 'body', 'value', 'content', 'comment'];
const FILES = ['notes', 'readme', 'summary', 'draft', 'export', 'minutes', 'report'];
const TITLES = ['Release notes', 'Weekly update', 'Meeting agenda', 'Getting started', 'Changelog'];
const PARAS = [
  'This page lists the changes in the latest version.',
  'Please review the schedule before Thursday.',
  'The office will be closed on Monday.',
  'All tests passed on the main branch.',
  'Lunch is provided in the kitchen at noon.',
  'See the appendix for the full table.',
];
const VARS = ['data', 'blob', 'msg', 'payload_text', 'content', 'value', 'buf', 'raw'];
const TABLES = ['notes', 'messages', 'comments', 'entries', 'documents'];
const COLUMNS = ['body', 'content', 'text', 'note', 'description'];
const CLASSES = ['content', 'main', 'wrapper', 'note', 'card', 'footer'];
const LABELS = ['data', 'blob', 'value', 'attachment', 'token', 'ref', 'field'];
const COMPONENTS = ['Footer', 'Sidebar', 'Card', 'Banner', 'Notice', 'Summary'];
const AGENTS = ['Mozilla/5.0 (X11; Linux x86_64)', 'curl/8.4.0', 'python-requests/2.31.0', 'Wget/1.21'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const GROUPS = ['rec.puzzles', 'rec.humor', 'alt.test', 'misc.misc', 'comp.misc'];
const SUBJECTS = ['Re: weekly thread', 'Answer inside', 'Re: question from yesterday', 'spoiler'];
const COVERS = [
  'Thanks for the update, see you at the meeting.',
  'Here are the notes from the call today.',
  'Looks good to me, merging it now.',
  'Sounds great, talk to you soon.',
  'The report is attached below as usual.',
  'Happy Friday everyone, enjoy the weekend.',
];
const CHAT_LINES = [
  'morning all',
  'anyone seen the build logs?',
  'brb, coffee',
  'lgtm',
  'thanks!',
  'ok, will check after lunch',
  'pushed a fix',
  'ping me when you are back',
];

/** Slots every template may use; all are drawn, in order, whichever the template names. */
const SLOTS: readonly Slot[] = [
  ['host', HOSTS],
  ['path', PATHS],
  ['key', KEYS],
  ['file', FILES],
  ['title', TITLES],
  ['para', PARAS],
  ['para2', PARAS],
  ['n', (q) => String(int(q, 2, 9999))],
  ['var', VARS],
  ['table', TABLES],
  ['col', COLUMNS],
  ['cls', CLASSES],
  ['label', LABELS],
  ['comp', COMPONENTS],
  ['ua', AGENTS],
  ['ip', (q) => `10.${int(q, 0, 255)}.${int(q, 0, 255)}.${int(q, 1, 254)}`],
  ['day', (q) => pad2(int(q, 1, 28))],
  ['mon', MONTHS],
  ['time', (q) => `${pad2(int(q, 0, 23))}:${pad2(int(q, 0, 59))}:${pad2(int(q, 0, 59))}`],
  ['group', GROUPS],
  ['subject', SUBJECTS],
  ['cover', COVERS],
  ['who', NAMES],
];

/** A frame from one of `templates` with its slots filled now; the payload goes at `{payload}`. */
function templateFrame(r: Rand, templates: readonly string[]): Frame {
  const t = fillEach(r, pick(r, templates), SLOTS);
  return (p) => t.split('{payload}').join(p);
}

/** A frame placing the payload as one message in a short, neutral chat log. */
function chatFrame(r: Rand): Frame {
  const style = int(r, 0, 2);
  const people = sample(r, NAMES, 3);
  const before = int(r, 0, 2);
  const after = int(r, 0, 2);
  const lines = sample(r, CHAT_LINES, before + after);
  const hour = int(r, 8, 18);
  const minute = int(r, 0, 50);
  const speaker = int(r, 0, 2);
  const who = (k: number): string => people[k % people.length] ?? 'user';
  const stamp = (k: number): string => `${pad2(hour)}:${pad2(minute + k)}`;
  const line = (k: number, name: string, msg: string): string =>
    style === 0
      ? `[${stamp(k)}] <${name}> ${msg}`
      : style === 1
        ? `${name}: ${msg}`
        : `${stamp(k)}  ${name}  ${msg}`;
  return (p) => {
    const out = lines.slice(0, before).map((m, k) => line(k, who(k + 1), m));
    out.push(line(before, who(speaker), p));
    lines.slice(before).forEach((m, k) => out.push(line(before + 1 + k, who(k + 2), m)));
    return out.join('\n');
  };
}

/** A frame that shows the payload bare, after a neutral label, or as a one-field JSON object. */
function presentFrame(r: Rand): Frame {
  const form = int(r, 0, 2);
  const label = pick(r, LABELS);
  const key = pick(r, KEYS);
  return (p) => (form === 0 ? p : form === 1 ? `${label}: ${p}` : `{"${key}": "${p}"}`);
}

// ---------------------------------------------------------------------------------------------
// leetspeak
// ---------------------------------------------------------------------------------------------

const LEET_CLASSIC: Readonly<Record<string, string>> = { a: '4', e: '3', i: '1', o: '0', s: '5', t: '7' };
const LEET_VOWELS: Readonly<Record<string, string>> = { a: '4', e: '3', i: '1', o: '0' };
const LEET_SYMBOLS: Readonly<Record<string, string>> = {
  a: '@',
  b: '8',
  e: '3',
  g: '9',
  i: '!',
  l: '1',
  o: '0',
  s: '$',
  t: '+',
};
/** Multi-character glyphs; no glyph is a prefix of another, so they read back unambiguously. */
const LEET_ASCII_ART: Readonly<Record<string, string>> = {
  a: '/-\\',
  b: '|3',
  c: '<',
  d: '|)',
  e: '3',
  f: '|=',
  g: '6',
  h: '|-|',
  i: '!',
  j: '_|',
  k: '|<',
  l: '1',
  m: '|\\/|',
  n: '|\\|',
  o: '0',
  p: '|*',
  r: '|2',
  s: '5',
  t: '7',
  u: '(_)',
  v: '\\/',
  w: '\\^/',
  x: '><',
  y: '`/',
  z: '2',
};
const LEET_CHOICES: Readonly<Record<string, readonly string[]>> = {
  a: ['4', '@'],
  b: ['8'],
  e: ['3'],
  g: ['9'],
  i: ['1', '!'],
  o: ['0'],
  s: ['5', '$'],
  t: ['7', '+'],
};

/** Classic leetspeak over every letter it covers. */
const leetClassic = (r: Rand, s: string): string => substitute(r, s, 1, oneNoCase(LEET_CLASSIC));

const LEETSPEAK: readonly Variant[] = [
  v('classic', leetClassic),
  v('vowels', (r, t) => substitute(r, t, 1, oneNoCase(LEET_VOWELS))),
  v('sprinkled', (r, t) => substitute(r, t, 0.35 + 0.45 * r(), oneNoCase(LEET_CLASSIC))),
  v('symbols', (r, t) => substitute(r, t, 1, oneNoCase(LEET_SYMBOLS))),
  v('ascii_art', (r, t) => substitute(r, t, 1, oneNoCase(LEET_ASCII_ART))),
  v('mixed_glyphs', (r, t) => substitute(r, t, 1, (c) => many(LEET_CHOICES)(c.toLowerCase()))),
  v('mocking_case', (r, t) => randomCase(r, leetClassic(r, t))),
  v('some_words', (r, t) => someWords(r, t, 0.5, (w) => leetClassic(r, w))),
  v('handle', (r, t) => leetClassic(r, t).replace(/ /g, '_')),
  v('shouting', (r, t) => leetClassic(r, t.toUpperCase())),
  v('chat_message', (r, t) => {
    const frame = chatFrame(r);
    const table = pick(r, [LEET_CLASSIC, LEET_SYMBOLS]);
    return frame(substitute(r, t, 1, oneNoCase(table)));
  }),
];

// ---------------------------------------------------------------------------------------------
// url_encoding
// ---------------------------------------------------------------------------------------------

const URL_TEMPLATES = [
  'https://{host}/{path}?{key}={payload}',
  'https://{host}/{path}?id={n}&{key}={payload}&lang=en',
  '<a href="https://{host}/{path}?{key}={payload}">{file}</a>',
  "curl -s 'https://{host}/{path}?{key}={payload}'",
  '[{file}](https://{host}/{path}?{key}={payload})',
];
const LOG_TEMPLATES = [
  '{ip} - - [{day}/{mon}/2024:{time} +0000] "GET /{path}?{key}={payload} HTTP/1.1" 200 {n} "-" "{ua}"',
  '2024-03-{day}T{time}Z INFO request method=GET path=/{path} query={key}={payload} status=200',
];
const FORM_TEMPLATES = [
  [
    'POST /{path} HTTP/1.1',
    'Host: {host}',
    'Content-Type: application/x-www-form-urlencoded',
    '',
    '{key}={payload}&submit=Send',
  ].join('\n'),
  'curl -X POST https://{host}/{path} --data-raw "{key}={payload}&id={n}"',
];

const URL_ENCODING: readonly Variant[] = [
  v('every_byte_upper', (_r, t) => pctAll(t, true)),
  v('every_byte_lower', (_r, t) => pctAll(t, false)),
  v('component', (r, t) => pctSome(r, t, 0, true)),
  v('form_plus', (r, t) => pctSome(r, t, 0, true).replace(/%20/g, '+')),
  v('over_encoded', (r, t) => {
    const p = 0.3 + 0.5 * r();
    return pctSome(r, t, p, chance(r, 0.5));
  }),
  v('mixed_case_hex', pctMixedCase),
  v('double', (_r, t) => pctAll(t, true).replace(/%/g, '%25')),
  v('percent_u', (_r, t) => pctU(t)),
  v('query_string', (r, t) => {
    const frame = templateFrame(r, URL_TEMPLATES);
    return frame(chance(r, 0.5) ? pctAll(t, true) : pctSome(r, t, 0.6, true));
  }),
  v('access_log', (r, t) => {
    const frame = templateFrame(r, LOG_TEMPLATES);
    return frame(pctAll(t, chance(r, 0.5)));
  }),
  v('form_post', (r, t) => {
    const frame = templateFrame(r, FORM_TEMPLATES);
    return frame(pctSome(r, t, 0.25, true).replace(/%20/g, '+'));
  }),
];

// ---------------------------------------------------------------------------------------------
// zero_width
// ---------------------------------------------------------------------------------------------

const ZW = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'] as const;
const INVISIBLE_MATH = ['\u2061', '\u2062', '\u2063', '\u2064'] as const;

/** `s` with a zero-width character after its first code point when nothing was inserted. */
const atLeastOne = (s: string, out: string, z: string): string => {
  if (out !== s) return out;
  const cs = cps(s);
  return cs.length === 0 ? out : [cs[0], z, ...cs.slice(1)].join('');
};

/** The UTF-8 bits of `s` as zero-width characters, bytes apart, between byte-order marks. */
const zeroWidthBits = (s: string): string =>
  '\ufeff' +
  utf8(s)
    .map((b) => b.toString(2).padStart(8, '0').replace(/0/g, '\u200c').replace(/1/g, '\u200d'))
    .join('\u200b') +
  '\ufeff';

const ZERO_WIDTH: readonly Variant[] = [
  v('zwsp_everywhere', (_r, t) => interleave(t, () => '\u200b')),
  v('mixed_everywhere', (r, t) => interleave(t, () => pick(r, ZW))),
  v('inside_words', (r, t) => {
    const z = pick(r, ZW);
    return interleave(t, (a, b) => (isSpace(a) || isSpace(b) ? '' : z));
  }),
  v('sparse', (r, t) => {
    const p = 0.2 + 0.4 * r();
    return atLeastOne(
      t,
      interleave(t, () => (chance(r, p) ? pick(r, ZW) : '')),
      '\u200b',
    );
  }),
  v('invisible_spaces', (_r, t) => t.replace(/ /g, '\u200b')),
  v('soft_hyphens', (r, t) => {
    const k = int(r, 2, 4);
    return eachWord(t, (w) => chunks(w, k).join('\u00ad'));
  }),
  v('clusters', (r, t) => {
    const p = 0.3 + 0.4 * r();
    const run = (): string =>
      range(1, int(r, 2, 5))
        .map(() => pick(r, ZW))
        .join('');
    return atLeastOne(
      t,
      interleave(t, () => (chance(r, p) ? run() : '')),
      '\u200d\u200c',
    );
  }),
  v('marked_word_starts', (r, t) => {
    const z = pick(r, ['\ufeff', '\u200b', '\u2060']);
    return eachWord(t, (w) => z + w);
  }),
  v('word_joiners', (_r, t) => interleave(t, () => '\u2060')),
  v('bits_in_cover', (r, t) => {
    const ws = pick(r, COVERS).split(' ');
    const at = int(r, 1, ws.length - 1);
    return `${ws.slice(0, at).join(' ')}${zeroWidthBits(t)} ${ws.slice(at).join(' ')}`;
  }),
  v('invisible_operators', (r, t) => interleave(t, () => pick(r, INVISIBLE_MATH))),
];

// ---------------------------------------------------------------------------------------------
// homoglyph
// ---------------------------------------------------------------------------------------------

const HOMO_CYRILLIC: Readonly<Record<string, string>> = {
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
const HOMO_GREEK: Readonly<Record<string, string>> = {
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
const HOMO_LATIN_EXT: Readonly<Record<string, string>> = {
  a: '\u0251',
  g: '\u0261',
  i: '\u0131',
  n: '\u0578',
  u: '\u057d',
  h: '\u0570',
  o: '\u0585',
  q: '\u0566',
  v: '\u028b',
  r: '\u027e',
};
const HOMO_ROMAN: Readonly<Record<string, string>> = {
  i: '\u2170',
  v: '\u2174',
  x: '\u2179',
  l: '\u217c',
  c: '\u217d',
  d: '\u217e',
  m: '\u217f',
  I: '\u2160',
  V: '\u2164',
  X: '\u2169',
  L: '\u216c',
  C: '\u216d',
  D: '\u216e',
  M: '\u216f',
};
const HOMO_CHEROKEE: Readonly<Record<string, string>> = {
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
  S: '\u13da',
  T: '\u13a2',
  V: '\u13d9',
  W: '\u13b3',
  Z: '\u13c3',
};

/** The tables merged into one-to-many options. */
function mergeTables(tables: readonly Readonly<Record<string, string>>[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const t of tables) for (const [k, g] of Object.entries(t)) (out[k] ??= []).push(g);
  return out;
}
const HOMO_MIXED = mergeTables([HOMO_CYRILLIC, HOMO_GREEK, HOMO_LATIN_EXT]);

/** A mathematical alphanumeric alphabet: where A, a and 0 start, and the letters kept elsewhere. */
interface MathStyle {
  readonly upper: number;
  readonly lower: number;
  readonly digit?: number;
  readonly holes?: Readonly<Record<string, number>>;
}
const MATH_STYLES: readonly MathStyle[] = [
  { upper: 0x1d400, lower: 0x1d41a, digit: 0x1d7ce },
  { upper: 0x1d434, lower: 0x1d44e, holes: { h: 0x210e } },
  { upper: 0x1d468, lower: 0x1d482 },
  {
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
  { upper: 0x1d4d0, lower: 0x1d4ea },
  { upper: 0x1d504, lower: 0x1d51e, holes: { C: 0x212d, H: 0x210c, I: 0x2111, R: 0x211c, Z: 0x2128 } },
  {
    upper: 0x1d538,
    lower: 0x1d552,
    digit: 0x1d7d8,
    holes: { C: 0x2102, H: 0x210d, N: 0x2115, P: 0x2119, Q: 0x211a, R: 0x211d, Z: 0x2124 },
  },
  { upper: 0x1d56c, lower: 0x1d586 },
  { upper: 0x1d5a0, lower: 0x1d5ba, digit: 0x1d7e2 },
  { upper: 0x1d5d4, lower: 0x1d5ee, digit: 0x1d7ec },
  { upper: 0x1d608, lower: 0x1d622 },
  { upper: 0x1d63c, lower: 0x1d656 },
  { upper: 0x1d670, lower: 0x1d68a, digit: 0x1d7f6 },
];

/** Options writing ASCII letters (and digits, where the style has them) in a math alphabet. */
const mathOpts =
  (st: MathStyle): Options =>
  (c) => {
    const hole = st.holes?.[c];
    if (hole !== undefined) return [String.fromCodePoint(hole)];
    const k = c.charCodeAt(0);
    if (c.length !== 1) return undefined;
    if (k >= 65 && k <= 90) return [String.fromCodePoint(st.upper + k - 65)];
    if (k >= 97 && k <= 122) return [String.fromCodePoint(st.lower + k - 97)];
    if (k >= 48 && k <= 57 && st.digit !== undefined) return [String.fromCodePoint(st.digit + k - 48)];
    return undefined;
  };

const HOMOGLYPH: readonly Variant[] = [
  v('cyrillic_all', (r, t) => substitute(r, t, 1, one(HOMO_CYRILLIC))),
  v('cyrillic_sparse', (r, t) => substitute(r, t, 0.2 + 0.4 * r(), one(HOMO_CYRILLIC))),
  v('greek_all', (r, t) => substitute(r, t, 1, one(HOMO_GREEK))),
  v('script_mix', (r, t) => substitute(r, t, 0.5 + 0.5 * r(), many(HOMO_MIXED))),
  v('math_alphabet', (r, t) => substitute(r, t, 1, mathOpts(pick(r, MATH_STYLES)))),
  v('math_per_word', (r, t) => eachWord(t, (w) => substitute(r, w, 1, mathOpts(pick(r, MATH_STYLES))))),
  v('one_per_word', (r, t) =>
    eachWord(t, (w) => {
      const cs = cps(w);
      const idx = range(0, cs.length - 1).filter((i) => HOMO_MIXED[cs[i]!] !== undefined);
      if (idx.length === 0) return w;
      const i = pick(r, idx);
      cs[i] = pick(r, HOMO_MIXED[cs[i]!]!);
      return cs.join('');
    }),
  ),
  v('latin_lookalikes', (r, t) => substitute(r, t, 1, one(HOMO_LATIN_EXT))),
  v('roman_numerals', (r, t) => substitute(r, t, 1, one(HOMO_ROMAN))),
  v('cherokee_capitals', (r, t) =>
    substitute(r, t, 1, (c) => {
      const g = HOMO_CHEROKEE[c] ?? HOMO_CYRILLIC[c];
      return g === undefined ? undefined : [g];
    }),
  ),
];

// ---------------------------------------------------------------------------------------------
// spaced_letters
// ---------------------------------------------------------------------------------------------

/** The words of `s`, each with `sep()` between its code points, joined by `gap`. */
const spaceOut = (s: string, sep: () => string, gap: string): string =>
  wordsOf(s)
    .map((w) =>
      cps(w)
        .map((c, i) => (i === 0 ? c : sep() + c))
        .join(''),
    )
    .join(gap);

const WIDE_SPACES = ['\u00a0', '\u2002', '\u2003', '\u2009', '\u3000'] as const;
const LETTER_SEPS = [' ', '.', '-', '_', '*', '\u00b7', '~'] as const;

const SPACED_LETTERS: readonly Variant[] = [
  v('spaces_wide_gap', (r, t) => {
    const gap = pick(r, ['   ', '    ', '     ']);
    return spaceOut(t, () => ' ', gap);
  }),
  v('spaces_slashes', (r, t) => {
    const gap = pick(r, [' / ', ' | ', ' // ']);
    return spaceOut(t, () => ' ', gap);
  }),
  v('dotted', (_r, t) => spaceOut(t, () => '.', ' ')),
  v('hyphenated', (_r, t) => spaceOut(t, () => '-', ' ')),
  v('underscored', (r, t) => {
    const gap = pick(r, [' ', '  ', ' _ ']);
    return spaceOut(t, () => '_', gap);
  }),
  v('vertical', (_r, t) => spaceOut(t, () => '\n', '\n\n')),
  v('unicode_spaces', (r, t) => {
    const sep = pick(r, WIDE_SPACES);
    return spaceOut(t, () => sep, '   ');
  }),
  v('random_separators', (r, t) => {
    const gap = pick(r, [' | ', ' // ', '   ']);
    return spaceOut(t, () => pick(r, LETTER_SEPS), gap);
  }),
  v('bracketed', (r, t) => {
    const [open, close] = pick(r, [
      ['[', ']'],
      ['(', ')'],
      ['{', '}'],
      ['<', '>'],
    ] as const);
    return wordsOf(t)
      .map((w) =>
        cps(w)
          .map((c) => open + c + close)
          .join(''),
      )
      .join(' ');
  }),
  v('spreadsheet_rows', (r, t) => {
    const d = pick(r, [',', ';', '\t']);
    const cell = (c: string): string => (c === d || c === '"' ? `"${c === '"' ? '""' : c}"` : c);
    return wordsOf(t)
      .map((w) => cps(w).map(cell).join(d))
      .join('\n');
  }),
  v('some_words', (r, t) => {
    const sep = pick(r, ['.', '-', '*', '\u00b7']);
    return someWords(r, t, 0.5, (w) => cps(w).join(sep));
  }),
];

// ---------------------------------------------------------------------------------------------
// base64
// ---------------------------------------------------------------------------------------------

const DATA_URI_TEMPLATES = [
  'data:text/plain;base64,{payload}',
  'data:text/plain;charset=utf-8;base64,{payload}',
  '[{file}.txt](data:text/plain;base64,{payload})',
  '<a download="{file}.txt" href="data:text/plain;base64,{payload}">{file}.txt</a>',
];
const JSON_TEMPLATES = [
  '{"id": {n}, "{key}": "{payload}", "encoding": "base64"}',
  '{\n  "id": {n},\n  "name": "{file}",\n  "{key}": "{payload}"\n}',
  '{"type":"attachment","filename":"{file}.txt","{key}":"{payload}"}',
];
const MIME_TEMPLATES = [
  [
    '--=_Part_{n}',
    'Content-Type: text/plain; charset="utf-8"',
    'Content-Transfer-Encoding: base64',
    'Content-Disposition: attachment; filename="{file}.txt"',
    '',
    '{payload}',
    '--=_Part_{n}--',
  ].join('\n'),
  ['Content-Type: text/plain; charset=UTF-8', 'Content-Transfer-Encoding: base64', '', '{payload}'].join(
    '\n',
  ),
];
const YAML_TEMPLATES = [
  'version: {n}\nname: {file}\n{key}: !!binary |\n{payload}\n',
  '# generated\n{key}: !!binary |\n{payload}\nenabled: true\n',
];

/** `b` cut into pieces of a drawn size and written as a string concatenation in code. */
function codeConcat(r: Rand, b: string): string {
  const lang = int(r, 0, 2);
  const name = pick(r, VARS);
  const parts = chunks(b, int(r, 8, 24));
  if (lang === 0) return `const ${name} = atob(\n  ${parts.map((p) => `'${p}'`).join(' +\n  ')}\n);`;
  const quoted = parts.map((p) => `"${p}"`);
  if (lang === 1) return `import base64\n\n${name} = base64.b64decode(\n    ${quoted.join('\n    ')}\n)`;
  return `byte[] ${name} = Base64.getDecoder().decode(\n    ${quoted.join(' +\n    ')});`;
}

const BASE64: readonly Variant[] = [
  v('standard', (_r, t) => b64(t)),
  v('unpadded', (_r, t) => b64(t).replace(/=+$/, '')),
  v('url_safe', (_r, t) => b64url(t)),
  v('mime_lines', (r, t) => chunks(b64(t), pick(r, [64, 76])).join(pick(r, ['\n', '\r\n']))),
  v('pem_block', (r, t) => {
    const label = pick(r, ['MESSAGE', 'DATA', 'NOTE', 'ATTACHMENT']);
    return [`-----BEGIN ${label}-----`, ...chunks(b64(t), 64), `-----END ${label}-----`].join('\n');
  }),
  v('data_uri', (r, t) => templateFrame(r, DATA_URI_TEMPLATES)(b64(t))),
  v('json_field', (r, t) => templateFrame(r, JSON_TEMPLATES)(b64(t))),
  v('mime_part', (r, t) => templateFrame(r, MIME_TEMPLATES)(chunks(b64(t), 76).join('\n'))),
  v('code_concat', (r, t) => codeConcat(r, b64(t))),
  v('utf16_command', (r, t) => {
    const frame = templateFrame(r, [
      '{payload}',
      'powershell.exe -NoProfile -EncodedCommand {payload}',
      'pwsh -enc {payload}',
    ]);
    return frame(b64utf16(t));
  }),
  v('partial_tail', (r, t) => {
    const [head, tail] = splitTail(r, t);
    return head + b64(tail);
  }),
  v('yaml_binary', (r, t) => {
    const frame = templateFrame(r, YAML_TEMPLATES);
    return frame(
      chunks(b64(t), 60)
        .map((l) => `  ${l}`)
        .join('\n'),
    );
  }),
];

// ---------------------------------------------------------------------------------------------
// hex
// ---------------------------------------------------------------------------------------------

const ESCAPED_HEX_TEMPLATES = [
  '{payload}',
  '"{payload}"',
  "b'{payload}'",
  'echo -e "{payload}"',
  "printf '{payload}'",
];
const UNICODE_ESCAPE_TEMPLATES = ['{"{key}": "{payload}"}', 'const {var} = "{payload}";', '"{payload}"'];
const SQL_TEMPLATES = [
  "INSERT INTO {table} ({col}) VALUES (X'{payload}');",
  'SELECT CONVERT(0x{payload} USING utf8mb4);',
  "UPDATE {table} SET {col} = UNHEX('{payload}') WHERE id = {n};",
];

/** `xxd`-style rows: an offset, then sixteen bytes in groups of two (no text column). */
function xxdRows(s: string): string {
  const bytes = utf8(s);
  const rows: string[] = [];
  for (let o = 0; o < bytes.length; o += 16) {
    const row = bytes.slice(o, o + 16);
    const groups = chunks(row.map((b) => hex2(b, false)).join(''), 4);
    rows.push(`${o.toString(16).padStart(8, '0')}: ${groups.join(' ')}`);
  }
  return rows.join('\n');
}

/** A C array initialiser holding the UTF-8 bytes of `s`, twelve to a line. */
function cArray(r: Rand, s: string): string {
  const name = pick(r, VARS);
  const upper = chance(r, 0.5);
  const bytes = utf8(s).map((b) => `0x${hex2(b, upper)}`);
  const rows = range(0, Math.ceil(bytes.length / 12) - 1).map(
    (i) => `  ${bytes.slice(i * 12, i * 12 + 12).join(', ')}`,
  );
  return `static const unsigned char ${name}[] = {\n${rows.join(',\n')}\n};`;
}

const HEX: readonly Variant[] = [
  v('lower_run', (_r, t) => hexOf(t, false)),
  v('upper_spaced', (_r, t) => hexOf(t, true, ' ')),
  v('escaped_x', (r, t) => {
    const frame = templateFrame(r, ESCAPED_HEX_TEMPLATES);
    const upper = chance(r, 0.5);
    return frame(
      utf8(t)
        .map((b) => `\\x${hex2(b, upper)}`)
        .join(''),
    );
  }),
  v('c_array', cArray),
  v('colon_separated', (r, t) => hexOf(t, chance(r, 0.5), pick(r, [':', '-']))),
  v('xxd_rows', (_r, t) => xxdRows(t)),
  v('unicode_escapes', (r, t) => {
    const frame = templateFrame(r, UNICODE_ESCAPE_TEMPLATES);
    return frame(uEscapes(t, chance(r, 0.5)));
  }),
  v('per_word', (r, t) => {
    const upper = chance(r, 0.5);
    return eachWord(t, (w) => hexOf(w, upper));
  }),
  v('sql_literal', (r, t) => templateFrame(r, SQL_TEMPLATES)(hexOf(t, true))),
  v('prefixed_0x', (r, t) => `0x${hexOf(t, chance(r, 0.5))}`),
  v('partial_tail', (r, t) => {
    const upper = chance(r, 0.5);
    const [head, tail] = splitTail(r, t);
    return head + hexOf(tail, upper);
  }),
];

// ---------------------------------------------------------------------------------------------
// rot13
// ---------------------------------------------------------------------------------------------

const SPOILER_TEMPLATES = [
  '[spoiler]{payload}[/spoiler]',
  '||{payload}||',
  '>!{payload}!<',
  '<details><summary>{label}</summary>{payload}</details>',
];
const USENET_TEMPLATES = [
  ['From: {who}@example.org', 'Newsgroups: {group}', 'Subject: {subject}', '', '{payload}'].join('\n'),
  [
    'Newsgroups: {group}',
    'Subject: {subject}',
    'Date: {day} {mon} 2024 {time} GMT',
    '',
    '{payload}',
    '',
    '-- ',
    '{who}',
  ].join('\n'),
];

const ROT13: readonly Variant[] = [
  v('plain', (_r, t) => rot13(t)),
  v('some_words', (r, t) => someWords(r, t, 0.5, rot13)),
  v('rot47', (_r, t) => rot47(t)),
  v('rot18', (_r, t) => rot5(rot13(t))),
  v('spoiler', (r, t) => templateFrame(r, SPOILER_TEMPLATES)(rot13(t))),
  v('python_codecs', (r, t) => {
    const name = pick(r, VARS);
    const fn = pick(r, ['decode', 'encode']);
    return `import codecs\n\n${name} = codecs.${fn}(${JSON.stringify(rot13(t))}, 'rot_13')`;
  }),
  v('tr_pipe', (r, t) => {
    const set = pick(r, [
      "'A-Za-z' 'N-ZA-Mn-za-m'",
      "'[a-zA-Z]' '[n-za-mN-ZA-M]'",
      "'a-zA-Z' 'n-za-mN-ZA-M'",
    ]);
    return `echo '${rot13(t).replace(/'/g, "'\\''")}' | tr ${set}`;
  }),
  v('wrapped_lines', (r, t) => wrapWords(rot13(t), int(r, 30, 64)).join('\n')),
  v('usenet_post', (r, t) => templateFrame(r, USENET_TEMPLATES)(rot13(t))),
  v('chat_message', (r, t) => chatFrame(r)(rot13(t))),
];

// ---------------------------------------------------------------------------------------------
// nested
// ---------------------------------------------------------------------------------------------

/** A nested variant: `encode` applied to the text, shown through a drawn neutral presentation. */
const nestedV = (name: string, encode: (s: string) => string): Variant =>
  v(name, (r, t) => presentFrame(r)(encode(t)));

const NESTED: readonly Variant[] = [
  nestedV('base64_of_rot13', (s) => b64(rot13(s))),
  nestedV('hex_of_base64', (s) => hexOf(b64(s), false)),
  nestedV('url_of_base64', (s) => pctAll(b64(s), true)),
  nestedV('base64_of_base64', (s) => b64(b64(s))),
  nestedV('rot13_of_base64', (s) => rot13(b64(s))),
  nestedV('base64_of_hex', (s) => b64(hexOf(s, false))),
  nestedV('base64_of_url', (s) => b64(pctAll(s, true))),
  nestedV('hex_of_rot13', (s) => hexOf(rot13(s), true)),
  nestedV('base64_of_hex_of_rot13', (s) => b64(hexOf(rot13(s), false))),
  nestedV('base64_of_zero_width', (s) => b64(interleave(s, () => '\u200b'))),
];

// ---------------------------------------------------------------------------------------------
// full_width
// ---------------------------------------------------------------------------------------------

/** The full-width form of a printable ASCII character (a space becomes U+3000 when `wide`). */
const fw = (c: string, wide = true): string => {
  if (c === ' ') return wide ? '\u3000' : c;
  const k = c.codePointAt(0) ?? 0;
  return c.length === 1 && k >= 0x21 && k <= 0x7e ? String.fromCodePoint(k + 0xfee0) : c;
};

/** All of `s` in full width. */
const fwAll = (s: string, wide = true): string =>
  cps(s)
    .map((c) => fw(c, wide))
    .join('');

/** Options turning non-space printable ASCII into full width. */
const fwOpts: Options = (c) => (c !== ' ' && fw(c) !== c ? [fw(c)] : undefined);

const BANNER_TEMPLATES = [
  '\u3010{payload}\u3011',
  '# {payload}',
  '**{payload}**',
  '\u300c{payload}\u300d',
  '== {payload} ==',
];

const FULL_WIDTH: readonly Variant[] = [
  v('all_wide_space', (_r, t) => fwAll(t)),
  v('all_ascii_space', (_r, t) => fwAll(t, false)),
  v('alnum_only', (r, t) => substitute(r, t, 1, (c) => (/^[A-Za-z0-9]$/.test(c) ? [fw(c)] : undefined))),
  v('some_words', (r, t) => someWords(r, t, 0.5, (w) => fwAll(w))),
  v('some_chars', (r, t) => substitute(r, t, 0.3 + 0.4 * r(), fwOpts)),
  v('alternating', (r, t) => {
    let k = int(r, 0, 1);
    return cps(t)
      .map((c) => (isSpace(c) ? c : k++ % 2 === 0 ? fw(c) : c))
      .join('');
  }),
  v('cjk_punctuation', (_r, t) =>
    cps(t)
      .map((c) => (c === '.' ? '\u3002' : c === ',' ? '\u3001' : fw(c)))
      .join(''),
  ),
  v('vertical', (_r, t) => cps(fwAll(t)).join('\n')),
  v('chat_message', (r, t) => chatFrame(r)(fwAll(t, chance(r, 0.5)))),
  v('banner', (r, t) => templateFrame(r, BANNER_TEMPLATES)(fwAll(t))),
];

// ---------------------------------------------------------------------------------------------
// html_markdown_comment
// ---------------------------------------------------------------------------------------------

const PAGE_TEMPLATES = [
  [
    '<!DOCTYPE html>',
    '<html>',
    '<head><title>{title}</title></head>',
    '<body>',
    '  <h1>{title}</h1>',
    '  <!-- {payload} -->',
    '  <p>{para}</p>',
    '</body>',
    '</html>',
  ].join('\n'),
  ['<h2>{title}</h2>', '<p>{para}</p>', '<!-- {payload} -->', '<p>{para2}</p>'].join('\n'),
  ['# {title}', '', '{para}', '', '<!-- {payload} -->', '', '{para2}'].join('\n'),
];
const MD_REFERENCE_TEMPLATES = [
  '# {title}\n\n{para}\n\n[//]: # ({payload})\n\n{para2}\n',
  '{para}\n\n[//]: # ({payload})\n',
  '## {title}\n\n[//]: # ({payload})\n\n- {para}\n- {para2}\n',
];
const MD_EMPTY_LINK_TEMPLATES = [
  '# {title}\n\n[comment]: <> ({payload})\n\n{para}\n',
  '{para}\n\n[//]: <> ({payload})\n\n{para2}\n',
];
const WRAPPED_COMMENT_TEMPLATES = [
  '<div class="{cls}">\n<p>{para}</p>\n<!--\n{payload}\n-->\n</div>',
  '# {title}\n\n<!--\n{payload}\n-->\n\n{para}\n',
];
const HIDDEN_TEMPLATES = [
  '<p>{para}</p>\n<span style="display:none">{payload}</span>',
  '<div hidden>{payload}</div>\n<p>{para}</p>',
  '<p>{para}</p>\n<p style="font-size:0">{payload}</p>',
  '<p>{para}</p>\n<span style="color:#fff;background:#fff">{payload}</span>',
  '<div aria-hidden="true" style="position:absolute;left:-9999px">{payload}</div>\n<p>{para}</p>',
];
const IMG_MD_TEMPLATES = [
  '{para}\n\n![{payload}](https://{host}/img/{n}.png)\n',
  '![{payload}](./{file}.png)',
];
const IMG_HTML_TEMPLATES = [
  '<p>{para}</p>\n<img src="https://{host}/img/{n}.png" alt="{payload}" width="1" height="1">',
  '<img alt="{payload}" src="/static/{file}.png">',
];
const CSS_TEMPLATES = [
  [
    '<style>',
    '  .{cls} { margin: 0 auto; max-width: 40em; }',
    '  /* {payload} */',
    '  .{cls} p { line-height: 1.5; }',
    '</style>',
    '<div class="{cls}"><p>{para}</p></div>',
  ].join('\n'),
  ['.{cls} {', '  padding: 8px;', '  /* {payload} */', '  color: #333;', '}'].join('\n'),
];
const JSX_TEMPLATES = [
  [
    'export function {comp}() {',
    '  return (',
    '    <section>',
    '      <h2>{title}</h2>',
    '      {/* {payload} */}',
    '      <p>{para}</p>',
    '    </section>',
    '  );',
    '}',
  ].join('\n'),
];
const CONDITIONAL_TEMPLATES = [
  [
    '<table role="presentation" width="100%"><tr><td>',
    '  <p>{para}</p>',
    '  <!--[if mso]>{payload}<![endif]-->',
    '</td></tr></table>',
  ].join('\n'),
  '<!--[if mso]>{payload}<![endif]-->\n<p>{para}</p>',
];
const XML_TEMPLATES = [
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<configuration>',
    '  <!-- {payload} -->',
    '  <setting name="{key}" value="{n}" />',
    '</configuration>',
  ].join('\n'),
  [
    '<svg xmlns="http://www.w3.org/2000/svg" width="{n}" height="{n}">',
    '  <!-- {payload} -->',
    '  <rect width="100%" height="100%" fill="#eee"/>',
    '</svg>',
  ].join('\n'),
];

/** The text's words in 2-4 runs, each in its own HTML comment among neutral list items. */
function commentChunks(r: Rand, t: string): string {
  const m = int(r, 2, 4);
  const items = range(0, m).map(() => pick(r, PARAS));
  const title = pick(r, TITLES);
  const ws = wordsOf(t);
  const k = Math.max(1, Math.min(m, ws.length));
  const cuts = sample(r, range(1, ws.length - 1), k - 1).sort((a, b) => a - b);
  const bounds = [0, ...cuts, ws.length];
  const parts = range(0, k - 1).map((i) => ws.slice(bounds[i], bounds[i + 1]).join(' '));
  const lines = [`<h3>${title}</h3>`, '<ul>'];
  parts.forEach((p, i) => lines.push(`  <li>${items[i] ?? ''}</li>`, `  <!-- ${p} -->`));
  lines.push(`  <li>${items[m] ?? ''}</li>`, '</ul>');
  return lines.join('\n');
}

const HTML_MARKDOWN_COMMENT: readonly Variant[] = [
  v('html_comment', (r, t) => templateFrame(r, PAGE_TEMPLATES)(t)),
  v('md_reference', (r, t) => templateFrame(r, MD_REFERENCE_TEMPLATES)(t)),
  v('md_empty_link', (r, t) => templateFrame(r, MD_EMPTY_LINK_TEMPLATES)(t)),
  v('comment_wrapped', (r, t) => {
    const frame = templateFrame(r, WRAPPED_COMMENT_TEMPLATES);
    const indent = pick(r, ['', '  ', '    ']);
    return frame(
      wrapWords(t, int(r, 32, 60))
        .map((l) => indent + l)
        .join('\n'),
    );
  }),
  v('comment_chunks', commentChunks),
  v('hidden_element', (r, t) => templateFrame(r, HIDDEN_TEMPLATES)(escHtml(t))),
  v('image_alt', (r, t) => {
    const html = chance(r, 0.5);
    const frame = templateFrame(r, html ? IMG_HTML_TEMPLATES : IMG_MD_TEMPLATES);
    return frame(html ? escHtml(t) : t);
  }),
  v('css_comment', (r, t) => templateFrame(r, CSS_TEMPLATES)(t)),
  v('jsx_comment', (r, t) => templateFrame(r, JSX_TEMPLATES)(t)),
  v('conditional_comment', (r, t) => templateFrame(r, CONDITIONAL_TEMPLATES)(escHtml(t))),
  v('xml_comment', (r, t) => templateFrame(r, XML_TEMPLATES)(t)),
];

// ---------------------------------------------------------------------------------------------
// unicode_tags
// ---------------------------------------------------------------------------------------------

const TAG_BEGIN = '\u{e0001}';
const TAG_CANCEL = '\u{e007f}';

/** `s` in invisible tag characters; whitespace becomes the tag space, other non-ASCII is kept. */
const toTags = (s: string): string =>
  cps(s)
    .map((c) => {
      if (isSpace(c)) return '\u{e0020}';
      const k = c.codePointAt(0) ?? 0;
      return k >= 0x21 && k <= 0x7e ? String.fromCodePoint(0xe0000 + k) : c;
    })
    .join('');

const TAG_JSON_TEMPLATES = ['{"{key}": "{cover}{payload}"}', '{"id": {n}, "title": "{cover}{payload}"}'];
const TAG_LINK_TEMPLATES = [
  '[{cover}{payload}](https://{host}/{path})',
  '<a href="https://{host}/{path}">{cover}{payload}</a>',
];

/** The text split into pieces hidden as tags after drawn words of a neutral cover sentence. */
function tagsAcrossCover(r: Rand, t: string): string {
  const ws = pick(r, COVERS).split(' ');
  const m = int(r, 2, 4);
  const slots = sample(r, range(0, ws.length - 1), m).sort((a, b) => a - b);
  const cs = cps(t);
  const cuts = sample(r, range(1, cs.length - 1), Math.max(0, Math.min(m - 1, cs.length - 1))).sort(
    (a, b) => a - b,
  );
  const bounds = [0, ...cuts, cs.length];
  const pieces = range(0, bounds.length - 2).map((i) => cs.slice(bounds[i], bounds[i + 1]).join(''));
  return ws.map((w, i) => (slots.includes(i) ? w + toTags(pieces[slots.indexOf(i)] ?? '') : w)).join(' ');
}

/** A drawn run of whole words of `t` hidden as tags, the rest left visible. */
function tagSpan(r: Rand, t: string): string {
  const ts = tokens(t);
  const idx = range(0, ts.length - 1).filter((i) => i % 2 === 0 && ts[i] !== '');
  if (idx.length === 0) return toTags(t);
  const a = int(r, 0, idx.length - 1);
  const b = int(r, a, idx.length - 1);
  const from = idx[a]!;
  const to = idx[b]!;
  return ts.slice(0, from).join('') + toTags(ts.slice(from, to + 1).join('')) + ts.slice(to + 1).join('');
}

const UNICODE_TAGS: readonly Variant[] = [
  v('bare', (_r, t) => toTags(t)),
  v('after_cover', (r, t) => pick(r, COVERS) + toTags(t)),
  v('before_cover', (r, t) => toTags(t) + pick(r, COVERS)),
  v('inside_cover', (r, t) => {
    const ws = pick(r, COVERS).split(' ');
    const at = int(r, 1, ws.length - 1);
    return `${ws.slice(0, at).join(' ')}${toTags(t)} ${ws.slice(at).join(' ')}`;
  }),
  v('begin_and_cancel', (r, t) => {
    const cover = pick(r, COVERS);
    return `${cover} ${TAG_BEGIN}${toTags(t)}${TAG_CANCEL}`;
  }),
  v('flag_sequence', (r, t) => {
    const cover = pick(r, COVERS);
    return `${cover} \u{1f3f4}${toTags(t)}${TAG_CANCEL}`;
  }),
  v('across_cover', tagsAcrossCover),
  v('partial_span', tagSpan),
  v('json_field', (r, t) => templateFrame(r, TAG_JSON_TEMPLATES)(toTags(t))),
  v('link_text', (r, t) => templateFrame(r, TAG_LINK_TEMPLATES)(toTags(t))),
];

// ---------------------------------------------------------------------------------------------
// mix_of_two
// ---------------------------------------------------------------------------------------------

/** Cyrillic lookalikes with probability p. */
const cyr = (r: Rand, s: string, p: number): string => substitute(r, s, p, one(HOMO_CYRILLIC));

/** The head of `s` (at a word boundary, else mid-text) and the rest; both non-empty when possible. */
function splitHead(r: Rand, s: string): [string, string] {
  const cuts = [...s.matchAll(/\s+/g)].map((m) => (m.index ?? 0) + m[0].length).filter((c) => c < s.length);
  const cs = cps(s);
  const cut = cuts.length > 0 ? pick(r, cuts) : cs.slice(0, Math.ceil(cs.length / 2)).join('').length;
  return [s.slice(0, cut), s.slice(cut)];
}

const MIX_OF_TWO: readonly Variant[] = [
  v('leet_spaced', (r, t) => {
    const gap = pick(r, ['   ', ' / ', '  |  ']);
    return spaceOut(leetClassic(r, t), () => ' ', gap);
  }),
  v('homoglyph_zero_width', (r, t) => {
    const p = 0.4 + 0.6 * r();
    const q = 0.3 + 0.5 * r();
    const out = cyr(r, t, p);
    return interleave(out, () => (chance(r, q) ? pick(r, ZW) : ''));
  }),
  v('fullwidth_zero_width', (r, t) => {
    const z = pick(r, ZW);
    return interleave(fwAll(t), () => z);
  }),
  v('leet_zero_width', (r, t) => {
    const z = pick(r, ZW);
    const out = substitute(r, t, 0.5 + 0.4 * r(), oneNoCase(LEET_CLASSIC));
    return interleave(out, (a, b) => (isSpace(a) || isSpace(b) ? '' : z));
  }),
  v('rot13_spaced', (r, t) => {
    const sep = pick(r, ['.', '-', ' ']);
    return spaceOut(rot13(t), () => sep, sep === ' ' ? '   ' : ' ');
  }),
  v('homoglyph_or_fullwidth_words', (r, t) => eachWord(t, (w) => (chance(r, 0.5) ? cyr(r, w, 1) : fwAll(w)))),
  v('homoglyph_spaced', (r, t) => {
    const sep = pick(r, [' ', '-']);
    return spaceOut(cyr(r, t, 1), () => sep, sep === ' ' ? ' | ' : '  ');
  }),
  v('base64_then_hex', (r, t) => {
    const [head, tail] = splitHead(r, t);
    return `${b64(head)} ${hexOf(tail, false)}`;
  }),
  v('leet_in_comment', (r, t) => {
    const frame = templateFrame(r, PAGE_TEMPLATES);
    return frame(leetClassic(r, t));
  }),
  v('rot13_fullwidth', (_r, t) => fwAll(rot13(t))),
];

// ---------------------------------------------------------------------------------------------
// entry point
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

/**
 * `text` obfuscated in `family` by a variant drawn from `r`. Should the drawn variant leave this
 * text unchanged (it has nothing the variant rewrites), the family's other variants are tried in order.
 */
export function obfuscateT(r: Rand, text: string, family: BriefedFamily): { text: string; method: string } {
  const variants = VARIANTS[family];
  const first = pick(r, variants);
  for (const variant of [first, ...variants.filter((x) => x !== first)]) {
    const out = variant.run(r, text);
    if (out !== text) return { text: out, method: `${family}/${variant.name}` };
  }
  return { text, method: `${family}/${first.name}` };
}
