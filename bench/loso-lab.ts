/**
 * Quick leave-one-source-out loop for model experiments: rule evidence and each row's model features
 * are computed once, then one model per held-out source is trained per configuration. Reports macro
 * recall / FPR (model alone and rules + model) like the eval's headline, without vard.
 *
 *   npx tsx bench/loso-lab.ts '{"l2":1e-4}' '{"balance":"source"}'
 *
 * LAB_VERBOSE=1 prints every source; LAB_SHIFTS=0,-0.3 scores each model with its bias shifted too;
 * LAB_EMBED=4000 also scores each attack inside a document of a held-out source (LAB_CARRIER);
 * LAB_SMALL_WINDOWS=600 also scores (and trains on benign) windows of that many characters;
 * LAB_TEST=<file.jsonl>[,<file.jsonl@prompt>…] (rows of {text, label}) scores every fold's model on
 * those texts as tool outputs (as prompts with @prompt), sets no fold trains on, and reports each
 * one's recall and FPR as the mean over the folds; LAB_LANGUAGES=3000 adds that many generated attacks
 * in 30 other languages and as many benign texts (bench/support/synthetic-languages.ts; not shipped);
 * LAB_ROLEPLAY=1500 adds that many role-play jailbreaks and as many benign look-alikes
 * (bench/support/synthetic-roleplay.ts; not shipped); LAB_FOLLOWUPS=1500 adds that many benign later
 * turns of a conversation (bench/support/synthetic-followups.ts; not shipped); LAB_QUOTING=1000 adds
 * that many benign texts about AI security that quote an attack as an example
 * (bench/support/synthetic-quoting.ts; not shipped); LAB_NOTICES=1500 adds that many benign transactional
 * notices and service messages (bench/support/synthetic-notices.ts; not shipped); LAB_REQUESTS=3000
 * trains on that many chat-API requests pasted as text with an ordinary user turn and as many with
 * an attack as the user turn (bench/support/synthetic-requests.ts; 1,500 shipped, 0 leaves them out);
 * LAB_DATA_ALONE=0.55,0.6 also scores the in-document table and the LAB_TEST files read as tool
 * outputs with the model needing that probability when no rule fired (one line per shift and value,
 * means of the folds; measured and not kept, docs/detection-experiments.md, 2026-12-03);
 * Every fold trains on the written sets too (WRITTEN_TRAINING_SETS), as the shipped model does:
 * LAB_NO_WRITTEN=1 leaves them out (LAB_TEST scores of them are training figures otherwise);
 * LAB_TRAIN=<file.jsonl>,… adds more training rows ({id?, text, label}) to every fold, a source each.
 * LAB_DUMP=<file.jsonl> writes each pool row's held-out model probability (the first LAB_SHIFTS shift,
 * the last configuration) and rule evidence, for comparisons with models outside the repository.
 */
import { writeFileSync } from 'node:fs';
import { combineEvidence } from '@warden/shared/detectors/finding';
import { INJECTION_THRESHOLD, modelViews, ruleEvidence } from '@warden/shared/detectors/injection';
import {
  featureIndices,
  type LinearModel,
  modelReadable,
  modelWindows,
  scoreFeatures,
} from '@warden/shared/detectors/injection-features';
import { buildViews } from '@warden/shared/detectors/views';
import { loadInjectionPool, parseJsonl, sourceOf } from './support/eval-data';
import { carrierTexts, DOCUMENT_CARRIER, documentMaker } from './support/documents';
import { syntheticRows } from './support/synthetic';
import {
  textExamples,
  syntheticExamples,
  trainInjectionModel,
  TRAINING,
  fileExamples,
  writtenExamples,
  type Example,
  type TrainingOptions,
} from './support/injection-training';

interface Prepared {
  source: string;
  y: 0 | 1;
  rules: number[];
  /** Feature buckets of every window of every view the model reads. */
  windows: Uint32Array[];
  /** The attack inside a document (LAB_EMBED): its rule evidence and windows. */
  doc?: { rules: number[]; windows: Uint32Array[] };
}

function modelTexts(text: string): string[] {
  return [...modelViews(buildViews(text))].map((m) => m.text);
}

