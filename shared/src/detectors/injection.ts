import RE2 from 're2';
import { optimisedSuffix, SUFFIX_THRESHOLD } from './adversarial-suffix';
import { combineEvidence, detectorVersion, roundConfidence, severityFor, type Finding } from './finding';
import { injectionRules, type InjectionRule } from './injection-rules';
import { conceptNames, type LinearModel } from './injection-features';
import { injectionModel, scoreModel, type ModelScore } from './models';
import { eachMatch, firstMatchSpan, trieSource, type Utf8Text } from './utf8-text';
import { rawSpan, readThroughHiding, viewUtf8, type FieldViews, type TextView } from './views';

// Unbounded single-class loops and byte-simple classes keep the RE2 automata small: nested bounded
// repeats ({0,4} inside {0,3}) and Unicode classes made the 1 MB adversarial input 20× slower.
// The gap between words is ASCII punctuation and symbols plus whole Unicode blocks of them (Latin-1,
// General and Supplemental Punctuation through the symbol blocks, CJK punctuation, emoji), not
// \pP\pS: their hundreds of scattered ranges made RE2's DFA for a long rule outgrow its memory
// and fall back to the NFA (130 µs instead of 4 µs to locate a match in 2 KB).
const GAP =
  '[\\s!-/:-@\\[-`{-~\\x{A0}-\\x{BF}\\x{D7}\\x{F7}\\x{2000}-\\x{2E7F}\\x{3000}-\\x{303F}\\x{1F000}-\\x{1FBFF}]*';
const WORD_START = '(?:^|[^a-z0-9\\x{80}-\\x{10FFFF}])';

/** Top-level `|` branches of an RE2 pattern (outside groups and character classes). */
export function splitBranches(src: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let from = 0;
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      // A `]` right after `[` or `[^` is a literal member.
      if (src[i + 1] === '^') i++;
      if (src[i + 1] === ']') i++;
    } else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === '|' && depth === 0) {
      out.push(src.slice(from, i));
      from = i + 1;
    }
  }
  out.push(src.slice(from));
  return out;
}

/**
 * Finds a rule's leftmost match. Some whole-rule automata are large enough that RE2 falls back to
 * its slow engine when locating a match (50–150 µs on 2 KB); each top-level branch alone stays
 * small. Leftmost-first semantics are kept exactly: the branch whose match starts first wins, and
 * on a tie the earlier branch (the one the whole alternation would have tried first).
 */
class Locator {
  private whole?: RE2;
  private branches?: RE2[];
  private set?: InstanceType<typeof RE2.Set>;
  constructor(private readonly src: string) {}
  /** Compiled on first use: most rules never match, and the skeleton forms serve leet views only. */
  private prepare() {
    this.whole = new RE2(this.src, 'gu');
    this.branches = [];
    const parts = splitBranches(this.src);
    if (parts.length < 2) return;
    try {
      this.branches = parts.map((b) => new RE2(b, 'gu'));
      this.set = new RE2.Set(parts, 'u');
    } catch {
      this.branches = [];
      this.set = undefined;
    }
  }
  /**
   * Byte span of the leftmost match. Each matching branch is asked for its start only (`search`,
   * no exec result); the winner is then asked for its end (see firstMatchSpan).
   */
  exec(text: Utf8Text): [number, number] | undefined {
    if (!this.whole) this.prepare();
    if (this.set) {
      try {
        let best = -1;
        let bestStart = -1;
        for (const k of this.set.match(text.bytes)) {
          const start = this.branches![k]!.search(text.bytes);
          if (start >= 0 && (best < 0 || start < bestStart)) {
            best = k;
            bestStart = start;
          }
        }
        if (best < 0) return undefined;
        return firstMatchSpan(this.branches![best]!, text, bestStart);
      } catch {
        // The set gave up (DFA memory on huge input): the whole pattern answers instead.
      }
    }
    return firstMatchSpan(this.whole!, text);
  }
  /** UTF-16 spans of every match, left to right, each as `locate` trims it. */
  spans(text: Utf8Text): Array<[number, number]> {
    if (!this.whole) this.prepare();
    const out: Array<[number, number]> = [];
    eachMatch(this.whole!, text, (m) => out.push(trimContext(text.text, m.index, m.index + m[0]!.length)));
    return out;
  }
}

