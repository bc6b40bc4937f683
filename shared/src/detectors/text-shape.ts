/**
 * Character-shape counts of a text from one pass. The detectors gate their patterns on them (PII
 * digits and runs, encoded segments, non-ASCII text): a pattern runs only if its shape can occur,
 * and one pass serves every gate instead of one pass per detector.
 */
export interface TextShape {
  digits: number;
  maxDigitRun: number;
  /** Longest run of ASCII letters and digits. */
  maxAlnumRun: number;
  colons: number;
  /** ASCII capitals (A to Z). */
  capitals: number;
  /** Any UTF-16 code unit outside ASCII. */
  nonAscii: boolean;
  /** A run of 16 base64 characters ([A-Za-z0-9+/_-]). */
  base64Run: boolean;
  /** A `\x` escape, or a run of hex digits and separators (space, colon, dash) holding 18 hex digits. */
  hexRun: boolean;
  /**
   * Capitals and digits right after a lower-case letter, and capitals right after a digit
   * ("aW5zdHJ1", "69676e6f", "5072696E"): base64 and hex words have several, prose a few ("iPhone",
   * "mp3", "4K").
   */
  caseTurns: number;
  /** Where the first MAX_TURNS of them are: the encoded-word readers look there, not everywhere. */
  turnAt: number[];
  /**
   * Most tokens of five characters in a row, each followed by a space, a tab or a line break: a
   * cipher's groups of five ("Lbh'e rnobh ggbra …"); prose seldom has more than three.
   */
  fiveInARow: number;
  /**
   * Combining marks of the Latin blocks, and the Latin letters from À to ɏ and Ḁ to ỿ (most written
   * with a mark, "é", "ṉ"): Zalgo text and a mark on every other letter have them on a fifth of the
   * text or more.
   */
  marked: number;
}

/** Turns whose places are kept. */
const MAX_TURNS = 256;

// Per-character classes of ASCII, looked up instead of tested range by range.
const DIGIT = 1;
const ALNUM = 2;
const BASE64 = 4;
const HEX = 8;
/** Characters that may separate hex digit pairs without ending the run. */
const HEX_SEP = 16;
const CLASSES = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const digit = c >= 48 && c <= 57;
  const alnum = digit || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  const base64 = alnum || c === 43 || c === 47 || c === 95 || c === 45;
  const hex = digit || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
  CLASSES[c] =
    (digit ? DIGIT : 0) |
    (alnum ? ALNUM : 0) |
    (base64 ? BASE64 : 0) |
    (hex ? HEX : 0) |
    (c === 32 || c === 58 || c === 45 || c === 46 || c === 44 ? HEX_SEP : 0);
}

/**
 * The shape of `text` (one linear pass). A run is measured when it ends ([start, i)), not counted
 * character by character, and lower-case letters and spaces, most of any text, take short paths.
 */
export function measureShape(text: string): TextShape {
  const n = text.length;
  let digits = 0;
  let maxDigitRun = 0;
  let maxAlnumRun = 0;
  let colons = 0;
  let capitals = 0;
  let nonAscii = false;
  let base64Run = false;
  let hexRun = false;
  let digitStart = 0;
  let alnumStart = 0;
  let b64Start = 0;
  let hexDigits = 0;
  let hexLiterals = 0;
  let caseTurns = 0;
  const turnAt: number[] = [];
  let afterLower = -1;
  let marked = 0;
  let tokenStart = 0;
  let fives = 0;
  let fiveInARow = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 97 && c <= 122) {
      // A lower-case letter: continues the letter and base64 runs, ends a digit run.
      digitStart = i + 1;
      afterLower = i + 1;
      if (c <= 102) {
        if (++hexDigits >= 18) hexRun = true;
      } else {
        hexDigits = 0;
        // The x of `\x41` marks hex, and so do six of `0x41`.
        if (c === 120 && i > 0) {
          const before = text.charCodeAt(i - 1);
          if (before === 92 || (before === 48 && ++hexLiterals >= 6)) hexRun = true;
        }
      }
      continue;
    }
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      // A blank ends every run; a space but a hex one, which it may separate.
      if (c !== 32) hexDigits = 0;
      if (i > tokenStart) {
        fives = i - tokenStart === 5 ? fives + 1 : 0;
        if (fives > fiveInARow) fiveInARow = fives;
      }
      tokenStart = i + 1;
      digitStart = i + 1;
      if (i - alnumStart > maxAlnumRun) maxAlnumRun = i - alnumStart;
      alnumStart = i + 1;
      if (i - b64Start >= 16) base64Run = true;
      b64Start = i + 1;
      continue;
    }
    // Outside ASCII: in no class, so it ends every run.
    const f = c < 128 ? CLASSES[c]! : 0;
    if (c >= 65 && c <= 90) capitals++;
    // A digit run that reached i − 1 has digitStart < i (any other character moves it past itself).
    if (f & ALNUM && (afterLower === i || (!(f & DIGIT) && digitStart < i))) {
      caseTurns++;
      if (turnAt.length < MAX_TURNS) turnAt.push(i);
    }
    if (f & DIGIT) {
      digits++;
      if (i + 1 - digitStart > maxDigitRun) maxDigitRun = i + 1 - digitStart;
    } else digitStart = i + 1;
    if (!(f & ALNUM)) {
      if (i - alnumStart > maxAlnumRun) maxAlnumRun = i - alnumStart;
      alnumStart = i + 1;
    }
    if (!(f & BASE64)) {
      if (i - b64Start >= 16) base64Run = true;
      b64Start = i + 1;
    }
    if (f & HEX) {
      if (++hexDigits >= 18) hexRun = true;
    } else if (!(f & HEX_SEP)) hexDigits = 0;
    if (c === 58) colons++;
    else if (c >= 128) {
      nonAscii = true;
      if (isMarkedLatin(c)) marked++;
    }
  }
  if (n - alnumStart > maxAlnumRun) maxAlnumRun = n - alnumStart;
  if (n - b64Start >= 16) base64Run = true;
  return {
    digits,
    maxDigitRun,
    maxAlnumRun,
    colons,
    capitals,
    nonAscii,
    base64Run,
    hexRun,
    caseTurns,
    turnAt,
    fiveInARow,
    marked,
  };
}

/** A combining mark of the Latin script's blocks, or a Latin letter from À on (× and ÷ are signs). */
const isMarkedLatin = (c: number) =>
  (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7) ||
  (c >= 0x300 && c <= 0x36f) ||
  (c >= 0x1ab0 && c <= 0x1aff) ||
  (c >= 0x1dc0 && c <= 0x1eff) ||
  (c >= 0x20d0 && c <= 0x20ff) ||
  (c >= 0xfe20 && c <= 0xfe2f);

let last: { text: string; shape: TextShape } | undefined;

/** The shape of `text`, remembered for consecutive callers (the views, decoding and PII of one field). */
export function textShape(text: string): TextShape {
  if (last?.text !== text) last = { text, shape: measureShape(text) };
  return last.shape;
}

/** The remembered shape when `text` is the remembered text; never measures or replaces it. */
export function rememberedShape(text: string): TextShape | undefined {
  return last !== undefined && last.text === text ? last.shape : undefined;
}

/**
 * True when `text` is the remembered text and has no character outside ASCII; false when it has
 * one or is not the remembered text (this never measures). Lets utf8Of copy ASCII as Latin-1.
 */
export function knownAscii(text: string): boolean {
  return rememberedShape(text)?.nonAscii === false;
}