const SMALL = Number(process.env.LAB_SMALL_WINDOWS ?? 0);
/** Feature buckets of every window the model reads in `text` (every view; small windows too with LAB_SMALL_WINDOWS). */
function textWindows(text: string): Uint32Array[] {
  const windows: Uint32Array[] = [];
  for (const t of modelTexts(text)) {
    const m = modelReadable(t);
    for (const [s, e] of modelWindows(m)) windows.push(featureIndices(m.slice(s, e)));
    if (SMALL && m.length > SMALL)
      for (const [s, e] of modelWindows(m, SMALL)) windows.push(featureIndices(m.slice(s, e)));
  }
  return windows;
}

// LAB_EMBED=<chars>: every attack is also scored inside a document of about that many characters of
// LAB_CARRIER's benign texts (bench/support/documents.ts; as a tool output), a source no model then
// trains on; documents of its texts alone give the false-positive rate at that length.
const EMBED = Number(process.env.LAB_EMBED ?? 0);
const CARRIER = process.env.LAB_CARRIER ?? DOCUMENT_CARRIER;
const everyRow = loadInjectionPool();
const t0 = performance.now();
const pool = EMBED ? everyRow.filter((r) => sourceOf(r) !== CARRIER) : everyRow;
const embedded = EMBED ? documentMaker(carrierTexts(everyRow, CARRIER), EMBED) : undefined;
const plainDocs = Array.from({ length: embedded ? 300 : 0 }, () => {
  const doc = embedded!();
  return { rules: ruleEvidence(buildViews(doc), true), windows: textWindows(doc) };
});
const extraTests = (process.env.LAB_TEST ?? '')
  .split(',')
  .filter(Boolean)
  .map((spec) => {
    const [file, field = 'tool output'] = spec.split('@');
    const toolOutput = field !== 'prompt';
    const rows = parseJsonl<{ text: string; label: string }>(file!).map((r) => ({
      y: r.label === 'injection' ? 1 : 0,
      rules: ruleEvidence(buildViews(r.text), toolOutput),
      windows: textWindows(r.text),
    }));
    return { name: `${file} as ${toolOutput ? 'tool outputs' : 'prompts'}`, rows };
  });
/** Per LAB_TEST file and shift, each fold's [recall, FPR] on its texts. */
const testFigures = new Map<string, Array<[number, number]>>();
const prepared: Prepared[] = pool.map((r) => {
  const y = r.label === 'injection' ? 1 : 0;
  const row: Prepared = {
    source: sourceOf(r),
    y,
    rules: ruleEvidence(buildViews(r.text)),
    windows: textWindows(r.text),
  };
  if (embedded && y) {
    const doc = embedded(r.text);
    row.doc = { rules: ruleEvidence(buildViews(doc), true), windows: textWindows(doc) };
  }
  return row;
});
const examples: Example[] = pool.flatMap((r, i) => textExamples(r, prepared[i]!.source));
const labRows = {
  languages: Number(process.env.LAB_LANGUAGES ?? 0),
  roleplay: Number(process.env.LAB_ROLEPLAY ?? 0),
  followups: Number(process.env.LAB_FOLLOWUPS ?? 0),
  quoting: Number(process.env.LAB_QUOTING ?? 0),
  notices: Number(process.env.LAB_NOTICES ?? 0),
  requests: process.env.LAB_REQUESTS ? Number(process.env.LAB_REQUESTS) : undefined,
};
const synth: Example[] = process.env.LAB_NO_SYNTH ? [] : syntheticExamples(labRows);
// With small windows, benign texts' small windows are negatives too (the model scores them).
if (SMALL) {
  const benignChunks = (text: string, id: string, group: string): Example[] => {
    const m = modelReadable(buildViews(text, { derived: false }).normalized.text);
    if (m.length <= SMALL) return [];
    return modelWindows(m, SMALL).map(([s, e], k) => ({
      id: `${id}#s${k}`,
      x: featureIndices(m.slice(s, e)),
      y: 0,
      group,
    }));
  };
  pool.forEach((r, i) => {
    if (r.label === 'benign') examples.push(...benignChunks(r.text, r.id, prepared[i]!.source));
  });
  if (!process.env.LAB_NO_SYNTH)
    for (const r of syntheticRows(undefined, labRows))
      if (r.label === 'benign') synth.push(...benignChunks(r.text, r.id, r.source));
}
// The written sets and LAB_TRAIN's files (see the header), each weighing as one source.
if (!process.env.LAB_NO_WRITTEN) synth.push(...writtenExamples());
for (const file of (process.env.LAB_TRAIN ?? '').split(',').filter(Boolean))
  synth.push(...fileExamples(file, file, `lab:${file}`));
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
/** Per shift, the false-positive rate of each fold's model on the carrier-only documents. */
const docFpr = new Map<string, number[]>();