interface CompiledRule {
  rule: InjectionRule;
  re: Locator;
  /** Same pattern with l→i, for the leet skeleton view. */
  skeleton: Locator;
  skeletonNeeds: string[];
  skeletonAlso?: string[];
}

function source(pattern: string, skeleton: boolean): string {
  const src = pattern.replaceAll('~', GAP).replaceAll('⟨', WORD_START);
  // Skeleton: fold l to i in literal letters only (there are no `\l` escapes in the rules).
  return skeleton ? src.replace(/l/g, 'i') : src;
}

function compile(pattern: string, skeleton: boolean): Locator {
  return new Locator(source(pattern, skeleton));
}

const compiled: CompiledRule[] = injectionRules.map((rule) => ({
  rule,
  re: compile(rule.pattern, false),
  skeleton: compile(rule.pattern, true),
  skeletonNeeds: rule.needs.map((n) => n.replace(/l/g, 'i')),
  skeletonAlso: rule.also?.map((n) => n.replace(/l/g, 'i')),
}));

/**
 * Every rule in a few RE2.Set automata: one linear pass per set says which rules match a view, so a
 * benign view costs a handful of native calls instead of one per rule. RE2 caps a set's memory,
 * hence chunks; a chunk that does not compile leaves its rules to the per-rule path.
 */
interface RuleSet {
  set: InstanceType<typeof RE2.Set>;
  /** Rule index of each pattern in the set. */
  rules: number[];
}
// All 41 rules in one set: one native pass per view. Two sets of 21 cost two passes (6.3 µs on a
// 1.5 KB view against 2.4 µs for the single set, whose DFA stays well within RE2's memory on
// ordinary fields); on the 1 MB adversarial input the single set is faster too (1.5 ms against 3 ms).
const SET_CHUNK = 64;
function buildSets(skeleton: boolean): { sets: RuleSet[]; loose: number[] } {
  const sets: RuleSet[] = [];
  const loose: number[] = [];
  for (let i = 0; i < compiled.length; i += SET_CHUNK) {
    const rules = compiled.slice(i, i + SET_CHUNK).map((_, k) => i + k);
    try {
      const set = new RE2.Set(
        rules.map((r) => source(compiled[r]!.rule.pattern, skeleton)),
        'u',
      );
      sets.push({ set, rules });
    } catch {
      loose.push(...rules);
    }
  }
  return { sets, loose };
}
const RULE_SETS: Partial<Record<'plain' | 'skeleton', ReturnType<typeof buildSets>>> = {};

/**
 * Compiles every rule set now instead of on the first field that needs it: a stream service calls
 * this before it takes partitions, so its first records do not queue behind the compilation.
 */
export function prepareInjectionRules(): void {
  RULE_SETS.plain ??= buildSets(false);
  RULE_SETS.skeleton ??= buildSets(true);
}

/** Indices of the rules that match a view, or undefined when a set gives up (DFA memory on huge input). */
function setCandidates(view: TextView, hits: Map<string, Hit>): Set<number> | undefined {
  const kind = view.name === 'leet' ? 'skeleton' : 'plain';
  const { sets, loose } = (RULE_SETS[kind] ??= buildSets(kind === 'skeleton'));
  const out = new Set<number>(loose);
  try {
    for (const { set, rules } of sets) {
      if (rules.every((r) => hits.has(compiled[r]!.rule.id))) continue;
      for (const k of set.match(viewUtf8(view).bytes)) out.add(rules[k]!);
    }
  } catch {
    return undefined;
  }
  return out;
}

/**
 * One-pass literal prefilter (fallback when a set gives up): a single JS RegExp alternation of every rule's `needs` stems (plain
 * literals, no quantifiers: linear), run once per view. Each hit position is checked against the
 * stems that start with that character, so overlapping stems are all found.
 */
const ALL_NEEDS = [
  ...new Set(
    compiled.flatMap((c) => [
      ...c.rule.needs,
      ...c.skeletonNeeds,
      ...(c.rule.also ?? []),
      ...(c.skeletonAlso ?? []),
    ]),
  ),
];
const NEEDS_BY_FIRST = new Map<number, string[]>();
for (const n of ALL_NEEDS) {
  const k = n.charCodeAt(0);
  const list = NEEDS_BY_FIRST.get(k) ?? [];
  list.push(n);
  NEEDS_BY_FIRST.set(k, list);
}
const NEEDS_RE = new RegExp(trieSource(ALL_NEEDS), 'gu');

