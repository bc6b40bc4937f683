/**
 * Where the words of a run of letters written without spaces begin: "ignoreallprevious" is "ignore
 * all previous". Letters spaced out one by one with the same gap between words as between letters
 * ("i g n o r e a l l"), or parted by marks that change among spaces, keep no word breaks; a model
 * that reads words reads nothing in the joined run.
 *
 * The split is the likeliest under Zipf's law over the 126,000 English words of `wordsninja`'s list,
 * ranked by frequency (a word of rank r costs log(r · ln N)), found by dynamic programming. The
 * package's own splitter is not used: it copies and reverses an array for every letter of every
 * candidate and keeps its dictionary in module state, where this one looks up at most MAX_WORD
 * substrings a letter. The dictionary (about 20 MB of heap, 0.1 s) is loaded the first time a text
 * needs it.
 */
import { createRequire } from 'node:module';

/** Longest word tried: longer dictionary entries are compounds and junk. */
const MAX_WORD = 20;
/** Longest run split at once; a longer one is split in pieces this long. */
const MAX_RUN = 256;

let costs: Map<string, number> | undefined;

function dictionary(): Map<string, number> {
  if (costs) return costs;
  const words = createRequire(import.meta.url)('wordsninja/words-en.json') as string[];
  const lnN = Math.log(words.length);
  costs = new Map();
  words.forEach((w, rank) => {
    if (w.length <= MAX_WORD && !costs!.has(w)) costs!.set(w, Math.log((rank + 1) * lnN));
  });
  return costs;
}

/** Cost of a piece that is no word: dearer than any split into words. */
const NOT_A_WORD = 1e6;

/**
 * The start of every word but the first in `letters` (lower-case a to z), at most MAX_RUN long:
 * [] when the run reads best as one word.
 */
function splitPiece(letters: string, dict: Map<string, number>): number[] {
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
  return starts.reverse();
}

/** The start of every word but the first in `letters` (lower-case a to z). */
export function wordStarts(letters: string): number[] {
  const dict = dictionary();
  const starts: number[] = [];
  for (let at = 0; at < letters.length; at += MAX_RUN) {
    if (at) starts.push(at);
    for (const s of splitPiece(letters.slice(at, at + MAX_RUN), dict)) starts.push(at + s);
  }
  return starts;
}

/** Runs of letters this long or longer are glued words: longer than nearly every English word. */
export const GLUED_RUN = 16;
/** Letters read for their words in one text at most: the rest is left as it is. */
const MAX_SPELLED = 4_096;
const GLUED = new RegExp(`[a-z]{${GLUED_RUN},}`, 'g');

/**
 * `text` (lower-case) with spaces put between the words glued in its runs of GLUED_RUN letters or
 * more ("pleaseignoretheabove" is "please ignore the above"); undefined when it has none or they
 * read best as they are.
 */
export function unglued(text: string): string | undefined {
  let out = '';
  let copied = 0;
  let spelled = 0;
  GLUED.lastIndex = 0;
  for (let m = GLUED.exec(text); m && spelled < MAX_SPELLED; m = GLUED.exec(text)) {
    const run = m[0];
    spelled += run.length;
    const starts = wordStarts(run);
    if (!starts.length) continue;
    out += text.slice(copied, m.index);
    let from = 0;
    for (const to of [...starts, run.length]) {
      out += (from ? ' ' : '') + run.slice(from, to);
      from = to;
    }
    copied = m.index + run.length;
  }
  return copied ? out + text.slice(copied) : undefined;
}
