import type { Finding } from './types';

/** A run of a field's text: plain, or the span of a finding (shown masked when the finding masks it). */
export type Segment =
  { text: string; finding?: undefined } | { text: string; finding: Finding; overlaps: Finding[] };

/**
 * Cuts `text` at the spans of the field's findings (UTF-16 offsets into the raw text, as the
 * detectors give them). A span is shown as the finding's masked value when it has one, so PII never
 * reaches the page unmasked. Findings that overlap an earlier span are listed with it, not cut twice.
 */
export function segments(text: string, findings: Finding[]): Segment[] {
  const sorted = findings
    .filter((f) => f.start >= 0 && f.end > f.start && f.start < text.length)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Segment[] = [];
  let at = 0;
  let last: Extract<Segment, { finding: Finding }> | undefined;
  let lastEnd = 0;
  for (const f of sorted) {
    if (last && f.start < lastEnd) {
      last.overlaps.push(f);
      continue;
    }
    if (f.start > at) out.push({ text: text.slice(at, f.start) });
    const end = Math.min(f.end, text.length);
    last = { text: f.masked || text.slice(f.start, end), finding: f, overlaps: [] };
    out.push(last);
    at = lastEnd = end;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out;
}

const VIEWS: Record<string, string> = {
  raw: 'the text as sent',
  nfkc: 'after Unicode normalisation',
  despaced: 'with spacing removed',
  leet: 'with leetspeak undone',
  unicode_tags: 'hidden Unicode tag characters',
  comment: 'inside a comment',
  base64: 'decoded from base64',
  hex: 'decoded from hex',
  url: 'URL-decoded',
  rot13: 'decoded from ROT13',
};

/** The text view that fired, said as a person would. */
export const viewLabel = (view: string) => VIEWS[view] ?? view;
