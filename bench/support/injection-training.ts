/**
 * Training of the injection model, shared by the training script (which writes the shipped weights)
 * and the leave-one-source-out eval (which trains one model per held-out source): logistic regression
 * over the hashed features of injection-features.ts, class-balanced, fixed example order, int16
 * quantisation. The same text → features path as inference, so the eval scores what would ship.
 */
import {
  conceptBuckets,
  FEATURE_BITS,
  featureIndices,
  MIN_NORM_FEATURES,
  modelReadable,
  modelWindows,
  type LinearModel,
} from '@warden/shared/detectors/injection-features';
import { buildViews } from '@warden/shared/detectors/views';
import { repoRoot } from '@warden/shared/paths';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseJsonl } from './eval-data';
import { syntheticRows, type LabRows } from './synthetic';

export interface Example {
  /** Row id: fixes the training order. */
  id: string;
  x: Uint32Array;
  y: 0 | 1;
  /** Where the example comes from (the pool's source): with `balance: 'source'` each source weighs the same. */
  group?: string;
}

export interface TrainedModel {
  model: LinearModel;
  /** The int16 weights and their scale, as shipped. */
  quantised: Int16Array;
  scale: number;
}

export interface TrainingOptions {
  epochs: number;
  /** L2 penalty of the word, 4-gram and shape features. */
  l2: number;
  /** L2 penalty of the concept and concept-pair features (injection-features.ts conceptBuckets). */
  conceptL2: number;
  /** Added to the fitted bias: the operating point on the leave-one-source-out recall/FPR curve. */
  biasShift: number;
  lr0: number;
  seed: string;
  /** class: each label half the weight; source: also each source equal within its label; sqrt: ∝ 1/√(source size). */
  balance: 'class' | 'source' | 'sqrt';
  /**
   * How many sources' worth each kind of generated text (synthetic:*) weighs. Two, not one: the
   * leave-one-source-out figures move by 0.001–0.008 either way, and the benign email of override
   * verbs in injection.test.ts scores 0.46 instead of 0.50, the threshold.
   */
  syntheticWeight: number;
  /**
   * How many sources' worth the generated business carriers and the same carriers with an
   * instruction to the AI inside (synthetic:business, synthetic:indirect) weigh each.
   */
  documentWeight: number;
  /**
   * Other balances to fit too; the shipped model is the mean of all the fits' weights and biases
   * (the mean of linear models' logits is itself one linear model, so inference costs nothing more).
   */
  alsoBalance: Array<TrainingOptions['balance']>;
  /**
   * The most one word, 4-gram or shape feature may add toward an attack: after each step a larger
   * weight is set back to it (0: no cap). Benign evidence is not capped.
   */
  wordCap: number;
}

/**
 * Per-source balance: each source of the pool (and each kind of generated text) weighs the same within
 * its label, so the biggest sources' templates and topics do not become the model's idea of an attack.
 */
export const TRAINING: TrainingOptions = {
  epochs: 30,
  // A source's own words, 4-grams and punctuation shapes are penalised 300× more than the concepts
  // every language and source shares, so the model leans on the concepts; the bias is then moved up
  // to where leave-one-source-out recall, macro FPR and worst FPR all beat the model with one L2 of
  // 1e-5 and no shift (2026.12.02: 0.654 / 0.073 / 0.388 over sources with 20+ rows of the label;
  // 2026.12.03: 0.664 / 0.068 / 0.378).
  l2: 3e-3,
  conceptL2: 1e-5,
  // With the cap below, a bias 0.05 up is where all four headline figures beat 2026.12.03's
  // (2026.12.04: 0.668 / 0.669 over sources with 20+ attacks / 0.065 / 0.345); with the composed
  // business carriers of 2026.12.08 (documentWeight), 0.05 more; with the prompt-injection-game
  // rows of 2026.12.09 (bench/support/synthetic-games.ts), 0.05 less again, where the macro FPR is
  // 2026.12.08's (0.064 against 0.063) and recall and the worst FPR are better. With the `answer`
  // concept of 2026.12.11, 0.1 less: all four beat 2026.12.10's 0.05 below its own bias (0.690 /
  // 0.695 / 0.058 / 0.280 against 0.684 / 0.679 / 0.061 / 0.284; docs/detection-experiments.md).
  // The `urgent` concept of 2026.12.12 keeps it: the recall of 2026.12.11 0.05 higher at a lower
  // macro and worst FPR (0.702 / 0.700 / 0.056 / 0.291 against 0.702 / 0.700 / 0.061 / 0.298).
  // With the written sets in training (2026.12.18), 0.1 less: all four beat 2026.12.12's (0.711 /
  // 0.712 / 0.055 / 0.264).
  biasShift: -0.15,
  lr0: 0.5,
  seed: 'order',
  balance: 'source',
  syntheticWeight: 2,
  // Three, with 10,000 composed carriers of each kind (bench/support/synthetic.ts) and the bias 0.05
  // higher: all four leave-one-source-out figures beat 2026.12.07's and the written business texts
  // of bench/data/written-documents.jsonl are flagged less (2026.12.08; docs/detection-experiments.md).
  documentWeight: 3,
  // Per-source balance and class balance averaged: lower LOSO FPR at the same recall than either.
  alsoBalance: ['class'],
  // No word of one source makes a text an attack on its own (2026.12.03's largest word weight was
  // 2.5, and 1,397 were above 0.5): the model must find an attack in the concepts or in many words.
  // Over the leave-one-source-out curve this raises recall over sources with 20+ attacks by about
  // 0.01 and cuts the worst source's FPR by 0.02–0.04 at the same macro FPR. A cap on benign words
  // too (±0.4, ±0.5), or of 0.4, flagged benign texts of injection.test.ts (the email of override
  // verbs); docs/detection-experiments.md has the figures.
  wordCap: 0.5,
};

