import { sourceOf, type InjectionRow } from './eval-data';
import { rng } from './rng';

/**
 * Attacks inside longer data, the way indirect injections reach an agent: documents made of one pool
 * source's benign texts, with an attack put at a random place among them. The eval and the LOSO lab
 * build them the same way, and train no model on the carrier source, so the surroundings are unseen.
 */

/** The pool source whose benign texts make the documents: agent conversations with tool calls. */
export const DOCUMENT_CARRIER = 'sierra-research/tau-bench';
/** Length of a document in characters (two of the model's windows). */
export const DOCUMENT_CHARS = 4000;

/** Benign texts of `source` short enough to be one part among several of a document. */
export function carrierTexts(pool: InjectionRow[], source = DOCUMENT_CARRIER): string[] {
  const texts = pool
    .filter((r) => sourceOf(r) === source && r.label === 'benign' && r.text.length < 1500)
    .map((r) => r.text);
  if (!texts.length) throw new Error(`document carrier ${source}: the pool has no short benign texts of it`);
  return texts;
}

/**
 * A seeded maker of documents: carrier texts drawn at random until about `chars` characters, joined
 * by blank lines, with `attack` (when given) at a random place among them.
 */
export function documentMaker(carriers: string[], chars = DOCUMENT_CHARS, seed = 11) {
  const rand = rng(seed);
  return (attack?: string): string => {
    const parts: string[] = [];
    for (let len = 0; len < chars;) {
      const t = carriers[Math.floor(rand() * carriers.length)]!;
      parts.push(t);
      len += t.length + 2;
    }
    if (attack !== undefined) parts.splice(Math.floor(rand() * (parts.length + 1)), 0, attack);
    return parts.join('\n\n');
  };
}
