/**
 * Scores the detectors on the reference pool (read at run time from ../shared/eval, or
 * WARDEN_EVAL_DIR; never committed):
 *   npm run eval:detectors
 * Headline: leave-one-source-out recall and FPR per source (Warden, its rules, its model, vard), and
 * Warden's and vard's by subset of a source (attack method, language).
 * Then attacks put inside documents of a held-out benign source, the written sets (business texts
 * and indirect injections, prompt-injection games, other languages, ordinary assistant conversations:
 * bench/data/written-*.jsonl), a random split of the pool, the obfuscation families
 * (bench/gen-obfuscations.ts), response leaks and PII.
 */
import { detectText, type Finding } from '@warden/shared/detectors/index';
import { INJECTION_THRESHOLD, scoreModelViews } from '@warden/shared/detectors/injection';
import { FEATURE_BITS, type LinearModel } from '@warden/shared/detectors/injection-features';
import { injectionModel, leakModel } from '@warden/shared/detectors/models';
import { buildViews } from '@warden/shared/detectors/views';
import { printTable } from './support/load';
import { carrierTexts, DOCUMENT_CARRIER, DOCUMENT_CHARS, documentMaker } from './support/documents';
import { COUNTED_TYPES, STRUCTURED_TYPES } from './support/scoring';
import {
  evalDir,
  isHeldOut,
  loadInjectionPool,
  loadPiiRows,
  parseJsonl,
  sourceOf,
  type InjectionRow,
  type PiiSpan,
} from './support/eval-data';
import { generateObfuscations } from './gen-obfuscations';
import { FAMILIES_B, obfuscateB } from './support/obfuscations-b';
import { FAMILIES_C, obfuscateC } from './support/obfuscations-c';
import { FAMILIES_D, obfuscateD } from './support/obfuscations-d';
import { FAMILIES_E, obfuscateE } from './support/obfuscations-e';
import { FAMILIES_F, obfuscateF } from './support/obfuscations-f';
import { FAMILIES_G, obfuscateG } from './support/obfuscations-g';
import { FAMILIES_H, obfuscateH } from './support/obfuscations-h';
import { FAMILIES_I, obfuscateI } from './support/obfuscations-i';
import { FAMILIES_J, obfuscateJ } from './support/obfuscations-j';
import { FAMILIES_K, obfuscateK } from './support/obfuscations-k';
import { FAMILIES_L, obfuscateL } from './support/obfuscations-l';
import { FAMILIES_M, obfuscateM } from './support/obfuscations-m';
import { FAMILIES_N, obfuscateN } from './support/obfuscations-n';
import { FAMILIES_O, obfuscateO } from './support/obfuscations-o';
import { FAMILIES_P, obfuscateP } from './support/obfuscations-p';
import { FAMILIES_Q, obfuscateQ } from './support/obfuscations-q';
import { FAMILIES_R, obfuscateR } from './support/obfuscations-r';
import { FAMILIES_S, obfuscateS } from './support/obfuscations-s';
import { FAMILIES_T, obfuscateT } from './support/obfuscations-t';
import { FAMILIES_U, obfuscateU } from './support/obfuscations-u';
import { FAMILIES_V, obfuscateV } from './support/obfuscations-v';
import { rng, type Rand } from './support/rng';
import { figureTexts, piiAmongFigures } from './support/synthetic-figures';
import {
  textExamples,
  syntheticExamples,
  trainInjectionModel,
  WRITTEN_TRAINING_SETS,
  writtenExamples,
  type Example,
} from './support/injection-training';
import {
  leakTrainingRows,
  loadResponseSet,
  poolResponses,
  RESPONSE_SETS,
  trainLeakModel,
} from './support/response-leaks';
import { vardFlags } from './support/vard';

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

/** Recall on a source's injections and false-positive rate on its benign rows (NaN where it has none). */
function rates(c: Counts) {
  return { recall: c.tp / (c.tp + c.fn), fpr: c.fp / (c.fp + c.tn) };
}
const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;

/** A model that never scores: the rules alone, under the same combination and threshold. */
const NO_MODEL: LinearModel = {
  bits: FEATURE_BITS,
  bias: -30,
  weights: new Float32Array(1 << FEATURE_BITS),
};

const flags = (text: string, model: LinearModel) =>
  detectText(text, 'prompt', { injectionModel: model }).some(isInjectionFinding);

interface Scored {
  warden: Counts;
  rules: Counts;
  model: Counts;
  vard: Counts;
}
const scored = (): Scored => ({ warden: empty(), rules: empty(), model: empty(), vard: empty() });

/**
 * Scores `rows` into `into`; with `bySubset`, Warden's and vard's verdicts are also tallied under each
 * row's subset (subsetOf).
 */
function scoreRows(rows: InjectionRow[], model: LinearModel, into: Scored, bySubset?: Map<string, Scored>) {
  for (const r of rows) {
    const actual = r.label === 'injection';
    const warden = flags(r.text, model);
    const vard = vardFlags(r.text);
    tally(into.warden, warden, actual);
    tally(into.rules, flags(r.text, NO_MODEL), actual);
    tally(into.model, scoreModelViews(buildViews(r.text), model).probability >= INJECTION_THRESHOLD, actual);
    tally(into.vard, vard, actual);
    const key = bySubset && subsetOf(r);
    if (!key) continue;
    let sub = bySubset.get(key);
    if (!sub) bySubset.set(key, (sub = scored()));
    tally(sub.warden, warden, actual);
    tally(sub.vard, vard, actual);
  }
}