/** Per-example weights: half the total for each label, shared out by `balance`. */
function exampleWeightsWith(
  train: Example[],
  balance: TrainingOptions['balance'],
  synth: number,
  documents: number,
): Float64Array {
  const w = new Float64Array(train.length);
  const counts = new Map<string, number>();
  const key = (e: Example) => `${e.y}\u0000${balance === 'class' ? '' : (e.group ?? '')}`;
  for (const e of train) counts.set(key(e), (counts.get(key(e)) ?? 0) + 1);
  const base = (c: number) => (balance === 'sqrt' ? Math.sqrt(c) : balance === 'source' ? 1 : c);
  const share = (k: string, c: number) =>
    base(c) * (/synthetic:(business|indirect)$/.test(k) ? documents : k.includes('synthetic:') ? synth : 1);
  const totals = [0, 0];
  for (const [k, c] of counts) totals[Number(k[0])]! += share(k, c);
  train.forEach((e, i) => {
    const c = counts.get(key(e))!;
    const k = key(e);
    // Class total = n/2, split across groups in proportion to share(c), then evenly within a group.
    w[i] = ((train.length / 2) * (share(k, c) / totals[e.y]!)) / c;
  });
  return w;
}

/**
 * A labelled text's training examples, one per window the model scores: an attack gives its first
 * window only (its other windows may hold none of the attack), a benign text every window (it is
 * benign throughout, and inference takes the best window, so a long text's later windows count too).
 */
export function textExamples(
  row: { id: string; text: string; label: 'injection' | 'benign' },
  group: string,
): Example[] {
  const { id, text } = row;
  const y = row.label === 'injection' ? 1 : 0;
  const norm = modelReadable(buildViews(text, { derived: false }).normalized.text);
  const windows = modelWindows(norm);
  return (y ? windows.slice(0, 1) : windows).map(([s, e], k) => ({
    id: k ? `${id}#${k}` : id,
    x: featureIndices(norm.slice(s, e)),
    y,
    group,
  }));
}

export function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * Sets of texts written for Warden by helpers that read nothing of the repository, in bench/data:
 * business texts with instructions planted for an AI, prompt-injection-game inputs, attacks and
 * benign texts in 20 other languages, turns of ordinary assistant conversations (attacks and
 * look-alikes). Every model is trained with them, each set weighing as one source: four more hands
 * lifted leave-one-source-out recall at a lower macro and worst FPR (2026.12.18,
 * docs/detection-experiments.md). eval:detectors scores each with a model trained without it.
 */
export const WRITTEN_TRAINING_SETS = [
  'written-documents.jsonl',
  'written-games.jsonl',
  'written-multilingual.jsonl',
  'written-conversations.jsonl',
];

/** Labelled texts of a JSONL file ({id?, text, label}) as examples of `group`, ids prefixed by `name`. */
export function fileExamples(path: string | URL, name: string, group: string): Example[] {
  return parseJsonl<{ id?: string; text: string; label: 'injection' | 'benign' }>(path).flatMap((r, i) =>
    textExamples({ ...r, id: `${name}:${r.id ?? i}` }, group),
  );
}

/** The written sets (all but `without`) as examples, each set its own group. */
export function writtenExamples(without?: string): Example[] {
  return WRITTEN_TRAINING_SETS.filter((f) => f !== without).flatMap((file) =>
    fileExamples(new URL(`../data/${file}`, import.meta.url), file, `written:${file}`),
  );
}