/** The model's best window score (0 without windows). */
function bestScore(m: LinearModel, windows: Uint32Array[]): number {
  let best = 0;
  for (const w of windows) best = Math.max(best, scoreFeatures(m, w));
  return best;
}

/** Warden's verdict from rule evidence and a model score, combined as the detector does. */
function flags(cfg: Cfg, rules: number[], prob: number, alone = cfg.alone ?? 0): boolean {
  const ev = [...rules];
  if (prob >= cfg.floor) ev.push(prob);
  return combineEvidence(ev) >= INJECTION_THRESHOLD && (rules.length > 0 || prob >= alone);
}
/** Recall and FPR of the verdicts `hit` on `rows`. */
function rates(rows: Array<{ y: number }>, hit: boolean[]): [number, number] {
  const rate = (y: number) =>
    hit.filter((h, k) => h && rows[k]!.y === y).length / Math.max(1, rows.filter((x) => x.y === y).length);
  return [rate(1), rate(0)];
}
/** LAB_DATA_ALONE: the model probabilities a tool output needs when no rule fired, scored besides. */
const DATA_ALONE = (process.env.LAB_DATA_ALONE ?? '').split(',').filter(Boolean).map(Number);
/** Per shift and LAB_DATA_ALONE value, each fold's in-document recall, document FPR, and LAB_TEST tool-output recall and FPR. */
const dataAlone = new Map<string, number[][]>();

function run(cfg: Cfg) {
  const probs = new Map<string, Float64Array>();
  for (const s of sources) {
    const train = examples.filter((e) => e.group !== s).concat(synth);
    const { model } = trainInjectionModel(train, undefined, cfg);
    const idx = prepared.map((p, i) => (p.source === s ? i : -1)).filter((i) => i >= 0);
    for (const shift of SHIFTS) {
      const m = { ...model, bias: model.bias + shift };
      const out = probs.get(String(shift)) ?? new Float64Array(prepared.length);
      const docOut = probs.get(`doc${shift}`) ?? new Float64Array(prepared.length);
      for (const i of idx) {
        out[i] = bestScore(m, prepared[i]!.windows);
        docOut[i] = bestScore(m, prepared[i]!.doc?.windows ?? []);
      }
      probs.set(String(shift), out);
      probs.set(`doc${shift}`, docOut);
      const flagged = plainDocs.filter((d) => flags(cfg, d.rules, bestScore(m, d.windows))).length;
      for (const a of DATA_ALONE) {
        // In-document recall counts for sources with 20+ attacks, as the headline's does.
        const docs = idx.filter((i) => prepared[i]!.doc);
        const found = docs.filter((i) => {
          const d = prepared[i]!.doc!;
          return flags(cfg, d.rules, bestScore(m, d.windows), a);
        }).length;
        const fold = [
          docs.length >= 20 ? found / docs.length : NaN,
          plainDocs.filter((d) => flags(cfg, d.rules, bestScore(m, d.windows), a)).length /
            Math.max(1, plainDocs.length),
          ...extraTests
            .filter((t) => !t.name.endsWith('as prompts'))
            .flatMap((t) =>
              rates(
                t.rows,
                t.rows.map((x) => flags(cfg, x.rules, bestScore(m, x.windows), a)),
              ),
            ),
        ];
        const key = `${shift}\u0000${a}`;
        dataAlone.set(key, [...(dataAlone.get(key) ?? []), fold]);
      }
      for (const t of extraTests) {
        const hit = t.rows.map((x) => flags(cfg, x.rules, bestScore(m, x.windows)));
        const key = `${t.name}\u0000${shift}`;
        testFigures.set(key, [...(testFigures.get(key) ?? []), rates(t.rows, hit)]);
      }
      docFpr.set(String(shift), [
        ...(docFpr.get(String(shift)) ?? []),
        flagged / Math.max(1, plainDocs.length),
      ]);
    }
  }
  for (const shift of SHIFTS)
    report({ ...cfg, shift } as Cfg, probs.get(String(shift))!, probs.get(`doc${shift}`)!);
  if (process.env.LAB_DUMP) {
    const first = probs.get(String(SHIFTS[0]))!;
    writeFileSync(
      process.env.LAB_DUMP,
      pool
        .map((r, i) => {
          const { source, y, rules } = prepared[i]!;
          return JSON.stringify({ id: r.id, source, y, prob: first[i], rules });
        })
        .join('\n') + '\n',
    );
  }
  for (const [key, folds] of dataAlone) {
    const [shift, a] = key.split('\u0000');
    const means = folds[0]!.map((_, k) => {
      const xs = folds.map((f) => f[k]!).filter(Number.isFinite);
      return (xs.reduce((x, y) => x + y, 0) / xs.length).toFixed(3);
    });
    console.log(
      `  shift ${shift}, model alone in a tool output needs ${a}: in a document R (≥20) ${means[0]} FPR ${means[1]}` +
        (means.length > 2 ? `; LAB_TEST tool outputs R / FPR ${means.slice(2).join(' / ')}` : ''),
    );
  }
  dataAlone.clear();
  docFpr.clear();
  testFigures.clear();
}