/**
 * A row's subset: its source and the first word after the source's ':' (an attack method such as
 * JailbreakBench's GCG or PAIR, a language, a benchmark's part); undefined when the source names none.
 */
const subsetOf = (r: InjectionRow) => {
  const rest = r.source.slice(sourceOf(r).length + 1).split(' ')[0];
  return rest ? `${sourceOf(r)} · ${rest}` : undefined;
};
/** Subsets smaller than this (of a label) are left out of the per-subset table. */
const SUBSET_MIN = 20;

export interface LosoSummary {
  macroRecall: Record<keyof Scored, number>;
  macroFpr: Record<keyof Scored, number>;
}

/**
 * The headline: leave-one-source-out. For each source S of the pool, the model is trained on every
 * other source and S is scored with it; rules (never trained) and vard are scored on S the same way.
 */
/** The whole pool's training examples, built once per run (the LOSO folds and the written sets share them). */
let poolExamplesMemo: Example[] | undefined;
const poolExamples = () =>
  (poolExamplesMemo ??= loadInjectionPool().flatMap((r) => textExamples(r, sourceOf(r))));

export function evalInjectionLoso(): LosoSummary {
  const pool = loadInjectionPool();
  const t0 = performance.now();
  const examples = poolExamples();
  // Generated rows (bench/support/synthetic.ts) and the written sets are in every fold's training
  // set and never scored here (evalWritten scores each written set held out).
  const synthetic = [...syntheticExamples(), ...writtenExamples()];
  const bySource = new Map<string, number[]>();
  pool.forEach((r, i) => {
    const s = sourceOf(r);
    if (!bySource.has(s)) bySource.set(s, []);
    bySource.get(s)!.push(i);
  });
  const sources = [...bySource.keys()].sort();
  const results = new Map<string, Scored>();
  const bySubset = new Map<string, Scored>();
  for (const s of sources) {
    const idx = new Set(bySource.get(s));
    const { model } = trainInjectionModel([...examples.filter((e) => e.group !== s), ...synthetic]);
    const res = scored();
    scoreRows(
      [...idx].map((i) => pool[i]!),
      model,
      res,
      bySubset,
    );
    results.set(s, res);
    process.stderr.write(
      `  LOSO ${s}: ${idx.size} rows scored (${((performance.now() - t0) / 1000).toFixed(0)} s)\n`,
    );
  }
  const kinds = ['warden', 'rules', 'model', 'vard'] as const;
  const cell = (x: number) => (Number.isFinite(x) ? f3(x) : '-');
  const table = sources.map((s) => {
    const res = results.get(s)!;
    const c = res.warden;
    const row: Record<string, string | number> = {
      source: s,
      injections: c.tp + c.fn,
      benign: c.fp + c.tn,
    };
    for (const k of kinds) {
      const { recall, fpr } = rates(res[k]);
      row[`${k} R`] = cell(recall);
      row[`${k} FPR`] = cell(fpr);
    }
    return row;
  });
  const summary: LosoSummary = { macroRecall: {} as never, macroFpr: {} as never };
  const row = (source: string): Record<string, string | number> => ({ source, injections: '', benign: '' });
  const macro = row('MACRO mean');
  // A source with a handful of rows of a label moves the macro figure by a whole row's share.
  const sizeable = row('MACRO, sources with >= 20 rows of the label');
  const worst = row('worst source');
  /** Recall and FPR per source for detector `k`, with the source's counts of each label. */
  const perSource = (k: (typeof kinds)[number]) =>
    sources.map((s) => {
      const c = results.get(s)!.warden;
      return { ...rates(results.get(s)![k]), pos: c.tp + c.fn, neg: c.fp + c.tn };
    });
  for (const k of kinds) {
    const per = perSource(k);
    const rs = per.map((p) => p.recall).filter(Number.isFinite);
    const fs = per.map((p) => p.fpr).filter(Number.isFinite);
    summary.macroRecall[k] = mean(rs);
    summary.macroFpr[k] = mean(fs);
    macro[`${k} R`] = f3(mean(rs));
    macro[`${k} FPR`] = f3(mean(fs));
    sizeable[`${k} R`] = f3(mean(per.filter((p) => p.pos >= 20).map((p) => p.recall)));
    sizeable[`${k} FPR`] = f3(mean(per.filter((p) => p.neg >= 20).map((p) => p.fpr)));
    worst[`${k} R`] = f3(Math.min(...rs));
    worst[`${k} FPR`] = f3(Math.max(...fs));
  }
  console.log(
    '\n## Injection / jailbreak — leave-one-source-out (headline)\n' +
      `Pool: injection-dev.jsonl + injection-train.jsonl, ${pool.length} rows, ${sources.length} sources. For each source the\n` +
      'model is trained on all the other sources (bench/support/injection-training.ts) and that source is scored.\n' +
      'warden = full detector (rules + that model); rules = rules alone (no model); model = model alone (p ≥ 0.5);\n' +
      "vard = @andersmyrmel/vard (vard.safe === false). R = recall on the source's injections, FPR = share of its\n" +
      'benign rows flagged; macro = unweighted mean over the sources that have that label.',
  );
  printTable([...table, macro, sizeable, worst]);
  // Sources mix kinds of text (attack methods, languages) that a macro over sources hides.
  const subsets = [...bySubset.keys()].sort();
  const subsetRows = subsets.flatMap((k) => {
    const { warden, vard } = bySubset.get(k)!;
    const pos = warden.tp + warden.fn;
    const neg = warden.fp + warden.tn;
    if (pos < SUBSET_MIN && neg < SUBSET_MIN) return [];
    const w = rates(warden);
    const v = rates(vard);
    const big = (n: number, x: number) => (n >= SUBSET_MIN ? f3(x) : '-');
    return [
      {
        subset: k,
        injections: pos,
        benign: neg,
        'warden R': big(pos, w.recall),
        'warden FPR': big(neg, w.fpr),
        'vard R': big(pos, v.recall),
        'vard FPR': big(neg, v.fpr),
      },
    ];
  });
  console.log(
    `\nThe same leave-one-source-out verdicts by subset (the first word after a source's ':'; ${SUBSET_MIN}+ rows of a label):`,
  );
  printTable(subsetRows);
  return summary;
}

