/**
 * Warden's detector library: interaction in, findings out. Pure (no I/O); the stream service, the
 * CLI, replay, the eval and the bench all call these two functions.
 */
import { createHash } from 'node:crypto';
import { detectorVersion, maskValue, SEVERITIES, severityFor, type Finding, type Severity } from './finding';
import type { LinearModel } from './injection-features';
import { detectInjection, detectObfuscation } from './injection';
import { findPii } from './pii';
import { detectCanaries, detectExfiltration, detectSystemPromptLeak } from './response';
import { findSecrets } from './secrets';
import { buildViews } from './views';

export { detectorVersion } from './finding';
export { prepareInjectionRules as prepareDetectors } from './injection';
export type { Finding, Severity, ThreatType } from './finding';

export interface DetectInput {
  prompt?: string;
  response?: string;
  toolCalls?: Array<{ name: string; input?: unknown; output?: unknown }>;
  metadata?: Record<string, unknown>;
  agentId?: string;
}

export interface DetectOptions {
  /** Per-agent canary tokens. */
  canaries?: string[];
  /**
   * The agent's system prompt, for verbatim leakage in the response. Default: the record's
   * `metadata.system_prompt` when that is a string (SYSTEM_PROMPT_KEY).
   */
  systemPrompt?: string;
  /** Injection model to score with instead of the shipped one (the leave-one-source-out eval's). */
  injectionModel?: LinearModel;
  /** Response-leak model to score with instead of the shipped one (the leave-one-set-out eval's). */
  leakModel?: LinearModel;
}

type FieldRole = 'prompt' | 'response' | 'tool_input' | 'tool_output' | 'metadata' | 'system_prompt';

/**
 * The metadata key a client sends its agent's system prompt under. The response is compared with it
 * (verbatim runs are a `system_prompt_leak`), and it is not scanned for injection: it is the
 * operator's own instructions to the agent, addressed to the AI by design, and a canary planted in
 * it is not a leak. PII, secrets and hiding characters in it are still findings.
 */
export const SYSTEM_PROMPT_KEY = 'system_prompt';

/** Fields longer than this are scanned on their first MAX_FIELD_CHARS only (bounded work per record). */
export const MAX_FIELD_CHARS = 1_048_576;

const PII_BASE_SEVERITY: Record<string, Severity> = {
  CREDIT_CARD: 'high',
  US_SSN: 'high',
  IBAN_CODE: 'high',
  CRYPTO: 'medium',
  PERSON: 'low',
  STREET_ADDRESS: 'medium',
  EMAIL_ADDRESS: 'medium',
  PHONE_NUMBER: 'medium',
  IP_ADDRESS: 'low',
};

function asText(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v);
  } catch {
    return undefined;
  }
}

const compactValue = (v: string) => v.replace(/[\s\-().]/g, '').toLowerCase();

