import RE2 from 're2';
import { combineEvidence, detectorVersion, roundConfidence, severityFor, type Finding } from './finding';
import { injectionRules, type InjectionRule } from './injection-rules';
import { scoreInjectionModel } from './injection-model';
import { rawSpan, type FieldViews, type TextView } from './views';

// Unbounded single-class loops and byte-simple classes keep the RE2 automata small: nested bounded
// repeats ({0,4} inside {0,3}) and Unicode classes made the 1 MB adversarial input 20× slower.
const GAP = '[\\s\\pP\\pS]*';
const WORD_START = '(?:^|[^a-z0-9\\x{80}-\\x{10FFFF}])';

interface CompiledRule {
  rule: InjectionRule;
  re: RE2;
  /** Same pattern with l→i, for the leet skeleton view. */
  skeleton: RE2;
  skeletonNeeds: string[];
}

function compile(pattern: string, skeleton: boolean): RE2 {
  let src = pattern.replaceAll('~', GAP).replaceAll('⟨', WORD_START);
  // Skeleton: fold l to i in literal letters only (there are no `\l` escapes in the rules).
  if (skeleton) src = src.replace(/l/g, 'i');
  return new RE2(src, 'gu');
}

const compiled: CompiledRule[] = injectionRules.map((rule) => ({
  rule,
  re: compile(rule.pattern, false),
  skeleton: compile(rule.pattern, true),
  skeletonNeeds: rule.needs.map((n) => n.replace(/l/g, 'i')),
}));

export interface InjectionContext {
  field: string;
  /** Tool outputs, retrieved documents, metadata: instructions addressed to the AI weigh more here. */
  isData: boolean;
}

interface Hit {
  rule: InjectionRule;
  weight: number;
  view: TextView;
  start: number;
  end: number;
}

const MODEL_RULE = 'model.injection_lr';
/** Combined evidence needed for a finding. */
export const INJECTION_THRESHOLD = 0.5;

function matchView(view: TextView, hits: Map<string, Hit>, ctx: InjectionContext) {
  for (const c of compiled) {
    if (hits.has(c.rule.id)) continue;
    // Multi-pattern prefilter: a literal scan (memchr-fast) decides whether the RE2 pattern runs.
    const needs = view.name === 'leet' ? c.skeletonNeeds : c.rule.needs;
    if (!needs.some((n) => view.text.includes(n))) continue;
    const re = view.name === 'leet' ? c.skeleton : c.re;
    re.lastIndex = 0;
    const m = re.exec(view.text);
    if (!m) continue;
    // Trim the word-start context char the pattern may have consumed.
    let s = m.index;
    const first = m[0].codePointAt(0) ?? 0;
    if (!/[\p{L}\p{N}<[#{]/u.test(String.fromCodePoint(first))) s += first > 0xffff ? 2 : 1;
    const weight = ctx.isData && c.rule.dataWeight ? c.rule.dataWeight : c.rule.weight;
    hits.set(c.rule.id, { rule: c.rule, weight, view, start: s, end: m.index + m[0].length });
  }
}

/** Injection and jailbreak findings for one field: rules over every view, the model, combined. */
export function detectInjection(fv: FieldViews, ctx: InjectionContext): Finding[] {
  const hits = new Map<string, Hit>();
  for (const view of fv.views) matchView(view, hits, ctx);
  const model = scoreInjectionModel(fv.normalized.text);

  const ruleEvidence = [...hits.values()];
  // Families, not rules, are independent evidence: keep the strongest hit per family prefix.
  const byFamily = new Map<string, number>();
  for (const h of ruleEvidence) {
    const fam = h.rule.id.split('.')[0]!;
    byFamily.set(fam, Math.max(byFamily.get(fam) ?? 0, h.weight));
  }
  const hidden = ruleEvidence.some((h) => h.view.name !== 'nfkc');
  const evidence = [...byFamily.values()];
  // A model score below 0.5 is weak counter-evidence only when no rule fired, so it is not added.
  if (model.probability >= 0.2) evidence.push(model.probability);
  if (hidden) evidence.push(0.3);
  const confidence = combineEvidence(evidence);
  if (confidence < INJECTION_THRESHOLD) return [];

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
        (h.view.name !== 'nfkc' ? ` (found in the ${h.view.name} view)` : '') +
        (ctx.isData ? '; inside data the agent reads (indirect injection)' : ''),
    });
  }
  if (model.probability >= INJECTION_THRESHOLD) {
    const [start, end] = rawSpan(fv.normalized, model.start, model.end);
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
      view: 'nfkc',
      explanation: `injection/jailbreak classifier scored ${model.probability.toFixed(2)} on this passage`,
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