/**
 * Attacks inside longer data, the way indirect injections reach an agent: each attack source's
 * attacks, each put at a random place among benign texts of DOCUMENT_CARRIER (agent conversations)
 * about DOCUMENT_CHARS long (bench/support/documents.ts), and scored as a tool output. For each attack
 * source the model is trained without that source and without the carrier, so neither the attack
 * nor its surroundings were seen; documents of carrier texts alone, scored by every fold's model,
 * give the FPR.
 */
export function evalInjectionInDocuments() {
  const pool = loadInjectionPool();
  const documentWith = documentMaker(carrierTexts(pool));
  const field = 'toolCalls[0].output';
  const inDocument = (text: string, model: LinearModel) =>
    detectText(text, field, { injectionModel: model }).some(isInjectionFinding);
  const plain = Array.from({ length: 300 }, () => documentWith());
  const examples = pool
    .filter((r) => sourceOf(r) !== DOCUMENT_CARRIER)
    .flatMap((r) => textExamples(r, sourceOf(r)));
  const synthetic = [...syntheticExamples(), ...writtenExamples()];
  const sources = [...new Set(pool.filter((r) => r.label === 'injection').map(sourceOf))].sort();
  const table: Array<Record<string, string | number>> = [];
  const per: Array<{ alone: number; doc: number; vardDoc: number; fpr: number; n: number }> = [];
  for (const s of sources) {
    const attacks = pool.filter((r) => sourceOf(r) === s && r.label === 'injection').map((r) => r.text);
    const { model } = trainInjectionModel([...examples.filter((e) => e.group !== s), ...synthetic]);
    let alone = 0;
    let doc = 0;
    let vardDoc = 0;
    for (const a of attacks) {
      const d = documentWith(a);
      alone += +flags(a, model);
      doc += +inDocument(d, model);
      vardDoc += +vardFlags(d);
    }
    const fpr = plain.filter((d) => inDocument(d, model)).length / plain.length;
    const n = attacks.length;
    per.push({ alone: alone / n, doc: doc / n, vardDoc: vardDoc / n, fpr, n });
    table.push({
      source: s,
      attacks: n,
      'warden R alone': f3(alone / n),
      'warden R in a document': f3(doc / n),
      'documents alone FPR': f3(fpr),
      'vard R in a document': f3(vardDoc / n),
    });
  }
  const macroOf = (rows: typeof per, label: string) => ({
    source: label,
    attacks: '',
    'warden R alone': f3(mean(rows.map((p) => p.alone))),
    'warden R in a document': f3(mean(rows.map((p) => p.doc))),
    'documents alone FPR': f3(mean(rows.map((p) => p.fpr))),
    'vard R in a document': f3(mean(rows.map((p) => p.vardDoc))),
  });
  const vardPlain = plain.filter((d) => vardFlags(d)).length / plain.length;
  console.log(
    `\n## Attacks inside documents (leave-one-source-out; ${DOCUMENT_CARRIER} texts as the document, held out too)\n` +
      `Each attack at a random place among ${DOCUMENT_CARRIER} texts, about ${DOCUMENT_CHARS} characters in all, scored as\n` +
      `a tool output by a model trained without the attack's source and without ${DOCUMENT_CARRIER}. "alone" is\n` +
      `the same attack by itself under that model (as a prompt). FPR: ${plain.length} documents without an attack,\n` +
      `per fold's model (vard flags ${f3(vardPlain)} of them).`,
  );
  printTable([
    ...table,
    macroOf(per, 'MACRO mean'),
    macroOf(
      per.filter((p) => p.n >= 20),
      'MACRO, sources with >= 20 attacks',
    ),
  ]);
}