function scanField(
  raw: string,
  field: string,
  role: FieldRole,
  opts: DetectOptions,
  /** Compact values of PII/secrets the user supplied in the prompt (for "new in response"). */
  promptValues?: Set<string>,
  /** Filled with this field's PII/secret values (the prompt's, for the response comparison). */
  collect?: Set<string>,
): Finding[] {
  const text = raw.length > MAX_FIELD_CHARS ? raw.slice(0, MAX_FIELD_CHARS) : raw;
  // Only the injection rules (not run on responses) and canaries read the derived views; the
  // obfuscation signals they would add are not reported.
  const derived = role !== 'response' || (opts.canaries?.length ?? 0) > 0;
  const fv = buildViews(text, { derived });
  const out: Finding[] = [];

  if (role !== 'response' && role !== 'system_prompt') {
    out.push(
      ...detectInjection(fv, {
        field,
        isData: role === 'tool_output' || role === 'metadata',
        model: opts.injectionModel,
      }),
    );
  }
  out.push(...detectObfuscation(fv, field));

  const agentSide = role === 'response' || role === 'tool_input';
  for (const p of findPii(text)) {
    collect?.add(compactValue(p.value));
    const fresh = agentSide && promptValues !== undefined && !promptValues.has(compactValue(p.value));
    const base = PII_BASE_SEVERITY[p.entityType] ?? 'high';
    out.push({
      detector: 'pii',
      detectorVersion,
      ruleId: p.ruleId,
      threatType: 'pii_leak',
      severity: severityFor(p.confidence, fresh && base === 'low' ? 'medium' : base),
      confidence: p.confidence,
      field,
      start: p.start,
      end: p.end,
      view: 'raw',
      entityType: p.entityType,
      masked: maskValue(p.value, p.entityType === 'PERSON' || p.entityType === 'STREET_ADDRESS' ? 0 : 4),
      explanation:
        `${p.entityType} ${p.validated ? '(validated)' : '(format and context, not checksum-validated)'}` +
        (fresh ? `; in the ${role === 'response' ? 'response' : 'tool input'} but not in the prompt` : ''),
    });
  }
  for (const s of findSecrets(text)) {
    collect?.add(compactValue(s.value));
    const fresh = agentSide && promptValues !== undefined && !promptValues.has(compactValue(s.value));
    out.push({
      detector: 'secrets',
      detectorVersion,
      ruleId: s.ruleId,
      threatType: 'secret_leak',
      severity: severityFor(s.confidence, fresh || role !== 'prompt' ? 'critical' : 'high'),
      confidence: s.confidence,
      field,
      start: s.start,
      end: s.end,
      view: 'raw',
      entityType: s.kind,
      masked: maskValue(s.value),
      explanation:
        `${s.kind.replaceAll('_', ' ')} in ${field}` + (fresh ? ' that the prompt did not contain' : ''),
    });
  }

  if (opts.canaries?.length && role !== 'prompt' && role !== 'system_prompt')
    out.push(...detectCanaries(fv, field, opts.canaries));
  if (role === 'response') out.push(...detectSystemPromptLeak(fv, field, opts.systemPrompt, opts.leakModel));
  if (role === 'response' || role === 'tool_input' || role === 'tool_output')
    out.push(...detectExfiltration(fv, field));
  return out;
}

/**
 * Findings listed per rule in one field, and per interaction. A 1 MB field of 40,000 card numbers
 * would otherwise make a 23 MB analysis, which no Kafka topic takes (Warden's allow 2 MiB a message):
 * the first ones of a rule tell the analyst what and where, and the last one listed says how many
 * more there are. Past the interaction's bound the most severe findings are kept.
 */
export const MAX_FINDINGS_PER_RULE_AND_FIELD = 20;
export const MAX_FINDINGS_PER_INTERACTION = 500;

/** The finding with a note appended to its explanation (what a bound left out). */
export const withNote = (f: Finding, note: string): Finding => ({
  ...f,
  explanation: `${f.explanation}; ${note}`,
});

/**
 * Longest metadata key a finding names as sent. Every finding names its field, `metadata.<key>`, and
 * keys are the client's: a 200 KB key made each finding in its value 200 KB (25 of them, an analysis
 * larger than the detections topic takes). Longer keys are named by boundedName.
 */
export const MAX_FIELD_KEY_CHARS = 128;

/** Hex digits of the SHA-256 that keep a shortened name apart from every other (48 bits). */
const NAME_HASH_CHARS = 12;

/**
 * `name` as it is when it has at most `max` characters; otherwise its first characters, `…#` and
 * the start of its SHA-256, `max` characters in all: recognisable by its beginning, and (within
 * the hash's 48 bits) distinct from the shortened name of any other. Every finding and analysis
 * naming something the client chose (a metadata key, an id) names it through this.
 */
export function boundedName(name: string, max = MAX_FIELD_KEY_CHARS): string {
  if (name.length <= max) return name;
  let prefix = name.slice(0, max - NAME_HASH_CHARS - 2);
  // Never half a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(prefix)) prefix = prefix.slice(0, -1);
  const hash = createHash('sha256').update(name).digest('hex').slice(0, NAME_HASH_CHARS);
  return `${prefix}…#${hash}`;
}

