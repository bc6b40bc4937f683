/** The detectors' vocabulary: the schema's Finding, Severity and ThreatType, and how findings are scored. */
import { SEVERITIES, type Severity } from '../schemas/detection';

export { SEVERITIES };
export type { Finding, Severity, ThreatType } from '../schemas/detection';

/** Bump when any rule, threshold or model weight changes: replay relies on it. */
export const detectorVersion = '2027.01.16';

export function roundConfidence(c: number): number {
  return Math.round(Math.min(1, Math.max(0, c)) * 1000) / 1000;
}

export function severityFor(confidence: number, base: Severity): Severity {
  const i = SEVERITIES.indexOf(base);
  // Weak evidence never raises an alert on its own: drop one level below 0.6 and another below 0.45.
  const drop = confidence < 0.45 ? 2 : confidence < 0.6 ? 1 : 0;
  return SEVERITIES[Math.max(0, i - drop)] ?? 'low';
}

/** Masks a sensitive value, keeping at most the last 4 characters (fewer for short values). */
export function maskValue(value: string, keep = 4): string {
  const compact = value.replace(/\s+/g, '');
  const k = compact.length >= 12 ? keep : compact.length >= 8 ? 2 : 0;
  return '****' + (k > 0 ? compact.slice(-k) : '');
}

/** Noisy-OR: independent pieces of evidence, each a probability, combined. */
export function combineEvidence(probabilities: number[]): number {
  let miss = 1;
  for (const p of probabilities) miss *= 1 - Math.min(0.999, Math.max(0, p));
  return 1 - miss;
}
