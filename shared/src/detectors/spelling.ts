/**
 * Misspelt key words, read as meant. Attackers misspell the words filters look for ("ignore your
 * previous instrcutions", "disregrad the guidlines") and a model follows the instruction all the
 * same; a pattern or a hashed word does not. A word one edit (a deletion, insertion, substitution or
 * swap of neighbours) away from a word the English rules key on is read as that word, unless it is
 * an English word itself ("forged" is not "forget").
 *
 * Symmetric deletes (every word and every word less one letter, both sides) find the candidates
 * without comparing each word with the lexicon; a three-letter prefix or suffix check in front keeps
 * the cost off the words that cannot be near any of them.
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

/** Every string `word` less one letter. */
function deletes(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/** A lexicon word less one letter → the lexicon words it comes from. */
const byDelete = new Map<string, string[]>();
for (const word of LEXICON)
  for (const d of new Set(deletes(word))) byDelete.set(d, [...(byDelete.get(d) ?? []), word]);

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

/** Two words of one length differ in one letter, or in two neighbours swapped. */
function oneChangeOrSwap(a: string, b: string): boolean {
  let first = -1;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    if (first < 0) first = i;
    else
      return i === first + 1 && a[first] === b[i] && a[i] === b[first] && a.slice(i + 1) === b.slice(i + 1);
  }
  return true;
}

/**
 * The one lexicon word `word` (lower-case ASCII letters) is a misspelling of, if any. `exceptions`
 * are the English words left alone (the list above; none, to find them).
 */
export function respelling(word: string, exceptions: ReadonlySet<string> = neighbours): string | undefined {
  if (word.length < MIN || word.length > MAX || lexicon.has(word) || exceptions.has(word)) return undefined;
  if (!prefixes.has(key3(word, 0)) && !suffixes.has(key3(word, word.length - 3))) return undefined;
  const found = new Set<string>();
  // A letter dropped: the word is a lexicon word less one letter.
  for (const w of byDelete.get(word) ?? []) found.add(w);
  for (const d of deletes(word)) {
    // A letter added: the word less one letter is a lexicon word.
    if (lexicon.has(d)) found.add(d);
    // A letter changed, or two neighbours swapped: both less one letter meet (as two edits may).
    for (const w of byDelete.get(d) ?? [])
      if (w.length === word.length && oneChangeOrSwap(word, w)) found.add(w);
  }
  // One edit from two lexicon words ("ethica": "ethics" and "ethical") is ambiguous: left alone.
  return found.size === 1 ? [...found][0] : undefined;
}

/** Runs of letters; one beside a digit, `@` or `$` is leetspeak, which the leet view reads. */
const WORD = /(?<![a-z0-9@$])[a-z]{5,}(?![a-z0-9@$])/g;

/**
 * English function words, few of them words of the other languages Warden reads: the lexicon is
 * English, and "ignorez" or "importante" next to French or Spanish words are words, not typos.
 */
const ENGLISH =
  /(?:^|[^a-z])(?:the|you|your|and|all|this|that|with|please|any|from|what|are|was|will)(?![a-z])/;
/** How far either side of a misspelt word to look for English. */
const CONTEXT = 60;

/** Misspelt lexicon words in a lower-case text, among English words: [start, end, the word meant]. */
export function misspellings(text: string): Array<[number, number, string]> {
  const out: Array<[number, number, string]> = [];
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m; m = WORD.exec(text)) {
    const fixed = respelling(m[0]);
    const end = m.index + m[0].length;
    if (fixed && ENGLISH.test(text.slice(Math.max(0, m.index - CONTEXT), end + CONTEXT)))
      out.push([m.index, end, fixed]);
  }
  return out;
}