/** A text of a written set (bench/data/written-*.jsonl). */
interface WrittenText {
  id: string;
  label: 'injection' | 'benign';
  /** What the text is (an email, a calendar entry, a README, …); absent where `style` says it. */
  kind?: string;
  /** How the attack is put (addressed, authority, hidden, …), or for the games set what a text is. */
  style?: string;
  lang?: string;
  text: string;
}

/** A set of texts written for Warden by a different hand from the training generators; scored held out. */
interface WrittenSet {
  file: string;
  /** The field the texts are scored as. */
  field: string;
  title: string;
}

/**
 * Business texts and indirect injections: ordinary emails, notices, manuals and tool records full of
 * imperatives, and the same kinds of text with an instruction to the AI planted in them, scored as
 * tool outputs. The closest thing here to the customer traffic of issue #21's point 5.
 */
export const WRITTEN_DOCUMENTS: WrittenSet = {
  file: 'written-documents.jsonl',
  field: 'toolCalls[0].output',
  title:
    'Written business texts and indirect injections (bench/data/written-documents.jsonl; model trained\n' +
    'without it, scored as tool outputs). Attacks by how the instruction is put, benign texts by kind.',
};

/**
 * Players' inputs to prompt-injection games (an assistant guards a password or must answer "Access
 * Denied": fake delimiters, fake system messages, role-play, extraction, adversarial junk, code, other
 * languages) and benign texts of the same surface (the defenders' own prompts, password help, logs and
 * separators, code, game talk, noisy chat), scored as prompts: issue #21's first gap.
 */
export const WRITTEN_GAMES: WrittenSet = {
  file: 'written-games.jsonl',
  field: 'prompt',
  title:
    'Written prompt-injection-game attacks and look-alikes (bench/data/written-games.jsonl; model trained\n' +
    'without it, scored as prompts). Rows by style.',
};

/**
 * Attacks and benign texts in 20 languages besides English (direct overrides, personas, prompt
 * extraction, forced output, injections planted in emails and web pages, disguised harmful requests,
 * mixed-language ones; requests, business emails, security notices, talk about AI, system prompts,
 * chat, documents, harmless fiction and safety questions), scored as prompts: issue #21's 5% on 17
 * languages.
 */
export const WRITTEN_MULTILINGUAL: WrittenSet = {
  file: 'written-multilingual.jsonl',
  field: 'prompt',
  title:
    'Written attacks and benign texts in 20 languages besides English (bench/data/written-multilingual.jsonl;\n' +
    'model trained without it, scored as prompts). Attacks by style, benign texts by kind.',
};

/**
 * Single user turns of ordinary conversations with an assistant (chat, coding, support, tutoring):
 * overrides mid-conversation, personas, prompt extraction, claimed authority, disguised harmful
 * requests, refusal suppression, step-by-step escalation, split payloads; and the same surface
 * harmlessly (redirections, talk about AI, role-play, strict formats, security work, dark but safe
 * topics, developers' talk, everyday commands), scored as prompts: issue #21's 50% on direct attacks
 * in ordinary assistant conversations.
 */
export const WRITTEN_CONVERSATIONS: WrittenSet = {
  file: 'written-conversations.jsonl',
  field: 'prompt',
  title:
    'Written attacks and look-alikes in ordinary assistant conversations (bench/data/written-conversations.jsonl;\n' +
    'model trained without it, scored as prompts). Attacks by style, benign texts by kind.',
};

/**
 * What tools return to an agent (emails, tickets, transcripts, invoices, web pages, API records,
 * reviews, READMEs, logs: office work and consumer errands) with a third party's instruction to the
 * agent planted in them, and the same kinds of output carrying instructions meant for people: two
 * new writers, scored as tool outputs. Issue #21's indirect injections in agents' tool results.
 */
export const WRITTEN_TOOL_OUTPUTS: WrittenSet = {
  file: 'written-tool-outputs.jsonl',
  field: 'toolCalls[0].output',
  title:
    'Written tool outputs with and without a planted instruction (bench/data/written-tool-outputs.jsonl;\n' +
    'scored as tool outputs). Attacks and benign texts by format.',
};

/**
 * Messages to consumer and work assistants: jailbreaks by twenty techniques (personas, fiction,
 * invented authority, encodings, split payloads, forced openings, prompt extraction…) and requests
 * of the same surface (harmless personas, talk about jailbreaks, system prompts for one's own bot,
 * corrections, security work): two new writers, scored as prompts.
 */
export const WRITTEN_PROMPTS: WrittenSet = {
  file: 'written-prompts.jsonl',
  field: 'prompt',
  title:
    'Written jailbreaks and look-alikes typed to assistants (bench/data/written-prompts.jsonl; scored as\n' +
    'prompts). Attacks by technique, benign texts by type.',
};

export const loadWritten = (set: WrittenSet): WrittenText[] =>
  parseJsonl<WrittenText>(new URL(`./data/${set.file}`, import.meta.url));

/**
 * Warden and vard on a written set, by style (attacks) and kind (benign texts). A set the shipped
 * model is trained on (WRITTEN_TRAINING_SETS) is scored with a model trained the same way without it.
 */
