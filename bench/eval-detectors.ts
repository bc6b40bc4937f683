/**
 * Scores the detectors on the reference dev sets (read at run time from ../shared/eval, or
 * WARDEN_EVAL_DIR; never committed):
 *   npm run eval:detectors
 */
import { detectText, type Finding } from '@warden/shared/detectors/index';
import { featureIndices, modelWindows, scoreFeatures } from '@warden/shared/detectors/injection-features';
import { injectionModel } from '@warden/shared/detectors/injection-model';
import { buildViews } from '@warden/shared/detectors/views';
import { printTable } from './support/load';
import { COUNTED_TYPES, STRUCTURED_TYPES } from './support/scoring';
import {
  evalDir,
  isHeldOut,
  loadInjectionRows,
  loadPiiRows,
  shortSource,
  type PiiSpan,
} from './support/eval-data';

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '-');
const prf = (tp: number, fp: number, fn: number) => {
  const p = tp + fp ? tp / (tp + fp) : 0;
  const r = tp + fn ? tp / (tp + fn) : 0;
  const f1 = p + r ? (2 * p * r) / (p + r) : 0;
  const f2 = p + r ? (5 * p * r) / (4 * p + r) : 0;
  return { p, r, f1, f2 };
};

export const isInjectionFinding = (f: Finding) =>
  f.threatType === 'prompt_injection' || f.threatType === 'jailbreak';

// ── injection ────────────────────────────────────────────────────────────────────────────────
interface Counts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}
const empty = (): Counts => ({ tp: 0, fp: 0, fn: 0, tn: 0 });
function tally(c: Counts, predicted: boolean, actual: boolean) {
  if (predicted && actual) c.tp++;
  else if (predicted) c.fp++;
  else if (actual) c.fn++;
  else c.tn++;
}
function injectionRow(name: string, c: Counts) {
  const { p, r, f1 } = prf(c.tp, c.fp, c.fn);
  const n = c.tp + c.fp + c.fn + c.tn;
  return {
    slice: name,
    rows: n,
    injections: c.tp + c.fn,
    precision: c.tp + c.fp ? f3(p) : '-',
    recall: c.tp + c.fn ? f3(r) : '-',
    F1: c.tp + c.fn ? f3(f1) : '-',
    'benign FPR': c.fp + c.tn ? f3(c.fp / (c.fp + c.tn)) : '-',
  };
}

export function evalInjection(): { all: Counts; heldOut: Counts } {
  const rows = loadInjectionRows();
  const all = empty();
  const heldOut = empty();
  const modelHeld = empty();
  const rulesOnly = empty();
  const bySource = new Map<string, Counts>();
  const model = injectionModel();
  for (const r of rows) {
    const actual = r.label === 'injection';
    const findings = detectText(r.text, 'prompt').filter(isInjectionFinding);
    const predicted = findings.length > 0;
    tally(all, predicted, actual);
    const src = shortSource(r.source);
    if (!bySource.has(src)) bySource.set(src, empty());
    tally(bySource.get(src)!, predicted, actual);
    tally(
      rulesOnly,
      findings.some((f) => !f.ruleId.startsWith('model.')) && findings.some((f) => f.confidence >= 0.5),
      actual,
    );
    if (isHeldOut(r.id)) {
      tally(heldOut, predicted, actual);
      const norm = buildViews(r.text, { derived: false }).normalized.text;
      const [s, e] = modelWindows(norm)[0]!;
      tally(modelHeld, scoreFeatures(model, featureIndices(norm.slice(s, e))) >= 0.5, actual);
    }
  }
  console.log(
    '\n## Injection / jailbreak (a row is flagged when any prompt_injection or jailbreak finding is emitted)',
  );
  console.log(
    'Held-out = rows the model never saw in training (FNV-1a(id) % 5 == 0); "all" includes its training rows.',
  );
  printTable([
    injectionRow('all rows: full detector', all),
    injectionRow('held-out: full detector', heldOut),
    injectionRow('held-out: model alone (first window, p≥0.5)', modelHeld),
    injectionRow('all rows: rules that fired (model not counted alone)', rulesOnly),
  ]);
  console.log('\nBy source (full detector, all rows):');
  printTable([...bySource.entries()].sort().map(([k, c]) => injectionRow(k, c)));
  return { all, heldOut };
}

