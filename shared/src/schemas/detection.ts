import { Type, type Static } from '@sinclair/typebox';
import './formats';

/** Severities, lowest first (ClickHouse stores them as an Enum8 in this order). */
export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;

/** Severity of a finding. */
export const Severity = Type.Union(
  SEVERITIES.map((s) => Type.Literal(s)),
  { $id: 'Severity' },
);
export type Severity = Static<typeof Severity>;

/** What a finding is a sign of: the threat types the detectors report (see DESIGN.md "Detections"). */
export const ThreatType = Type.Union(
  [
    Type.Literal('prompt_injection'),
    Type.Literal('jailbreak'),
    Type.Literal('pii_leak'),
    Type.Literal('secret_leak'),
    Type.Literal('system_prompt_leak'),
    Type.Literal('data_exfiltration'),
    Type.Literal('canary_leak'),
    Type.Literal('obfuscation'),
  ],
  { $id: 'ThreatType' },
);
export type ThreatType = Static<typeof ThreatType>;

/** One finding of one detector in one field of an interaction (see DESIGN.md "Detections"). */
export const Finding = Type.Object(
  {
    detector: Type.String(),
    detectorVersion: Type.String(),
    ruleId: Type.String(),
    threatType: ThreatType,
    severity: Severity,
    confidence: Type.Number({ minimum: 0, maximum: 1 }),
    field: Type.String({
      description: '`prompt`, `response`, `toolCalls[i].input`, `toolCalls[i].output`, `metadata.<key>`',
    }),
    start: Type.Integer({ minimum: 0, description: "UTF-16 offset into the field's raw text." }),
    end: Type.Integer({ minimum: 0, description: "UTF-16 offset into the field's raw text." }),
    view: Type.String({
      description:
        'Text view that fired: raw, nfkc, despaced, leet, respelled, unicode_tags, zero_width, comment, base64, hex, url, rot13, morse, unicode_escape, html_entity.',
    }),
    entityType: Type.Optional(
      Type.String({ description: "Presidio entity name for PII, the secret's kind for secrets." }),
    ),
    explanation: Type.String(),
    masked: Type.Optional(Type.String({ description: 'Never the clear value: masked (e.g. last 4).' })),
  },
  { $id: 'Finding' },
);
export type Finding = Static<typeof Finding>;

export const DETECTION_SCHEMA_VERSION = 1;

const analysisFields = {
  schemaVersion: Type.Literal(DETECTION_SCHEMA_VERSION),
  interactionId: Type.String(),
  accountId: Type.String(),
  agentId: Type.String(),
  receivedAt: Type.String({
    format: 'date-time',
    description: "The interaction's receivedAt; detections are partitioned and ranged by it.",
  }),
  analyzedAt: Type.String({
    format: 'date-time',
    description: 'When this analysis ran (milliseconds). The newest analysis of an interaction wins.',
  }),
  detectorVersion: Type.String(),
  platform: Type.String(),
  userId: Type.Optional(Type.String()),
  sessionId: Type.Optional(Type.String()),
  conversationId: Type.Optional(Type.String()),
  findings: Type.Array(Finding),
};

/**
 * One analysed interaction: ONE per interaction, also when nothing was found, so that a replay can
 * tell "now clean" from "not yet analysed".
 */
export const DetectionAnalysis = Type.Object(analysisFields, { $id: 'DetectionAnalysis' });
export type DetectionAnalysis = Static<typeof DetectionAnalysis>;

/** The contract's outgoing alert payload; attached to high and critical findings. */
export const ThreatAlert = Type.Object(
  {
    event: Type.Literal('threat_detected'),
    interactionId: Type.String(),
    agentId: Type.String(),
    threatType: ThreatType,
    severity: Type.Union([Type.Literal('high'), Type.Literal('critical')]),
    timestamp: Type.String(),
    details: Type.Object({
      confidence: Type.Number(),
      description: Type.String(),
      ruleId: Type.String(),
      field: Type.String(),
    }),
  },
  { $id: 'ThreatAlert' },
);
export type ThreatAlert = Static<typeof ThreatAlert>;

/** What the detector writes to `warden.detections.v1`: the analysis plus the alerts a thin sender forwards. */
export const AnalysisMessage = Type.Object(
  { ...analysisFields, alerts: Type.Array(ThreatAlert) },
  { $id: 'AnalysisMessage' },
);
export type AnalysisMessage = Static<typeof AnalysisMessage>;
