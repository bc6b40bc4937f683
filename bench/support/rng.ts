/** Seeded PRNG (mulberry32): the benches' and generators' only source of randomness, so runs repeat. */
export function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rand = () => number;

/** A uniformly drawn element of a non-empty list. */
export const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** True with probability p. */
export const chance = (r: Rand, p: number): boolean => r() < p;

/** A uniformly drawn integer from lo to hi, both included. */
export const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

/** A template slot: its name and the values one is drawn from (or a function that draws one). */
export type Slot = readonly [name: string, values: readonly string[] | ((r: Rand) => string)];

/**
 * `t` with every `{name}` of each slot replaced by one value drawn for that slot. Every slot is
 * drawn, in order, whether or not `t` names it, so the draws that follow do not depend on the template.
 */
export function fillEach(r: Rand, t: string, slots: readonly Slot[]): string {
  for (const [name, values] of slots)
    t = t.replaceAll(`{${name}}`, typeof values === 'function' ? values(r) : pick(r, values));
  return t;
}

/** `k` distinct elements of `xs` (k ≤ its length), in the order drawn: the first k steps of a Fisher–Yates shuffle. */
export function sample<T>(r: Rand, xs: readonly T[], k: number): T[] {
  const a = [...xs];
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(r() * (a.length - i));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a.slice(0, k);
}