export function evalWritten(set: WrittenSet) {
  const by = new Map<string, { warden: Counts; vard: Counts }>();
  const all = { warden: empty(), vard: empty() };
  const model = WRITTEN_TRAINING_SETS.includes(set.file)
    ? trainInjectionModel([...poolExamples(), ...syntheticExamples(), ...writtenExamples(set.file)]).model
    : injectionModel();
  for (const r of loadWritten(set)) {
    const actual = r.label === 'injection';
    const warden = detectText(r.text, set.field, { injectionModel: model }).some(isInjectionFinding);
    const vard = vardFlags(r.text);
    const key = actual ? `attack · ${r.style ?? r.kind}` : `benign · ${r.kind ?? r.style}`;
    if (!by.has(key)) by.set(key, { warden: empty(), vard: empty() });
    for (const into of [by.get(key)!, all]) {
      tally(into.warden, warden, actual);
      tally(into.vard, vard, actual);
    }
  }
  console.log(`\n## ${set.title}`);
  const row = (name: string, c: { warden: Counts; vard: Counts }) => {
    const w = rates(c.warden);
    const v = rates(c.vard);
    return {
      set: name,
      attacks: c.warden.tp + c.warden.fn,
      benign: c.warden.fp + c.warden.tn,
      'warden R': c.warden.tp + c.warden.fn ? f3(w.recall) : '-',
      'warden FPR': c.warden.fp + c.warden.tn ? f3(w.fpr) : '-',
      'vard R': c.vard.tp + c.vard.fn ? f3(v.recall) : '-',
      'vard FPR': c.vard.fp + c.vard.tn ? f3(v.fpr) : '-',
    };
  };
  printTable([...[...by].sort(([a], [b]) => a.localeCompare(b)).map(([k, c]) => row(k, c)), row('all', all)]);
}

/**
 * Secondary: a random split of the pool (FNV-1a(id) % 5 == 0 held out), model trained on the rest.
 * Rows of one source share templates, so this measures memory more than detection.
 */
export function evalInjectionRandomSplit() {
  const pool = loadInjectionPool();
  const train = pool.filter((r) => !isHeldOut(r.id));
  const held = pool.filter((r) => isHeldOut(r.id));
  const { model } = trainInjectionModel([
    ...train.flatMap((r) => textExamples(r, sourceOf(r))),
    ...syntheticExamples(),
    ...writtenExamples(),
  ]);
  const res = scored();
  scoreRows(held, model, res);
  console.log('\n## Secondary: random 80/20 split of the pool (memorisation-prone; not the headline)');
  printTable([
    injectionRow('held-out: full detector', res.warden),
    injectionRow('held-out: rules alone', res.rules),
    injectionRow('held-out: model alone (p≥0.5)', res.model),
    injectionRow('held-out: vard', res.vard),
  ]);
}

/**
 * Obfuscation families (bench/gen-obfuscations.ts): recall on hidden attacks and FPR on benign texts
 * hidden the same way, with the shipped model. Then the same bases hidden by twenty-one other hands'
 * generators (bench/support/obfuscations-b.ts to -v.ts, each written without reading the decoder or
 * any other generator), whose variants (multi-symbol leetspeak, form encoding, 0x bytes, Armenian
 * and Cherokee look-alikes, a letter a line, Caesar shifts, Morse code, …) are not the first one's.
 * The second hand's misses shaped 2026.12.26, the third's 2026.12.27, the fourth's 2026.12.28, the
 * fifth's and sixth's 2026.12.29, the seventh's 2026.12.30, the eighth's 2026.12.31, the ninth's
 * 2027.01.01, the tenth's 2027.01.02, the eleventh's 2027.01.03, the twelfth's 2027.01.05, the
 * thirteenth's 2027.01.06, the fourteenth's 2027.01.07, the fifteenth's 2027.01.08, the sixteenth's
 * 2027.01.09, the seventeenth's 2027.01.10, the eighteenth's 2027.01.11, the nineteenth's
 * 2027.01.12, the twentieth's 2027.01.13, the twenty-first's 2027.01.14; the twenty-second's set
 * is held out.
 */
