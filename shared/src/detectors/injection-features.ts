/**
 * Hashed features for the injection model: word unigrams and bigrams, character 4-grams of long
 * ASCII words, single CJK characters and their bigrams, "shapes" of punctuation-heavy tokens
 * (adversarial suffixes such as `({[HTMLsvg`), and the concepts of injection-concepts.ts (one per
 * word of any listed language that names one, and one per pair of concepts a few words apart).
 * Shared verbatim by training (bench/train-injection-model.ts) and inference.
 */
import { CONCEPT_LEXICON } from './injection-concepts';

export const FEATURE_BITS = 17;
const MASK = (1 << FEATURE_BITS) - 1;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ b;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function isWordChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 48 && c <= 57) ||
    (c >= 0xc0 &&
      c < 0x2e80 &&
      c !== 0x2019 &&
      c !== 0x201c &&
      c !== 0x201d &&
      !(c >= 0x2000 && c <= 0x206f)) ||
    (c >= 0xac00 && c <= 0xd7a3) // Hangul syllables: Korean is written in space-separated words
  );
}

function isCjk(c: number): boolean {
  return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff);
}

/** ASCII punctuation and symbols: ! to /, : to @, [ to `, { to ~. */
export function isPunct(c: number): boolean {
  return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
}

/** A word's hash with character `c` appended (FNV-1a over UTF-16 units). */
const hashStep = (h: number, c: number) => Math.imul(h ^ c, FNV_PRIME) >>> 0;
const cjkHash = (c: number) => hashStep(FNV_OFFSET, c);

/** How the model reads a character (charClass): it ends a token, makes a word, or stands alone. */
const SPACE = 1;
const WORD = 2;
const PUNCT = 3;
const CJK = 4;
/** charClass of every ASCII character, looked up: most characters of most texts are ASCII. */
const ASCII_CLASS = Uint8Array.from({ length: 128 }, (_, c) =>
  c === 32 || c === 10 || c === 9 || c === 13 ? SPACE : isWordChar(c) ? WORD : isPunct(c) ? PUNCT : 0,
);

/**
 * SPACE (ends a token), WORD (part of a word), CJK (a word of its own), PUNCT (ASCII punctuation,
 * part of a token's shape) or 0. The one reading of characters the features and strongestTerms
 * share: a term a finding names is a feature the model scored.
 */
function charClass(c: number): number {
  if (c < 128) return ASCII_CLASS[c]!;
  if (c >= 0x3040 && isCjk(c)) return CJK;
  return isWordChar(c) ? WORD : 0;
}

// ── concepts ───────────────────────────────────────────────────────────────────────────────────
/** Flag on a lexicon value: the entry is a stem, matched by any word that starts with it. */
const STEM = 0x80;
/** Word (or CJK pair) hash → concept number | STEM. A first entry wins over a later one of the same form. */
const LEXICON = new Map<number, number>();
/** One byte per low 16 bits of a lexicon hash: most words are ruled out without a map lookup. */
const LEXICON_FILTER = new Uint8Array(1 << 16);
/** Concepts this close (in words, or CJK characters) make a pair feature. */
const PAIR_DISTANCE = 6;

function lexiconHash(form: string): number {
  const words = form.split('_');
  if (words.length === 2) return mix(lexiconHash(words[0]!), lexiconHash(words[1]!));
  const codes = [...form].map((ch) => ch.charCodeAt(0));
  if (codes.length === 2 && codes.every(isCjk)) return mix(cjkHash(codes[0]!), cjkHash(codes[1]!));
  let h = FNV_OFFSET;
  for (const c of codes) {
    if (!isWordChar(c) || c > 0xffff) throw new Error(`concept lexicon: '${form}' is not one word or two`);
    h = hashStep(h, c);
  }
  return h;
}

Object.values(CONCEPT_LEXICON).forEach((byLanguage, k) => {
  for (const forms of Object.values(byLanguage))
    for (const entry of forms.split(/\s+/)) {
      const stem = entry.endsWith('*');
      const form = entry.replace('*', '').normalize('NFKC').toLowerCase();
      if (stem && form.length < 2) throw new Error(`concept lexicon: stem '${form}' is too short`);
      if (stem && form.includes('_')) throw new Error(`concept lexicon: '${form}' is two words and a stem`);
      const h = lexiconHash(form);
      if (LEXICON.has(h)) continue;
      LEXICON.set(h, (k + 1) | (stem ? STEM : 0));
      LEXICON_FILTER[h & 0xffff] = 1;
    }
});

/**
 * Arabic writes "and" (و) and "so/then" (ف) as a prefix of the next word: "واطبع" is "and print".
 * A word that starts with one and names no concept whole is looked up again without it, so the
 * lexicon lists each word once.
 */
