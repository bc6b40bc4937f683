import { decodeHTML } from 'entities/decode';
import RE2 from 're2';
import { measureShape, rememberedShape } from './text-shape';
import { nextMatch, trieSource, utf8Of, Utf8Text } from './utf8-text';

export type Encoding = 'base64' | 'hex' | 'url' | 'rot13' | 'unicode_escape' | 'html_entity';

export interface DecodedSegment {
  encoding: Encoding;
  text: string;
  /** Raw span of the outermost encoded segment. */
  start: number;
  end: number;
  depth: number;
}

/** Bounds that keep decoding linear and small whatever the input. */
export const DECODE_LIMITS = {
  maxDepth: 2,
  maxSegments: 24,
  maxDecodedChars: 65_536,
  maxSegmentChars: 16_384,
};

const BASE64 = new RE2('[A-Za-z0-9+/_-]{16,}={0,2}', 'g');
const HEX = new RE2('(?:\\\\x[0-9A-Fa-f]{2}){6,}|\\b(?:[0-9A-Fa-f]{2}[ :]?){8,}[0-9A-Fa-f]{2}\\b', 'g');
// Percent-escapes at most a short word apart (spaces included: attackers escape some letters only).
// A word's letters right before the first escape belong to it ("i%67nore").
const URLENC = new RE2('[A-Za-z0-9]{0,12}(?:%[0-9A-Fa-f]{2}[^%\\n]{0,12}){4,}', 'g');
// ROT13 of words attackers hide: ignore, instructions, previous, system, prompt, jailbreak, password,
// disregard.
const ROT13_HINTS = [
  'vtaber',
  'vafgehpgvbaf',
  'cerivbhf',
  'flfgrz',
  'cebzcg',
  'wnvyoernx',
  'cnffjbeq',
  'qvfertneq',
];
// English function words as ROT13 ("the", "and", "you", "your", "all", "this", "with", "from", "that",
// "are", "for"): two of them mark a ROT13 sentence whatever it says.
const ROT13_COMMON = ['gur', 'naq', 'lbh', 'lbhe', 'nyy', 'guvf', 'jvgu', 'sebz', 'gung', 'ner', 'sbe'];
/**
 * Both lists in one pass, each factored into a trie (the engine branches once per letter: 30% faster
 * than the flat alternation on English text). Group 1 is a hint (or "rot13" itself); otherwise a
 * common word. Every match is one whole word, so the matches are those of the two lists scanned
 * apart, interleaved. A JS RegExp of bounded literals (linear: no repetition); called on every
 * field, it skips a native call.
 */
const ROT13_ANY = new RegExp(
  `\\b(?:(${trieSource(ROT13_HINTS)}|rot[- ]?13)|${trieSource(ROT13_COMMON)})\\b`,
  'gi',
);

/**
 * How sure a text is ROT13: 2 for a hint word or two different ROT13 common words, 1 for one common
 * word, 0 for none.
 */
function rot13Evidence(text: string): 0 | 1 | 2 {
  ROT13_ANY.lastIndex = 0;
  let first: string | undefined;
  for (let m = ROT13_ANY.exec(text); m; m = ROT13_ANY.exec(text)) {
    if (m[1] !== undefined) return 2;
    const word = m[0].toLowerCase();
    if (first === undefined) first = word;
    else if (word !== first) return 2;
  }
  return first === undefined ? 0 : 1;
}

/** Leetspeak's stand-ins and the letters they stand for (the leet view folds them back). */
export const LEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '9': 'g',
  '@': 'a',
  $: 's',
  '!': 'i',
};

/**
 * The same stand-ins as the ROT13 of their letters (0 is o, whose ROT13 is b): text that was leeted
 * and then rotated ("l0h 4e3" for "you are") shows its ROT13 words again. ROT13 only moves letters,
 * so its digits are the leet of the plain text.
 */
const LEET_AS_ROT13 = Object.fromEntries(Object.entries(LEET).map(([k, v]) => [k, rot13(v)]));
const LEET_CHARS = new RegExp(`[${Object.keys(LEET).join('')}]`, 'g');

/**
 * A ROT13 hint word, or two different ROT13 common words; also read with leetspeak's stand-ins
 * rotated when the text is a decoded one (rare and short) or already shows one common word, so
 * leetspeak under ROT13 (a mix of two) is found without a second scan of every field.
 */
