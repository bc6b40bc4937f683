import type RE2 from 're2';
import { knownAscii } from './text-shape';

/**
 * A text with its UTF-8 bytes, converted once. RE2 matches UTF-8: handed a JS string, it converts
 * the whole string again on every call (about 6 µs for a 2 KB field, most of what a call costs);
 * handed a Buffer, it converts nothing. Every RE2 call of the detectors goes through one of these,
 * and matches come back with UTF-16 indices and string values, as from a string.
 */
export class Utf8Text {
  readonly bytes: Buffer;
  /** Byte offset → UTF-16 index, built on first use when the text is not pure ASCII. */
  private utf16?: Int32Array;

  /**
   * `ascii`: the caller knows every character of `text` is below 0x80, so its UTF-8 is its Latin-1,
   * one byte a character: a plain copy (~0.3 µs for 2 KB) instead of UTF-8 encoding (~5 µs).
   */
  constructor(
    readonly text: string,
    ascii = false,
  ) {
    if (ascii) {
      this.bytes = Buffer.allocUnsafe(text.length);
      this.bytes.write(text, 0, text.length, 'latin1');
    } else this.bytes = Buffer.from(text, 'utf8');
  }

  /** UTF-16 index of byte `offset` (a character boundary, or the end). */
  index(offset: number): number {
    if (this.bytes.length === this.text.length) return offset;
    this.utf16 ??= utf16Indices(this.bytes);
    return this.utf16[offset]!;
  }
}

function utf16Indices(bytes: Buffer): Int32Array {
  const out = new Int32Array(bytes.length + 1);
  let u = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    out[i] = u;
    // A lead byte starts a character: four-byte sequences are surrogate pairs (two UTF-16 units).
    if ((b & 0xc0) !== 0x80) u += b >= 0xf0 ? 2 : 1;
  }
  out[bytes.length] = u;
  return out;
}

let last: Utf8Text | undefined;

/**
 * The UTF-8 form of `text`, shared by consecutive callers: one field's views, PII and secret scans
 * all ask for the same raw text in a row, so a single remembered conversion serves them all.
 */
export function utf8Of(text: string): Utf8Text {
  // The field's remembered shape (every caller measured it first) says whether it is pure ASCII.
  if (last?.text !== text) last = new Utf8Text(text, knownAscii(text));
  return last;
}

/** What RE2 returns for a Buffer: the whole match and the groups as Buffers, `index` in bytes. */
type BufferMatch = ArrayLike<Buffer | undefined> & { index: number };

const execBytes = (re: RE2, bytes: Buffer) => re.exec(bytes) as BufferMatch | null;

/** A match as `RegExp.exec` on the string would give it: string groups, UTF-16 `index`. */
function asStringMatch(m: BufferMatch, t: Utf8Text): RegExpExecArray {
  const parts: Array<string | undefined> = [];
  for (let k = 0; k < m.length; k++) parts.push(m[k]?.toString('utf8'));
  const out = parts as RegExpExecArray;
  out.index = t.index(m.index);
  out.input = t.text;
  return out;
}

/** Calls `fn` with every match of a global RE2 in `t`, left to right (empty matches step one character). */
export function eachMatch(re: RE2, t: Utf8Text, fn: (m: RegExpExecArray) => void): void {
  const bytes = t.bytes;
  re.lastIndex = 0;
  for (let m = execBytes(re, bytes); m; m = execBytes(re, bytes)) {
    const empty = m[0]!.length === 0;
    fn(asStringMatch(m, t));
    if (empty) {
      let next = re.lastIndex + 1;
      while (next < bytes.length && (bytes[next]! & 0xc0) === 0x80) next++;
      re.lastIndex = next;
    }
  }
}

/** The next match of a global RE2 in `t` from its `lastIndex` (a byte offset), as from a string. */
export function nextMatch(re: RE2, t: Utf8Text): RegExpExecArray | null {
  const m = execBytes(re, t.bytes);
  return m && asStringMatch(m, t);
}

/**
 * Byte span [start, end) of the leftmost match of the global RE2 `re` in `t`, searched from the
 * start: the match `exec` would find, without the result `exec` builds (a Buffer per group,
 * `index`, `input`, `groups`: ~3 µs a call, more than the search itself on a 2 KB field).
 * `re.search` gives the start; `re.test` from that start gives the end (no match starts earlier,
 * so the leftmost match from there is the same one, its context the same full text). Leaves
 * `re.lastIndex` at the end.
 */
export function firstMatchSpan(
  re: RE2,
  t: Utf8Text,
  /** `re.search(t.bytes)` when the caller has it already. */
  start = re.search(t.bytes),
): [number, number] | undefined {
  if (start < 0) return undefined;
  re.lastIndex = start;
  if (re.test(t.bytes)) return [start, re.lastIndex];
  // Not expected (same pattern, same position); exec answers if it ever happens.
  re.lastIndex = 0;
  const m = execBytes(re, t.bytes);
  return m ? [m.index, m.index + m[0]!.length] : undefined;
}

/** Pattern source that matches `s` literally (RE2 and JS alike). */
export const literalPattern = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Literal alternation factored into a trie (`ig(?:nor|...)`): the engine branches once per character. */
export function trieSource(words: string[]): string {
  const groups = new Map<string, string[]>();
  let empty = false;
  for (const w of words) {
    if (!w) {
      empty = true;
      continue;
    }
    const head = String.fromCodePoint(w.codePointAt(0)!);
    const rest = groups.get(head) ?? [];
    rest.push(w.slice(head.length));
    groups.set(head, rest);
  }
  const alts = [...groups].map(([head, rest]) => {
    const tail = trieSource(rest);
    return (
      literalPattern(head) + (tail ? (tail.includes('|') || tail.endsWith('?') ? `(?:${tail})` : tail) : '')
    );
  });
  // A stem that is a prefix of another ends here: the shorter match is enough to record a hit.
  if (empty) return alts.length ? `(?:${alts.join('|')})?` : '';
  return alts.join('|');
}