export function evalObfuscations() {
  const rows = generateObfuscations();
  console.log(
    '\n## Obfuscation families (bench/gen-obfuscations.ts, seed 21: attacks and benign texts hidden the same way;\n' +
      'shipped model). "plain" is the same bases unhidden, for reference.',
  );
  printObfuscationTable(rows);
  const bases = rows.filter((row) => row.family === 'plain');
  const hiddenBy = <F extends string>(
    families: readonly F[],
    hide: (r: Rand, text: string, family: F) => { text: string; method: string },
  ) => {
    const r = rng(7);
    return families.flatMap((family) =>
      bases.map((row) => ({ family, label: row.label, ...hide(r, row.base, family) })),
    );
  };
  console.log(
    '\n## Obfuscation families by a second hand (bench/support/obfuscations-b.ts, seed 7, the same bases;\n' +
      'its rot13 family also holds other Caesar shifts and ROT47). Its misses shaped 2026.12.26.',
  );
  printObfuscationTable(hiddenBy(FAMILIES_B, obfuscateB));
  console.log(
    '\n## Obfuscation families by a third hand (bench/support/obfuscations-c.ts, seed 7, the same bases;\n' +
      'held out for 2026.12.26, whose figures were first scored after it was written; its misses\n' +
      '(Atbash, marks that change between letters, Caesar shifts inside comments) shaped 2026.12.27).',
  );
  printObfuscationTable(hiddenBy(FAMILIES_C, obfuscateC));
  console.log(
    '\n## Obfuscation families by a fourth hand (bench/support/obfuscations-d.ts, seed 7, the same bases;\n' +
      'held out for 2026.12.27; its misses (Morse code, UTF-16 base64, base64 word by word, U+ code\n' +
      'points, quoted character lists, hidden HTML, …) shaped 2026.12.28. Its framings ask to decode\n' +
      'and obey benign texts too, which the benign figures count as false positives).',
  );
  printObfuscationTable(hiddenBy(FAMILIES_D, obfuscateD));
  for (const [hand, file, families, hide, use] of [
    [
      'fifth',
      'obfuscations-e.ts',
      FAMILIES_E,
      obfuscateE,
      'held out for 2026.12.28; its misses (fancy leetspeak, A1Z26, form bodies, …) shaped 2026.12.29',
    ],
    [
      'sixth',
      'obfuscations-f.ts',
      FAMILIES_F,
      obfuscateF,
      'held out for 2026.12.28; its misses (text written backwards, …) shaped 2026.12.29',
    ],
    [
      'seventh',
      'obfuscations-g.ts',
      FAMILIES_G,
      obfuscateG,
      'held out for 2026.12.29; its misses (key words under a cipher, base64 and hex words in place, …) shaped 2026.12.30',
    ],
    [
      'eighth',
      'obfuscations-h.ts',
      FAMILIES_H,
      obfuscateH,
      'held out for 2026.12.30; its misses (multi-symbol leetspeak, tabs between letters, dotted hex, …) shaped 2026.12.31',
    ],
    [
      'ninth',
      'obfuscations-i.ts',
      FAMILIES_I,
      obfuscateI,
      'held out for 2026.12.31; its misses (glued words, hex dumps with offsets, ciphers in groups of five, …) shaped 2027.01.01, some left (C arrays, base64 of spaced hex, %u surrogate pairs, …) 2027.01.02',
    ],
    [
      'tenth',
      'obfuscations-j.ts',
      FAMILIES_J,
      obfuscateJ,
      'held out for 2027.01.01; its misses (a character to a pair of brackets, base64 in full-width forms, runs after a string escape, …) shaped 2027.01.02',
    ],
    [
      'eleventh',
      'obfuscations-k.ts',
      FAMILIES_K,
      obfuscateK,
      'held out for 2027.01.02; its misses (leetspeak written over ROT13, a run of "!" before a word, …) shaped 2027.01.03',
    ],
    [
      'twelfth',
      'obfuscations-l.ts',
      FAMILIES_L,
      obfuscateL,
      'held out for 2027.01.03 and 2027.01.04; its misses (base64 in strings added up, a JSON array of characters, ROT13 on every other word) shaped 2027.01.05',
    ],
    [
      'thirteenth',
      'obfuscations-m.ts',
      FAMILIES_M,
      obfuscateM,
      'held out for 2027.01.05; its misses (underscores for spaces, Greek ω, emoji smuggling, JSON-doubled backslashes, …) shaped 2027.01.06',
    ],
    [
      'fourteenth',
      'obfuscations-n.ts',
      FAMILIES_N,
      obfuscateN,
      'held out for 2027.01.06; its misses (base64 in HTML references, ROT13 in groups of five, xxd groups, words cut by blanks between slashes) shaped 2027.01.07',
    ],
    [
      'fifteenth',
      'obfuscations-o.ts',
      FAMILIES_O,
      obfuscateO,
      'held out for 2027.01.07; its misses (hex bytes parted by commas, od dumps, C hex literals word by word, letters parted by blanks of changing widths, small capitals, …) and false alarms (chat-API requests, requests to decode and answer) shaped 2027.01.08',
    ],
    [
      'sixteenth',
      'obfuscations-p.ts',
      FAMILIES_P,
      obfuscateP,
      'held out for 2027.01.08; its misses (base64 wrapped with CRLF line breaks, a JSON record of base64 inside base64) shaped 2027.01.09',
    ],
    [
      'seventeenth',
      'obfuscations-q.ts',
      FAMILIES_Q,
      obfuscateQ,
      'held out for 2027.01.09; its misses (hex of percent-escaped text, hex bytes written apart under ROT13, hex words that turn case nowhere, letters parted by a dot or a space alike) shaped 2027.01.10',
    ],
    [
      'eighteenth',
      'obfuscations-r.ts',
      FAMILIES_R,
      obfuscateR,
      'held out for 2027.01.10; its misses (base64 of base64 wrapped at a width, three encodings nested, "()" for o in dense leetspeak, a word a line with letters parted by blanks of two kinds) shaped 2027.01.11',
    ],
    [
      'nineteenth',
      'obfuscations-s.ts',
      FAMILIES_S,
      obfuscateS,
      'held out for 2027.01.11; its misses (a drawn u "(_)" in a text without bars, a canonical hex dump, letters each in brackets or quotes) shaped 2027.01.12',
    ],
    [
      'twentieth',
      'obfuscations-t.ts',
      FAMILIES_T,
      obfuscateT,
      'held out for 2027.01.12; its misses (phonetic letters ɾ and ʋ among Armenian look-alikes, letters parted by semicolons a word a line) shaped 2027.01.13',
    ],
    [
      'twenty-first',
      'obfuscations-u.ts',
      FAMILIES_U,
      obfuscateU,
      'held out for 2027.01.13; its misses (base64 of \\u escapes) shaped 2027.01.14',
    ],
    [
      'twenty-second',
      'obfuscations-v.ts',
      FAMILIES_V,
      obfuscateV,
      'held out for 2027.01.14: written while it was, its rows never read',
    ],
  ] as const) {
    console.log(
      `\n## Obfuscation families by ${/^[aeiou]/.test(hand) ? 'an' : 'a'} ${hand} hand (bench/support/${file}, seed 7, the same bases;\n${use}).`,
    );
    printObfuscationTable(hiddenBy(families, hide));
  }
}

