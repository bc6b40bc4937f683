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
  /** Any UTF-16 code unit outside ASCII. */
  nonAscii: boolean;
  /** A run of 16 base64 characters ([A-Za-z0-9+/_-]). */
  base64Run: boolean;
  /** A `\x` escape, or a run of hex digits and separators (space, colon) holding 18 hex digits. */
  hexRun: boolean;
}

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
    (c === 32 || c === 58 ? HEX_SEP : 0);
}

/** The shape of `text` (one linear pass). */
export function measureShape(text: string): TextShape {
  let digits = 0;
  let digitRun = 0;
  let maxDigitRun = 0;
  let alnumRun = 0;
  let maxAlnumRun = 0;
  let colons = 0;
  let nonAscii = false;
  let b64Run = 0;
  let base64Run = false;
  let hexDigits = 0;
  let hexRun = false;
  let backslash = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128) {
      // Outside every class: ends all runs.
      nonAscii = true;
      digitRun = alnumRun = b64Run = hexDigits = 0;
      backslash = false;
      continue;
    }
    const f = CLASSES[c]!;
    if (f & DIGIT) {
      digits++;
      if (++digitRun > maxDigitRun) maxDigitRun = digitRun;
    } else digitRun = 0;
    if (f & ALNUM) {
      if (++alnumRun > maxAlnumRun) maxAlnumRun = alnumRun;
    } else alnumRun = 0;
    if (f & BASE64) {
      if (++b64Run >= 16) base64Run = true;
    } else b64Run = 0;
    if (f & HEX) {
      if (++hexDigits >= 18) hexRun = true;
    } else if (!(f & HEX_SEP)) hexDigits = 0;
    if (c === 58) colons++;
    else if (c === 120 && backslash) hexRun = true;
    backslash = c === 92;
  }
  return { digits, maxDigitRun, maxAlnumRun, colons, nonAscii, base64Run, hexRun };
}

let last: { text: string; shape: TextShape } | undefined;

/** The shape of `text`, remembered for consecutive callers (the views, decoding and PII of one field). */
export function textShape(text: string): TextShape {
  if (last?.text !== text) last = { text, shape: measureShape(text) };
  return last.shape;
}

/**
 * True when `text` is the remembered text and has no character outside ASCII; false when it has
 * one or is not the remembered text (this never measures). Lets utf8Of copy ASCII as Latin-1.
 */
export function knownAscii(text: string): boolean {
  return last !== undefined && last.text === text && !last.shape.nonAscii;
}
