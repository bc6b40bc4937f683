/**
 * The labelled responses of response-leak detection, and the training of its model: one home for
 * the sets (bench/data/written-*.jsonl and bench/gen-response-leaks.ts), shared by the training
 * script, which writes the shipped weights, and by eval:detectors, which trains one model per
 * held-out set (each set is one writer's: leaving it out scores the model on a hand it never read).
 */
import { generateResponseLeaks } from '../gen-response-leaks';
import { loadInjectionPool, parseJsonl, sourceOf } from './eval-data';
import {
  TRAINING,
  textExamples,
  trainInjectionModel,
  type TrainedModel,
  type TrainingOptions,
} from './injection-training';

export interface ResponseRow {
  id: string;
  label: 'leak' | 'clean';
  kind: string;
  text: string;
  /** The set the row is from (its writer): the model's training balances sets, the eval leaves one out. */
  set: string;
}

export interface ResponseSet {
  /** File in bench/data, or `generated` for bench/gen-response-leaks.ts (seed 6). */
  file: string;
  /** What the set is and how it has been used: printed above its figures. */
  about: string;
  /** False for a set no model is ever trained on, only scored. */
  trained: boolean;
}

/**
 * Every set of labelled responses. Each was written by a helper that read nothing of the repository
 * (the generator excepted); "read" means its texts were read while rules were written.
 */
export const RESPONSE_SETS: ResponseSet[] = [
  { file: 'generated', about: 'bench/gen-response-leaks.ts, seed 6', trained: true },
  { file: 'written-leaks.jsonl', about: '160 leaks, 240 ordinary; only its counts ever read', trained: true },
  { file: 'written-leaks-b.jsonl', about: '100 leaks by a fourth hand, never read', trained: true },
  { file: 'written-leaks-c.jsonl', about: '200 leaks by a fifth hand, never read', trained: true },
  {
    file: 'written-responses-d.jsonl',
    about: '100 leaks, 200 ordinary; its false positives read after one scoring',
    trained: true,
  },
  { file: 'written-responses-e.jsonl', about: '120 leaks, 240 ordinary, never read', trained: true },
  { file: 'written-responses-f.jsonl', about: '120 leaks, 240 ordinary, never read', trained: true },
  { file: 'written-responses-g.jsonl', about: '120 leaks, 240 ordinary, never read', trained: true },
  {
    file: 'written-leaks-dev.jsonl',
    about: '240 leaks, read while the rules of 2026.12.15 changed',
    trained: true,
  },
  {
    file: 'written-responses-dev.jsonl',
    about: '200 leaks, 200 ordinary, read while the rules of 2026.12.16 changed',
    trained: true,
  },
  {
    file: 'written-responses-dev-b.jsonl',
    about: '120 leaks, 120 ordinary, read while the rules of 2026.12.17 changed',
    trained: true,
  },
  {
    file: 'written-responses-h.jsonl',
    about: '120 leaks, 240 ordinary, read after its first scoring (2026.12.17 developed on it)',
    trained: true,
  },
  {
    file: 'written-responses-dev-d.jsonl',
    about:
      '120 leaks, 120 ordinary, agents with tools and internal assistants weighted up; never read, scored once before it was trained on',
    trained: true,
  },
  {
    file: 'written-responses-i.jsonl',
    about:
      "120 leaks, 240 ordinary by two new writers (consumer and professional assistants); only its missed secrets and other users' data read (2026-12-07, nothing changed for them)",
    trained: false,
  },
  {
    file: 'written-responses-j.jsonl',
    about:
      "120 leaks, 240 ordinary by two new writers (consumer and workplace assistants); only its missed secrets, other users' data and configurations read",
    trained: false,
  },
  {
    file: 'written-clean-responses.jsonl',
    about: '300 ordinary responses by a third hand, read while the rules of 2026.12.14 changed',
    trained: true,
  },
];

export function loadResponseSet(set: ResponseSet): ResponseRow[] {
  if (set.file === 'generated')
    return generateResponseLeaks().map((r, i) => ({ id: `generated:${i}`, ...r, set: set.file }));
  return parseJsonl<Omit<ResponseRow, 'set'>>(new URL(`../data/${set.file}`, import.meta.url)).map(
    (r, i) => ({
      id: `${set.file}:${r.id ?? i}`,
      label: r.label,
      kind: r.kind,
      text: r.text,
      set: set.file,
    }),
  );
}

/**
 * Pool sources whose benign texts are system prompts or role prompts (custom GPTs, "act as…" prompts,
 * agent policies): a response that recites one leaks it, so they are not ordinary responses.
 */
const PROMPT_SOURCES = ['LouisShark', 'awesome-chatgpt-prompts', 'tau-bench', 'PlexPt'];
/** Benign texts taken from each other pool source, spread evenly over it. */
const POOL_PER_SOURCE = 400;

/**
 * Ordinary text from the injection pool's benign sources (questions, instructions, documents, talk
 * about AI, other languages) as more ordinary responses: the model must not learn that any text
 * about prompts or rules is a leak.
 */
export function poolResponses(): ResponseRow[] {
  const bySource = new Map<string, string[]>();
  for (const r of loadInjectionPool()) {
    const s = sourceOf(r);
    if (r.label !== 'benign' || PROMPT_SOURCES.some((p) => s.includes(p))) continue;
    bySource.set(s, [...(bySource.get(s) ?? []), r.text]);
  }
  return [...bySource].flatMap(([s, texts]) => {
    const step = Math.max(1, Math.floor(texts.length / POOL_PER_SOURCE));
    return texts
      .filter((_, i) => i % step === 0)
      .slice(0, POOL_PER_SOURCE)
      .map((text, i) => ({
        id: `pool:${s}:${i}`,
        label: 'clean' as const,
        kind: 'pool',
        text,
        set: `pool:${s}`,
      }));
  });
}

/**
 * How the leak model is trained: the injection model's trainer and features, each set weighing the
 * same within its label, with a weaker L2 on words and no cap on them (a leak is said in words, not
 * in the concepts the injection model leans on). Measured leaving one writer out
 * (docs/detection-experiments.md, 2026.12.18): L2 1e-4 without the cap gave the most recall at an
 * FPR near 0.02; 3e-3 with the injection model's cap 0.03 less.
 */
export const LEAK_TRAINING: TrainingOptions = { ...TRAINING, l2: 1e-4, wordCap: 0, biasShift: 0 };

/** Trains the leak model on `rows` (deterministic for a given set of rows). */
export function trainLeakModel(rows: ResponseRow[]): TrainedModel {
  const examples = rows.flatMap((r) =>
    textExamples({ id: r.id, text: r.text, label: r.label === 'leak' ? 'injection' : 'benign' }, r.set),
  );
  return trainInjectionModel(examples, undefined, LEAK_TRAINING);
}

/** Every row the shipped leak model is trained on: the trained sets and the pool's ordinary texts. */
export function leakTrainingRows(without?: string): ResponseRow[] {
  return [
    ...RESPONSE_SETS.filter((s) => s.trained && s.file !== without).flatMap(loadResponseSet),
    ...poolResponses(),
  ];
}
