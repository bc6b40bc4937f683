/**
 * What one hostile field can cost the detectors: 1 MiB fields, each one obfuscated attack repeated
 * (one field per family of every obfuscation generator: bench/gen-obfuscations.ts and the other
 * hands' bench/support/obfuscations-*.ts), beside the 1 MB adversarial input that bench:detect
 * holds to < 100 ms. A record may be 1 MiB serialized (DESIGN.md), so a tenant can send such a
 * field in every record. Timed in one process, warm (one untimed run first), median of RUNS runs;
 * the adversarial input, timed the same way in the same run, is the baseline. (`vard.safe` is not
 * beside it: it reads a 1 MiB field in well under a millisecond, as bench:detect shows.)
 *
 *   npm run bench:hostile              (RUNS=3; HANDS=b,c limits the other hands; TOP=15 rows)
 */
import { readdirSync } from 'node:fs';
import { adversarialInput } from '@warden/shared/detectors/adversarial-input';
import { detectText } from '@warden/shared/detectors/index';
import { generateObfuscations } from './gen-obfuscations';
import { median, medianTime, percentile, printTable } from './support/load';
import { rng, type Rand } from './support/rng';

const SIZE = 1_048_576;
const RUNS = Number(process.env.RUNS ?? 3);
const TOP = Number(process.env.TOP ?? 15);
const HANDS = process.env.HANDS?.split(',');
/** Attacks hidden per family, the longest of them repeated. */
const BASES = 3;

/** `text` and a line break, repeated to SIZE characters. */
const filled = (text: string) => (text + '\n').repeat(Math.ceil(SIZE / (text.length + 1))).slice(0, SIZE);

/** The longest of `texts`. */
const longest = (texts: string[]) => texts.reduce((a, b) => (b.length > a.length ? b : a), '');

/** The adversarial input, then the first generator's families (bench/gen-obfuscations.ts). */
function hostileFields(): Array<{ name: string; text: string }> {
  const rows = generateObfuscations();
  const fields = [{ name: 'bench:detect adversarial input', text: adversarialInput() }];
  const families = [...new Set(rows.map((r) => r.family))].filter((f) => f !== 'plain');
  for (const family of families) {
    const attacks = rows.filter((r) => r.family === family && r.label === 'injection').slice(0, BASES);
    fields.push({ name: `first hand · ${family}`, text: filled(longest(attacks.map((r) => r.text))) });
  }
  return fields;
}

/** The other hands' generators (FAMILIES_X and obfuscateX of bench/support/obfuscations-x.ts). */
async function otherHands(): Promise<Array<{ name: string; text: string }>> {
  const bases = generateObfuscations()
    .filter((r) => r.family === 'plain' && r.label === 'injection')
    .slice(0, BASES)
    .map((r) => r.base);
  const fields: Array<{ name: string; text: string }> = [];
  const files = readdirSync(new URL('./support/', import.meta.url)).filter((f) =>
    /^obfuscations-[a-z]\.ts$/.test(f),
  );
  for (const file of files.sort()) {
    const hand = file.slice('obfuscations-'.length, -'.ts'.length);
    if (HANDS && !HANDS.includes(hand)) continue;
    const mod = (await import(`./support/${file}`)) as Record<string, unknown>;
    const families = mod[`FAMILIES_${hand.toUpperCase()}`] as readonly string[];
    const hide = mod[`obfuscate${hand.toUpperCase()}`] as (
      r: Rand,
      text: string,
      family: string,
    ) => { text: string };
    const r = rng(7);
    for (const family of families) {
      const hidden = bases.map((b) => hide(r, b, family).text);
      fields.push({ name: `${hand} · ${family}`, text: filled(longest(hidden)) });
    }
  }
  return fields;
}

const fields = [...hostileFields(), ...(await otherHands())];
const results: Array<{ name: string; ms: number }> = [];
for (const [k, f] of fields.entries()) {
  results.push({ name: f.name, ms: medianTime(() => detectText(f.text), RUNS) });
  if ((k + 1) % 20 === 0 || k + 1 === fields.length)
    process.stderr.write(`  ${k + 1} of ${fields.length} fields timed\n`);
}
const baseline = results[0]!.ms;
const ms = results.map((r) => r.ms).sort((a, b) => a - b);
const row = (field: string, t: number) => ({
  field,
  'Warden detectText ms': t.toFixed(0),
  '÷ adversarial input': (t / baseline).toFixed(2),
});

console.log(
  `\n## The ${TOP} costliest of ${fields.length} hostile 1 MiB fields (median of ${RUNS} warm runs each, one process)`,
);
printTable(
  [...results]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, TOP)
    .map((r) => row(r.name, r.ms)),
);
console.log(`\n## Over all ${fields.length} fields`);
printTable([
  row('bench:detect adversarial input (the baseline)', baseline),
  row('median field', median(ms)),
  row('90th percentile', percentile(ms, 90)),
  row('costliest', ms[ms.length - 1]!),
]);
console.log(
  `\nFields over 100 ms: ${ms.filter((t) => t > 100).length}; over 250 ms: ${ms.filter((t) => t > 250).length}; ` +
    `over 500 ms: ${ms.filter((t) => t > 500).length}.`,
);
