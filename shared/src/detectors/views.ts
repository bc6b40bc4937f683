import { confusableFold, enclosedLetter, isLookalikeScript } from './confusables';
import {
  CIPHER_FIRST_STEPS,
  decipheredKeywords,
  decodeSegments,
  type Encoding,
  FANCY_LEET,
  LEET,
  LEET_GROUP,
  LEET_GROUP_HINT,
  LEET_GROUPS,
  LEET_GROUPS_OTHER,
  LEET_DENSE,
  rotationThatSpells,
  unrotatedText,
} from './encodings';
import { misspellings, type ShapedRuns } from './spelling';
import { measureShape, textShape } from './text-shape';
import { Utf8Text } from './utf8-text';
import { startSpelling, unglued, wordRank, wordStarts } from './word-segments';

export type ViewName =
  | 'raw'
  | 'nfkc'
  | 'despaced'
  | 'leet'
  | 'respelled'
  | 'unicode_tags'
  | 'zero_width'
  | 'comment'
  | 'marks'
  | 'flipped'
  | Encoding;

/**
 * One way of reading a field. Normalised views are lower-case. `map[i]` is the raw UTF-16 index of
 * view character i; decoded views have no map and report their whole source segment instead.
 */
export interface TextView {
  name: ViewName;
  text: string;
  map?: Int32Array;
  /** View index i is raw index i (only the case changed). */
  identity?: boolean;
  /** Every character is ASCII, so the UTF-8 form is a Latin-1 copy. */
  ascii?: boolean;
  segStart: number;
  segEnd: number;
  /** The text as UTF-8 for RE2, converted on first use (see viewUtf8). */
  utf8?: Utf8Text;
  /**
   * What the injection model reads when it differs from `text`, same length: the leet view's text
   * has every l folded to i for the rules, which would hide words the model knows.
   */
  modelText?: string;
}

/**
 * A view's text as UTF-8, converted once and kept with the view: each RE2 pass over it reuses it.
 * An ASCII view (a pure-ASCII field, or its leet form) is copied as Latin-1.
 */
export function viewUtf8(view: TextView): Utf8Text {
  return (view.utf8 ??= new Utf8Text(view.text, view.ascii === true));
}

/** Evidence of hiding, counted while the views are built. */
export interface ObfuscationSignals {
  invisible: number;
  tagChars: number;
  bidi: number;
  mixedScriptWords: number;
  spacedRuns: number;
  /** Runs of eight spaced-out letters or more, four in five of them letters (not `!` or digits). */
  spacedWords: number;
  /** Texts split into quoted characters (joinedCharacters) or written in Morse code, read as words. */
  symbolTexts: number;
  leetTokens: number;
  decoded: number;
  /** Raw offsets of the first hidden character, to point a finding at. */
  firstHidden: number;
}

export interface FieldViews {
  raw: string;
  /** Lower-case NFKC + homoglyph folding + hidden characters removed; always present. */
  normalized: TextView;
  /** Every view worth matching, normalised first, `raw` excluded (rules run case-insensitive on views). */
  views: TextView[];
  signals: ObfuscationSignals;
  /**
   * The normalised text with its encoded runs (base64, hex, escapes) read where they stand, when it
   * has any: what the injection model reads in place of the normalised view (decodedInPlace).
   */
  inPlace?: TextView;
}

export interface ViewOptions {
  /**
   * Build the derived views: despaced, leet and decoded base64/hex/url/rot13/\u-escaped/HTML-entity
   * segments (bounded).
   * Default true; false leaves the normalised view only, for callers that match nothing else.
   */
  derived?: boolean;
}

function isInvisible(cp: number): 'zw' | 'bidi' | 'tag' | undefined {
  if (cp === 0x200b || cp === 0x200c || cp === 0x200d || cp === 0x2060 || cp === 0xfeff || cp === 0x00ad)
    return 'zw';
  if (cp >= 0x2061 && cp <= 0x2064) return 'zw';
  if (cp === 0x180e || cp === 0x034f) return 'zw';
  if (
    cp === 0x200e ||
    cp === 0x200f ||
    cp === 0x061c ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2066 && cp <= 0x2069)
  )
    return 'bidi';
  // Variation selectors 17 to 256 carry a byte each in "emoji smuggling": read as tags are.
  if ((cp >= 0xe0000 && cp <= 0xe007f) || (cp >= 0xe0100 && cp <= 0xe01ef)) return 'tag';
  if (cp >= 0xfe00 && cp <= 0xfe0f) return 'zw';
  return undefined;
}

/**
 * The characters isInvisible calls zero-width. The joiners and selectors that combine with the
 * character before them stand outside the class, where lint reads them as themselves.
 */
const ZERO_WIDTH = /[\u00ad\u180e\u200b\u200c\u2060-\u2064\ufeff]|\u200d|\u034f|[\ufe00-\ufe0f]/g;
/** Any character isInvisible names: zero-width, bidi controls, tag characters (as surrogate pairs). */
const HIDDEN = new RegExp(
  String.raw`${ZERO_WIDTH.source}|[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\udb40[\udc00-\udc7f\udd00-\uddef]`,
);

const isAsciiLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);

/** Map a view span back to raw UTF-16 offsets. */
export function rawSpan(view: TextView, start: number, end: number): [number, number] {
  if (view.identity) return [start, end];
  if (!view.map) return [view.segStart, view.segEnd];
  const s = view.map[Math.min(start, view.map.length - 1)] ?? view.segStart;
  const e = (view.map[Math.max(start, Math.min(end, view.map.length) - 1)] ?? view.segEnd - 1) + 1;
  return [s, Math.max(e, s + 1)];
}

/** Parts a view's text is joined from at once; more are joined in runs of this many first. */
const JOIN_RUN = 1024;
/**
 * `parts` joined. V8 joins a long array of short strings slowly (about 110 ms for a million
 * one-character parts, the per-character views of a 1 MB field), and runs of a thousand quickly
 * (15 ms in all).
 */
function joined(parts: string[]): string {
  if (parts.length <= JOIN_RUN) return parts.join('');
  const runs: string[] = [];
  for (let k = 0; k < parts.length; k += JOIN_RUN) runs.push(parts.slice(k, k + JOIN_RUN).join(''));
  return runs.join('');
}

/**
 * Builder that appends view characters with their raw index (growable typed array, no per-char
 * objects). Sized for the expected view length up front: a 1 MB field would otherwise copy its
 * index array a dozen times while it grows.
 */
class ViewBuilder {
  chars: string[] = [];
  private idx: Int32Array;
  private n = 0;
  constructor(expectedLength: number) {
    this.idx = new Int32Array(Math.max(16, expectedLength));
  }
  push(s: string, rawIndex: number) {
    this.chars.push(s);
    this.grow(s.length);
    for (let k = 0; k < s.length; k++) this.idx[this.n++] = rawIndex;
  }
  /** Appends `s` whose characters come from consecutive raw indices starting at `rawStart`. */
  pushRun(s: string, rawStart: number) {
    if (!s.length) return;
    this.chars.push(s);
    this.grow(s.length);
    const idx = this.idx;
    const n = this.n;
    for (let k = 0; k < s.length; k++) idx[n + k] = rawStart + k;
    this.n = n + s.length;
  }
  /** Appends characters [from, to) of a view verbatim, with their raw indices. */
  copyFrom(src: TextView, from: number, to: number) {
    if (to <= from) return;
    this.chars.push(src.text.slice(from, to));
    this.grow(to - from);
    if (src.identity) for (let k = from; k < to; k++) this.idx[this.n++] = k;
    else if (src.map) {
      this.idx.set(src.map.subarray(from, to), this.n);
      this.n += to - from;
    } else for (let k = from; k < to; k++) this.idx[this.n++] = src.segStart;
  }
  private grow(extra: number) {
    if (this.n + extra > this.idx.length) {
      const next = new Int32Array(Math.max(this.idx.length * 2, this.n + extra));
      next.set(this.idx.subarray(0, this.n));
      this.idx = next;
    }
  }
  /** Characters pushed so far. */
  get length(): number {
    return this.n;
  }
  /** Number of pushed parts, for rolling back a tentative run. */
  mark(): [number, number] {
    return [this.chars.length, this.n];
  }
  truncate([parts, n]: [number, number]) {
    this.chars.length = parts;
    this.n = n;
  }
  /** The view; its map shares the builder's array (the builder is discarded after this). */
  done(name: ViewName, segStart: number, segEnd: number): TextView {
    return { name, text: joined(this.chars), map: this.idx.subarray(0, this.n), segStart, segEnd };
  }
}

/** Characters whose NFKC form, lower-cased, normalize has looked up (at most MAX_NFKC_LOWER of them). */
const NFKC_LOWER = new Map<number, string>();
const MAX_NFKC_LOWER = 65_536;
/**
 * A character's NFKC form lower-cased, as normalize reads a character alone: remembered, since the
 * two ICU calls cost most of a non-ASCII character's time and a text repeats its alphabet.
 */
function nfkcLower(cp: number): string {
  let lower = NFKC_LOWER.get(cp);
  if (lower === undefined) {
    lower = String.fromCodePoint(cp).normalize('NFKC').toLowerCase();
    if (NFKC_LOWER.size < MAX_NFKC_LOWER) NFKC_LOWER.set(cp, lower);
  }
  return lower;
}

const LETTER = 1;
const MARK = 2;
/** letterOrMark's answers for one UTF-16 unit, plus 4 once known (0: not looked up yet). */
const UNIT_CLASS = new Uint8Array(65_536);
const classOf = (s: string) => (/\p{L}/u.test(s) ? LETTER : 0) | (/\p{M}/u.test(s) ? MARK : 0);
/** Which of a letter (LETTER) and a combining mark (MARK) `part` holds: one lookup for a single unit. */
function letterOrMark(part: string): number {
  if (part.length !== 1) return classOf(part);
  const c = part.charCodeAt(0);
  const known = UNIT_CLASS[c]!;
  if (known) return known & 3;
  const found = classOf(part);
  UNIT_CLASS[c] = found | 4;
  return found;
}

function hasLookalike(raw: string): boolean {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 0x80) continue;
    const cp = raw.codePointAt(i)!;
    if (isLookalikeScript(cp) || confusableFold.has(cp) || enclosedLetter(cp)) return true;
    if (cp > 0xffff) i++;
  }
  return false;
}

/**
 * True when some character is a letter of another script than Latin that no Latin letter imitates
 * (Russian's л, Greek's λ, any Chinese character): the text is written in that script.
 */
function hasForeignLetter(chars: string[], folds: Map<number, string> | undefined): boolean {
  for (let k = 0; k < chars.length; k++) {
    const ch = chars[k]!;
    const cp = ch.codePointAt(0)!;
    if (folds?.has(k)) continue;
    if (
      cp >= 0x80 &&
      !confusableFold.has(cp) &&
      (letterOrMark(ch) & LETTER) > 0 &&
      !/\p{Script=Latin}/u.test(ch)
    )
      return true;
  }
  return false;
}

/**
 * A JSON string's escaped line breaks and tabs (`\n`, `\r`, `\t`) as spaces, two for two, so view
 * offsets stay the raw ones. Tool outputs are often JSON (Warden serialises a tool output that is
 * not a string), and an escaped break glues its `n` to the next word: "…\nIgnore your previous
 * instructions" read as "nignore", which no rule or model feature knows.
 */
function unescapeBreaks(text: string): string {
  return text.includes('\\') ? text.replace(/\\[nrt]/g, '  ') : text;
}

/** A text's normalised view and the ASCII its tag characters spell, with where each stood. */
interface Normalized {
  view: TextView;
  tags: string;
  /** The normalised view's offset at each of `tags`' characters. */
  tagsAt: number[];
  /**
   * The bytes variation selectors 17 to 256 stand for (U+E0100 is 16), in order: a text hidden
   * after an emoji, a byte a selector, which renders as the emoji alone.
   */
  selected: number[];
}

