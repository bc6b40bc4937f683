import RE2 from 're2';
import { findNamesAndAddresses } from './pii-names';
import { RECOGNISERS, type TextFacts } from './pii-recognisers';
import { textShape } from './text-shape';
import { eachMatch, utf8Of, type Utf8Text } from './utf8-text';

/** One PII value found in a raw text; `value` stays in memory only, findings carry it masked. */
export interface PiiMatch {
  entityType: string;
  ruleId: string;
  start: number;
  end: number;
  confidence: number;
  value: string;
  /** Passed a checksum or library validation (not just a format). */
  validated: boolean;
}

/** Matches below this confidence are dropped (format-only guesses without context). */
export const PII_MIN_CONFIDENCE = 0.4;

/** The recognisers' patterns, in their order: V8's where the pattern is linear there, RE2's elsewhere. */
const PATTERNS = RECOGNISERS.map((r) => (r.linear ? new RegExp(r.pattern, 'g') : new RE2(r.pattern, 'gu')));

/** Calls `fn` with every match of recogniser `k`'s pattern in `raw`, left to right. */
function eachPatternMatch(k: number, raw: string, fn: (m: RegExpExecArray) => void): void {
  const re = PATTERNS[k]!;
  if (re instanceof RE2) return eachMatch(re, utf8Of(raw), fn);
  re.lastIndex = 0;
  for (let m = re.exec(raw); m; m = re.exec(raw)) {
    if (m[0] === '') re.lastIndex++;
    fn(m);
  }
}

let patternSet: InstanceType<typeof RE2.Set> | null | undefined;

/**
 * Which recognisers' patterns match somewhere in `t` (by index), from one RE2.Set pass (each
 * pattern alone is a full pass too: on 1 MB that is ~2 ms apiece). Undefined when the set is
 * unavailable or gives up (DFA memory), in which case every gated pattern runs.
 */
function matchingPatterns(t: Utf8Text): boolean[] | undefined {
  if (patternSet === undefined) {
    try {
      patternSet = new RE2.Set(
        RECOGNISERS.map((r) => r.pattern),
        'u',
      );
    } catch {
      patternSet = null;
    }
  }
  if (!patternSet) return undefined;
  try {
    const can = new Array<boolean>(PATTERNS.length).fill(false);
    for (const k of patternSet.match(t.bytes)) can[k] = true;
    return can;
  } catch {
    return undefined;
  }
}

const NONE: readonly PiiMatch[] = [];

/** Every recogniser whose gate lets it run, in order, over every match of its pattern. */
function findStructured(raw: string): PiiMatch[] {
  const out: PiiMatch[] = [];
  const shape = textShape(raw);
  const facts: TextFacts = { raw, shape, hasAt: raw.includes('@') };
  // One set pass, asked once the first gate opens, decides which of the gated pattern scans can
  // find anything at all (without digits or an '@' only an IPv6 scan can, and it runs alone).
  // utf8Of converts the text on the first call only (most texts run no pattern at all).
  let asked = false;
  let can: boolean[] | undefined;
  for (let k = 0; k < RECOGNISERS.length; k++) {
    const r = RECOGNISERS[k]!;
    if (!r.gate(facts)) continue;
    if (!asked) {
      asked = true;
      if (shape.digits > 0 || facts.hasAt) can = matchingPatterns(utf8Of(raw));
    }
    if (can && !can[k]) continue;
    const ceiling = r.ceiling;
    const surer =
      ceiling === undefined
        ? NONE
        : resolveOverlaps(
            out.filter((o) => o.confidence > ceiling),
            raw.length,
          );
    eachPatternMatch(k, raw, (m) => {
      const found = r.recognise(m, raw, surer);
      if (found === undefined || found.confidence < PII_MIN_CONFIDENCE) return;
      const start = found.start ?? m.index;
      const end = found.end ?? m.index + m[0].length;
      out.push({
        entityType: found.entityType ?? r.entityType,
        ruleId: found.ruleId ?? r.ruleId,
        start,
        end,
        confidence: found.confidence,
        validated: found.validated,
        value: raw.slice(start, end),
      });
    });
  }
  return out;
}

/** Overlaps keep the most confident match (a card number is not also a phone number). */
function resolveOverlaps(matches: PiiMatch[], length: number): PiiMatch[] {
  if (matches.length < 2) return matches;
  const sorted = [...matches].sort(
    (a, b) => b.confidence - a.confidence || b.end - b.start - (a.end - a.start),
  );
  // Characters already covered by a kept match: linear in the matched characters, where comparing
  // every match with every kept one took minutes on a 1 MB field of 40,000 e-mail addresses.
  const taken = new Uint8Array(length);
  const kept: PiiMatch[] = [];
  next: for (const m of sorted) {
    for (let i = m.start; i < m.end; i++) if (taken[i]) continue next;
    taken.fill(1, m.start, m.end);
    kept.push(m);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** All PII in a raw text, validated where a checksum or library exists, overlaps resolved. */
export function findPii(raw: string): PiiMatch[] {
  const structured = findStructured(raw);
  const names = findNamesAndAddresses(raw).filter((n) => n.confidence >= PII_MIN_CONFIDENCE);
  return resolveOverlaps([...structured, ...names], raw.length);
}
