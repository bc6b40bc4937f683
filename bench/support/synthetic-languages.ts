/**
 * Generated attacks and benign texts in 30 languages besides English, composed from the standalone
 * sentences of multilingual-phrases.ts: overrides, attackers' goals, jailbreak personas and
 * sentences addressed to an AI reading a document, against ordinary requests, office sentences full
 * of innocent overrides ("ignore my previous email"), sentences about AI and neutral document lines
 * of the same languages. Every language gets as many benign texts as attacks, so the language
 * itself says nothing about the label. Seeded; nothing taken from the pool. Not in the shipped
 * training: measured and not kept (docs/detection-experiments.md, the second section of 2026-12-02);
 * `LAB_LANGUAGES=3000 npx tsx bench/loso-lab.ts` trains every fold with it.
 */
import { MULTILINGUAL_PHRASES, type LanguagePhrases } from './multilingual-phrases';
import { chance, int, pick, sample, type Rand } from './rng';

const LANGUAGES = Object.keys(MULTILINGUAL_PHRASES);
/** Languages whose sentences follow each other without a space. */
const UNSPACED = new Set(['zh', 'ja']);

/** An English business text (email, ticket, JSON record, …) with `slot` placed among its sentences. */
type Carrier = (r: Rand, slot: string) => string;

const join = (lang: string, parts: string[]) => parts.join(UNSPACED.has(lang) ? '' : ' ');

/** 2–5 ordinary sentences of a document or an email. */
const documentSentences = (r: Rand, p: LanguagePhrases) =>
  sample(r, [...p.benignOffice, ...p.benignDoc, ...p.benignAi], int(r, 2, 5));

/**
 * One attack in `lang`: an override then a goal (after an ordinary request a third of the time), a
 * persona then a goal, or an instruction addressed to the AI inside ordinary sentences of the same
 * language or, through `carrier`, inside an English business text (a mixed-language document).
 */
export function languageAttack(r: Rand, lang: string, carrier: Carrier): string {
  const p = MULTILINGUAL_PHRASES[lang]!;
  const goal = () => sample(r, p.goal, chance(r, 0.2) ? 2 : 1);
  const shape = r();
  if (shape < 0.35)
    return join(lang, [
      ...(chance(r, 0.33) ? [pick(r, p.benignRequest)] : []),
      pick(r, p.override),
      ...goal(),
    ]);
  if (shape < 0.55)
    return join(lang, [...(chance(r, 0.3) ? [pick(r, p.override)] : []), pick(r, p.persona), ...goal()]);
  const planted = join(lang, [
    pick(r, p.addressed),
    ...(chance(r, 0.5) ? [pick(r, p.override)] : []),
    ...goal(),
  ]);
  if (shape < 0.8) return carrier(r, planted);
  const body = documentSentences(r, p);
  body.splice(int(r, 0, body.length), 0, planted);
  return join(lang, body);
}

/**
 * One benign text in `lang` of the attacks' surfaces: requests, talk about AI (some quoting an
 * attack), documents (some inside an English carrier).
 */
export function languageBenign(r: Rand, lang: string, carrier: Carrier): string {
  const p = MULTILINGUAL_PHRASES[lang]!;
  const shape = r();
  if (shape < 0.35) return join(lang, sample(r, p.benignRequest, chance(r, 0.3) ? 2 : 1));
  if (shape < 0.45)
    return join(lang, [pick(r, p.benignQuote), pick(r, chance(r, 0.5) ? p.benignAi : p.benignRequest)]);
  if (shape < 0.55)
    return join(
      lang,
      chance(r, 0.5) ? [pick(r, p.benignAi), pick(r, p.benignRequest)] : sample(r, p.benignAi, 2),
    );
  if (shape < 0.8) return carrier(r, join(lang, documentSentences(r, p).slice(0, 2)));
  return join(lang, documentSentences(r, p));
}

/** `n` attacks and `n` benign texts, the languages in turn. */
export function* languageRows(
  r: Rand,
  n: number,
  carrier: Carrier,
): Generator<{ text: string; label: 'injection' | 'benign' }> {
  for (let i = 0; i < n; i++) {
    const lang = LANGUAGES[i % LANGUAGES.length]!;
    yield { text: languageAttack(r, lang, carrier), label: 'injection' };
    yield { text: languageBenign(r, lang, carrier), label: 'benign' };
  }
}