function printObfuscationTable(
  rows: Array<{ family: string; label: 'injection' | 'benign'; method: string; text: string }>,
) {
  const byFamily = new Map<string, Scored>();
  for (const r of rows) {
    if (!byFamily.has(r.family)) byFamily.set(r.family, scored());
    scoreRows([{ id: '', source: r.method, ...r }], injectionModel(), byFamily.get(r.family)!);
  }
  const kinds = ['warden', 'rules', 'model', 'vard'] as const;
  printTable(
    [...byFamily].map(([family, res]) => {
      const row: Record<string, string | number> = {
        family,
        attacks: res.warden.tp + res.warden.fn,
        benign: res.warden.fp + res.warden.tn,
      };
      for (const k of kinds) {
        const { recall, fpr } = rates(res[k]);
        row[`${k} R`] = f3(recall);
        row[`${k} FPR`] = f3(fpr);
      }
      return row;
    }),
  );
}

/**
 * Response-side leaks without a canary or a known system prompt, on the labelled responses of
 * bench/support/response-leaks.ts (RESPONSE_SETS: each set one writer's). Headline: each trained set
 * scored with a leak model trained without it (leave one set out, as for injection sources), so no
 * figure comes from a model that read the set; a set never trained on is scored with the shipped
 * model. Beside it, the rules alone. Then the pool's ordinary texts read as responses, each half of
 * its sources scored by a model trained without that half. vard scores prompts only: no column.
 * EVAL_LEAK_SETS=a.jsonl,b.jsonl limits the sets; EVAL_LEAK_SHOW=miss|fp prints those rows.
 */