/** The normalised view of a text that only needed lower-casing (`lower`), index for index. */
function lowerCased(lower: string, ascii: boolean): Normalized {
  return {
    view: {
      name: 'nfkc',
      text: unescapeBreaks(lower),
      identity: true,
      ascii,
      segStart: 0,
      segEnd: lower.length,
    },
    tags: '',
    tagsAt: [],
    selected: [],
  };
}

/** NFKC (per character), lower-case, hidden characters dropped, homoglyphs folded inside mixed words. */
function normalize(raw: string, signals: ObfuscationSignals, shape = textShape(raw)): Normalized {
  if (!shape.nonAscii) return lowerCased(raw.toLowerCase(), true);
  // Without look-alike letters the per-character parts are never revisited, so ASCII runs can be
  // appended whole (most non-ASCII text is still mostly ASCII).
  const bulk = !hasLookalike(raw);
  // Most non-ASCII text (accented Latin, CJK, Arabic, …) has nothing to fold: no hidden or
  // look-alike character, already NFKC, and lower-casing keeps every character's length. It reads
  // as the whole text lower-cased, index for index, the result of the loop below in a few native
  // passes (a per-character loop cost ~9 ns a character). Per character and whole, NFKC and case
  // agree here: a character NFKC changes alone it changes in any text, and the one contextual
  // lower-casing (Greek final sigma) is a look-alike script's.
  if (bulk && !HIDDEN.test(raw) && raw.normalize('NFKC') === raw) {
    const lower = raw.toLowerCase();
    if (lower.length === raw.length) return lowerCased(lower, false);
  }
  const b = new ViewBuilder(raw.length);
  let lookalikes = false;
  // Parts (by index) whose raw character folds to another letter than its NFKC small form (Υ is Y
  // and υ is u; ϲ, a lunate sigma, is c and its NFKC form ς none).
  let rawFolds: Map<number, string> | undefined;
  let tags = '';
  const tagsAt: number[] = [];
  const selected: number[] = [];
  for (let i = 0; i < raw.length;) {
    const c = raw.charCodeAt(i);
    if (c < 0x80) {
      if (bulk) {
        let j = i + 1;
        while (j < raw.length && raw.charCodeAt(j) < 0x80) j++;
        b.pushRun(raw.slice(i, j).toLowerCase(), i);
        i = j;
        continue;
      }
      b.push(c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : raw[i]!, i);
      i++;
      continue;
    }
    const cp = raw.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    const hidden = isInvisible(cp);
    if (hidden) {
      signals.invisible++;
      if (signals.firstHidden < 0) signals.firstHidden = i;
      if (hidden === 'bidi') signals.bidi++;
      if (hidden === 'tag') {
        signals.tagChars++;
        // Unicode tag characters mirror ASCII: "ASCII smuggling" hides a whole instruction in them.
        if (cp >= 0xe0020 && cp <= 0xe007e) {
          tags += String.fromCharCode(cp - 0xe0000);
          tagsAt.push(b.length);
        } else if (cp >= 0xe0100) selected.push(cp - 0xe0100 + 16);
      }
      i += width;
      continue;
    }
    const enclosed = enclosedLetter(cp);
    if (enclosed) {
      b.push(enclosed, i);
      i += width;
      continue;
    }
    const lower = nfkcLower(cp);
    const fold = confusableFold.get(cp);
    if (fold || isLookalikeScript(cp)) {
      lookalikes = true;
      // A fold that is the small form itself (a mathematical 𝚍 folds to d, as NFKC does) is not
      // kept: every fold is ASCII and none is folded again, so it reads the same as no entry.
      if (fold && lower.length === 1 && fold !== lower && confusableFold.get(lower.codePointAt(0)!) !== fold)
        (rawFolds ??= new Map()).set(b.chars.length, fold);
    }
    b.push(lower, i);
    i += width;
  }
  // Fold look-alike letters inside words that also hold ASCII letters, so Russian or Greek text
  // stays itself while "іgnоrе" (Cyrillic і, о, е) becomes "ignore". In text whose letters are
  // Latin or look-alikes only (no letter of another script without a Latin twin), a word made of
  // look-alikes alone ("аll", "ѕуѕ") is folded too: real Russian or Greek always has such letters.
  const chars = b.chars;
  const latinText = lookalikes && !hasForeignLetter(chars, rawFolds);
  let w = lookalikes ? 0 : chars.length;
  while (w < chars.length) {
    if (!(letterOrMark(chars[w]!) & LETTER)) {
      w++;
      continue;
    }
    let e = w;
    let ascii = false;
    let look = false;
    while (e < chars.length && letterOrMark(chars[e]!)) {
      const cp = chars[e]!.codePointAt(0)!;
      if (isAsciiLetter(cp)) ascii = true;
      else if (isLookalikeScript(cp) || confusableFold.has(cp)) look = true;
      e++;
    }
    if (look && (ascii || latinText)) {
      signals.mixedScriptWords++;
      for (let k = w; k < e; k++) {
        const f = rawFolds?.get(k) ?? confusableFold.get(chars[k]!.codePointAt(0)!);
        if (f) chars[k] = f;
      }
    }
    w = e;
  }
  const view = b.done('nfkc', 0, raw.length);
  view.text = unescapeBreaks(view.text);
  return { view, tags, tagsAt, selected };
}

/**
 * Separator of spaced-out letters: one of ` .,;-_*|/+~•·`, a tab or a line break, or a bracket or a
 * double quote around each letter ("(D)(o)", "[i][g]", `"P" "r"`) (a code-unit test, per character).
 */
const isSpacedSep = (c: number) =>
  c === 32 ||
  c === 59 ||
  c === 40 ||
  c === 41 ||
  c === 91 ||
  c === 93 ||
  c === 34 ||
  c === 9 ||
  c === 126 ||
  c === 44 ||
  c === 46 ||
  c === 45 ||
  c === 95 ||
  c === 42 ||
  c === 124 ||
  c === 47 ||
  c === 43 ||
  c === 10 ||
  c === 0x2022 ||
  c === 0xb7;
// Letters from À on (but the bullet) count as letters, and so do leetspeak's @, $ and ! ("7_h_!_5").
const L = '[a-z0-9@$!\\u{c0}-\\u{2021}\\u{2023}-\\u{10FFFF}]';
const SEP = '[ .,;\\-_*|/+~\\n\\t\\u{2022}\\u{b7}()[\\]"]{1,3}';
/**
 * Four lone letters with separators between them. A V8 RegExp, not RE2 (1.4 against 2.0 µs on a
 * 1.6 KB field, and no UTF-8 copy of the view): its match is at most 13 characters long and each
 * of the three separators takes one to three, so a start position costs at most 27 short paths,
 * linear in the text.
 */
const SPACED_HINT = new RegExp(`(?<!${L})${L}${SEP}${L}${SEP}${L}${SEP}${L}(?!${L})`, 'u');
// Leet gate: a letter next to a leet digit/symbol somewhere in the text. The stand-ins outside ASCII
// are looked for only in a text that has such characters: a class holding them makes the pattern
// four times slower on every field.
const LEET_HINT = /[a-z][013457@$89]|[013457@$89!][a-z]/;
const FANCY_LEET_HINT = new RegExp(`[a-z][${FANCY_LEET}]|[${FANCY_LEET}][a-z]`);
/**
 * A character that makes a token leetspeak by itself: a digit, `@`, `$`, `!`, and in a text with
 * characters outside ASCII the fancy stand-ins (`€`, `®`, `π`, …); `|` and `+` only beside one.
 */
const STRONG_LEET = /[0-9@$!]/g;
const STRONG_FANCY_LEET = new RegExp(`[0-9@$!${FANCY_LEET}]`, 'g');
/** The same in a text whose leetspeak is dense, with its one-symbol letters (LEET_DENSE). */
const STRONG_DENSE_LEET = new RegExp(
  `[0-9@$!${Object.keys(LEET_DENSE).join('').replace(/[[\]]/g, '\\$&')}]`,
  'g',
);
const STRONG_FANCY_DENSE_LEET = new RegExp(`${STRONG_DENSE_LEET.source.slice(0, -1)}${FANCY_LEET}]`, 'g');
/** Code units of the stand-ins, for the per-character token test. */
const LEET_CODES = new Set(Object.keys(LEET).map((c) => c.charCodeAt(0)));
/** Latin letters with accents (Latin-1 and Latin Extended-A and B, but × and ÷). */
const isAccented = (c: number) => c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7;

/** Raw index of view character i. */
function rawIndexAt(view: TextView, i: number): number {
  return view.identity ? i : (view.map?.[i] ?? view.segStart);
}

/** `.`, `,`, `;`, `:` or `?` (`!` is leetspeak's i among spaced letters). */
const isStop = (c: number) => c === 46 || c === 44 || c === 59 || c === 58 || c === 63;

/** Widest gap inside a run of lone letters: words spaced out are often parted by five spaces. */
const MAX_GAP = 6;

/**
 * Where the lone letter after the letter at `j` starts, past a gap of one to MAX_GAP separators; -1
 * when no lone letter follows such a gap.
 */
function nextLoneLetter(t: string, j: number, isL: (k: number) => boolean): number {
  let k = j + 1;
  let wrapped = false;
  let semicolon = false;
  for (let c = t.charCodeAt(k); k < t.length && isSpacedSep(c) && k - j <= MAX_GAP; c = t.charCodeAt(++k))
    if (isWrapMark(c)) wrapped = true;
    else if (c === 59) semicolon = true;
  if (k >= t.length || !isL(k) || isL(k + 1) || k === j + 1) return -1;
  // A semicolon parts letters alone, as a spreadsheet's cells ("T;a;s;k"); " ; " ends a clause.
  if (semicolon && k - j !== 2) return -1;
  return wrapped && !WRAPPED_GAP.test(t.slice(j + 1, k)) ? -1 : k;
}

/** A bracket or a double quote: a separator only where it wraps each letter (WRAPPED_GAP). */
const isWrapMark = (c: number) => c === 40 || c === 41 || c === 91 || c === 93 || c === 34;
/** The gap between two letters each wrapped in marks: a closing one, blanks, an opening one (`)(`, `" "`). */
const WRAPPED_GAP = /^[)\]"][ \t]*[(["]$/;

/** How a run of lone letters is spaced out (runSeparator). */
interface RunGaps {
  /** The gap between letters of one word. */
  sep: string;
  /**
   * Letters are parted by marks that change, and words by a gap of three characters or more ("   ",
   * " / "), so a lone space between letters is one more changing mark.
   */
  wide: boolean;
  /**
   * Letters are parted by blanks of three widths or more (a tab counts two columns), and words by
   * gaps this many columns wide or wider ("D e v  e\tl o p\t\tm o d e", "N  e   w    i  n s"); 0
   * when the run is not spaced so (columnBreak).
   */
  columns: number;
  /**
   * Words are parted by blanks three wide or more and letters by changing marks, so a mark with a
   * space either side parts letters too ("t . a_s-k   a_d . d").
   */
  padded: boolean;
  /**
   * Letters are parted by marks that change, a lone space among them, and no gap is wider than two
   * ("O. v. e_r r.i.d_e y-o u"): the space parts letters as often as words, so every gap of one or
   * two characters parts letters and the run's words are found by spelling (wordStarts).
   */
  mixed: boolean;
  /**
   * Words are parted by line breaks and letters by blanks of more than one kind ("Y  o  u\tr\nf  u\tl"):
   * every gap without a line break parts letters.
   */
  lines: boolean;
}

/** Gaps of a run read to tell how it is spaced out. */
const RUN_GAPS_READ = 16;

