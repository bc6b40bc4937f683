/**
 * Quick leave-one-source-out loop for model experiments: rule evidence and each row's model features
 * are computed once, then one model per held-out source is trained per configuration. Reports macro
 * recall / FPR (model alone and rules + model) like the eval's headline, without vard.
 *
 *   npx tsx bench/loso-lab.ts '{"l2":1e-4}' '{"balance":"source"}'
 */
import { combineEvidence } from '@warden/shared/detectors/finding';
import { INJECTION_THRESHOLD, ruleEvidence } from '@warden/shared/detectors/injection';
import {
  featureIndices,
  modelReadable,
  modelWindows,
  scoreFeatures,
} from '@warden/shared/detectors/injection-features';
import { buildViews } from '@warden/shared/detectors/views';
import { loadInjectionPool, sourceOf } from './support/eval-data';
import {
  textExamples,
  syntheticExamples,
  trainInjectionModel,
  TRAINING,
  type Example,
  type TrainingOptions,
} from './support/injection-training';

interface Prepared {
  source: string;
  y: 0 | 1;
  rules: number[];
  /** Feature buckets of every window of every view the model reads. */
  windows: Uint32Array[];
}

function modelTexts(text: string): string[] {
  const fv = buildViews(text);
  const out = [fv.normalized.text];
  const seen = new Set<string>();
  for (const view of fv.views) {
    if (view === fv.normalized) continue;
    if (view.name === 'leet' && fv.signals.leetTokens < 2) continue;
    const t = view.modelText ?? view.text;
    if (seen.has(t)) continue;
    seen.add(t);
    out.push(t);
  }
  return out;
}

const pool = loadInjectionPool();
const t0 = performance.now();
const prepared: Prepared[] = pool.map((r) => {
  const fv = buildViews(r.text);
  const windows: Uint32Array[] = [];
  for (const t of modelTexts(r.text)) {
    const m = modelReadable(t);
    for (const [s, e] of modelWindows(m)) windows.push(featureIndices(m.slice(s, e)));
    const small = Number(process.env.LAB_SMALL_WINDOWS ?? 0);
    if (small && m.length > small)
      for (const [s, e] of modelWindows(m, small)) windows.push(featureIndices(m.slice(s, e)));
  }
  return { source: sourceOf(r), y: r.label === 'injection' ? 1 : 0, rules: ruleEvidence(fv), windows };
});
const examples: Example[] = pool.flatMap((r, i) => textExamples(r, prepared[i]!.source));
const synth: Example[] = process.env.LAB_NO_SYNTH ? [] : syntheticExamples();
process.stderr.write(
  `prepared ${pool.length} rows + ${synth.length} synthetic in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`,
);

const sources = [...new Set(prepared.map((p) => p.source))].sort();

interface Cfg extends TrainingOptions {
  /** Model probability below which it adds no evidence. */
  floor: number;
  /** Model probability needed when no rule fired. */
  alone?: number;
}

const subs = new Map<string, number[]>();
const SHIFTS = (process.env.LAB_SHIFTS ?? '0').split(',').map(Number);

function run(cfg: Cfg) {
  const probs = new Map<string, Float64Array>();
  for (const s of sources) {
    const train = examples.filter((e) => e.group !== s).concat(synth);
    const { model } = trainInjectionModel(train, undefined, cfg);
    const idx = prepared.map((p, i) => (p.source === s ? i : -1)).filter((i) => i >= 0);
    for (const shift of SHIFTS) {
      const m = { ...model, bias: model.bias + shift };
      const out = probs.get(String(shift)) ?? new Float64Array(prepared.length);
      for (const i of idx) {
        let prob = 0;
        for (const w of prepared[i]!.windows) prob = Math.max(prob, scoreFeatures(m, w));
        out[i] = prob;
      }
      probs.set(String(shift), out);
    }
  }
  for (const shift of SHIFTS) report({ ...cfg, shift } as Cfg, probs.get(String(shift))!);
}

function report(cfg: Cfg, probs: Float64Array) {
  const per: Array<{ s: string; mR: number; mF: number; wR: number; wF: number; pos: number; neg: number }> =
    [];
  for (const s of sources) {
    const c = { mtp: 0, mfp: 0, wtp: 0, wfp: 0, pos: 0, neg: 0 };
    prepared.forEach((p, i) => {
      if (p.source !== s) return;
      const prob = probs[i]!;
      if (process.env.LAB_SUB && p.source === process.env.LAB_SUB) {
        const sub = pool[i]!.source;
        const t = subs.get(sub) ?? [0, 0];
        subs.set(sub, [t[0]! + 1, t[1]! + (prob >= 0.5 ? 1 : 0)]);
      }
      const ev = [...p.rules];
      if (prob >= cfg.floor) ev.push(prob);
      const m = prob >= INJECTION_THRESHOLD;
      const w =
        combineEvidence(ev) >= INJECTION_THRESHOLD && (p.rules.length > 0 || prob >= (cfg.alone ?? 0));
      if (p.y) {
        c.pos++;
        c.mtp += +m;
        c.wtp += +w;
      } else {
        c.neg++;
        c.mfp += +m;
        c.wfp += +w;
      }
    });
    per.push({
      s,
      mR: c.mtp / c.pos,
      mF: c.mfp / c.neg,
      wR: c.wtp / c.pos,
      wF: c.wfp / c.neg,
      pos: c.pos,
      neg: c.neg,
    });
  }
  if (subs.size) console.log(subs);
  subs.clear();
  const mean = (xs: number[]) => {
    const f = xs.filter(Number.isFinite);
    return f.reduce((a, x) => a + x, 0) / f.length;
  };
  const max = (xs: number[]) => Math.max(...xs.filter(Number.isFinite));
  const f = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '  -  ');
  if (process.env.LAB_VERBOSE)
    for (const r of per)
      console.log(
        `  ${r.s.padEnd(44)} model R ${f(r.mR)} FPR ${f(r.mF)}  warden R ${f(r.wR)} FPR ${f(r.wF)}`,
      );
  console.log(
    `${JSON.stringify(cfg)}\n  model  R ${f(mean(per.map((r) => r.mR)))} FPR ${f(mean(per.map((r) => r.mF)))} worstFPR ${f(max(per.map((r) => r.mF)))}` +
      `\n  warden R ${f(mean(per.map((r) => r.wR)))} FPR ${f(mean(per.map((r) => r.wF)))} worstFPR ${f(max(per.map((r) => r.wF)))}` +
      // Sources with a handful of rows of a label swing the macro figure by a row: the same without them.
      `\n  warden≥20 R ${f(mean(per.map((r) => (r.pos >= 20 ? r.wR : NaN))))} FPR ${f(mean(per.map((r) => (r.neg >= 20 ? r.wF : NaN))))}`,
  );
}

const configs = process.argv.slice(2).map((a) => JSON.parse(a) as Partial<Cfg>);
for (const c of configs.length ? configs : [{}]) run({ ...TRAINING, floor: 0.2, ...c });
