/**
 * Where the words of a run of letters written without spaces begin: "ignoreallprevious" is "ignore
 * all previous". Letters spaced out one by one with the same gap between words as between letters
 * ("i g n o r e a l l"), or parted by marks that change among spaces, keep no word breaks; a model
 * that reads words reads nothing in the joined run.
 *
 * The split is the likeliest under Zipf's law over the 126,000 English words of `wordsninja`'s list,
 * ranked by frequency (a word of rank r costs log(r · ln N)), found by dynamic programming. The
 * package's own splitter is not used: it copies and reverses an array for every letter of every
 * candidate (8.6× slower on an 88-letter run), where this one looks up at most MAX_WORD substrings a
 * letter. The dictionary (about 20 MB of heap, 0.1 s) is loaded the first time a text needs it. A
 * field's views read at most MAX_SPELLED letters (startSpelling, reserveSpelling); reading a cipher's
 * letters under every shift (encodings.ts, rotationThatSpells) takes from the same letters.
 */
import { createRequire } from 'node:module';

/** Longest word tried: longer dictionary entries are compounds and junk. */
const MAX_WORD = 20;
/** Longest run split at once; a longer one is split in pieces this long. */
const MAX_RUN = 256;

let costs: Map<string, number> | undefined;
/** ln N, N the dictionary's words. */
let lnWords = 0;

function dictionary(): Map<string, number> {
  if (costs) return costs;
  const words = createRequire(import.meta.url)('wordsninja/words-en.json') as string[];
  lnWords = Math.log(words.length);
  costs = new Map();
  words.forEach((w, rank) => {
    if (w.length <= MAX_WORD && !costs!.has(w)) costs!.set(w, Math.log((rank + 1) * lnWords));
  });
  return costs;
}

/**
 * Whether `w` (lower-case) is among the `top` most frequent words of the dictionary: rank r costs
 * log((r + 1) · ln N), so the test is one lookup and a comparison.
 */
export function isCommonWord(w: string, top: number): boolean {
  const dict = dictionary();
  const cost = dict.get(w);
  return cost !== undefined && cost <= Math.log(top * lnWords);
}

/** `w`'s rank (lower-case; 1 the most frequent word), Infinity for a word the dictionary lacks. */
export function wordRank(w: string): number {
  const dict = dictionary();
  const cost = dict.get(w);
  return cost === undefined ? Infinity : Math.round(Math.exp(cost) / lnWords);
}

/** Cost of a piece that is no word: dearer than any split into words. */
const NOT_A_WORD = 1e6;

/**
 * The start of every word but the first in `letters` (lower-case a to z), at most MAX_RUN long
 * ([] when the run reads best as one word), and the split's cost.
 */
function splitPiece(letters: string, dict: Map<string, number>): { starts: number[]; cost: number } {
  const n = letters.length;
  const best = new Float64Array(n + 1).fill(Infinity);
  const from = new Int32Array(n + 1);
  best[0] = 0;
  for (let i = 1; i <= n; i++)
    for (let k = Math.max(0, i - MAX_WORD); k < i; k++) {
      const v = best[k]! + (dict.get(letters.slice(k, i)) ?? NOT_A_WORD);
      if (v < best[i]!) {
        best[i] = v;
        from[i] = k;
      }
    }
  const starts: number[] = [];
  for (let i = from[n]!; i > 0; i = from[i]!) starts.push(i);
  return { starts: starts.reverse(), cost: best[n]! };
}

/**
 * Letters a field's views may read for their words (about 2 µs a letter): what is left of a text
 * past them stays as it is, so a megabyte of glued letters costs no more than a paragraph.
 */
const MAX_SPELLED = 2_048;
let spellable = MAX_SPELLED;

/** Starts a field's views: MAX_SPELLED letters may be read for their words again. */
export function startSpelling() {
  spellable = MAX_SPELLED;
}

/**
 * Takes `letters` from the field's letters to read for words when at least `needed` are left; false
 * (nothing taken) otherwise.
 */
export function reserveSpelling(letters: number, needed = letters): boolean {
  if (needed > spellable) return false;
  spellable -= letters;
  return true;
}

/**
 * The start of every word but the first in `letters` (lower-case a to z); undefined when the
 * field's letters to read for words (startSpelling) are spent.
 */
export function wordStarts(letters: string): number[] | undefined {
  return reserveSpelling(letters.length) ? spelling(letters).starts : undefined;
}

/**
 * The words of `letters` (lower-case a to z): their starts but the first's, and the split's cost a
 * letter. Takes nothing from the field's letters to read: the caller reserved them (reserveSpelling).
 */
export function spelling(letters: string): { starts: number[]; cost: number } {
  const dict = dictionary();
  const starts: number[] = [];
  let cost = 0;
  for (let at = 0; at < letters.length; at += MAX_RUN) {
    if (at) starts.push(at);
    const piece = splitPiece(letters.slice(at, at + MAX_RUN), dict);
    for (const s of piece.starts) starts.push(at + s);
    cost += piece.cost;
  }
  return { starts, cost: cost / letters.length };
}

/** `letters` with a space before each of `starts` (wordStarts). */
export function withSpaces(letters: string, starts: readonly number[]): string {
  let out = '';
  let from = 0;
  for (const to of [...starts, letters.length]) {
    out += (from ? ' ' : '') + letters.slice(from, to);
    from = to;
  }
  return out;
}

/** Runs of letters this long or longer are glued words: longer than nearly every English word. */
const GLUED_RUN = 16;
const GLUED = new RegExp(`[a-z]{${GLUED_RUN},}`, 'g');

/**
 * `text` (lower-case) with spaces put between the words glued in its runs of GLUED_RUN letters or
 * more ("pleaseignoretheabove" is "please ignore the above"); undefined when it has none or they
 * read best as they are.
 */
export function unglued(text: string): string | undefined {
  let out = '';
  let copied = 0;
  GLUED.lastIndex = 0;
  for (let m = GLUED.exec(text); m && spellable >= GLUED_RUN; m = GLUED.exec(text)) {
    const run = m[0];
    const starts = wordStarts(run);
    if (!starts?.length) continue;
    out += text.slice(copied, m.index) + withSpaces(run, starts);
    copied = m.index + run.length;
  }
  return copied ? out + text.slice(copied) : undefined;
}