const isArabicClitic = (c: number) => c === 0x648 || c === 0x641;

/** The concept a word (hash of the whole word) or CJK pair names, or 0. */
function conceptOf(h: number, stemOnly: boolean): number {
  if (!LEXICON_FILTER[h & 0xffff]) return 0;
  const v = LEXICON.get(h);
  if (v === undefined || (stemOnly && !(v & STEM))) return 0;
  return v & ~STEM;
}

// Dedup scratch shared by every scan (one bit per bucket, cleared after each): no Set, no allocation.
const MARK = new Uint8Array(1 << FEATURE_BITS);
let found = new Uint32Array(1024);

/** Records bucket `h` at found[n] unless already seen; returns the new count. */
function addBucket(h: number, n: number): number {
  const k = h & MASK;
  if (MARK[k]) return n;
  MARK[k] = 1;
  if (n === found.length) {
    const next = new Uint32Array(n * 2);
    next.set(found);
    found = next;
  }
  found[n] = k;
  return n + 1;
}

// The two most recent concepts of the scan in progress and the token counts they were seen at.
let lastConcept = 0;
let lastAt = 0;
let priorConcept = 0;
let priorAt = 0;

/** The concepts the latest scan met: bit c - 1 for concept c (there are fewer than 32). */
let conceptMask = 0;

/** Hash of concept `c`'s feature. */
const conceptHash = (c: number) => mix(0xc0c0, c);
/** Hash of the feature of concepts `a` and `b` near each other (either order). */
const conceptPairHash = (a: number, b: number) => mix(0xc0c1, Math.min(a, b) * 256 + Math.max(a, b));

/** Adds concept `c`, seen at token `at`, and its pairs with the recent concepts near it. */
function addConcept(c: number, at: number, n: number): number {
  conceptMask |= 1 << (c - 1);
  n = addBucket(conceptHash(c), n);
  if (c === lastConcept) {
    lastAt = at;
    return n;
  }
  if (lastConcept && at - lastAt <= PAIR_DISTANCE) n = addBucket(conceptPairHash(c, lastConcept), n);
  if (priorConcept && priorConcept !== c && at - priorAt <= PAIR_DISTANCE)
    n = addBucket(conceptPairHash(c, priorConcept), n);
  priorConcept = lastConcept;
  priorAt = lastAt;
  lastConcept = c;
  lastAt = at;
  return n;
}

/**
 * Every bucket a concept feature or a concept-pair feature can take. Training regularises these
 * apart from the word, 4-gram and shape buckets (bench/support/injection-training.ts); a word
 * bucket that shares one by collision is treated as a concept.
 */
export function conceptBuckets(): Set<number> {
  const out = new Set<number>();
  const count = CONCEPT_NAMES.length;
  for (let c = 1; c <= count; c++) {
    out.add(conceptHash(c) & MASK);
    for (let d = c + 1; d <= count; d++) out.add(conceptPairHash(c, d) & MASK);
  }
  return out;
}

/**
 * Character 4-grams of long ASCII words: a word of GRAM_FROM or more letters adds the 4-grams that
 * end at its GRAM_FROM-th letter and after, and its last three letters with the word's end. A
 * misspelt or inflected word ("iunstructions", "overriding") still shares some of them with the word
 * the model learned. Four 7-bit characters pack into one number.
 */
const GRAM_FROM = 6;
const GRAM_SEED = 0x4747;
const GRAM_END = 2;

/**
 * Collects the feature buckets of text[start, end) into found[0, n) and returns n; clearMarks(n)
 * must follow. One pass over every character of every scanned field, so its state is plain locals
 * (no closures): a word ends at any character that is not a word character, a token at whitespace,
 * and the end of the text counts as whitespace.
 */