function looksRot13(text: string, decoded: boolean): boolean {
  const evidence = rot13Evidence(text);
  if (evidence === 2) return true;
  if (!decoded && evidence === 0) return false;
  LEET_CHARS.lastIndex = 0;
  if (!LEET_CHARS.test(text)) return false;
  return rot13Evidence(text.replace(LEET_CHARS, (c) => LEET_AS_ROT13[c]!)) === 2;
}

/**
 * Share of decoded characters that look like language (letters, digits, spaces, punctuation). A run
 * of one repeated symbol (a table's rule "-----", "=====") counts as one character: a document's
 * separators are not noise.
 */
function readable(s: string): boolean {
  if (s.length < 6) return false;
  let n = 0;
  let good = 0;
  let letters = 0;
  // Digits, @, $ and ! stand in for letters in leetspeak: decoded leet text is text too.
  let leet = 0;
  let spaces = 0;
  let prev = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const repeat = c === prev;
    prev = c;
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c > 0x7f;
    const digit = (c >= 48 && c <= 57) || c === 64 || c === 36 || c === 33;
    // Printable symbols and tabs only: a run of control bytes stays as noisy as it was.
    if (repeat && !letter && !digit && (c === 9 || (c > 32 && c < 127))) continue;
    n++;
    if (c === 0xfffd || (c < 32 && c !== 10 && c !== 13 && c !== 9)) continue;
    good++;
    if (letter) letters++;
    else if (digit) leet++;
    if (c === 32) spaces++;
  }
  return good / n > 0.95 && letters / n > 0.3 && (letters + leet) / n > 0.55 && (spaces > 0 || n < 40);
}

function rot13(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 65 && c <= 90) out += String.fromCharCode(((c - 65 + 13) % 26) + 65);
    else if (c >= 97 && c <= 122) out += String.fromCharCode(((c - 97 + 13) % 26) + 97);
    else out += s[i];
  }
  return out;
}

/**
 * JSON and JavaScript string escapes. Python's json.dumps writes every character outside ASCII as
 * `\uXXXX` by default, so a tool output serialised there carries a Russian or Chinese text as
 * escapes only, which no rule or model feature reads.
 */
