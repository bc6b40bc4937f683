/**
 * Misspelt key words, read as meant. Attackers misspell the words filters look for ("ignore your
 * previous instrcutions", "disregrad the guidlines") and a model follows the instruction all the
 * same; a pattern or a hashed word does not. A word one edit (a deletion, insertion, substitution or
 * swap of neighbours) away from a word the English rules key on is read as that word, unless it is
 * an English word itself ("forged" is not "forget").
 *
 * Every string one edit from a lexicon word is computed once, so a word of the text costs one
 * lookup.
 */

/** Words the English rules key on, six letters or more (shorter ones have too many neighbours). */
export const LEXICON: readonly string[] = [
  // override verbs
  'ignore',
  'ignoring',
  'disregard',
  'forget',
  'override',
  'overlook',
  'neglect',
  'bypass',
  'abandon',
  'discard',
  // what is overridden
  'instruction',
  'instructions',
  'directions',
  'directive',
  'directives',
  'guidelines',
  'commands',
  'constraints',
  'restrictions',
  'programming',
  'guardrails',
  'policies',
  'safeguards',
  'training',
  'previous',
  'previously',
  'preceding',
  'earlier',
  'initial',
  'original',
  'system',
  'developer',
  'everything',
  // extraction
  'prompt',
  'reveal',
  'display',
  'repeat',
  'confidential',
  'hidden',
  'secret',
  'verbatim',
  'password',
  // personas and jailbreaks
  'pretend',
  'unrestricted',
  'unfiltered',
  'uncensored',
  'unlimited',
  'jailbreak',
  'jailbroken',
  'anything',
  'ethics',
  'ethical',
  'morals',
  'filters',
  'content',
  'policy',
  'disclaimers',
  'warnings',
  'refuse',
  'assistant',
  // indirect injection
  'attention',
  'important',
  'message',
  'forward',
  'credentials',
  'transfer',
  'without',
  'telling',
];

/**
 * English words one edit from a lexicon word, never respelt: found with
 * `npx tsx bench/spelling-neighbours.ts` in a large American English word list (Debian's
 * wamerican-large) and kept here, so the detector needs no dictionary at run time.
 */
export const NEIGHBOURS: readonly string[] = (
  'abaddon abandons anythings assistants attentions belling bidden braining bypast chidden ' +
  'command commando commandos commends concent consent constrains constraint contend contents ' +
  'contest context convent corals credential darnings defuse developed developers direction ' +
  'discards disclaimer discord displays disregards draining earnings ethic ethnics falters ' +
  'felling filers fillers filter fitters forgat forge forged forger forges forgets forgot ' +
  'forwards froward gelling gorals gorget guardrail guideline hodden ignored ignorer ignores ' +
  'initials jailbreaks jelling massage messaged messages messuage midden misplay modals moral ' +
  'morale morales morass morays morels mortals murals neglects orals originals overbook ' +
  'overcook overlooks overrides overripe overrode overside overtook passwords pearlier pervious ' +
  'perviously police polices polities polity prebend precious preciously prepend pretends ' +
  'programing programmings prompts raining receding recuse refuge refused refuses refute reheat ' +
  'repeats repent reseal reseat restriction retuse reuse reval reveals revel ridden safeguard ' +
  'secrete secrets selling signore straining systems tilling tolling trailing trainings ' +
  'transfers uncensured warning welling yelling'
).split(' ');

const lexicon = new Set(LEXICON);
const neighbours = new Set(NEIGHBOURS);

const MIN = Math.min(...LEXICON.map((w) => w.length)) - 1;
const MAX = Math.max(...LEXICON.map((w) => w.length)) + 1;
const key3 = (t: string, at: number) =>
  (t.charCodeAt(at) << 16) | (t.charCodeAt(at + 1) << 8) | t.charCodeAt(at + 2);
/**
 * One edit to a word of six letters or more keeps its first three letters or its last three (but a
 * swap of a six-letter word's middle two, which is not looked for).
 */