/** The set of `needs` stems present in a text. */
export function presentNeeds(text: string): Set<string> {
  const found = new Set<string>();
  NEEDS_RE.lastIndex = 0;
  for (let m = NEEDS_RE.exec(text); m; m = NEEDS_RE.exec(text)) {
    const at = m.index;
    for (const n of NEEDS_BY_FIRST.get(text.charCodeAt(at))!) if (text.startsWith(n, at)) found.add(n);
    NEEDS_RE.lastIndex = at + 1;
  }
  return found;
}

export interface InjectionContext {
  field: string;
  /** Tool outputs, retrieved documents, metadata: instructions addressed to the AI weigh more here. */
  isData: boolean;
  /** The model to score with; default the shipped one. */
  model?: LinearModel;
}

interface Hit {
  rule: InjectionRule;
  weight: number;
  /** Every match of the rule in its view is quoted as an example: the weight was halved. */
  mentioned?: boolean;
  /** The rule's pattern for this view (absent for checks that are not patterns). */
  re?: Locator;
  view: TextView;
  start: number;
  end: number;
  /** Set when the hit comes from set membership only: the match is located when a finding needs it. */
  locate?: Locator;
}

const MODEL_RULE = 'model.injection_lr';
/** Combined evidence needed for a finding. */
export const INJECTION_THRESHOLD = 0.5;

function matchView(view: TextView, hits: Map<string, Hit>, ctx: InjectionContext, lazy: boolean) {
  const candidates = setCandidates(view, hits);
  let present: Set<string> | undefined;
  for (let i = 0; i < compiled.length; i++) {
    const c = compiled[i]!;
    if (hits.has(c.rule.id)) continue;
    if (candidates) {
      if (!candidates.has(i)) continue;
    } else {
      // Multi-pattern literal prefilter: one pass per view decides which RE2 patterns run at all.
      present ??= presentNeeds(view.text);
      const needs = view.name === 'leet' ? c.skeletonNeeds : c.rule.needs;
      if (!needs.some((n) => present!.has(n))) continue;
      const also = view.name === 'leet' ? c.skeletonAlso : c.rule.also;
      if (also && !also.some((n) => present!.has(n))) continue;
    }
    const re = view.name === 'leet' ? c.skeleton : c.re;
    const weight = ctx.isData && c.rule.dataWeight ? c.rule.dataWeight : c.rule.weight;
    if (lazy && candidates) {
      // Set membership says the rule matches this view; where is asked once matching is done.
      hits.set(c.rule.id, { rule: c.rule, weight, view, start: -1, end: -1, locate: re, re });
      continue;
    }
    const span = locate(re, view);
    if (!span) continue;
    hits.set(c.rule.id, { rule: c.rule, weight, view, start: span[0], end: span[1], re });
  }
}

/** A rule's leftmost match in a view, minus the word-start context char the pattern may have consumed. */
function locate(re: Locator, view: TextView): [number, number] | undefined {
  const t = viewUtf8(view);
  const span = re.exec(t);
  if (!span) return undefined;
  return trimContext(t.text, t.index(span[0]), t.index(span[1]));
}