const STRING_ESCAPE = /\\(?:u([0-9A-Fa-f]{4})|([nrt"\\/]))/g;
const UNICODE_ESCAPE = /\\u[0-9A-Fa-f]{4}/g;
const ESCAPED: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\', '/': '/' };

/**
 * HTML character references: numeric ones spell a whole text the eye never sees ("&#73;&#103;…"),
 * and a web page a tool fetched writes its non-ASCII letters and spaces as named ones.
 */
const HTML_ENTITY = /&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/g;

/**
 * Whether `text` holds at least two matches of the global `re` (one `\u` or `&…;` is a stray path
 * or a quoted example, not an escaped text); `marker` is a substring every match has.
 */
function holdsTwo(text: string, marker: string, re: RegExp): boolean {
  if (!text.includes(marker)) return false;
  re.lastIndex = 0;
  return re.test(text) && re.test(text);
}

/** The text with its string escapes undone (escaped surrogate halves pair up again). */
function unescapeString(text: string): string {
  return text.replace(STRING_ESCAPE, (_, hex: string | undefined, ch: string | undefined) =>
    hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : ESCAPED[ch!]!,
  );
}

/** Percent-decoding that never throws: escapes become bytes, other characters their UTF-8. */
function percentDecode(s: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 37 && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c < 0x80) bytes.push(c);
    else {
      const cp = s.codePointAt(i)!;
      bytes.push(...Buffer.from(String.fromCodePoint(cp), 'utf8'));
      if (cp > 0xffff) i++;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeOne(encoding: Encoding, s: string): string | undefined {
  try {
    if (encoding === 'base64') {
      if (/^[0-9a-fA-F]+$/.test(s) || /^[A-Za-z]+$/.test(s)) return undefined;
      return Buffer.from(s, 'base64').toString('utf8');
    }
    if (encoding === 'hex') return Buffer.from(s.replace(/\\x|[ :]/g, ''), 'hex').toString('utf8');
    if (encoding === 'url') return percentDecode(s);
    return rot13(s);
  } catch {
    return undefined;
  }
}

interface DecodeState {
  out: DecodedSegment[];
  /** Decoded characters still allowed. */
  budget: number;
}

/** Where a text sits: the raw span it reports (a nested text reports its outermost segment). */
interface Place {
  text: string;
  start: number;
  end: number;
  depth: number;
  top: boolean;
}

/**
 * Finds and decodes base64, hex, URL-encoded and ROT13 segments and texts written in `\uXXXX`
 * escapes or HTML character references, recursing at most maxDepth times.
 */
export function decodeSegments(raw: string): DecodedSegment[] {
  const st: DecodeState = { out: [], budget: DECODE_LIMITS.maxDecodedChars };
  visit(st, { text: raw, start: 0, end: raw.length, depth: 1, top: true });
  return st.out;
}

function visit(st: DecodeState, at: Place): void {
  if (at.depth > DECODE_LIMITS.maxDepth) return;
  // Cheap gates before each regex (most text has no long token runs or escapes). The top level is
  // the field's raw text, whose remembered shape the views and the PII scan share; or, in a field
  // longer than the derived views read, its head, measured without displacing the field's shape
  // (the PII scan measured a 1 MB field twice).
  const shape =
    at.text.length < 16
      ? undefined
      : ((at.top ? rememberedShape(at.text) : undefined) ?? measureShape(at.text));
  if (shape?.base64Run) scan(st, at, BASE64, 'base64');
  if (shape?.hexRun) scan(st, at, HEX, 'hex');
  if (at.text.includes('%')) scan(st, at, URLENC, 'url');
  if (holdsTwo(at.text, '\\u', UNICODE_ESCAPE)) decodeWhole(st, at, 'unicode_escape', unescapeString);
  // The entities library's decoder (the one htmlparser2 and cheerio use): the WHATWG table of named
  // references, numeric ones mapped as browsers map them.
  if (holdsTwo(at.text, '&', HTML_ENTITY)) decodeWhole(st, at, 'html_entity', decodeHTML);
  if (looksRot13(at.text, !at.top)) decodeWhole(st, at, 'rot13', rot13);
}

/** The whole text decoded as one segment: it is escaped or rotated throughout, not in runs. */
function decodeWhole(st: DecodeState, at: Place, encoding: Encoding, decode: (s: string) => string): void {
  if (st.out.length >= DECODE_LIMITS.maxSegments) return;
  const decoded = decode(at.text.slice(0, DECODE_LIMITS.maxSegmentChars));
  st.out.push({ encoding, text: decoded, start: at.start, end: at.end, depth: at.depth });
  st.budget -= decoded.length;
}

function scan(st: DecodeState, at: Place, re: RE2, encoding: Encoding): void {
  // The top level is the field's raw text, which the PII and secret scans convert too.
  const t = at.top ? utf8Of(at.text) : new Utf8Text(at.text);
  re.lastIndex = 0;
  for (let m = nextMatch(re, t); m; m = nextMatch(re, t)) {
    if (st.out.length >= DECODE_LIMITS.maxSegments || st.budget <= 0) return;
    // A nested text is scanned with this same RE2 object: this scan resumes where it was.
    const resume = re.lastIndex;
    decodeMatch(st, at, m, encoding);
    re.lastIndex = resume;
  }
}

function decodeMatch(st: DecodeState, at: Place, m: RegExpExecArray, encoding: Encoding): void {
  const decoded = decodeOne(encoding, m[0].slice(0, DECODE_LIMITS.maxSegmentChars));
  if (!decoded) return;
  const start = at.top ? m.index : at.start;
  const end = at.top ? m.index + m[0].length : at.end;
  const depth = at.depth + 1;
  let text = decoded;
  let outer = encoding;
  if (!readable(decoded)) {
    const inner = decoded.trim();
    // Base64 or hex of an encoding: not readable yet, but worth one more level.
    if (/^[A-Za-z0-9+/=_-]{16,}$/.test(inner)) {
      visit(st, { text: inner, start, end, depth, top: false });
      return;
    }
    // ROT13 over base64 leaves the base64 alphabet: undo it and decode again (two levels).
    const unrotated =
      encoding === 'base64' &&
      at.depth < DECODE_LIMITS.maxDepth &&
      decodeOne('base64', rot13(m[0].slice(0, DECODE_LIMITS.maxSegmentChars)));
    if (!unrotated || !readable(unrotated)) return;
    text = unrotated;
    outer = 'rot13';
  }
  st.budget -= text.length;
  st.out.push({ encoding: outer, text, start, end, depth: at.depth });
  // ROT13 over base64 used both levels.
  visit(st, { text, start, end, depth: outer === encoding ? depth : depth + 1, top: false });
}
