import { modelReadable, modelWindows, scoreWindow, type LinearModel } from './injection-features';
import { injectionModelWeights } from './injection-model-weights';

let cached: LinearModel | undefined;

/** The shipped model, decoded once from its int16 base64 form. */
export function injectionModel(): LinearModel {
  if (!cached) {
    const buf = Buffer.from(injectionModelWeights.int16Base64, 'base64');
    const q = new Int16Array(buf.buffer, buf.byteOffset, buf.byteLength / 2);
    const weights = new Float32Array(q.length);
    for (let i = 0; i < q.length; i++) weights[i] = q[i]! * injectionModelWeights.scale;
    cached = { bits: injectionModelWeights.bits, bias: injectionModelWeights.bias, weights };
  }
  return cached;
}

export interface ModelScore {
  probability: number;
  /** Span of the best-scoring window in the scored text. */
  start: number;
  end: number;
  /** The concepts the model read in that window (see conceptNames). */
  concepts: number;
}

/**
 * Best window score of a lower-cased normalised text: one injected passage in a long document still
 * scores. `model` defaults to the shipped one (the eval passes one trained without the scored source).
 */
export function scoreInjectionModel(normalizedText: string, model = injectionModel()): ModelScore {
  const text = modelReadable(normalizedText);
  let best: ModelScore = { probability: 0, start: 0, end: text.length, concepts: 0 };
  for (const [s, e] of modelWindows(text)) {
    const { probability, concepts } = scoreWindow(model, text, s, e);
    if (probability > best.probability) best = { probability, start: s, end: e, concepts };
  }
  return best;
}
