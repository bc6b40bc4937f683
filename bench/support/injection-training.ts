/**
 * Training of the injection model, shared by the training script (which writes the shipped weights)
 * and the leave-one-source-out eval (which trains one model per held-out source): logistic regression
 * over the hashed features of injection-features.ts, class-balanced, fixed example order, int16
 * quantisation. The same text → features path as inference, so the eval scores what would ship.
 */
import {
  FEATURE_BITS,
  featureIndices,
  modelReadable,
  modelWindows,
  type LinearModel,
} from '@warden/shared/detectors/injection-features';
import { buildViews } from '@warden/shared/detectors/views';

export interface Example {
  /** Row id: fixes the training order. */
  id: string;
  x: Uint32Array;
  y: 0 | 1;
}

export interface TrainedModel {
  model: LinearModel;
  /** The int16 weights and their scale, as shipped. */
  quantised: Int16Array;
  scale: number;
}

export const TRAINING = { epochs: 30, l2: 1e-5, lr0: 0.5, seed: 'order' };

/** Feature buckets of a text as the model sees it: the first window of the normalised view. */
export function modelFeatures(text: string): Uint32Array {
  const norm = modelReadable(buildViews(text, { derived: false }).normalized.text);
  const [s, e] = modelWindows(norm)[0]!;
  return featureIndices(norm.slice(s, e));
}

export function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** Trains on `examples` (not modified); deterministic for a given set of examples. */
export function trainInjectionModel(examples: Example[], log?: (line: string) => void): TrainedModel {
  // Fixed order that interleaves the classes: hash of id and seed, not arrival order.
  const train = [...examples].sort((a, b) => fnv(a.id + TRAINING.seed) - fnv(b.id + TRAINING.seed));
  const pos = train.filter((e) => e.y === 1).length;
  const neg = train.length - pos;
  const classWeight = [train.length / (2 * Math.max(1, neg)), train.length / (2 * Math.max(1, pos))];
  const size = 1 << FEATURE_BITS;
  const w = new Float32Array(size);
  let bias = 0;
  let step = 0;
  for (let epoch = 0; epoch < TRAINING.epochs; epoch++) {
    let loss = 0;
    for (const ex of train) {
      const lr = TRAINING.lr0 / (1 + step / 5000);
      step++;
      const norm = 1 / Math.sqrt(Math.max(1, ex.x.length));
      let z = bias;
      for (const i of ex.x) z += w[i]! * norm;
      const p = 1 / (1 + Math.exp(-z));
      const cw = classWeight[ex.y]!;
      loss += -cw * (ex.y ? Math.log(p + 1e-9) : Math.log(1 - p + 1e-9));
      const g = (p - ex.y) * cw;
      for (const i of ex.x) w[i] = w[i]! - lr * (g * norm + TRAINING.l2 * w[i]!);
      bias -= lr * g * 0.1;
    }
    if (log && (epoch % 5 === 4 || epoch === TRAINING.epochs - 1))
      log(`epoch ${epoch + 1}: mean loss ${(loss / train.length).toFixed(4)}`);
  }
  // Quantise to int16 with one scale: keeps the shipped file small.
  let maxAbs = 0;
  for (const v of w) maxAbs = Math.max(maxAbs, Math.abs(v));
  const scale = maxAbs / 32767 || 1;
  const quantised = new Int16Array(size);
  for (let i = 0; i < size; i++) quantised[i] = Math.round(w[i]! / scale);
  const model = { bits: FEATURE_BITS, bias, weights: Float32Array.from(quantised, (v) => v * scale) };
  return { model, quantised, scale };
}