const ruleAndField = (f: Finding) => `${f.field}\u0000${f.ruleId}`;

function boundFindings(findings: Finding[]): Finding[] {
  if (findings.length <= MAX_FINDINGS_PER_RULE_AND_FIELD) return findings;
  const perGroup = new Map<string, number>();
  for (const f of findings) {
    const k = ruleAndField(f);
    perGroup.set(k, (perGroup.get(k) ?? 0) + 1);
  }
  let out = findings;
  if ([...perGroup.values()].some((n) => n > MAX_FINDINGS_PER_RULE_AND_FIELD)) {
    const seen = new Map<string, number>();
    out = [];
    for (const f of findings) {
      const k = ruleAndField(f);
      const n = (seen.get(k) ?? 0) + 1;
      seen.set(k, n);
      if (n > MAX_FINDINGS_PER_RULE_AND_FIELD) continue;
      const total = perGroup.get(k)!;
      out.push(
        n === MAX_FINDINGS_PER_RULE_AND_FIELD && total > n
          ? withNote(f, `${total - n} more ${f.ruleId} findings in ${f.field} are not listed`)
          : f,
      );
    }
  }
  if (out.length <= MAX_FINDINGS_PER_INTERACTION) return out;
  const order = out.map((f, i) => ({ f, i }));
  const rank = (f: Finding) => SEVERITIES.indexOf(f.severity);
  order.sort((a, b) => rank(b.f) - rank(a.f) || a.i - b.i);
  const kept = order.slice(0, MAX_FINDINGS_PER_INTERACTION).sort((a, b) => a.i - b.i);
  const last = kept.length - 1;
  const omitted = out.length - kept.length;
  return kept.map(({ f }, k) =>
    k === last ? withNote(f, `${omitted} less severe findings of this interaction are not listed`) : f,
  );
}

/**
 * Every finding in one interaction, each pointing at a field and raw UTF-16 offsets; at most
 * MAX_FINDINGS_PER_RULE_AND_FIELD per rule and field and MAX_FINDINGS_PER_INTERACTION in all. A
 * metadata key longer than MAX_FIELD_KEY_CHARS is named by boundedName.
 */
export function detectInteraction(input: DetectInput, options: DetectOptions = {}): Finding[] {
  const sent = input.metadata?.[SYSTEM_PROMPT_KEY];
  const opts =
    options.systemPrompt === undefined && typeof sent === 'string'
      ? { ...options, systemPrompt: sent }
      : options;
  const findings: Finding[] = [];
  const promptValues = new Set<string>();
  if (input.prompt)
    findings.push(...scanField(input.prompt, 'prompt', 'prompt', opts, undefined, promptValues));
  if (input.response) findings.push(...scanField(input.response, 'response', 'response', opts, promptValues));
  input.toolCalls?.forEach((call, i) => {
    const inText = asText(call.input);
    if (inText)
      findings.push(...scanField(inText, `toolCalls[${i}].input`, 'tool_input', opts, promptValues));
    const outText = asText(call.output);
    if (outText) findings.push(...scanField(outText, `toolCalls[${i}].output`, 'tool_output', opts));
  });
  for (const [key, value] of Object.entries(input.metadata ?? {})) {
    const text = asText(value);
    if (!text) continue;
    const role = key === SYSTEM_PROMPT_KEY && typeof value === 'string' ? 'system_prompt' : 'metadata';
    findings.push(...scanField(text, `metadata.${boundedName(key)}`, role, opts));
  }
  return boundFindings(findings);
}

/** One text as a given field (default `prompt`); the eval and bench use it. */
export function detectText(text: string, field = 'prompt', opts: DetectOptions = {}): Finding[] {
  const role: FieldRole =
    field === 'response'
      ? 'response'
      : /\.output$/.test(field)
        ? 'tool_output'
        : /\.input$/.test(field)
          ? 'tool_input'
          : field === `metadata.${SYSTEM_PROMPT_KEY}`
            ? 'system_prompt'
            : field.startsWith('metadata.')
              ? 'metadata'
              : 'prompt';
  return scanField(text, field, role, opts);
}