export function evalResponseLeaks() {
  const only = process.env.EVAL_LEAK_SETS?.split(',');
  const show = process.env.EVAL_LEAK_SHOW;
  const leakFlags = (text: string, model: LinearModel) =>
    detectText(text, 'response', { leakModel: model }).some(
      (f) => f.threatType === 'system_prompt_leak' || f.threatType === 'canary_leak',
    );
  const summary: Array<Record<string, string | number>> = [];
  const totals = { warden: empty(), rules: empty() };
  const macro: Array<{ recall: number; fpr: number }> = [];
  for (const set of RESPONSE_SETS) {
    if (only && !only.includes(set.file)) continue;
    const rows = loadResponseSet(set);
    const model = set.trained ? trainLeakModel(leakTrainingRows(set.file)).model : leakModel();
    const byKind = new Map<string, { warden: Counts; rules: Counts }>();
    const all = { warden: empty(), rules: empty() };
    for (const r of rows) {
      const actual = r.label === 'leak';
      const warden = leakFlags(r.text, model);
      const rules = leakFlags(r.text, NO_MODEL);
      const key = `${r.label} · ${r.kind}`;
      if (!byKind.has(key)) byKind.set(key, { warden: empty(), rules: empty() });
      for (const into of [byKind.get(key)!, all, totals]) {
        tally(into.warden, warden, actual);
        tally(into.rules, rules, actual);
      }
      if ((show === 'miss' && actual && !warden) || (show === 'fp' && !actual && warden))
        console.log(`--- ${r.id} (${key})\n${r.text}\n`);
    }
    const held = set.trained ? 'model trained without this set' : 'shipped model, never trained on this set';
    console.log(`\n## Response leaks without a canary: ${set.file} (${set.about}); ${held}`);
    const line = (kind: string, c: { warden: Counts; rules: Counts }) => ({
      kind,
      leaks: c.warden.tp + c.warden.fn,
      clean: c.warden.fp + c.warden.tn,
      recall: c.warden.tp + c.warden.fn ? f3(rates(c.warden).recall) : '-',
      FPR: c.warden.fp + c.warden.tn ? f3(rates(c.warden).fpr) : '-',
      'rules R': c.rules.tp + c.rules.fn ? f3(rates(c.rules).recall) : '-',
      'rules FPR': c.rules.fp + c.rules.tn ? f3(rates(c.rules).fpr) : '-',
    });
    printTable([
      ...[...byKind].sort(([a], [b]) => a.localeCompare(b)).map(([k, c]) => line(k, c)),
      line('all', all),
    ]);
    const { kind: _, ...figures } = line('all', all);
    summary.push({ set: set.file, model: set.trained ? 'held out' : 'shipped', ...figures });
    macro.push(rates(all.warden));
  }
  console.log(
    '\n## Response leaks without a canary, by set (Warden: rules and the leak model; rules alone beside it)',
  );
  const overall = totals;
  const fmt = (c: Counts) => ({ recall: f3(rates(c).recall), FPR: f3(rates(c).fpr) });
  printTable([
    ...summary,
    {
      set: 'all rows',
      model: '',
      leaks: overall.warden.tp + overall.warden.fn,
      clean: overall.warden.fp + overall.warden.tn,
      ...fmt(overall.warden),
      'rules R': fmt(overall.rules).recall,
      'rules FPR': fmt(overall.rules).FPR,
    },
  ]);
  const withLeaks = macro.filter((m) => Number.isFinite(m.recall));
  const withClean = macro.filter((m) => Number.isFinite(m.fpr));
  console.log(
    `macro over sets: recall ${f3(mean(withLeaks.map((m) => m.recall)))} (${withLeaks.length} sets with leaks), ` +
      `FPR ${f3(mean(withClean.map((m) => m.fpr)))} (${withClean.length} sets with ordinary responses)`,
  );

  // The pool's ordinary texts as responses: half its sources held out of the model at a time.
  const pool = poolResponses();
  const sources = [...new Set(pool.map((r) => r.set))];
  const bySource = new Map<string, Counts>();
  const benign = loadInjectionPool().filter((r) => r.label === 'benign');
  for (let fold = 0; fold < 2; fold++) {
    const held = new Set(sources.filter((_, i) => i % 2 === fold));
    const model = trainLeakModel(leakTrainingRows().filter((r) => !held.has(r.set))).model;
    for (const r of benign) {
      const s = `pool:${sourceOf(r)}`;
      if (!held.has(s)) continue;
      if (!bySource.has(s)) bySource.set(s, empty());
      tally(bySource.get(s)!, leakFlags(r.text, model), false);
    }
  }
  console.log(
    "\n## The pool's ordinary texts read as responses (each half of the sources scored by a leak model trained without it)",
  );
  printTable(
    [...bySource].map(([s, c]) => ({
      source: s.slice(5),
      texts: c.fp + c.tn,
      flagged: c.fp,
      FPR: f3(rates(c).fpr),
    })),
  );
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

/** The PII types a digit run can be taken for. */
const NUMBER_TYPES = ['PHONE_NUMBER', 'CREDIT_CARD', 'US_SSN'];

/** Phones, cards and SSNs reported in generated figures, and found when planted among them. */
export function evalPiiAmongFigures() {
  const numberFindings = (text: string) =>
    detectText(text, 'prompt').filter(
      (f) => f.threatType === 'pii_leak' && f.entityType && NUMBER_TYPES.includes(f.entityType),
    );
  const figures = new Map<string, { texts: number; kb: number; findings: number }>();
  for (const { kind, text } of figureTexts()) {
    const c = figures.get(kind) ?? { texts: 0, kb: 0, findings: 0 };
    c.texts++;
    c.kb += text.length / 1024;
    c.findings += numberFindings(text).length;
    figures.set(kind, c);
  }
  console.log(
    '\n## Numbers that are not PII (bench/support/synthetic-figures.ts, seeded): phone, card and SSN findings',
  );
  printTable(
    [...figures].map(([kind, c]) => ({
      kind,
      texts: c.texts,
      KB: c.kb.toFixed(0),
      findings: c.findings,
      'a KB': (c.findings / c.kb).toFixed(2),
    })),
  );
  const planted = new Map<string, { rows: number; found: number }>();
  for (const row of piiAmongFigures()) {
    const start = row.text.indexOf(row.value);
    const end = start + row.value.length;
    const c = planted.get(row.kind) ?? { rows: 0, found: 0 };
    c.rows++;
    if (numberFindings(row.text).some((f) => f.entityType === row.type && f.start < end && start < f.end))
      c.found++;
    planted.set(row.kind, c);
  }
  console.log('\n## PII among numbers (the same file): a phone, card or SSN in a row beside other numbers');
  printTable(
    [...planted].map(([kind, c]) => ({ kind, rows: c.rows, found: c.found, recall: f3(c.found / c.rows) })),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`Eval data: ${evalDir}`);
  evalInjectionLoso();
  evalInjectionInDocuments();
  evalWritten(WRITTEN_DOCUMENTS);
  evalWritten(WRITTEN_GAMES);
  evalWritten(WRITTEN_MULTILINGUAL);
  evalWritten(WRITTEN_CONVERSATIONS);
  evalWritten(WRITTEN_TOOL_OUTPUTS);
  evalWritten(WRITTEN_PROMPTS);
  evalInjectionRandomSplit();
  evalObfuscations();
  evalResponseLeaks();
  evalPii();
  evalPiiAmongFigures();
}