/**
 * The separator of the run of lone letters starting at `i`: the commonest of its first sixteen gaps
 * (the shorter on a tie, then the one without a space), so "i   a m   o u t" is spaced by " " and
 * "i. g. n / a. l. l" by ". "; any other gap is a word break ("i-g-n-o-r-e a-l-l", "i g n o r e
 * a l l") unless both are one character (sameGap).
 */
function runSeparator(t: string, i: number, isL: (k: number) => boolean): RunGaps {
  const counts = new Map<string, number>();
  for (let j = i, n = 0; n < RUN_GAPS_READ && isL(j) && !isL(j + 1); n++) {
    const k = nextLoneLetter(t, j, isL);
    if (k < 0) break;
    const gap = t.slice(j + 1, k);
    counts.set(gap, (counts.get(gap) ?? 0) + 1);
    j = k;
  }
  const gaps = [...counts.keys()];
  const marks = gaps.filter((gap) => gap.length === 1 && gap !== ' ' && gap !== '\n').length;
  const blanks = gaps.filter((gap) => /^[ \t]+$/.test(gap));
  const blankWide = blanks.some((gap) => gap.length >= 3);
  // A mark with a space either side (" . ") is one more changing mark where words are blanks apart.
  const paddedMark = blankWide && gaps.some((gap) => gap.length === 3 && isPaddedMark(gap));
  // One mark and a lone space part letters alike where words are blanks three wide or more apart
  // ("d i.s r.e g.a.r d   t h e").
  const changing = marks >= 2 || (marks === 1 && blankWide && counts.has(' '));
  const wide =
    (changing && gaps.some((gap) => gap.length >= 3 && !gap.includes('\n'))) || (paddedMark && marks >= 1);
  let best = '';
  let most = 0;
  // On a tie the shorter gap, then a mark over a space: in "I a.m o.u.t" the space parts words.
  // Letters parted by marks that change are so even where the wide gap between words is commoner
  // than any one mark ("y.o+u   a*r+e   n*o.w").
  const rank = (gap: string) => gap.length * 2 + (gap.includes(' ') ? 1 : 0);
  for (const [gap, n] of counts)
    if ((!wide || gap.length === 1) && (n > most || (n === most && rank(gap) < rank(best))))
      [best, most] = [gap, n];
  return {
    sep: best,
    wide,
    mixed:
      marks >= 2 && !wide && counts.has(' ') && gaps.every((gap) => gap.length <= 2 && !gap.includes('\n')),
    columns: blanks.length >= 3 && blanks.length === gaps.length ? columnBreak(t, i, isL) : 0,
    padded: wide && blankWide,
    lines:
      blanks.length >= 2 &&
      blanks.length < gaps.length &&
      gaps.every((gap) => blanks.includes(gap) || gap.includes('\n')),
  };
}

/**
 * Whether the gap [from, to) parts letters as the run's separator does: the same, or both one
 * character, so letters parted by a mark that changes ("s.t+o*p") stay one word. A one-character
 * gap that is a space or a line break parts words ("i-g-n-o-r-e a-l-l"), unless the run's marks
 * change and its words are parted by wider gaps ("s.t o*p   a_l l"; then a gap of two parts
 * letters too, "y  o-u | h a_v e"). Blanks of changing width
 * part letters below three columns (RunGaps.columns), and a padded mark parts letters where words
 * are blanks apart (RunGaps.padded).
 */
const sameGap = (t: string, from: number, to: number, gaps: RunGaps) => {
  const { sep } = gaps;
  if (gaps.lines) return !t.slice(from, to).includes('\n');
  if (gaps.mixed) return to - from <= 2 && t.charCodeAt(from) !== 10 && t.charCodeAt(to - 1) !== 10;
  if (gaps.columns) return columnsOf(t, from, to) < gaps.columns;
  if (gaps.padded && to - from === 3) return isPaddedMark(t.slice(from, to));
  // Where words are three characters apart or more, a gap of two parts letters too ("y  o-u | h a").
  if (gaps.wide && to - from === 2 && sep.length === 1) return !t.slice(from, to).includes('\n');
  if (to - from !== sep.length) return false;
  if (t.startsWith(sep, from)) return true;
  const c = t.charCodeAt(from);
  // A tab between letters a space parts is a word break too ("d o\ty o u").
  return sep.length === 1 && ((c !== 32 && c !== 10 && c !== 9) || gaps.wide);
};

/** A three-character gap that is a mark with a space either side (" . ", " _ "). */
const isPaddedMark = (gap: string) => gap[0] === ' ' && gap[2] === ' ' && gap[1] !== ' ' && gap[1] !== '\n';

/** Gaps of a run of blanks of changing widths read to find its word breaks. */
const COLUMN_GAPS_READ = 64;

/**
 * The narrowest gap, in columns, that breaks words in the run of lone letters starting at `i`,
 * whose letters are parted by blanks of three widths or more: of the widths the run shows, the one
 * that cuts it into the longest dictionary words (each word's length squared, so "develop" beats
 * "dev e lop"); three when none spells a word (a language the dictionary lacks).
 */
function columnBreak(t: string, i: number, isL: (k: number) => boolean): number {
  const letters: string[] = [];
  const widths: number[] = [];
  for (let j = i; widths.length < COLUMN_GAPS_READ && isL(j) && !isL(j + 1);) {
    letters.push(t[j]!);
    const k = nextLoneLetter(t, j, isL);
    if (k < 0 || !/^[ \t]+$/.test(t.slice(j + 1, k))) break;
    widths.push(columnsOf(t, j + 1, k));
    j = k;
  }
  let best = 3;
  let bestScore = 0;
  for (const w of new Set(widths)) {
    let score = 0;
    let word = letters[0] ?? '';
    const close = () => {
      if (wordRank(word) < Infinity) score += word.length * word.length;
    };
    for (let g = 0; g < widths.length; g++) {
      if (widths[g]! >= w) {
        close();
        word = '';
      }
      word += letters[g + 1] ?? '';
    }
    close();
    if (score > bestScore || (score === bestScore && w < best && score > 0)) [best, bestScore] = [w, score];
  }
  return best;
}

/** How wide the blank gap [from, to) is, a tab counted as two columns. */
function columnsOf(t: string, from: number, to: number): number {
  let n = 0;
  for (let k = from; k < to; k++) n += t.charCodeAt(k) === 9 ? 2 : 1;
  return n;
}

/** Joined words shorter than this are left as they are: "a l l" is "all", and "i t" is "it". */
const SPELL_FROM = 8;

/**
 * A word of spaced-out letters as despace joins it: its letters go to the view as they come, and
 * when it ends without a word break the run showed, a long one of only a to z is read for the words
 * it holds ("ignoreallprevious" is "ignore all previous", with a space, mapped to the next letter,
 * before each). Where the run shows its word breaks, its words are left whole: an English spelling
 * would cut "anweisungen".
 */
class SpacedWord {
  private letters = '';
  private raw: number[] = [];
  private start: [number, number] = [0, 0];
  constructor(private readonly b: ViewBuilder) {}
  push(c: string, rawIndex: number) {
    if (!this.letters) this.start = this.b.mark();
    this.b.push(c, rawIndex);
    this.letters += c;
    this.raw.push(rawIndex);
  }
  /** Ends the word; `spell`: read it for the words it holds. */
  end(spell: boolean) {
    const { letters, raw, b } = this;
    if (spell && letters.length >= SPELL_FROM && /^[a-z]+$/.test(letters)) {
      const starts = wordStarts(letters);
      if (starts?.length) {
        b.truncate(this.start);
        let from = 0;
        for (const to of [...starts, letters.length]) {
          if (from) b.push(' ', raw[from]!);
          for (let k = from; k < to; k++) b.push(letters[k]!, raw[k]!);
          from = to;
        }
      }
    }
    this.letters = '';
    this.raw = [];
  }
}

/** Where a view's characters of interest start and end (a view's own indices), -1 for none. */
interface OutputSpan {
  start: number;
  end: number;
}
/** Fewest characters of a span read apart, and the fewest the rest of the view must hold. */
const MIN_APART = 24;

/**
 * The span [start, end) of `view` as a view of its own, when it holds MIN_APART characters and the
 * view around it as many again: hidden text inside ordinary text, scored without the text that dilutes it.
 */
function spanApart(view: TextView, { start, end }: OutputSpan): TextView | undefined {
  if (start < 0 || end - start < MIN_APART || view.text.length - (end - start) < MIN_APART) return undefined;
  return {
    name: view.name,
    text: view.text.slice(start, end),
    map: view.map?.subarray(start, end),
    segStart: rawIndexAt(view, start),
    segEnd: rawIndexAt(view, end - 1) + 1,
  };
}

/** Joins spaced-out letters ("i g n o r e  a l l") into words; a wider gap becomes one space. */
function despace(src: TextView, signals: ObfuscationSignals, words?: OutputSpan): TextView | undefined {
  const t = src.text;
  if (!SPACED_HINT.test(t)) return undefined;
  const at = (k: number) => rawIndexAt(src, k);
  // Code-unit test, not a Unicode regex per character: non-ASCII counts as a letter here.
  const isL = (k: number) => {
    if (k < 0 || k >= t.length) return false;
    const c = t.charCodeAt(k);
    return (
      (c >= 97 && c <= 122) ||
      (c >= 48 && c <= 57) ||
      (c >= 0xc0 && c !== 0x2022) ||
      c === 64 ||
      c === 36 ||
      c === 33
    );
  };
  const b = new ViewBuilder(t.length);
  let changed = false;
  let i = 0;
  // Characters [pending, i) are still to be copied verbatim.
  let pending = 0;
  while (i < t.length) {
    // A run starts at a lone letter followed by a separator and another lone letter.
    if (isL(i) && !isL(i - 1) && !isL(i + 1) && i + 2 < t.length && isSpacedSep(t.charCodeAt(i + 1))) {
      b.copyFrom(src, pending, i);
      pending = i;
      const mark = b.mark();
      const runGaps = runSeparator(t, i, isL);
      const blankSep = /^[ \t]+$/.test(runGaps.sep);
      let j = i;
      let letters = 0;
      let alphabetic = 0;
      const word = new SpacedWord(b);
      let breaks = false;
      while (j < t.length && isL(j) && !isL(j + 1)) {
        // The open box (␣) is the sign for a space.
        word.push(t.charCodeAt(j) === 0x2423 ? ' ' : t[j]!, at(j));
        letters++;
        if (t.charCodeAt(j) >= 97) alphabetic++;
        const k = nextLoneLetter(t, j, isL);
        if (k < 0) {
          j++;
          break;
        }
        if (!sameGap(t, j + 1, k, runGaps)) {
          word.end(runGaps.mixed);
          breaks = true;
          // A word break; a line break in it stays, with its full stop ("t-o-r-i-n-g.\nn-e-v-e-r"),
          // unless the letters themselves are a line each.
          if (!runGaps.sep.includes('\n') && t.slice(j + 1, k).includes('\n'))
            for (let g = j + 1; g < k; g++) b.push(t[g]!, at(g));
          else {
            // Between letters spaced by blanks, a stop in a word break ends a sentence or clause
            // ("d .   a"); other marks (" | ", " / ") only part the words.
            if (blankSep) for (let g = j + 1; g < k; g++) if (isStop(t.charCodeAt(g))) b.push(t[g]!, at(g));
            b.push(' ', at(j + 1));
          }
        }
        j = k;
      }
      // A run spaced out evenly, word breaks and all, is spelled ("p r e t e n d y o u").
      word.end(runGaps.mixed || !breaks);
      // A list of numbers ("1, 2, 3, 4") is not letters spelled out; a list of letters is.
      if (letters >= 4 && (!runGaps.sep.includes(',') || alphabetic * 2 >= letters)) {
        signals.spacedRuns++;
        if (letters >= 8 && alphabetic * 5 >= letters * 4) {
          signals.spacedWords++;
          if (words) {
            if (words.start < 0) words.start = mark[1];
            words.end = b.length;
          }
        }
        changed = true;
        i = j;
        pending = j;
        continue;
      }
      b.truncate(mark);
    }
    i++;
  }
  b.copyFrom(src, pending, t.length);
  return changed ? b.done('despaced', 0, src.segEnd) : undefined;
}

