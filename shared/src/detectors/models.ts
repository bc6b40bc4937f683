import { modelReadable, modelWindows, scoreWindow, type LinearModel } from './injection-features';
import { injectionModelWeights } from './injection-model-weights';
import { leakModelWeights } from './leak-model-weights';

/** A model as shipped: int16 weights in base64 and the one scale that turns them back into floats. */
export interface ShippedWeights {
  bits: number;
  bias: number;
  scale: number;
  int16Base64: string;
}

function decode(w: ShippedWeights): LinearModel {
  const buf = Buffer.from(w.int16Base64, 'base64');
  const q = new Int16Array(buf.buffer, buf.byteOffset, buf.byteLength / 2);
  const weights = new Float32Array(q.length);
  for (let i = 0; i < q.length; i++) weights[i] = q[i]! * w.scale;
  return { bits: w.bits, bias: w.bias, weights };
}

let injection: LinearModel | undefined;
let leak: LinearModel | undefined;

/** The shipped injection model (bench/train-injection-model.ts), decoded once. */
export const injectionModel = (): LinearModel => (injection ??= decode(injectionModelWeights));

/**
 * The shipped response-leak model (bench/train-leak-model.ts), decoded once: the same features as
 * the injection model, trained on responses that disclose the assistant's own setup against ordinary
 * ones.
 */
export const leakModel = (): LinearModel => (leak ??= decode(leakModelWeights));

export interface ModelScore {
  probability: number;
  /** Span of the best-scoring window in the scored text. */
  start: number;
  end: number;
  /** The concepts the model read in that window (see conceptNames). */
  concepts: number;
  /** The text as the model read it (modelReadable): what start and end index. */
  text: string;
}

/**
 * Best window score of a lower-cased normalised text under `model`: one injected passage in a long
 * document still scores.
 */
export function scoreModel(normalizedText: string, model: LinearModel): ModelScore {
  const text = modelReadable(normalizedText);
  let best: ModelScore = { probability: 0, start: 0, end: text.length, concepts: 0, text };
  for (const [s, e] of modelWindows(text)) {
    const { probability, concepts } = scoreWindow(model, text, s, e);
    if (probability > best.probability) best = { probability, start: s, end: e, concepts, text };
  }
  return best;
}