/** The generated training rows (bench/support/synthetic.ts) as examples; every model is trained with them. */
export function syntheticExamples(lab: LabRows = {}): Example[] {
  return syntheticRows(undefined, lab).flatMap((r) => textExamples(r, r.source));
}

/** Trains on `examples` (not modified); deterministic for a given set of examples. */
export function trainInjectionModel(
  examples: Example[],
  log?: (line: string) => void,
  opts: TrainingOptions = TRAINING,
): TrainedModel {
  // Fixed order that interleaves the classes: hash of id and seed, not arrival order.
  const train = [...examples].sort((a, b) => fnv(a.id + opts.seed) - fnv(b.id + opts.seed));
  const size = 1 << FEATURE_BITS;
  const w = new Float32Array(size);
  let bias = 0;
  const balances = [opts.balance, ...opts.alsoBalance];
  for (const balance of balances) {
    const fit = fitOne(train, balance, opts, log);
    for (let i = 0; i < size; i++) w[i]! += fit.w[i]! / balances.length;
    bias += fit.bias / balances.length;
  }
  bias += opts.biasShift;
  // Quantise to int16 with one scale: keeps the shipped file small.
  let maxAbs = 0;
  for (const v of w) maxAbs = Math.max(maxAbs, Math.abs(v));
  const scale = maxAbs / 32767 || 1;
  const quantised = new Int16Array(size);
  for (let i = 0; i < size; i++) quantised[i] = Math.round(w[i]! / scale);
  const model = { bits: FEATURE_BITS, bias, weights: Float32Array.from(quantised, (v) => v * scale) };
  return { model, quantised, scale };
}

/** One logistic-regression fit over `train` (already in its fixed order) under one balance. */
function fitOne(
  train: Example[],
  balance: TrainingOptions['balance'],
  opts: TrainingOptions,
  log?: (line: string) => void,
): { w: Float32Array; bias: number } {
  const weights = exampleWeightsWith(train, balance, opts.syntheticWeight, opts.documentWeight);
  const w = new Float32Array(1 << FEATURE_BITS);
  const l2 = new Float32Array(1 << FEATURE_BITS).fill(opts.l2);
  const capped = new Uint8Array(1 << FEATURE_BITS).fill(opts.wordCap > 0 ? 1 : 0);
  for (const b of conceptBuckets()) {
    l2[b] = opts.conceptL2;
    capped[b] = 0;
  }
  let bias = 0;
  let step = 0;
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    let loss = 0;
    for (let k = 0; k < train.length; k++) {
      const ex = train[k]!;
      const lr = opts.lr0 / (1 + step / 5000);
      step++;
      const norm = 1 / Math.sqrt(Math.max(MIN_NORM_FEATURES, ex.x.length));
      let z = bias;
      for (const i of ex.x) z += w[i]! * norm;
      const p = 1 / (1 + Math.exp(-z));
      const cw = weights[k]!;
      loss += -cw * (ex.y ? Math.log(p + 1e-9) : Math.log(1 - p + 1e-9));
      const g = (p - ex.y) * cw;
      for (const i of ex.x) {
        const v = w[i]! - lr * (g * norm + l2[i]! * w[i]!);
        w[i] = capped[i] && v > opts.wordCap ? opts.wordCap : v;
      }
      bias -= lr * g * 0.1;
    }
    if (log && (epoch % 5 === 4 || epoch === opts.epochs - 1))
      log(`${balance} balance, epoch ${epoch + 1}: mean loss ${(loss / train.length).toFixed(4)}`);
  }
  return { w, bias };
}

/**
 * Writes a trained model as shared/src/detectors/<file> (int16, base64), exporting `name`; returns
 * the path and the base64 size in KB.
 */
export function writeWeights(
  file: string,
  name: string,
  header: string,
  trained: TrainedModel,
  trainRows: number,
): { path: string; kb: number } {
  const { model, quantised, scale } = trained;
  const b64 = Buffer.from(quantised.buffer).toString('base64');
  const path = resolve(repoRoot, 'shared', 'src', 'detectors', file);
  writeFileSync(
    path,
    `// ${header} Do not edit.\n` +
      `export const ${name} = {\n  bits: ${FEATURE_BITS},\n  bias: ${Number(model.bias.toFixed(6))},\n  scale: ${scale.toExponential(6).replace(/\.?0+e/, 'e')},\n  trainRows: ${trainRows},\n  int16Base64:\n    '${b64}',\n};\n`,
  );
  return { path, kb: Math.round(b64.length / 1024) };
}