function report(cfg: Cfg, probs: Float64Array, docProbs: Float64Array) {
  const per: Array<{
    s: string;
    mR: number;
    mF: number;
    wR: number;
    wF: number;
    dR: number;
    pos: number;
    neg: number;
  }> = [];
  for (const s of sources) {
    const c = { mtp: 0, mfp: 0, wtp: 0, wfp: 0, dtp: 0, pos: 0, neg: 0 };
    prepared.forEach((p, i) => {
      if (p.source !== s) return;
      const prob = probs[i]!;
      if (process.env.LAB_SUB && p.source === process.env.LAB_SUB) {
        const sub = pool[i]!.source;
        const t = subs.get(sub) ?? [0, 0];
        subs.set(sub, [t[0]! + 1, t[1]! + (prob >= 0.5 ? 1 : 0)]);
      }
      const m = prob >= INJECTION_THRESHOLD;
      const w = flags(cfg, p.rules, prob);
      if (p.y) {
        c.pos++;
        c.mtp += +m;
        c.wtp += +w;
        if (p.doc) c.dtp += +flags(cfg, p.doc.rules, docProbs[i]!);
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
      dR: c.dtp / c.pos,
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
  const shift = String((cfg as Cfg & { shift?: number }).shift ?? 0);
  if (process.env.LAB_VERBOSE)
    for (const r of per)
      console.log(
        `  ${r.s.padEnd(44)} model R ${f(r.mR)} FPR ${f(r.mF)}  warden R ${f(r.wR)} FPR ${f(r.wF)}` +
          (EMBED ? `  in a document R ${f(r.dR)}` : ''),
      );
  console.log(
    `${JSON.stringify(cfg)}\n  model  R ${f(mean(per.map((r) => r.mR)))} FPR ${f(mean(per.map((r) => r.mF)))} worstFPR ${f(max(per.map((r) => r.mF)))}` +
      `\n  warden R ${f(mean(per.map((r) => r.wR)))} FPR ${f(mean(per.map((r) => r.wF)))} worstFPR ${f(max(per.map((r) => r.wF)))}` +
      // Sources with a handful of rows of a label swing the macro figure by a row: the same without them.
      `\n  warden≥20 R ${f(mean(per.map((r) => (r.pos >= 20 ? r.wR : NaN))))} FPR ${f(mean(per.map((r) => (r.neg >= 20 ? r.wF : NaN))))}` +
      (EMBED
        ? `\n  in a ${EMBED}-character ${CARRIER} document: warden≥20 R ${f(mean(per.map((r) => (r.pos >= 20 ? r.dR : NaN))))}` +
          ` FPR (documents alone, mean of the folds) ${f(mean(docFpr.get(shift) ?? []))}`
        : '') +
      extraTests
        .map((t) => {
          const test = testFigures.get(`${t.name}\u0000${shift}`) ?? [];
          return `\n  ${t.name} (mean of the folds): R ${f(mean(test.map((x) => x[0])))} FPR ${f(mean(test.map((x) => x[1])))}`;
        })
        .join(''),
  );
}

const configs = process.argv.slice(2).map((a) => JSON.parse(a) as Partial<Cfg>);
for (const c of configs.length ? configs : [{}]) run({ ...TRAINING, floor: 0.2, ...c });
