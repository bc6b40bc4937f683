import type { PiiRow, PiiSpan } from './eval-data';

/** PII types Warden detects that the gold set labels, structured ones first; overall scores count only these. */
export const COUNTED_TYPES = [
  'EMAIL_ADDRESS',
  'PHONE_NUMBER',
  'CREDIT_CARD',
  'IBAN_CODE',
  'US_SSN',
  'IP_ADDRESS',
  'PERSON',
  'STREET_ADDRESS',
];
/** The six types validated by checksums or formats (the rest are names and addresses). */
export const STRUCTURED_TYPES = COUNTED_TYPES.slice(0, 6);

export interface Prf {
  precision: number;
  recall: number;
  f1: number;
  f2: number;
}

export function prf(tp: number, fp: number, fn: number): Prf {
  const precision = tp + fp ? tp / (tp + fp) : 0;
  const recall = tp + fn ? tp / (tp + fn) : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  const f2 = precision + recall ? (5 * precision * recall) / (4 * precision + recall) : 0;
  return { precision, recall, f1, f2 };
}

/**
 * Span scoring used by the eval and the bench: a gold span is found when a predicted span of the
 * same type overlaps it by ≥ 1 character; a predicted span overlapping no gold span of its type is a
 * false positive. Only `types` are counted, on both sides.
 */
export function scoreSpans(
  rows: PiiRow[],
  types: string[],
  predict: (text: string) => PiiSpan[],
): Prf & { fpr?: never } {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const row of rows) {
    const gold = row.spans.filter((s) => types.includes(s.type));
    const pred = predict(row.text).filter((s) => types.includes(s.type));
    const hit = (a: PiiSpan, b: PiiSpan) => a.type === b.type && a.start < b.end && b.start < a.end;
    for (const g of gold)
      if (pred.some((p) => hit(p, g))) tp++;
      else fn++;
    for (const p of pred) if (!gold.some((g) => hit(p, g))) fp++;
  }
  return prf(tp, fp, fn);
}