// ── PII ──────────────────────────────────────────────────────────────────────────────────────

export function evalPii() {
  const rows = loadPiiRows();
  const per = new Map<string, { tp: number; fp: number; fn: number; gold: number }>();
  for (const t of COUNTED_TYPES) per.set(t, { tp: 0, fp: 0, fn: 0, gold: 0 });
  const missedExamples: string[] = [];
  for (const row of rows) {
    const gold = row.spans.filter((s) => COUNTED_TYPES.includes(s.type));
    const pred: PiiSpan[] = detectText(row.text, 'prompt')
      .filter((f) => f.threatType === 'pii_leak' && f.entityType && COUNTED_TYPES.includes(f.entityType))
      .map((f) => ({ type: f.entityType!, start: f.start, end: f.end }));
    const overlaps = (a: PiiSpan, b: PiiSpan) => a.type === b.type && a.start < b.end && b.start < a.end;
    for (const gs of gold) {
      const c = per.get(gs.type)!;
      c.gold++;
      if (pred.some((p) => overlaps(p, gs))) c.tp++;
      else {
        c.fn++;
        if (STRUCTURED_TYPES.includes(gs.type) && missedExamples.length < 12)
          missedExamples.push(`${gs.type}: ${JSON.stringify(row.text.slice(gs.start, gs.end))}`);
      }
    }
    for (const p of pred) if (!gold.some((gs) => overlaps(p, gs))) per.get(p.type)!.fp++;
  }
  console.log('\n## PII spans');
  console.log(
    'Matching: a gold span is found (TP) when a predicted span of the SAME type overlaps it by ≥1 character;\n' +
      'a predicted span that overlaps no gold span of its type is a FP. Recall = found gold / gold,\n' +
      'precision = predicted spans overlapping gold / predicted spans. Counted types: ' +
      COUNTED_TYPES.join(', ') +
      '.\n' +
      'Not counted (Warden does not detect them): GPE, ORGANIZATION, DATE_TIME, TITLE, AGE, NRP, ZIP_CODE, DOMAIN_NAME, US_DRIVER_LICENSE.',
  );
  const table = [];
  let TP = 0;
  let FN = 0;
  let precTP = 0;
  let FP = 0;
  let sTP = 0;
  let sFN = 0;
  let sFP = 0;
  for (const [t, c] of per) {
    const predictedTp = c.tp; // recall side
    const m = prf(predictedTp, c.fp, c.fn);
    table.push({
      type: t,
      gold: c.gold,
      found: c.tp,
      'false pos': c.fp,
      precision: f3(m.p),
      recall: f3(m.r),
      F1: f3(m.f1),
      F2: f3(m.f2),
    });
    TP += c.tp;
    FN += c.fn;
    precTP += c.tp;
    FP += c.fp;
    if (STRUCTURED_TYPES.includes(t)) {
      sTP += c.tp;
      sFN += c.fn;
      sFP += c.fp;
    }
  }
  const o = prf(precTP, FP, FN);
  const s = prf(sTP, sFP, sFN);
  table.push({
    type: 'OVERALL (8 types)',
    gold: TP + FN,
    found: TP,
    'false pos': FP,
    precision: f3(o.p),
    recall: f3(o.r),
    F1: f3(o.f1),
    F2: f3(o.f2),
  });
  table.push({
    type: 'structured 6 types',
    gold: sTP + sFN,
    found: sTP,
    'false pos': sFP,
    precision: f3(s.p),
    recall: f3(s.r),
    F1: f3(s.f1),
    F2: f3(s.f2),
  });
  printTable(table);
  console.log(
    `Presidio vanilla anchor on this set: P 0.685, R 0.603, F2 0.618 (all its types; token-level, so not strictly comparable).`,
  );
  if (process.env.EVAL_VERBOSE) console.log('missed structured examples:\n  ' + missedExamples.join('\n  '));
  return { overall: o, structured: s };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`Eval data: ${evalDir}`);
  evalInjection();
  evalPii();
}
