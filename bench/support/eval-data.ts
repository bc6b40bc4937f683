import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { repoRoot } from '@warden/shared/paths';

/** The reference eval folder: `../shared/eval` next to the repo, or WARDEN_EVAL_DIR. Read at run time only. */
export const evalDir = process.env.WARDEN_EVAL_DIR ?? resolve(repoRoot, '..', 'shared', 'eval');

export interface InjectionRow {
  id: string;
  text: string;
  label: 'injection' | 'benign';
  source: string;
  category?: string;
}

export interface PiiSpan {
  type: string;
  start: number;
  end: number;
}

export interface PiiRow {
  id: string;
  text: string;
  spans: PiiSpan[];
  source: string;
}

/** The rows of a JSON Lines file (blank lines skipped). */
export function parseJsonl<T>(path: string | URL): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

function readJsonl<T>(name: string): T[] {
  const path = resolve(evalDir, name);
  if (!existsSync(path))
    throw new Error(`eval data not found at ${path}: set WARDEN_EVAL_DIR to the folder holding ${name}`);
  return parseJsonl<T>(path);
}

export const loadInjectionRows = () => readJsonl<InjectionRow>('injection-dev.jsonl');
/** injection-train.jsonl alone: the pool's training file, where generated texts take their bases. */
export const loadInjectionTrainRows = () => readJsonl<InjectionRow>('injection-train.jsonl');
/** The whole injection pool: injection-dev.jsonl and injection-train.jsonl (no text is in both). */
export const loadInjectionPool = () => [...loadInjectionRows(), ...loadInjectionTrainRows()];
/** A row's source: the part of `source` before `:` (the unit of leave-one-source-out). */
export const sourceOf = (row: InjectionRow) => row.source.split(':')[0]!;
export const loadPiiRows = () => readJsonl<PiiRow>('pii-dev.jsonl');

/**
 * Fixed split for the injection model: a row is held out when the FNV-1a hash of its id is 0 mod 5
 * (≈20%). The training script never sees held-out rows; the eval reports the model on them.
 */
export function isHeldOut(id: string): boolean {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return h % 5 === 0;
}
