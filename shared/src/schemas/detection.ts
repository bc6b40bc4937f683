/** Severity of a finding, lowest first (ClickHouse stores it as an Enum8 in this order). */
export type Severity = 'low' | 'medium' | 'high' | 'critical';

export const SEVERITIES: readonly Severity[] = ['low', 'medium', 'high', 'critical'];

/** One finding of one detector in one field of an interaction (see DESIGN.md "Detections"). */
export interface Finding {
  detector: string;
  detectorVersion: string;
  ruleId: string;
  threatType: string;
  severity: Severity;
  /** 0..1 */
  confidence: number;
  /** `prompt`, `response`, `toolCalls[i].output`, … */
  field: string;
  /** UTF-16 offsets into the field's raw text. */
  start: number;
  end: number;
  /** Text view that fired: raw, nfkc, base64, … */
  view: string;
  /** Presidio entity name for PII, the secret's kind for secrets. */
  entityType?: string;
  explanation: string;
  /** Never the clear value: masked (e.g. last 4). */
  masked?: string;
}

export const DETECTION_SCHEMA_VERSION = 1;

/**
 * What the detector writes to `warden.detections.v1`: ONE message per analysed interaction, also when
 * it found nothing, so that a replay can tell "now clean" from "not yet analysed".
 */
export interface DetectionAnalysis {
  schemaVersion: 1;
  interactionId: string;
  accountId: string;
  agentId: string;
  /** The interaction's receivedAt (ISO); detections are partitioned and ranged by it. */
  receivedAt: string;
  /** ISO with milliseconds: when this analysis ran. The newest analysis of an interaction wins. */
  analyzedAt: string;
  detectorVersion: string;
  platform: string;
  userId?: string;
  sessionId?: string;
  conversationId?: string;
  findings: Finding[];
}
