import type { Finding } from './types';

/** A run of a field's text: plain, or a finding's span with the findings inside it nested. */
export type Segment =
  { text: string; finding?: undefined } | { finding: Finding; children: Segment[]; overlaps: Finding[] };

/**
 * Cuts `text` at the spans of the field's findings (UTF-16 offsets into the raw text, as the
 * detectors give them). A finding inside another one's span is nested in it (a model finding over the
 * whole prompt holds the rules' spans), one that only partly overlaps an earlier span is listed with
 * that span. A span with a masked value shows that value, never the raw text, so PII stays masked.
 */
export function segments(text: string, findings: Finding[]): Segment[] {
  const valid = findings
    .filter((f) => f.start >= 0 && f.end > f.start && f.start < text.length)
    .map((f) => ({ ...f, end: Math.min(f.end, text.length) }))
    .sort((a, b) => a.start - b.start || b.end - a.end);
  return cut(text, valid, 0, text.length);
}

function cut(text: string, findings: Finding[], from: number, to: number): Segment[] {
  const out: Segment[] = [];
  let at = from;
  let i = 0;
  while (i < findings.length) {
    const f = findings[i]!;
    const inside: Finding[] = [];
    const overlaps: Finding[] = [];
    for (i++; i < findings.length && findings[i]!.start < f.end; i++) {
      (findings[i]!.end <= f.end ? inside : overlaps).push(findings[i]!);
    }
    if (f.start > at) out.push({ text: text.slice(at, f.start) });
    out.push(
      f.masked
        ? { finding: f, children: [{ text: f.masked }], overlaps: [...inside, ...overlaps] }
        : { finding: f, children: cut(text, inside, f.start, f.end), overlaps },
    );
    at = f.end;
  }
  if (at < to) out.push({ text: text.slice(at, to) });
  return out;
}

/** The text a segment shows, as the page renders it (for tests and titles). */
export const shown = (s: Segment): string => (s.finding ? s.children.map(shown).join('') : s.text);

const VIEWS: Record<string, string> = {
  raw: 'the text as sent',
  nfkc: 'after Unicode normalisation',
  despaced: 'with spacing removed',
  leet: 'with leetspeak undone',
  respelled: 'with misspelt key words read as meant',
  unicode_tags: 'hidden Unicode tag characters',
  zero_width: 'with zero-width characters read as spaces',
  comment: 'inside a comment or hidden markup',
  base64: 'decoded from base64',
  hex: 'decoded from hex',
  url: 'URL-decoded',
  rot13: 'decoded from ROT13 or another letter cipher',
  morse: 'decoded from Morse code',
  unicode_escape: 'decoded from \\u escapes',
  html_entity: 'decoded from HTML entities',
};

/** The text view that fired, said as a person would. */
export const viewLabel = (view: string) => VIEWS[view] ?? view;
