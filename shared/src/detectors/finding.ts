/** The shape every detector returns; mirrors schemas/detection.ts with the threat types narrowed. */
export type ThreatType =
  | 'prompt_injection'
  | 'jailbreak'
  | 'pii_leak'
  | 'secret_leak'
  | 'system_prompt_leak'
  | 'data_exfiltration'
  | 'canary_leak'
  | 'obfuscation';

export type Severity = 'low' | 'medium' | 'high' | 'critical';

export interface Finding {
  detector: string;
  detectorVersion: string;
  ruleId: string;
  threatType: ThreatType;
  severity: Severity;
  /** 0..1 */
  confidence: number;
  /** `prompt`, `response`, `toolCalls[i].input`, `toolCalls[i].output`, `metadata.<key>` */
  field: string;
  /** UTF-16 offsets into the field's raw text. */
  start: number;
  end: number;
  /** Text view that fired: raw, nfkc, despaced, leet, base64, hex, url, rot13. */
  view: string;
  entityType?: string;
  explanation: string;
  /** Never the clear value. */
  masked?: string;
}

/** Bump when any rule, threshold or model weight changes: replay relies on it. */
export const detectorVersion = '2026.11.3';

export function roundConfidence(c: number): number {
  return Math.round(Math.min(1, Math.max(0, c)) * 1000) / 1000;
}

/** Severities, lowest first. */
export const SEVERITY_ORDER: readonly Severity[] = ['low', 'medium', 'high', 'critical'];

export function severityFor(confidence: number, base: Severity): Severity {
  const i = SEVERITY_ORDER.indexOf(base);
  // Weak evidence never raises an alert on its own: drop one level below 0.6 and another below 0.45.
  const drop = confidence < 0.45 ? 2 : confidence < 0.6 ? 1 : 0;
  return SEVERITY_ORDER[Math.max(0, i - drop)] ?? 'low';
}

/** Masks a sensitive value, keeping at most the last 4 characters (fewer for short values). */
export function maskValue(value: string, keep = 4): string {
  const compact = value.replace(/\s+/g, '');
  const k = compact.length >= 12 ? keep : compact.length >= 8 ? 2 : 0;
  return '****' + (k > 0 ? compact.slice(-k) : '');
}

/** Noisy-OR: independent pieces of evidence, each a probability, combined. */
export function combineEvidence(probabilities: number[]): number {
  let miss = 1;
  for (const p of probabilities) miss *= 1 - Math.min(0.999, Math.max(0, p));
  return 1 - miss;
}
