/**
 * The 1 MB pathological text the detectors are held to: `npm run bench:detect` times it and a unit
 * test bounds it. Long runs, repeated triggers, spaced letters, encodings and zero-width characters:
 * each is a shape that makes a backtracking matcher or a quadratic pass blow up.
 */
export function adversarialInput(): string {
  return [
    'a'.repeat(200_000),
    'ignore '.repeat(20_000),
    '1'.repeat(100_000),
    '@'.repeat(50_000) + 'a@b.'.repeat(20_000),
    'i g n o r e '.repeat(10_000),
    'QUJD'.repeat(25_000),
    '%41'.repeat(20_000),
    ' \u200b'.repeat(20_000),
  ]
    .join('')
    .slice(0, 1_048_576);
}