const prefixes = new Set(LEXICON.map((w) => key3(w, 0)));
const suffixes = new Set(LEXICON.map((w) => key3(w, w.length - 3)));
/** `t[start, end)` begins with a lexicon word's first three letters or ends with one's last three. */
const keepsEnds = (t: string, start: number, end: number) =>
  prefixes.has(key3(t, start)) || suffixes.has(key3(t, end - 3));
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Every string of lower-case letters one edit from `word`: a letter dropped, added or changed, two neighbours swapped. */
function edits(word: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i);
    for (const c of LETTERS) out.add(head + c + word.slice(i));
    if (i === word.length) break;
    const tail = word.slice(i + 1);
    out.add(head + tail);
    for (const c of LETTERS) out.add(head + c + tail);
    if (i + 1 < word.length) out.add(head + word[i + 1] + word[i] + word.slice(i + 2));
  }
  out.delete(word);
  return out;
}

/**
 * Every string one edit from a lexicon word (that is not one itself and keeps a lexicon word's first
 * or last three letters) → the lexicon word, or '' where it is one edit from two ("ethica": "ethics"
 * and "ethical"; left alone). 30,927 strings, built once: a word of the text then costs one
 * lookup instead of its deletes and theirs (14% of the detector's time a bench record before).
 */
const near = new Map<string, string>();
for (const word of LEXICON)
  for (const e of edits(word)) {
    if (lexicon.has(e) || !keepsEnds(e, 0, e.length)) continue;
    const seen = near.get(e);
    near.set(e, seen === undefined || seen === word ? word : '');
  }

/**
 * The one lexicon word `word` (lower-case ASCII letters) is a misspelling of, if any. `exceptions`
 * are the English words left alone (the list above; none, to find them).
 */
export function respelling(word: string, exceptions: ReadonlySet<string> = neighbours): string | undefined {
  if (word.length < MIN || word.length > MAX || exceptions.has(word)) return undefined;
  return near.get(word) || undefined;
}

const isLetter = (c: number) => c >= 97 && c <= 122;
/** A run of letters beside a digit, `@` or `$` is leetspeak, which the leet view reads. */
const glued = (c: number) => isLetter(c) || (c >= 48 && c <= 57) || c === 64 || c === 36;

/**
 * English function words, few of them words of the other languages Warden reads: the lexicon is
 * English, and "ignorez" or "importante" next to French or Spanish words are words, not typos.
 */
const ENGLISH =
  /(?:^|[^a-z])(?:the|you|your|and|all|this|that|with|please|any|from|what|are|was|will)(?![a-z])/;
/** How far either side of a misspelt word to look for English. */
const CONTEXT = 60;

/**
 * Runs of letters a caller wants besides the misspellings: those as long as a lexicon word whose
 * first three steps along the alphabet (each 0–25, as `first`'s index step1 × 676 + step2 × 26 +
 * step3) are marked in `first`, pushed to `out` as [start, end].
 */
export interface ShapedRuns {
  first: Uint8Array;
  out: Array<[number, number]>;
}
/** The steps of a lower-case run's first four letters as one index (ShapedRuns). */
export function firstSteps(t: string, at: number): number {
  const b = t.charCodeAt(at + 1);
  const c = t.charCodeAt(at + 2);
  return (
    ((b - t.charCodeAt(at) + 26) % 26) * 676 +
    ((c - b + 26) % 26) * 26 +
    ((t.charCodeAt(at + 3) - c + 26) % 26)
  );
}

/**
 * Misspelt lexicon words in a lower-case text, among English words: [start, end, the word meant].
 * Runs of letters are read in place, and only one that keeps a lexicon word's first or last three
 * letters is copied out to be looked up: most words cost a few comparisons. `shaped` collects
 * the runs a cipher reader asks for (ShapedRuns), so it shares this pass.
 */
export function misspellings(text: string, shaped?: ShapedRuns): Array<[number, number, string]> {
  const out: Array<[number, number, string]> = [];
  const n = text.length;
  for (let i = 0; i < n;) {
    if (!isLetter(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < n && isLetter(text.charCodeAt(i))) i++;
    if (i - start < MIN || i - start > MAX) continue;
    if (shaped && i - start > MIN && i - start < MAX && shaped.first[firstSteps(text, start)])
      shaped.out.push([start, i]);
    if ((start > 0 && glued(text.charCodeAt(start - 1))) || (i < n && glued(text.charCodeAt(i)))) continue;
    if (!keepsEnds(text, start, i)) continue;
    const fixed = respelling(text.slice(start, i));
    if (fixed && ENGLISH.test(text.slice(Math.max(0, start - CONTEXT), i + CONTEXT)))
      out.push([start, i, fixed]);
  }
  return out;
}