function scanFeatures(text: string, start: number, end: number): number {
  let n = 0;
  let prevWord = 0;
  let prevCjk = 0;
  let wordHash = FNV_OFFSET;
  let inWord = false;
  // Shape of the current whitespace-delimited token: letters → a, digits → 9, punctuation kept.
  let shape = FNV_OFFSET;
  let shapeLen = 0;
  let punct = 0;
  let lastClass = -1;
  let wordLen = 0;
  let wordConcept = 0;
  // The word without a leading Arabic clitic (0: it has none), and the concept that names.
  let bareHash = 0;
  let bareConcept = 0;
  let tokens = 0;
  // The word's last four characters, 7 bits each, and how many of the latest are ASCII.
  let gram = 0;
  let asciiRun = 0;
  lastConcept = priorConcept = conceptMask = 0;
  for (let i = start; i <= end; i++) {
    const c = i < end ? text.charCodeAt(i) : 32;
    // charClass, its ASCII lookup inlined: 0.85-0.91 of the scan's time in isolation.
    const kind = c < 128 ? ASCII_CLASS[c]! : charClass(c);
    const space = kind === SPACE;
    const cjk = kind === CJK;
    const word = kind === WORD;
    if (!word && inWord) {
      if (wordLen >= GRAM_FROM && asciiRun >= 3)
        n = addBucket(mix(GRAM_SEED, ((gram << 7) | GRAM_END) & 0xfffffff), n);
      n = addBucket(wordHash, n);
      const bigram = prevWord ? mix(prevWord, wordHash) : 0;
      if (bigram) n = addBucket(bigram, n);
      tokens++;
      if (!wordConcept) wordConcept = conceptOf(wordHash, false);
      if (!wordConcept && bareHash) wordConcept = bareConcept || conceptOf(bareHash, false);
      if (!wordConcept && bigram) wordConcept = conceptOf(bigram, false);
      if (wordConcept) n = addConcept(wordConcept, tokens, n);
      prevWord = wordHash;
      wordHash = FNV_OFFSET;
      inWord = false;
      wordLen = 0;
      wordConcept = 0;
      bareHash = bareConcept = 0;
    }
    if (space) {
      if (punct >= 2 && shapeLen >= 3) n = addBucket(mix(0x5a5a, shape), n);
      shape = FNV_OFFSET;
      shapeLen = 0;
      punct = 0;
      lastClass = -1;
      continue;
    }
    if (cjk) {
      const h = cjkHash(c);
      n = addBucket(h, n);
      tokens++;
      if (prevCjk) {
        const pair = mix(prevCjk, h);
        n = addBucket(pair, n);
        const concept = conceptOf(pair, false);
        if (concept) n = addConcept(concept, tokens, n);
      }
      prevCjk = h;
      continue;
    }
    prevCjk = 0;
    let cls: number;
    if (word) {
      if (bareHash) {
        bareHash = hashStep(bareHash, c);
        if (wordLen >= 2 && !bareConcept) bareConcept = conceptOf(bareHash, true);
      } else if (wordLen === 0 && isArabicClitic(c)) bareHash = FNV_OFFSET;
      wordHash = hashStep(wordHash, c);
      inWord = true;
      if (c < 128) {
        gram = ((gram << 7) | c) & 0xfffffff;
        asciiRun = wordLen === 0 ? 1 : asciiRun + 1;
      } else asciiRun = 0;
      if (wordLen + 1 >= GRAM_FROM && asciiRun >= 4) n = addBucket(mix(GRAM_SEED, gram), n);
      if (++wordLen >= 2 && !wordConcept) wordConcept = conceptOf(wordHash, true);
      cls = c >= 48 && c <= 57 ? 57 : 97;
    } else {
      cls = c;
      if (kind === PUNCT) punct++;
    }
    if (cls !== lastClass && shapeLen < 8) {
      shape = hashStep(shape, cls);
      shapeLen++;
      lastClass = cls;
    }
  }
  return n;
}

function clearMarks(n: number): void {
  for (let k = 0; k < n; k++) MARK[found[k]!] = 0;
}

const CONCEPT_NAMES = Object.keys(CONCEPT_LEXICON);
if (CONCEPT_NAMES.length > 31) throw new Error('concept lexicon: more concepts than a mask holds');

/** The names of the concepts in a mask (scoreWindow's `concepts`), in the lexicon's order. */
export const conceptNames = (mask: number): string[] => CONCEPT_NAMES.filter((_, k) => mask & (1 << k));

/**
 * The concepts (injection-concepts.ts) the model reads in text[start, end) of a model-readable text,
 * in the lexicon's order.
 */
export function conceptsIn(text: string, start = 0, end = text.length): string[] {
  clearMarks(scanFeatures(text, start, end));
  return conceptNames(conceptMask);
}

// Runs of the base64/hex/percent alphabet: encoded data, whose decoded text the model reads in its
// own view. Left in, their punctuation shapes look like adversarial suffixes.
const OPAQUE_MIN = 32;
const isOpaqueChar = (c: number) =>
  (c >= 97 && c <= 122) ||
  (c >= 48 && c <= 57) ||
  c === 43 ||
  c === 47 ||
  c === 61 ||
  c === 95 ||
  c === 37 ||
  c === 45;

/**
 * The text as the model reads it (training and inference alike): lower-cased normalised text with
 * opaque encoded runs (32+ characters of the base64/hex/percent alphabet) blanked, same length so
 * window offsets stay raw-mappable. It runs on every field, so it reads few characters: a run of
 * OPAQUE_MIN covers one of the positions OPAQUE_MIN - 1, 2 * OPAQUE_MIN - 1, …, so only those are
 * tested, and a run is measured outwards from one that is opaque.
 */