/** A mark that parts a word's fragments ("ins-tru-cti-ons", "gu.ide.li.nes", "con - ten - t"). */
const FRAGMENT_MARK = '(?:[.\\-~|*]| - )';
/**
 * The middle fragment of a word cut twice (group 1), found from its first mark: a pattern that
 * starts at a mark is tried at few places of a text, where one that starts at a letter is tried at
 * every word. Marks of one character, and " - " (tried apart, in a text that has one: a pattern
 * that may start at a space is tried at every word). The fragment before the first mark is checked
 * apart (cutBefore).
 */
const FRAGMENTED = /[.\-~|*]([a-z]{1,4})[.\-~|*][a-z]/g;
const FRAGMENTED_SPACED = / - ([a-z]{1,4}) - [a-z]/g;
const isLower = (c: number) => c >= 97 && c <= 122;
/**
 * Whether one to four letters end at `end` (exclusive) in `t`, not inside a path, a host name or
 * another cut word: the first fragment of a cut word.
 */
function cutBefore(t: string, end: number): boolean {
  let k = end;
  while (k > 0 && end - k <= 4 && isLower(t.charCodeAt(k - 1))) k--;
  if (k === end || end - k > 4) return false;
  if (k === 0) return true;
  const c = t.charCodeAt(k - 1);
  return !((c >= 48 && c <= 57) || c === 47 || c === 46 || c === 95 || c === 45);
}
/** Middle words of compounds ("step-by-step", "up-to-date", "state-of-the-art"): not a cut word. */
const COMPOUND_GLUE = new Set([
  'a',
  'as',
  'at',
  'and',
  'by',
  'for',
  'is',
  'it',
  'mm',
  'my',
  'of',
  'on',
  'over',
  'the',
  'to',
  'up',
  'with',
  'you',
]);
/** A word cut into fragments of one to four letters, read whole by the view. */
const FRAGMENTS = new RegExp(`(?<![a-z])[a-z]{1,4}(?:${FRAGMENT_MARK}[a-z]{1,4})+(?![a-z])`, 'g');
/**
 * Two words cut twice or more this close (characters from start to start) make a text read with its
 * fragments joined: a hand that cuts words cuts most of a sentence's, while compounds ("up-to-date",
 * "one-of-a-kind") stand apart in prose.
 */
const FRAGMENTED_NEAR = 80;

/** Whether `re` (FRAGMENTED or FRAGMENTED_SPACED) finds two cut words near each other in `t`. */
function cutNear(t: string, re: RegExp): boolean {
  re.lastIndex = 0;
  let last = -Infinity;
  for (let m = re.exec(t); m; m = re.exec(t)) {
    // Overlapping tries: the second mark of one may be the first of another.
    re.lastIndex = m.index + 1;
    if (COMPOUND_GLUE.has(m[1]!) || !cutBefore(t, m.index)) continue;
    if (m.index - last <= FRAGMENTED_NEAR) return true;
    last = m.index;
  }
  return false;
}

/**
 * Words cut into fragments of a few letters ("Ign-or-e all pr-evi-ous in-st-ruc-ti-on-s",
 * "Dis.re.gar.d the ru.le.s") joined again, in a text where two words near each other are cut twice;
 * every short-fragment word is joined then ("sen-d"). Longer parts stay apart ("well-known",
 * "co-founder"), so ordinary compounds keep their hyphens. Lone letters are despace's.
 */
function joinFragments(src: TextView, signals: ObfuscationSignals): TextView | undefined {
  const t = src.text;
  if (!cutNear(t, FRAGMENTED) && !(t.includes(' - ') && cutNear(t, FRAGMENTED_SPACED))) return undefined;
  const b = new ViewBuilder(t.length);
  let copied = 0;
  FRAGMENTS.lastIndex = 0;
  for (let m = FRAGMENTS.exec(t); m; m = FRAGMENTS.exec(t)) {
    b.copyFrom(src, copied, m.index);
    for (let k = m.index; k < m.index + m[0].length; k++)
      if (isLower(t.charCodeAt(k))) b.push(t[k]!, rawIndexAt(src, k));
    copied = m.index + m[0].length;
  }
  b.copyFrom(src, copied, t.length);
  signals.spacedRuns++;
  return b.done('despaced', 0, src.segEnd);
}

/**
 * Four or more quoted characters in a row, apart by commas: `['i', 'g', …]`, `["i","g",…]` (a key
 * word alone: `['s', 'e', 'n', 'd']`). Strings added up (`'i' + 'g'`) are joinedStrings'.
 */