/** A match's span without the word-start context char its pattern may have consumed. */
function trimContext(text: string, start: number, end: number): [number, number] {
  const first = end > start ? text.codePointAt(start)! : 0;
  if (!/[\p{L}\p{N}<[#{]/u.test(String.fromCodePoint(first))) start += first > 0xffff ? 2 : 1;
  return [start, end];
}

/** A rule's match quoted as an example weighs this share of its weight: mentioned, not used. */
const MENTION_FACTOR = 0.5;
/**
 * Quote characters by code: 1 opens or closes (`"`, `'`, the backtick, “ and ‘, « ), 2 only closes
 * (” ’ »). Read by code, not as one-character strings: the scan runs back from every rule hit.
 */
const QUOTE_KIND = new Map<number, 1 | 2>([
  [0x22, 1],
  [0x27, 1],
  [0x60, 1],
  [0x201c, 1],
  [0x2018, 1],
  [0xab, 1],
  [0x201d, 2],
  [0x2019, 2],
  [0xbb, 2],
]);
/**
 * Words that introduce a quotation as an example or as reported speech: a security bulletin's
 * "for example \"ignore your previous instructions\"", a transcript's "the page says '…'".
 * Imperatives ("say", "type", "write") are left out: "say \"…\"" is how an attack dictates output.
 */
const EXAMPLE_FRAME =
  /(?:^|[^\p{L}])(?:for example|for instance|e\.g\.|i\.e\.|such as|like|said|says|saying|typed|wrote|writes|phrases?|strings?|payloads?|examples?)[ \t]*[:,]?[ \t]*$/iu;

/**
 * Whether text[at] lies inside a quotation, opened on the same line at most 300 characters before
 * and not closed since, that an example frame introduces.
 */
function quotedAsExample(text: string, at: number): boolean {
  const floor = Math.max(0, at - 300);
  for (let q = at - 1; q >= floor; q--) {
    const c = text.charCodeAt(q);
    if (c === 0x0a) return false;
    // Codes below « other than the three ASCII quotes (most of any text) skip the lookup.
    if (c !== 0x22 && c !== 0x27 && c !== 0x60 && c < 0xab) continue;
    const kind = QUOTE_KIND.get(c);
    if (kind === undefined) continue;
    return kind === 1 && EXAMPLE_FRAME.test(text.slice(Math.max(0, q - 40), q));
  }
  return false;
}

/**
 * Halves the weight of a rule whose every match in its view is quoted as an example (a policy that
 * warns of "ignore your previous instructions", a defender's prompt that quotes the attack it
 * refuses); a match outside such a quotation keeps the full weight and becomes the hit's span.
 * Hits are located here, so only texts that some rule matched pay for it.
 */
function weighMentions(hits: Map<string, Hit>): void {
  for (const h of hits.values()) {
    // A set's verdict the locator cannot confirm: the eager path answers (findingsFor).
    if (!locateHit(h)) continue;
    if (!h.re || !quotedAsExample(h.view.text, h.start)) continue;
    const used = h.re.spans(viewUtf8(h.view)).find(([start]) => !quotedAsExample(h.view.text, start));
    if (used) [h.start, h.end] = used;
    else {
      h.weight *= MENTION_FACTOR;
      h.mentioned = true;
    }
  }
}

/**
 * Rule hits over every view. Lazy hits are located once matching is done (weighMentions), so a text
 * no rule matched pays for no location.
 */
function collectHits(fv: FieldViews, ctx: InjectionContext, lazy: boolean): Map<string, Hit> {
  const hits = new Map<string, Hit>();
  // Repeated encoded payloads decode to identical views: matching one copy finds everything.
  // Texts per view name, not `name\0text` keys: a key would copy and hash each view's whole text,
  // where a string's own hash is computed once and kept.
  const seen = new Map<string, Set<string>>();
  for (const view of fv.views) {
    if (view.name !== 'nfkc') {
      let texts = seen.get(view.name);
      if (!texts) seen.set(view.name, (texts = new Set()));
      if (texts.has(view.text)) continue;
      texts.add(view.text);
    }
    matchView(view, hits, ctx, lazy);
  }
  if (hits.size > 0) weighMentions(hits);
  // Morse code, a list of quoted characters and words spaced out by marks are lone punctuation
  // tokens too, but their views read them as words (an optimised suffix's runs of lone `!` are not
  // words).
  const suffix = fv.signals.symbolTexts === 0 && fv.signals.spacedWords === 0 && optimisedSuffix(fv.raw);
  if (suffix) {
    const view: TextView = { name: 'raw', text: fv.raw, identity: true, segStart: 0, segEnd: fv.raw.length };
    const weight = Math.min(0.75, 0.5 + 0.05 * (suffix.score - SUFFIX_THRESHOLD));
    const rule = {
      ...SUFFIX_RULE,
      explanation:
        `${SUFFIX_RULE.explanation} (in its last tokens: ${suffix.glued} words glued to brackets or markup, ` +
        `${suffix.bare} lone punctuation tokens, ${suffix.unpaired} unpaired brackets)`,
    };
    hits.set(rule.id, { rule, weight, view, start: suffix.start, end: suffix.end });
  }
  return hits;
}

/** Not a pattern: optimisedSuffix decides it (adversarial-suffix.ts); a rule here for its finding. */
const SUFFIX_RULE: InjectionRule = {
  id: 'suffix.optimised',
  threatType: 'jailbreak',
  weight: 0.5,
  explanation: 'a request followed by an optimised adversarial suffix',
  pattern: '',
  needs: [],
};

/** Locates every lazy hit; false when a set's verdict is not confirmed (then the eager path answers). */
function locateAll(hits: Map<string, Hit>): boolean {
  for (const h of hits.values()) if (!locateHit(h)) return false;
  return true;
}

/** Gives a lazy hit its span; false when the locator cannot confirm the set's verdict. */
function locateHit(h: Hit): boolean {
  if (!h.locate) return true;
  const span = locate(h.locate, h.view);
  if (!span) return false;
  [h.start, h.end] = span;
  h.locate = undefined;
  return true;
}

/** Injection and jailbreak findings for one field: rules over every view, the model, combined. */
export function detectInjection(fv: FieldViews, ctx: InjectionContext): Finding[] {
  const hits = collectHits(fv, ctx, true);
  // The model reads the other views only while the verdict is open: rules that already decide it
  // (or one view that does) leave the rest unscored, which keeps the derived views cheap.
  const rulesDecide = combineEvidence(ruleWeights(hits)) >= INJECTION_THRESHOLD;
  const model = scoreModelViews(fv, ctx.model, rulesDecide ? 0 : INJECTION_THRESHOLD);

  // undefined: a set reported a rule its locator cannot find; match every view eagerly, as without sets.
  return findingsFor(fv, ctx, hits, model) ?? findingsFor(fv, ctx, collectHits(fv, ctx, false), model)!;
}

export interface ModelHit extends ModelScore {
  view: TextView;
}

/**
 * The views the model reads, in order, each with the text it scores: the normalised text with its
 * encoded runs decoded in place (FieldViews.inPlace; the normalised view where it has none), then
 * every other view once for each distinct text, a leet view only where the field holds two leet
 * tokens or more (a lone "2nd" or "h2o" is ordinary text, not hiding: the rules still read it).
 */
export function* modelViews(fv: FieldViews): Generator<{ view: TextView; text: string }> {
  const first = fv.inPlace ?? fv.normalized;
  yield { view: first, text: first.text };
  // Repeated encoded payloads decode to identical views: one score each.
  const seen = new Set<string>();
  for (const view of fv.views) {
    if (view === fv.normalized) continue;
    if (view.name === 'leet' && fv.signals.leetTokens < 2) continue;
    const text = view.modelText ?? view.text;
    if (seen.has(text)) continue;
    seen.add(text);
    yield { view, text };
  }
}

/**
 * The model's best score over every view of the field (modelViews): text hidden by encodings,
 * leetspeak, spaced letters, comments or tag characters is scored as revealed, not only as it
 * looks. Views are scored in turn until one reaches `stopAt`.
 */
export function scoreModelViews(fv: FieldViews, model = injectionModel(), stopAt = 1): ModelHit {
  let best: ModelHit | undefined;
  for (const { view, text } of modelViews(fv)) {
    const score = scoreModel(text, model);
    if (!best || score.probability > best.probability) best = { ...score, view };
    if (best.probability >= stopAt) break;
  }
  return best!;
}

/**
 * The rules' evidence for a field without the model (one weight per rule family, plus the hidden-view
 * bonus): lets the leave-one-source-out eval combine fixed rule evidence with one model per fold.
 */
export function ruleEvidence(fv: FieldViews, isData = false): number[] {
  const hits = collectHits(fv, { field: '', isData }, true);
  const evidence = ruleWeights(hits);
  if ([...hits.values()].some((h) => readThroughHiding(h.view))) evidence.push(0.3);
  return evidence;
}

/** Families, not rules, are independent evidence: the strongest hit's weight per family prefix. */
function ruleWeights(hits: Map<string, Hit>): number[] {
  const byFamily = new Map<string, number>();
  for (const h of hits.values()) {
    const fam = h.rule.id.split('.')[0]!;
    byFamily.set(fam, Math.max(byFamily.get(fam) ?? 0, h.weight));
  }
  return [...byFamily.values()];
}

/** Findings from the hits and the model score; undefined when a lazy hit cannot be located. */
function findingsFor(
  fv: FieldViews,
  ctx: InjectionContext,
  hits: Map<string, Hit>,
  model: ModelHit,
): Finding[] | undefined {
  const ruleEvidence = [...hits.values()];
  const evidence = ruleWeights(hits);
  const hidden = ruleEvidence.some((h) => readThroughHiding(h.view));
  // A model score below 0.5 is weak counter-evidence only when no rule fired, so it is not added.
  if (model.probability >= 0.2) evidence.push(model.probability);
  if (hidden) evidence.push(0.3);
  const confidence = combineEvidence(evidence);
  if (confidence < INJECTION_THRESHOLD) return [];
  if (!locateAll(hits)) return undefined;

  const jailbreak =
    ruleEvidence.some((h) => h.rule.threatType === 'jailbreak') &&
    !ruleEvidence.some((h) => h.rule.threatType === 'prompt_injection');
  const findings: Finding[] = [];
  const conf = roundConfidence(confidence);
  for (const h of ruleEvidence) {
    const [start, end] = rawSpan(h.view, h.start, h.end);
    // The normalised view is reported as raw when, in this span, only letter case differs.
    const viewName =
      h.view.name === 'nfkc' && fv.raw.slice(start, end).toLowerCase() === h.view.text.slice(h.start, h.end)
        ? 'raw'
        : h.view.name;
    findings.push({
      detector: 'injection',
      detectorVersion,
      ruleId: h.rule.id,
      threatType: h.rule.threatType,
      severity: severityFor(conf, ctx.isData || conf >= 0.9 ? 'high' : 'medium'),
      confidence: conf,
      field: ctx.field,
      start,
      end,
      view: viewName,
      explanation:
        h.rule.explanation +
        (h.mentioned ? ' (quoted as an example: half weight)' : '') +
        (h.view.name !== 'nfkc' && h.view.name !== 'raw' ? ` (found in the ${h.view.name} view)` : '') +
        (ctx.isData ? '; inside data the agent reads (indirect injection)' : ''),
    });
  }
  if (model.probability >= INJECTION_THRESHOLD) {
    const [start, end] = rawSpan(model.view, model.start, model.end);
    const concepts = conceptNames(model.concepts);
    findings.push({
      detector: 'injection',
      detectorVersion,
      ruleId: MODEL_RULE,
      threatType: jailbreak || ruleEvidence.length === 0 ? 'jailbreak' : 'prompt_injection',
      severity: severityFor(conf, conf >= 0.9 ? 'high' : 'medium'),
      confidence: conf,
      field: ctx.field,
      start,
      end,
      view: model.view.name,
      explanation:
        `injection/jailbreak classifier scored ${model.probability.toFixed(2)} on this passage` +
        (model.view.name !== 'nfkc' ? ` (read in the ${model.view.name} view)` : '') +
        (concepts.length ? `; it reads ${concepts.join(', ')}` : ''),
    });
  }
  return findings;
}

/** Hiding characters and tricks are a signal on their own, whatever they hide. */
export function detectObfuscation(fv: FieldViews, field: string): Finding[] {
  const s = fv.signals;
  const out: Finding[] = [];
  const base = { detector: 'obfuscation', detectorVersion, threatType: 'obfuscation' as const, field };
  if (s.tagChars > 0) {
    out.push({
      ...base,
      ruleId: 'obfuscation.unicode_tags',
      severity: 'high',
      confidence: 0.9,
      start: Math.max(0, s.firstHidden),
      end: fv.raw.length,
      view: 'unicode_tags',
      explanation: `${s.tagChars} invisible Unicode tag characters (can smuggle hidden ASCII text)`,
    });
  } else if (s.invisible >= 1) {
    const conf = s.bidi > 0 ? 0.6 : s.invisible >= 3 ? 0.55 : 0.4;
    out.push({
      ...base,
      ruleId: s.bidi > 0 ? 'obfuscation.bidi_control' : 'obfuscation.zero_width',
      severity: severityFor(conf, 'medium'),
      confidence: conf,
      start: Math.max(0, s.firstHidden),
      end: Math.max(0, s.firstHidden) + 1,
      view: 'raw',
      explanation: `${s.invisible} invisible characters (zero-width${s.bidi ? ', bidi controls' : ''}) inside the text`,
    });
  }
  if (s.mixedScriptWords > 0) {
    const conf = s.mixedScriptWords >= 2 ? 0.6 : 0.45;
    out.push({
      ...base,
      ruleId: 'obfuscation.homoglyph',
      severity: severityFor(conf, 'medium'),
      confidence: conf,
      start: 0,
      end: fv.raw.length,
      view: 'nfkc',
      explanation: `${s.mixedScriptWords} words mix Latin with look-alike Cyrillic/Greek letters`,
    });
  }
  return out;
}