export function modelReadable(text: string): string {
  const n = text.length;
  let out: string | undefined;
  let copied = 0;
  let i = OPAQUE_MIN - 1;
  while (i < n) {
    if (!isOpaqueChar(text.charCodeAt(i))) {
      i += OPAQUE_MIN;
      continue;
    }
    let start = i;
    while (start > 0 && isOpaqueChar(text.charCodeAt(start - 1))) start--;
    let end = i + 1;
    while (end < n && isOpaqueChar(text.charCodeAt(end))) end++;
    if (end - start >= OPAQUE_MIN) {
      out = (out ?? '') + text.slice(copied, start) + ' '.repeat(end - start);
      copied = end;
    }
    // The next run starts after `end`: its first grid position is past it.
    i = end + OPAQUE_MIN - 1 - (end % OPAQUE_MIN);
  }
  return out === undefined ? text : out + text.slice(copied);
}

/** Feature bucket indices of a lower-cased text (duplicates removed). Linear in the text length. */
export function featureIndices(text: string): Uint32Array {
  const n = scanFeatures(text, 0, text.length);
  const out = found.slice(0, n);
  clearMarks(n);
  return out;
}

/**
 * The model's probability for text[start, end) without copying the window or its features, and the
 * concepts it read there (a mask for conceptNames: a finding's explanation needs no second scan).
 */
export function scoreWindow(
  model: LinearModel,
  text: string,
  start: number,
  end: number,
): { probability: number; concepts: number } {
  const n = scanFeatures(text, start, end);
  const probability = scoreFeatures(model, found.subarray(0, n));
  clearMarks(n);
  return { probability, concepts: conceptMask };
}

/** Splits long text into windows of at most `max` characters, cut at sentence or line ends. */
export function modelWindows(text: string, max = 2500): Array<[number, number]> {
  if (text.length <= max) return [[0, text.length]];
  const out: Array<[number, number]> = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + max);
    if (end < text.length) {
      const floor = start + Math.floor(max / 2);
      for (let k = end; k > floor; k--) {
        const c = text.charCodeAt(k - 1);
        // A line break, '.', '!', '?' or '。'.
        if (c === 10 || c === 46 || c === 33 || c === 63 || c === 0x3002) {
          end = k;
          break;
        }
      }
    }
    out.push([start, end]);
    start = end;
  }
  return out;
}

/**
 * Features are L2-normalised as if a window had at least this many: a verdict from a handful of
 * words ("what are your hours?") stays near the prior instead of resting on one or two weights.
 */
export const MIN_NORM_FEATURES = 24;

export interface LinearModel {
  bits: number;
  bias: number;
  weights: Float32Array;
}

/** Logistic score of one window: features are binary and L2-normalised (so length matters less). */
export function scoreFeatures(model: LinearModel, idx: Uint32Array): number {
  if (idx.length === 0) return 1 / (1 + Math.exp(-model.bias));
  let s = 0;
  for (let k = 0; k < idx.length; k++) s += model.weights[idx[k]!] ?? 0;
  const z = model.bias + s / Math.sqrt(Math.max(MIN_NORM_FEATURES, idx.length));
  return 1 / (1 + Math.exp(-z));
}

/**
 * The words and word pairs of text[start, end) (lower-cased, as scored) whose own weights push
 * `model` toward its positive class most, strongest first: what a finding names as the model's
 * reason. Hashed as scanFeatures hashes them, so a pair also spans the punctuation between its words.
 */
export function strongestTerms(
  model: LinearModel,
  text: string,
  start: number,
  end: number,
  k = 3,
): string[] {
  const weight = new Map<string, number>();
  let prev: { word: string; hash: number } | undefined;
  let from = -1;
  let hash = FNV_OFFSET;
  for (let i = start; i <= end; i++) {
    const c = i < end ? text.charCodeAt(i) : 32;
    if (charClass(c) === WORD) {
      if (from < 0) from = i;
      hash = hashStep(hash, c);
      continue;
    }
    if (from < 0) continue;
    const w = text.slice(from, i);
    weight.set(w, model.weights[hash & MASK] ?? 0);
    if (prev) weight.set(`${prev.word} ${w}`, model.weights[mix(prev.hash, hash) & MASK] ?? 0);
    prev = { word: w, hash };
    from = -1;
    hash = FNV_OFFSET;
  }
  // A word of three letters or fewer ("my", "i", "0") names nothing alone; in a pair it may.
  return [...weight]
    .filter(([t, v]) => v > 0 && (t.includes(' ') ? t.length >= 6 : t.length >= 4))
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([t]) => t);
}