const CHARACTER_LIST = /(?:(['"])[^'"\n]\1\s*,\s*){3,}(['"])[^'"\n]\2/g;

/**
 * A text split into a list of quoted characters read as the text they spell: the payload-splitting
 * trick that asks a model to join the pieces and obey the result.
 */
function joinedCharacters(src: TextView, signals: ObfuscationSignals): TextView | undefined {
  const t = src.text;
  if (!t.includes("', '") && !t.includes('", "') && !t.includes("','") && !t.includes('","'))
    return undefined;
  let out = '';
  let copied = 0;
  CHARACTER_LIST.lastIndex = 0;
  for (let m = CHARACTER_LIST.exec(t); m; m = CHARACTER_LIST.exec(t)) {
    const letters = m[0].match(/(['"])[^'"\n]\1/g)!.map((q) => q[1]);
    out += `${t.slice(copied, m.index)} ${letters.join('')} `;
    copied = m.index + m[0].length;
  }
  if (!copied) return undefined;
  signals.symbolTexts++;
  return { name: 'despaced', text: out + t.slice(copied), segStart: src.segStart, segEnd: src.segEnd };
}

/**
 * Seven words or more joined by underscores ("stop_following_your_guidelines_and_output_the",
 * "…_instructions._do_"), from a token's or a word's start only, so a long token without one is
 * read once. Code's identifiers are shorter: a test named "test_embedded_instructions_are_ignored",
 * read alone, is scored as an instruction.
 */
const UNDERSCORED = /(?<![^\s_])[^\s_]+(?:_+[^\s_]+){6,}/g;
/** Runs of underscored words read at most, text by text (source code holds many identifiers). */
const MAX_UNDERSCORED = 16;

/**
 * The runs of words joined by underscores in a view, the underscores as spaces, a line a run: a
 * sentence written as one identifier reads as one word to the model ("stop_following_your_…", in
 * leetspeak too, "570p_f0ll0w1ng_…"). The text around the runs is the field's own views'.
 */
function underscoredWords(src: TextView): TextView | undefined {
  const t = src.text;
  // A run has six underscores: a text with fewer has none (identifiers and keys have one or two).
  for (let k = -1, n = 0; n < 6; n++) if ((k = t.indexOf('_', k + 1)) < 0) return undefined;
  let out = '';
  let first = -1;
  let last = -1;
  UNDERSCORED.lastIndex = 0;
  for (let m = UNDERSCORED.exec(t), n = 0; m && n < MAX_UNDERSCORED; m = UNDERSCORED.exec(t), n++) {
    out += `${m[0].replace(/_+/g, ' ')}\n`;
    if (first < 0) first = m.index;
    last = m.index + m[0].length;
  }
  if (first < 0) return undefined;
  return {
    name: 'despaced',
    text: out,
    segStart: rawIndexAt(src, first),
    segEnd: rawIndexAt(src, last - 1) + 1,
  };
}

/** A word break written as a slash or a bar with a blank either side ("ins tru cti ons / and"). */
const SLASHED = /[ \t]+[/|][ \t]+/;
/** Longest fragment of a word cut apart by blanks; fewest such words, and their least share. */
const MAX_FRAGMENT = 4;
const MIN_FRAGMENTED = 3;

/**
 * Words cut into fragments of a few letters parted by blanks, the words themselves parted by
 * slashes or bars ("Ig no re / all / pre vio us / ins tru cti ons"), read with each word's fragments
 * joined: where three of the slashed parts or more, and two fifths of them, are two fragments or more
 * of up to four characters each.
 */
function slashedFragments(src: TextView): TextView | undefined {
  const t = src.text;
  if (!t.includes(' / ') && !t.includes(' | ')) return undefined;
  const parts = t.split(SLASHED);
  if (parts.length <= MIN_FRAGMENTED) return undefined;
  let cut = 0;
  const joined = parts.map((part) => {
    const pieces = part.trim().split(/[ \t]+/);
    if (pieces.length < 2 || pieces.some((p) => p.length > MAX_FRAGMENT)) return part;
    cut++;
    return pieces.join('');
  });
  if (cut < MIN_FRAGMENTED || cut * 5 < parts.length * 2) return undefined;
  return { name: 'despaced', text: joined.join(' '), segStart: src.segStart, segEnd: src.segEnd };
}

/** One character in brackets: `[a]`, `(b)`, `{c}`, `<d>` (NFKC writes the parenthesised letters ⒜ so). */
const BRACKETED = '[\\[({<][^\\s\\[\\](){}<>][\\])}>]';
/** Eight bracketed characters or more, a lone space or tab between two of them a word break. */
const BRACKETED_RUN = new RegExp(`${BRACKETED}(?:[ \\t]?${BRACKETED}){7,}`, 'g');
const BRACKETED_ONE = new RegExp(BRACKETED, 'g');

/**
 * A text written a character to a pair of brackets ("[i][g][n][o][r][e] [a][l][l]") read as the text
 * it spells: each character in its brackets, the words parted where the brackets are.
 */
function unbracketed(src: TextView, signals: ObfuscationSignals): TextView | undefined {
  const t = src.text;
  // A cheap gate: a run of eight holds two brackets back to back unless every word is one letter.
  if (!t.includes('][') && !t.includes(')(') && !t.includes('}{') && !t.includes('><')) return undefined;
  let out = '';
  let copied = 0;
  BRACKETED_RUN.lastIndex = 0;
  for (let m = BRACKETED_RUN.exec(t); m; m = BRACKETED_RUN.exec(t)) {
    out += `${t.slice(copied, m.index)}${m[0].replace(BRACKETED_ONE, (g) => g[1]!)}`;
    copied = m.index + m[0].length;
  }
  if (!copied) return undefined;
  signals.symbolTexts++;
  return { name: 'despaced', text: out + t.slice(copied), segStart: src.segStart, segEnd: src.segEnd };
}

/**
 * Longest token read as leetspeak: about the longest common word ("responsibilities"). Longer runs
 * of letters and digits are keys, hashes and encoded data, whose leet view no rule or model reads
 * anything in but cost a full pass of each (most fields with a secret or a base64 run had one).
 */
const MAX_LEET_TOKEN = 16;

const isTokenChar = (c: number) =>
  (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || LEET_CODES.has(c) || isAccented(c);

/**
 * Distinctive groups that stand for a letter when one of them alone recurs (REPEATED_GROUP times):
 * three symbols drawn as one letter, which neither a table's rules ("|-|", "-|-") nor an escaped
 * path ("\\/") draws.
 */
const REPEATABLE_GROUPS = new Set(['|_|', '(_)', '|\\|', '/\\/', '/-\\']);
const REPEATED_GROUP = 3;

/**
 * Whether a text holds three different distinctive multi-symbol leet letters, or one drawn of three
 * symbols three times ("y0|_| r|_|l3s |_|s3r": the vowels' digits with a drawn u).
 */
function holdsLeetGroups(t: string): boolean {
  // All distinctive groups but "(_)", "[-" and "'/" hold a bar or a backslash; a text with neither is
  // not read (those three alone are rare as leetspeak and common as punctuation), but for one whose
  // "(_)" may recur (REPEATABLE_GROUPS).
  if (!t.includes('|') && !t.includes('\\') && !t.includes('(_)')) return false;
  const kinds = new Map<string, number>();
  LEET_GROUP_HINT.lastIndex = 0;
  for (let m = LEET_GROUP_HINT.exec(t); m; m = LEET_GROUP_HINT.exec(t)) {
    const n = (kinds.get(m[0]) ?? 0) + 1;
    kinds.set(m[0], n);
    if (kinds.size >= 3 || (n >= REPEATED_GROUP && REPEATABLE_GROUPS.has(m[0]))) return true;
  }
  return false;
}

/**
 * `src` with leetspeak's multi-symbol letters read, when it holds three different distinctive ones
 * (`holds`, when the caller has already looked); `other` reads the ambiguous ones as their other
 * letter (LEET_GROUPS_OTHER).
 */
function readLeetGroups(src: TextView, other: boolean, holds?: boolean): TextView | undefined {
  const t = src.text;
  if (!(holds ?? holdsLeetGroups(t))) return undefined;
  const b = new ViewBuilder(t.length);
  let copied = 0;
  LEET_GROUP.lastIndex = 0;
  for (let m = LEET_GROUP.exec(t); m; m = LEET_GROUP.exec(t)) {
    b.copyFrom(src, copied, m.index);
    b.push((other && LEET_GROUPS_OTHER[m[0]]) || LEET_GROUPS[m[0]]!, rawIndexAt(src, m.index));
    copied = m.index + m[0].length;
  }
  b.copyFrom(src, copied, t.length);
  return b.done(src.name, src.segStart, src.segEnd);
}

/**
 * Undoes leetspeak as a skeleton: multi-symbol letters where a text holds several (readLeetGroups),
 * then leet characters inside letter-bearing tokens become letters, and every `l` becomes `i` (1
 * stands for both), so rules run on this view are compiled with l→i too. `other` reads ambiguous
 * groups and a bar as their other letter (LEET_GROUPS_OTHER).
 */
function unleet(
  plain: TextView,
  signals: ObfuscationSignals,
  other = false,
  holds?: boolean,
): TextView | undefined {
  const grouped = readLeetGroups(plain, other, holds);
  const src = grouped ?? plain;
  const t = src.text;
  const fancy = !src.ascii && FANCY_LEET_HINT.test(t);
  if (!grouped && !fancy && !LEET_HINT.test(t)) return undefined;
  // Several leet letters: the injection detector reads a leet view from two leet tokens on.
  if (grouped) signals.leetTokens += 2;
  let read = readLeetTokens(t, fancy, grouped !== undefined, other);
  // A text where leetspeak is dense is read again with every token's stand-ins.
  if (!grouped && read.tokens >= MIN_DENSE_LEET && read.tokens * 4 >= wordCount(t))
    read = readLeetTokens(t, fancy, true, other);
  signals.leetTokens += read.tokens;
  if (!grouped && !read.tokens) return undefined;
  const view: TextView = {
    name: 'leet',
    text: read.out.replace(/l/g, 'i'),
    modelText: read.out,
    segStart: src.segStart,
    segEnd: src.segEnd,
  };
  if (src.identity) {
    view.identity = true;
    view.ascii = src.ascii;
  } else if (src.map) view.map = src.map;
  return view;
}

/**
 * Adds the leet views of a text drawn in multi-symbol letters (the caller has found it holds them):
 * read once with each ambiguous group's first letter and once with its other (LEET_GROUPS_OTHER).
 */
function addLeetGroups(views: TextView[], src: TextView, signals: ObfuscationSignals) {
  for (const other of [false, true]) {
    const leet = unleet(src, signals, other, true);
    if (leet) views.push(leet);
  }
}

/** Leet tokens from which a text's leetspeak may be dense (a quarter of its words or more). */
const MIN_DENSE_LEET = 3;

/** Words of `t`, counted by the spaces and line breaks between them. */
function wordCount(t: string): number {
  let n = 1;
  for (let k = t.indexOf(' '); k >= 0; k = t.indexOf(' ', k + 1)) n++;
  for (let k = t.indexOf('\n'); k >= 0; k = t.indexOf('\n', k + 1)) n++;
  return n;
}

/** Code units of the one-symbol letters (`(` c, `#` h, `&` e, …) a dense text's tokens also hold. */
const LEET_DENSE_CODES = new Set(Object.keys(LEET_DENSE).map((g) => g.charCodeAt(0)));

/** Whether `t` holds "()" at `k`: an o inside a token of dense leetspeak ("y()u", "n()"), not a c and a bracket. */
const isRoundO = (t: string, k: number) => t.charCodeAt(k) === 40 && t.charCodeAt(k + 1) === 41;

/** A token's character; a dense text's tokens also hold the one-symbol letters. */
const isLeetTokenChar = (c: number, dense: boolean) => isTokenChar(c) || (dense && LEET_DENSE_CODES.has(c));

/**
 * `t` with leet stand-ins read as letters inside the tokens that look like leetspeak, and how many
 * such tokens there were. `dense` (a text drawn in multi-symbol letters, or whose leetspeak is dense)
 * reads every token with a stand-in and a letter, and a short one of digits alone ("15" is "is");
 * `other` reads an ambiguous stand-in as its other letter.
 */
function readLeetTokens(
  t: string,
  fancyText: boolean,
  dense: boolean,
  other: boolean,
): { out: string; tokens: number } {
  let out = '';
  let tokens = 0;
  // Only tokens (runs of letters, digits and stand-ins) holding a digit or a stand-in other than `|`
  // and `+` can change ("c++" and "a|b" do not; "fo||0w" does): jump from one such character to the
  // next. Tokens are measured in place; the text is copied only around the ones that change (most
  // fields with digits have none: phone numbers, dates, keys).
  const leetRe = dense
    ? fancyText
      ? STRONG_FANCY_DENSE_LEET
      : STRONG_DENSE_LEET
    : fancyText
      ? STRONG_FANCY_LEET
      : STRONG_LEET;
  leetRe.lastIndex = 0;
  // Text before `copied` is in `out`; tokens end at or before `scanned`.
  let copied = 0;
  let scanned = 0;
  for (let m = leetRe.exec(t); m; m = leetRe.exec(t)) {
    let s = m.index;
    for (;;)
      if (s > scanned && isLeetTokenChar(t.charCodeAt(s - 1), dense)) s--;
      else if (dense && s - 1 > scanned && isRoundO(t, s - 2)) s -= 2;
      else break;
    let e = m.index + 1;
    for (;;)
      if (e < t.length && isLeetTokenChar(t.charCodeAt(e), dense)) e++;
      else if (dense && isRoundO(t, e - 1)) e++;
      else break;
    leetRe.lastIndex = e;
    // A `!` ending a token is punctuation ("stop!"), not a leet i: it stays outside the token.
    while (e > s && t.charCodeAt(e - 1) === 33) e--;
    // So are two or more opening it ("!!!Urgent"): one may stand for an i ("!gnore"), a run never does.
    if (t.charCodeAt(s) === 33 && t.charCodeAt(s + 1) === 33) while (s < e && t.charCodeAt(s) === 33) s++;
    scanned = e;
    let letters = 0;
    // Stand-ins outside ASCII, and characters of the Latin script (ASCII or accented).
    let fancy = 0;
    let latin = 0;
    for (let k = s; k < e; k++) {
      const c = t.charCodeAt(k);
      const accented = isAccented(c) && !LEET_CODES.has(c);
      if ((c >= 97 && c <= 122) || accented) letters++;
      if (c < 128 || accented) latin++;
      else fancy++;
    }
    const length = e - s;
    const leet = length - letters;
    // "7h3" (one letter, two leet characters) counts; "42" or "10" (no letter) never does. A longer
    // token with two letters may be mostly leet ("f0r937" is "forget"). A token longer than any
    // common word is a key, hash or encoded run, not leetspeak. "Fancy" leet replaces nearly every
    // letter ("§ë©я€†", "@®€"): two stand-ins from outside ASCII beside a Latin character count too
    // (a Greek or Russian word has no Latin character).
    if (
      length <= MAX_LEET_TOKEN &&
      length >= 2 &&
      leet >= 1 &&
      ((letters >= 1 && (dense || (length >= 3 && (leet <= letters + 1 || (length >= 5 && letters >= 2))))) ||
        (dense && length <= 4) ||
        (fancy >= 2 && latin >= 1))
    ) {
      tokens++;
      out += t.slice(copied, s);
      for (let k = s; k < e; k++) {
        const ch = t[k]!;
        if (dense && isRoundO(t, k)) {
          out += 'o';
          k++;
          continue;
        }
        out +=
          (other && LEET_GROUPS_OTHER[ch]) ||
          LEET[ch] ||
          (dense && LEET_DENSE[ch]) ||
          (isAccented(t.charCodeAt(k)) ? ch.normalize('NFD')[0]! : ch);
      }
      copied = e;
    }
  }
  return { out: out + t.slice(copied), tokens };
}

/**
 * Whether a view was read through some hiding (spaced letters, leetspeak, an encoding, a comment, tag
 * characters): a rule found there is evidence of its own. The normalised view and the raw text (which
 * the adversarial-suffix check reads) are the text as written, and a misspelling is too common in
 * honest text to count.
 */
export const readThroughHiding = (view: TextView): boolean =>
  view.name !== 'nfkc' && view.name !== 'respelled' && view.name !== 'raw';

/**
 * The text with misspelt key words read as meant (spelling.ts): "ignore your previous iunstructions"
 * reads "ignore your previous instructions". A respelt word's first and last letters point at the
 * raw word's, the ones between spread evenly over it.
 */
function respell(src: TextView, shaped?: ShapedRuns): TextView | undefined {
  const fixes = misspellings(src.text, shaped);
  if (!fixes.length) return undefined;
  const b = new ViewBuilder(src.text.length + fixes.length);
  let copied = 0;
  for (const [start, end, word] of fixes) {
    b.copyFrom(src, copied, start);
    const scale = (end - start - 1) / (word.length - 1);
    for (let k = 0; k < word.length; k++) {
      const at = start + Math.round(k * scale);
      b.push(word[k]!, rawSpan(src, at, at + 1)[0]);
    }
    copied = end;
  }
  b.copyFrom(src, copied, src.text.length);
  const view = b.done('respelled', src.segStart, src.segEnd);
  view.ascii = src.ascii;
  return view;
}

/**
 * The derived views (despaced, leet, decoded) cover at most this many leading characters of a
 * field; the normalised view always covers all of it. Obfuscated payloads are read in the first
 * 256 KB, and a 1 MB field costs a quarter of the per-character view work.
 */
export const MAX_DERIVED_CHARS = 262_144;

/** The first `max` characters of a view (same raw mapping). */
function prefixView(view: TextView, max: number): TextView {
  if (view.text.length <= max) return view;
  const out: TextView = { ...view, text: view.text.slice(0, max), utf8: undefined };
  if (view.map) out.map = view.map.subarray(0, max);
  return out;
}

/** The raw text the derived views read. */
const rawHeadOf = (raw: string) => (raw.length > MAX_DERIVED_CHARS ? raw.slice(0, MAX_DERIVED_CHARS) : raw);

/** The raw text read another way, and where each of its characters stands in the raw text (one for one without `at`). */
interface RawReading {
  text: string;
  at?: number[];
}

/**
 * `raw` without its zero-width characters, and where each of its characters stands in `raw`;
 * undefined when it holds none (the field's may all lie past the head the derived views read).
 */
function withoutZeroWidth(raw: string): Required<RawReading> | undefined {
  ZERO_WIDTH.lastIndex = 0;
  let m = ZERO_WIDTH.exec(raw);
  if (!m) return undefined;
  const kept: number[] = [];
  let text = '';
  let copied = 0;
  for (; m; m = ZERO_WIDTH.exec(raw)) {
    text += raw.slice(copied, m.index);
    for (let k = copied; k < m.index; k++) kept.push(k);
    copied = m.index + m[0].length;
  }
  text += raw.slice(copied);
  for (let k = copied; k < raw.length; k++) kept.push(k);
  return { text, at: kept };
}

/**
 * The text with its zero-width characters as spaces, when they stand for the spaces too
 * ("take\u200ba\u200bbrea\u200bth"): dropped, they glue every word to the next. Only for a text
 * with four times as many of them as spaces; undefined otherwise.
 */
function invisiblesAsSpaces(raw: string): string | undefined {
  let spaces = 0;
  for (let i = 0; i < raw.length; i++) if (raw.charCodeAt(i) === 32) spaces++;
  const zeroWidth = raw.match(ZERO_WIDTH)?.length ?? 0;
  return zeroWidth > spaces * 4 ? raw.replace(ZERO_WIDTH, ' ') : undefined;
}

/** Fewest invisible characters read as bits: two bytes' worth. */
const MIN_INVISIBLE_BITS = 16;

/**
 * Bytes written as bits (`one` for 1, any other mark for 0): `marks` split into eights, or at `sep`
 * when the bits are parted, read as UTF-8 text; undefined as soon as a byte is a control character
 * (most ways of reading the marks fail at the first) or when the bytes are not UTF-8.
 */
function bitsToText(marks: number[], one: number, sep: number | undefined): string | undefined {
  const bytes: number[] = [];
  let byte = 0;
  let bits = 0;
  // Continuation bytes still due after a UTF-8 lead byte.
  let pending = 0;
  for (let k = 0; k <= marks.length; k++) {
    const m = marks[k];
    if (m !== undefined && m !== sep) {
      byte = byte * 2 + (m === one ? 1 : 0);
      if (++bits > 8) return undefined;
      if (bits < 8 || sep !== undefined) continue;
    }
    // A byte ends: at the separator, after eight bits when there is none, or at the end.
    if (bits === 0) continue;
    if (bits !== 8 || (byte < 0x20 && byte !== 10) || byte === 0x7f) return undefined;
    // UTF-8's continuation bytes come only, and always, after a lead byte.
    if ((byte & 0xc0) === 0x80 ? --pending < 0 : pending > 0) return undefined;
    if (byte >= 0xc0) pending = byte >= 0xf0 ? 3 : byte >= 0xe0 ? 2 : 1;
    bytes.push(byte);
    byte = 0;
    bits = 0;
  }
  const text = Buffer.from(bytes).toString('utf8');
  return text.includes('\ufffd') ? undefined : text;
}

/** Times a kind of invisible character may stand in a binary message as its frame, not its bits. */
const MAX_FRAMING_MARKS = 2;

/**
 * Text written in binary with invisible characters (zero-width space for 0 and non-joiner for 1, or
 * any two of them, a third parting the bytes), as steganography tools hide a message inside a
 * harmless sentence: the bytes they spell when they read as text. Two or three kinds of invisible
 * character only, besides one or two marks that open and close the message; each way of reading
 * them is tried, the first that gives printable text of letters kept.
 */
function invisibleBits(raw: string): string | undefined {
  const marks: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (
      c === 0x200b ||
      c === 0x200c ||
      c === 0x200d ||
      c === 0x2060 ||
      c === 0xfeff ||
      (c >= 0x2061 && c <= 0x2064)
    )
      marks.push(c);
  }
  if (marks.length < MIN_INVISIBLE_BITS) return undefined;
  // A kind that stands only a few times (a byte-order mark opening and closing the message) frames
  // the bits; it is none of them.
  const counts = new Map<number, number>();
  for (const m of marks) counts.set(m, (counts.get(m) ?? 0) + 1);
  const framing = [...counts].filter(([, n]) => n <= MAX_FRAMING_MARKS).map(([k]) => k);
  const bits = framing.length ? marks.filter((m) => !framing.includes(m)) : marks;
  const kinds = [...counts.keys()].filter((k) => !framing.includes(k));
  if (kinds.length < 2 || kinds.length > 3) return undefined;
  for (const sep of kinds.length === 3 ? kinds : [undefined])
    for (const one of kinds.filter((k) => k !== sep)) {
      const text = bitsToText(bits, one, sep);
      if (text && text.length >= 2 && /[a-z]{2}/i.test(text)) return text;
    }
  return undefined;
}

/** Combining marks of the Latin script's blocks (diacritics, their extensions and supplement, for symbols, half marks). */
// The class is of combining marks on purpose: each is matched alone, the letter it sits on left.
// eslint-disable-next-line no-misleading-character-class
const COMBINING_MARKS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
/** Fewest marks (TextShape.marked), and their least share of the text's characters, that make a marks view. */
const MIN_MARKS = 8;
const MARKS_SHARE = 0.2;

/**
 * `raw` without its combining marks (accents too, once decomposed), when they and the Latin letters
 * written with a mark in one character ("ṉ", "ẹ"; TextShape.marked) are at least a fifth of its
 * characters: Zalgo text stacks them on every letter, and a mark on every other letter ("Ĩǵṉoṟe
 * yoùr") hides words too, decomposed or not; French or Spanish has a few in a hundred.
 */
function withoutMarks(raw: string, marked: number): string | undefined {
  if (marked < MIN_MARKS || marked < raw.length * MARKS_SHARE) return undefined;
  return raw.normalize('NFD').replace(COMBINING_MARKS, '');
}

/**
 * Upside-down letters (IPA and other signs that look like Latin letters turned over, "ǝɹouƃᴉ") and
 * the Latin letters that turn into each other (b q, d p, n u), each with the letter it shows turned back.
 */
const UPSIDE_DOWN: Record<string, string> = {
  ɐ: 'a',
  ɔ: 'c',
  ǝ: 'e',
  ɟ: 'f',
  ƃ: 'g',
  ɥ: 'h',
  ᴉ: 'i',
  ı: 'i',
  ɾ: 'j',
  ʞ: 'k',
  ɯ: 'm',
  ɹ: 'r',
  ʇ: 't',
  ʌ: 'v',
  ʍ: 'w',
  ʎ: 'y',
  '∀': 'a',
  Ǝ: 'e',
  '⊥': 't',
  '∩': 'u',
  Λ: 'v',
  '⅄': 'y',
  '¡': '!',
  '¿': '?',
  '˙': '.',
  q: 'b',
  b: 'q',
  p: 'd',
  d: 'p',
  u: 'n',
  n: 'u',
};
/** The turned-over signs of UPSIDE_DOWN (not the Latin letters). */
const TURNED = /[ɐɔǝɟƃɥᴉıɾʞɯɹʇʌʍʎ∀Ǝ⊥∩Λ⅄]/g;
/** Fewest turned-over signs, and their least share of the text's characters, that make it upside down. */
const MIN_TURNED = 8;
const TURNED_SHARE = 0.15;

/**
 * `raw` turned back, read backwards (as upside-down text is written) and in its own order, when
 * turned-over signs are at least MIN_TURNED and TURNED_SHARE of it; undefined otherwise. Phonetic
 * transcriptions use a few of the signs, among slashes and Latin letters that stay as they are.
 */
function uprightReadings(raw: string): [string, string] | undefined {
  const turned = raw.match(TURNED)?.length ?? 0;
  if (turned < MIN_TURNED || turned < raw.length * TURNED_SHARE) return undefined;
  const chars = [...raw].map((c) => UPSIDE_DOWN[c] ?? c.toLowerCase());
  return [chars.slice().reverse().join(''), chars.join('')];
}

/** Signals of a text nothing was found in yet. */
const noSignals = (): ObfuscationSignals => ({
  invisible: 0,
  tagChars: 0,
  bidi: 0,
  mixedScriptWords: 0,
  spacedRuns: 0,
  spacedWords: 0,
  symbolTexts: 0,
  leetTokens: 0,
  decoded: 0,
  firstHidden: -1,
});

/**
 * Adds a view of text hidden inside the field (tag characters, decoded segments): it is read like
 * the field itself, normalised, and its spaced-out letters joined and leetspeak undone (two tricks
 * stacked) unless `signals` is undefined (no derived views); unless `glued` is false, its glued words
 * are parted too (unglued).
 */
function addHidden(views: TextView[], view: TextView, signals: ObfuscationSignals | undefined, glued = true) {
  views.push(view);
  if (!signals) return;
  // Hidden words are often glued too ("pleaseignoretheabove" under ROT13).
  const spelled = glued && unglued(view.text);
  if (spelled) views.push({ ...view, text: spelled });
  const spaced = despace(view, signals);
  if (spaced) views.push({ ...spaced, name: view.name, map: undefined, segStart: view.segStart });
  const leet = unleet(spaced ?? view, signals);
  if (leet) views.push(leet);
}

/** Builds every view of one field's text. Pure and bounded: decoding is depth- and size-limited. */
export function buildViews(raw: string, opts: ViewOptions = {}): FieldViews {
  startSpelling();
  const signals = noSignals();
  const { view: normalized, tags, tagsAt, selected } = normalize(raw, signals);
  const views: TextView[] = [normalized];
  if (selected.length >= 4) {
    const text = normalizeHidden(Buffer.from(selected).toString('utf8'));
    const view: TextView = { name: 'unicode_tags', text, segStart: signals.firstHidden, segEnd: raw.length };
    addHidden(views, view, opts.derived === false ? undefined : signals);
  }
  if (tags.length >= 4) {
    const hidden = signals.firstHidden;
    const view: TextView = {
      name: 'unicode_tags',
      text: normalizeHidden(tags),
      segStart: hidden,
      segEnd: raw.length,
    };
    // Tag characters in several places (only the key words of "ignore your rules" hidden) are also
    // read where they stand; put together, they are not glued words.
    const inPlace = tagsInPlace(normalized.text, tags, tagsAt);
    addHidden(views, view, opts.derived === false ? undefined : signals, !inPlace);
    if (inPlace) views.push({ ...view, text: normalizeHidden(inPlace) });
    // What the tag characters spell may itself be encoded or rotated.
    if (opts.derived !== false)
      for (const d of decodeSegments(tags))
        addHidden(views, { ...view, name: d.encoding, text: normalizeHidden(d.text) }, signals);
  }
  if (opts.derived === false) return { raw, normalized, views, signals };
  const head = prefixView(normalized, MAX_DERIVED_CHARS);
  // Rotated text (ROT13, another Caesar shift, ROT47) whose words invisible characters split or
  // look-alike, full-width or mathematical letters disguise reads as rotated once they are dropped
  // and folded (the raw text's own rotation is decoded below).
  const unrotated = !normalized.identity && unrotatedText(head.text);
  if (unrotated)
    addHidden(views, { name: 'rot13', text: unrotated, segStart: 0, segEnd: raw.length }, signals);
  // Combining marks stacked on the letters (Zalgo text) are read without them.
  const { nonAscii, marked } = textShape(raw);
  const unmarked = nonAscii && withoutMarks(rawHeadOf(raw), marked);
  if (unmarked)
    addHidden(
      views,
      { name: 'marks', text: normalizeHidden(unmarked), segStart: 0, segEnd: raw.length },
      signals,
    );
  // Text turned upside down (letters flipped, read backwards) is turned back.
  const upright = nonAscii && uprightReadings(rawHeadOf(raw));
  if (upright)
    for (const text of upright)
      addHidden(
        views,
        { name: 'flipped', text: normalizeHidden(text), segStart: 0, segEnd: raw.length },
        signals,
      );
  // Invisible characters are bits of a hidden message, or stand for the spaces.
  const inBits = signals.invisible - signals.tagChars >= MIN_INVISIBLE_BITS && invisibleBits(rawHeadOf(raw));
  if (inBits)
    addHidden(
      views,
      { name: 'zero_width', text: normalizeHidden(inBits), segStart: 0, segEnd: raw.length },
      signals,
    );
  const spacedByInvisibles =
    !inBits && signals.invisible - signals.tagChars >= 4 && invisiblesAsSpaces(rawHeadOf(raw));
  if (spacedByInvisibles)
    addHidden(
      views,
      { name: 'zero_width', text: normalizeHidden(spacedByInvisibles), segStart: 0, segEnd: raw.length },
      signals,
    );
  // Invisible characters between the words as well as inside them glue the words once dropped.
  const glued = signals.invisible - signals.tagChars >= 4 && unglued(head.text);
  if (glued) addHidden(views, { name: 'zero_width', text: glued, segStart: 0, segEnd: raw.length }, signals);
  if (textShape(raw).fiveInARow >= MIN_GROUPS) addCipherGroups(views, signals, rawHeadOf(raw));
  // Before the views that undo hiding: the last view is the most decoded one (training reads it so).
  // The misspelt words' pass also finds the runs of letters shaped like a key word under a cipher.
  const shaped: ShapedRuns = { first: CIPHER_FIRST_STEPS, out: [] };
  const respelled = respell(head, shaped);
  if (respelled) views.push(respelled);
  const deciphered = decipheredKeywords(head.text, shaped.out);
  if (deciphered)
    addHidden(views, { name: 'rot13', text: deciphered, segStart: 0, segEnd: raw.length }, signals);
  const spacedWords: OutputSpan = { start: -1, end: -1 };
  const spaced = despace(head, signals, spacedWords);
  if (spaced) views.push(spaced);
  // Words spelled out inside ordinary text (a message in an email) are read apart from it too.
  const spacedApart = spaced && spanApart(spaced, spacedWords);
  if (spacedApart) views.push(spacedApart);
  // Spaced-out letters may spell rotated words ("l_b_h_e g_u_i_d_e_l_i_n_e_s").
  const unrotatedSpaced = spaced && unrotatedText(spaced.text);
  if (unrotatedSpaced)
    addHidden(views, { ...spaced, name: 'rot13', text: unrotatedSpaced, map: undefined }, signals);
  // Spaced-out letters may be a cipher's groups of five ("B I R E E | V Q R L B").
  if (spaced) addCipherGroups(views, signals, spaced.text, CIPHER_GROUPS_JOINED);
  const joined = joinFragments(spaced ?? head, signals);
  if (joined) views.push(joined);
  const listed = joinedCharacters(head, signals);
  if (listed) views.push(listed);
  const bracketed = unbracketed(head, signals);
  if (bracketed) views.push(bracketed);
  const slashed = slashedFragments(head);
  if (slashed) views.push(slashed);
  // Words joined by underscores are read apart, and undone if leetspeak.
  const underscored = underscoredWords(head);
  if (underscored) addHidden(views, underscored, signals, false);
  // Multi-symbol leet letters are bars and slashes, which the despaced view took for separators.
  if (!holdsLeetGroups(head.text)) {
    // The despaced view may hold groups the field does not; the field, as just measured, does not.
    const leet = unleet(spaced ?? head, signals, false, spaced ? undefined : false);
    if (leet) views.push(leet);
    // Leetspeak written over rotated text ("V7483r" for "Vtaber", ROT13 of "Ignore") reads as rotated once undone.
    const unrotatedLeet = leet && unrotatedText(leet.modelText ?? leet.text);
    if (unrotatedLeet)
      addHidden(
        views,
        { name: 'rot13', text: unrotatedLeet, segStart: leet.segStart, segEnd: leet.segEnd },
        signals,
      );
  } else addLeetGroups(views, head, signals);
  const comments = commentView(head);
  if (comments) views.push(comments);
  // A comment's or hidden element's text may be leetspeak of its own, read apart from the prose around it.
  if (comments && holdsLeetGroups(comments.text)) addLeetGroups(views, comments, signals);
  else if (comments) {
    const leet = unleet(comments, signals);
    if (leet) views.push(leet);
  }
  // A comment's text is read apart from the prose around it, where a rotation's words are plain.
  const unrotatedComments = comments && unrotatedText(comments.text);
  if (unrotatedComments) addHidden(views, { ...comments, name: 'rot13', text: unrotatedComments }, signals);
  const rawHead = rawHeadOf(raw);
  // A JSON or log string's escaped line breaks part encoded runs as the breaks they stand for.
  const read: RawReading = breaksUnescaped(rawHead) ?? { text: rawHead };
  const decoded: DecodedSpan[] = [];
  addDecoded(views, signals, read, decoded);
  // Base64 or hex written in full-width forms ("ＵＨＪｌ…") decodes once folded to ASCII, its case kept.
  const narrow = !normalized.identity && narrowed(read.text);
  if (narrow) addDecoded(views, signals, { text: narrow, at: read.at }, decoded);
  // Escapes whose backslash a JSON string doubled are decoded with it single.
  const undoubled = backslashesUndoubled(rawHead);
  if (undoubled) addDecoded(views, signals, undoubled, decoded);
  // Strings added up are read as the one string they make, and what it encodes is decoded.
  const added = joinedStrings(rawHead);
  if (added) {
    const view: TextView = {
      name: 'despaced',
      text: normalizeHidden(added.text),
      segStart: added.at[0]!,
      segEnd: added.at[added.at.length - 1]! + 1,
    };
    addHidden(views, view, signals);
    addDecoded(views, signals, added, decoded);
  }
  // Zero-width characters inside an encoded run (between every two characters of a base64 text) part
  // it: it is decoded again without them. Where they stood for spaces, the first decoding read them so.
  const bare = signals.invisible - signals.tagChars >= 4 ? withoutZeroWidth(rawHead) : undefined;
  if (bare) addDecoded(views, signals, bare, decoded);
  return { raw, normalized, views, signals, inPlace: decodedInPlace(normalized, decoded) };
}

/**
 * Characters in groups of five, eight groups or more: a cipher's way of writing a text, which
 * hides its word breaks ("WNVYO ERNXY", and with its case and punctuation kept, "Lbh'e rnobh
 * ggbra"). The groups' letters, joined, are read under the shift that spells English words best,
 * when one does (rotationThatSpells).
 */
const CIPHER_GROUPS = /(?<!\S)(?:\S{5}[ \t\r\n]+){7,}\S{1,5}(?!\S)/g;
/** Full groups a text must hold in a row (TextShape.fiveInARow) for CIPHER_GROUPS to be looked for. */
const MIN_GROUPS = 7;
/** The same groups in a view, lower-case, parted by any marks (spaced-out letters joined). */
const CIPHER_GROUPS_JOINED = /(?<![a-z])(?:[a-z]{5}[^a-z\n]{1,3}){7,}[a-z]{1,5}(?![a-z])/g;
/** Cost a letter (word-segments.ts) under which joined letters spell words: English about 1.5, German 2.8, noise 4.9. */
const SPELLS_WORDS = 3;
/** Groups of letters read at most, text by text. */
const MAX_CIPHER_GROUPS = 4;

function addCipherGroups(views: TextView[], signals: ObfuscationSignals, text: string, re = CIPHER_GROUPS) {
  re.lastIndex = 0;
  for (let m = re.exec(text), n = 0; m && n < MAX_CIPHER_GROUPS; m = re.exec(text), n++) {
    const read = rotationThatSpells(m[0].replace(/[^A-Za-z]+/g, '').toLowerCase(), SPELLS_WORDS);
    if (!read) continue;
    const name = read.shift ? 'rot13' : 'despaced';
    addHidden(
      views,
      { name, text: read.text, segStart: m.index, segEnd: m.index + m[0].length },
      signals,
      false,
    );
  }
}

const BREAK_ESCAPE = /\\([nrt])/g;
const BREAKS: Record<string, string> = { n: '\n', r: '\r', t: '\t' };
/**
 * `raw` with the line breaks and tabs a JSON or log string escapes (`\n`) unescaped, and where each
 * of its characters stands in `raw`; undefined without them. In "msg=\"payload:\n466f72…\"" the
 * escape's letter would join the run, and base64 wrapped by escaped breaks is chunks. The normalised
 * view blanks the same escapes one for one (unescapeBreaks); the decoders need the break itself, a
 * chunk separator of one character.
 */
function breaksUnescaped(raw: string): Required<RawReading> | undefined {
  if (!raw.includes('\\n') && !raw.includes('\\t') && !raw.includes('\\r')) return undefined;
  let text = '';
  const at: number[] = [];
  let copied = 0;
  BREAK_ESCAPE.lastIndex = 0;
  for (let m = BREAK_ESCAPE.exec(raw); m; m = BREAK_ESCAPE.exec(raw)) {
    text += raw.slice(copied, m.index) + BREAKS[m[1]!]!;
    for (let k = copied; k <= m.index; k++) at.push(k);
    copied = m.index + 2;
  }
  text += raw.slice(copied);
  for (let k = copied; k < raw.length; k++) at.push(k);
  return { text, at };
}

/** A string literal in double or single quotes, on one line. */
const STRING_LITERAL = /"[^"\n]*"|'[^'\n]*'/g;
/** Two string literals or more added up with `+` (a break may come either side of it). */
const ADDED_STRINGS = new RegExp(
  `(?:${STRING_LITERAL.source})(?:\\s*\\+\\s*(?:${STRING_LITERAL.source}))+`,
  'g',
);

/** Characters the strings of a run must make together to be read: `"a" + "b"` in code is no payload. */
const MIN_ADDED_CHARS = 8;

/**
 * The strings of every run of string literals added up (`"SWdub3Jl" + "IHRoZSBy" + …`,
 * `'Ign' + 'ore'`) written as the one string they make, a line a run, and where each of its
 * characters stands in `raw`; undefined without such a run. Splitting a payload into strings to be
 * added up hides a base64 run as well as the words of a text. The text around the runs is left out:
 * the field's own views read it.
 */
function joinedStrings(raw: string): Required<RawReading> | undefined {
  if (!raw.includes('+')) return undefined;
  let text = '';
  const at: number[] = [];
  ADDED_STRINGS.lastIndex = 0;
  for (let m = ADDED_STRINGS.exec(raw); m; m = ADDED_STRINGS.exec(raw)) {
    const from = text.length;
    STRING_LITERAL.lastIndex = 0;
    for (let s = STRING_LITERAL.exec(m[0]); s; s = STRING_LITERAL.exec(m[0])) {
      const start = m.index + s.index + 1;
      text += s[0].slice(1, -1);
      for (let k = 0; k < s[0].length - 2; k++) at.push(start + k);
    }
    if (text.length - from < MIN_ADDED_CHARS) {
      at.length = from;
      text = text.slice(0, from);
      continue;
    }
    text += '\n';
    at.push(m.index + m[0].length - 1);
  }
  return text ? { text, at } : undefined;
}

/**
 * `raw` with every doubled backslash read as one, and where each of its characters stands in
 * `raw`; undefined without a doubled backslash before an `x` or a `u`. A JSON string escapes the
 * backslash of a `\\x41` or `\\u0041` escape, so the escapes read as text, not as characters.
 */
function backslashesUndoubled(raw: string): Required<RawReading> | undefined {
  if (!raw.includes('\\\\x') && !raw.includes('\\\\u')) return undefined;
  let text = '';
  const at: number[] = [];
  for (let k = 0; k < raw.length; k++) {
    if (raw.charCodeAt(k) === 92 && raw.charCodeAt(k + 1) === 92) k++;
    text += raw[k];
    at.push(k);
  }
  return { text, at };
}

/** Full-width ASCII forms (U+FF01–U+FF5E) and the ideographic space as ASCII, one for one; undefined without them. */
function narrowed(raw: string): string | undefined {
  if (!/[\uff01-\uff5e]/.test(raw)) return undefined;
  // Unit by unit into a buffer: a replace with a callback a character took a tenth of the time of
  // a 1 MB full-width field.
  const units = new Uint16Array(raw.length);
  for (let k = 0; k < raw.length; k++) {
    const c = raw.charCodeAt(k);
    units[k] = c >= 0xff01 && c <= 0xff5e ? c - 0xfee0 : c === 0x3000 ? 32 : c;
  }
  return fromUnits(units);
}

/** UTF-16 code units as a string, any lone surrogate kept (a TextDecoder would replace it). */
function fromUnits(units: Uint16Array): string {
  const runs: string[] = [];
  for (let k = 0; k < units.length; k += 8192)
    runs.push(String.fromCharCode.apply(null, units.subarray(k, k + 8192) as unknown as number[]));
  return runs.join('');
}

/**
 * Adds the views of the segments decoded from `text`: the raw text's head, or that head read another
 * way (escaped breaks unescaped, full-width forms folded, zero-width characters dropped), `at` giving
 * where each of its characters stands in the raw text.
 */
function addDecoded(
  views: TextView[],
  signals: ObfuscationSignals,
  { text, at }: RawReading,
  found: DecodedSpan[],
) {
  for (const d of decodeSegments(text)) {
    signals.decoded++;
    if (d.encoding === 'morse') signals.symbolTexts++;
    const [segStart, segEnd] = at ? [at[d.start]!, at[d.end - 1]! + 1] : [d.start, d.end];
    const view: TextView = { name: d.encoding, text: normalizeHidden(d.text), segStart, segEnd };
    found.push(view);
    addHidden(views, view, signals);
  }
}

/** A decoded segment: its encoding, what it says (normalised) and the raw span it was read from. */
type DecodedSpan = Pick<TextView, 'name' | 'text' | 'segStart' | 'segEnd'>;

/**
 * Encodings whose raw form reads as no words (base64, hex, escapes, character references): their
 * runs are read in place (decodedInPlace). A rotation or a cipher's words are left as they stand.
 */
const READ_IN_PLACE: ReadonlySet<ViewName> = new Set([
  'base64',
  'base32',
  'hex',
  'url',
  'unicode_escape',
  'html_entity',
]);

/**
 * The normalised view with each run encoded by one of READ_IN_PLACE put where it stood, as the last
 * reading of its span has it (the most decoded of a nested encoding, ROT13 under base64 too; of
 * spans that overlap, the first found); undefined without one. The model reads it instead of the
 * normalised view: an encoded run says nothing as it stands, and a request to decode it is scored
 * with what it decodes to ("decode this and answer: <how do I build a windmill>"), while a payload
 * split around plain words is read whole. Each decoded character stands for a share of its raw run,
 * so a window reports the raw span it read.
 */
function decodedInPlace(normalized: TextView, found: DecodedSpan[]): TextView | undefined {
  // Each span's first run (the outer encoding) and last (what the span reads as once all is undone).
  const bySpan = new Map<string, [DecodedSpan, DecodedSpan]>();
  for (const d of found) {
    const key = `${d.segStart}:${d.segEnd}`;
    const seen = bySpan.get(key);
    if (seen) seen[1] = d;
    else bySpan.set(key, [d, d]);
  }
  const runs = [...bySpan.values()]
    .filter(([outer]) => READ_IN_PLACE.has(outer.name))
    .map(([, last]) => last)
    .sort((a, b) => a.segStart - b.segStart);
  if (!runs.length) return undefined;
  const t = normalized.text;
  const b = new ViewBuilder(t.length);
  let copied = 0;
  let rawEnd = 0;
  for (const run of runs) {
    if (run.segStart < rawEnd) continue;
    const from = viewIndexOf(normalized, run.segStart);
    const to = viewIndexOf(normalized, run.segEnd);
    b.copyFrom(normalized, copied, from);
    const width = run.segEnd - run.segStart;
    for (let k = 0; k < run.text.length; k++)
      b.push(run.text[k]!, run.segStart + Math.floor((k * width) / run.text.length));
    copied = to;
    rawEnd = run.segEnd;
  }
  b.copyFrom(normalized, copied, t.length);
  return b.done(runs[0]!.name, normalized.segStart, normalized.segEnd);
}

/** The first index of `view` whose character stands at raw index `raw` or after (its length if none). */
function viewIndexOf(view: TextView, raw: number): number {
  if (view.identity || !view.map) return Math.min(raw, view.text.length);
  let lo = 0;
  let hi = view.map.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (view.map[mid]! < raw) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The normalised text with the tag characters' ASCII put back where each stood, when they stood in
 * two places or more; undefined when they are one run (the tags view reads that alone).
 */
function tagsInPlace(text: string, tags: string, at: number[]): string | undefined {
  if (at[0] === at[at.length - 1]) return undefined;
  let out = '';
  let copied = 0;
  for (let k = 0; k < tags.length; k++) {
    out += text.slice(copied, at[k]) + tags[k];
    copied = Math.max(copied, at[k]!);
  }
  return out + text.slice(copied);
}

/** A hidden text normalised like a field (NFKC, case, invisible characters, homoglyphs); its signals are not the field's. */
function normalizeHidden(text: string): string {
  // Measured, not remembered: textShape's one remembered text stays the field's raw text, which
  // decoding and the PII scan ask for next (and utf8Of reads for its ASCII copy).
  return normalize(text, noSignals(), measureShape(text)).view.text;
}

// Markdown's link-reference comments: `[//]: # (text)`, `[comment]: <> (text)`, `[x]: # "text"`.
const MD_COMMENT = /^[ \t]*\[[^\]\n]{0,40}\]:[ \t]*(?:#|<>)[ \t]*(?:\(([^\n]*)\)|"([^\n]*)")[ \t]*$/gm;

/**
 * Markdown's text a page does not show: a link's or image's title (`[x](url "title")`, shown only on
 * hover) and an image's alt text (`![alt](url)`, shown only when the image fails), when long.
 */
const MD_HIDDEN_TEXT = /!\[([^\]\n]{20,})\]\(|\]\([^\s()]*\s+(?:"([^"\n]{20,})"|'([^'\n]{20,})')\s*\)/g;

/** Comment bodies found so far and the view span [first, last) that holds them. */
interface CommentParts {
  parts: string[];
  first: number;
  last: number;
}

function addComment(found: CommentParts, body: string, start: number, end: number) {
  if (!body.trim()) return;
  found.parts.push(body.trim());
  found.first = found.first < 0 ? start : Math.min(found.first, start);
  found.last = Math.max(found.last, end);
}

/** Words that may hide markup: a hiding style or attribute, an inert element, text in an attribute. */
const HIDDEN_MARKUP_HINT = /style=|hidden|<template|<noscript|text\/plain|alt=|title=|content=|data-/;
/** An opening tag (lower-case: the normalised view), its name and its attributes. */
const OPENING_TAG = /<([a-z][a-z0-9-]{0,15})\b([^<>]{0,600})>/g;
/** Attributes that hide an element from a reader: a style that hides it, `hidden`, `aria-hidden`. */
const HIDING_ATTRIBUTE =
  /display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?![.\d])|opacity\s*:\s*0(?![.\d])|(?<!-)color\s*:\s*(?:#fff(?:fff)?\b|white)|(?:left|top)\s*:\s*-\d{3,}px|(?:^|\s)hidden(?:\s|=|$)|aria-hidden\s*=\s*["']?true/;
/** Attribute values a renderer does not show as text (an image's alt text, a tooltip, metadata). */
const TEXT_ATTRIBUTE = /(?:^|\s)(?:alt|title|content|data-[\w-]+)\s*=\s*(?:"([^"]{20,})"|'([^']{20,})')/g;
/** Characters of an element's body read as hidden text. */
const MAX_HIDDEN_BODY = 4_000;

/**
 * Text that HTML hides from a reader but not from a model: the bodies of elements a style or
 * attribute hides (display:none, white text, font-size 0, off-screen, `hidden`), of inert elements
 * (`<template>`, `<noscript>`, `<script type="text/plain">`), and long attribute values (alt, title,
 * content, data-*).
 */
function hiddenMarkup(t: string, found: CommentParts) {
  OPENING_TAG.lastIndex = 0;
  for (let m = OPENING_TAG.exec(t); m; m = OPENING_TAG.exec(t)) {
    const [tag, name, attrs] = m as unknown as [string, string, string];
    const end = m.index + tag.length;
    TEXT_ATTRIBUTE.lastIndex = 0;
    for (let a = TEXT_ATTRIBUTE.exec(attrs); a; a = TEXT_ATTRIBUTE.exec(attrs))
      addComment(found, a[1] ?? a[2] ?? '', m.index, end);
    const inert =
      name === 'template' || name === 'noscript' || (name === 'script' && attrs.includes('text/plain'));
    if (!inert && !HIDING_ATTRIBUTE.test(attrs)) continue;
    const close = t.indexOf(`</${name}`, end);
    const bodyEnd =
      close < 0 ? Math.min(t.length, end + MAX_HIDDEN_BODY) : Math.min(close, end + MAX_HIDDEN_BODY);
    addComment(found, t.slice(end, bodyEnd).replace(/<[^<>]*>/g, ' '), m.index, bodyEnd);
    OPENING_TAG.lastIndex = bodyEnd;
  }
}

/**
 * Adds the comments `open` and `close` delimit; an unclosed one runs to the end. indexOf, not a lazy
 * regex: many unclosed openings must not make the scan quadratic.
 */
function delimitedComments(t: string, open: string, close: string, found: CommentParts) {
  for (let at = t.indexOf(open); at >= 0;) {
    const closing = t.indexOf(close, at + open.length);
    const end = closing < 0 ? t.length : closing + close.length;
    addComment(found, t.slice(at + open.length, closing < 0 ? t.length : closing), at, end);
    if (closing < 0) break;
    at = t.indexOf(open, end);
  }
}

/**
 * The text of HTML, Markdown and MDX comments, which renderers hide from a human reader but a model
 * reads, and of markup hidden otherwise (hiddenMarkup, MD_HIDDEN_TEXT): one view of all of them, so an instruction
 * inside a comment is scored on its own and not diluted by the visible document around it.
 */
function commentView(src: TextView): TextView | undefined {
  const t = src.text;
  const found: CommentParts = { parts: [], first: -1, last: -1 };
  delimitedComments(t, '<!--', '-->', found);
  // MDX writes its comments as JSX expressions.
  delimitedComments(t, '{/*', '*/}', found);
  if (t.includes(']:')) {
    MD_COMMENT.lastIndex = 0;
    for (let m = MD_COMMENT.exec(t); m; m = MD_COMMENT.exec(t))
      addComment(found, m[1] ?? m[2] ?? '', m.index, m.index + m[0].length);
  }
  if (t.includes('](')) {
    MD_HIDDEN_TEXT.lastIndex = 0;
    for (let m = MD_HIDDEN_TEXT.exec(t); m; m = MD_HIDDEN_TEXT.exec(t))
      addComment(found, m[1] ?? m[2] ?? m[3] ?? '', m.index, m.index + m[0].length);
  }
  if (t.includes('<') && HIDDEN_MARKUP_HINT.test(t)) hiddenMarkup(t, found);
  if (!found.parts.length) return undefined;
  const [segStart] = rawSpan(src, found.first, found.first + 1);
  const [, segEnd] = rawSpan(src, found.last - 1, found.last);
  return { name: 'comment', text: found.parts.join('\n'), segStart, segEnd };
}
