/**
 * What the other hands' obfuscation generators (obfuscations-b.ts, obfuscations-c.ts) were briefed
 * with: the issue's families, one name each, and the byte helpers both write their encodings with.
 * Each generator's variants are its own.
 */
export const BRIEFED_FAMILIES = [
  'leetspeak',
  'url_encoding',
  'zero_width',
  'homoglyph',
  'spaced_letters',
  'base64',
  'hex',
  'rot13',
  'nested',
  'full_width',
  'html_markdown_comment',
  'unicode_tags',
  'mix_of_two',
] as const;
export type BriefedFamily = (typeof BRIEFED_FAMILIES)[number];

/** UTF-8 bytes of `s`. */
export const utf8 = (s: string): number[] => [...Buffer.from(s, 'utf8')];

/** A byte as two hex digits, upper- or lower-case. */
export const hex2 = (b: number, upper: boolean): string => {
  const h = b.toString(16).padStart(2, '0');
  return upper ? h.toUpperCase() : h;
};
