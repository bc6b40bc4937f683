import type { CanaryConfig } from '../config';
import {
  DETECTION_SCHEMA_VERSION,
  SEVERITIES,
  type AnalysisMessage,
  type DetectionAnalysis,
  type Finding,
  type ThreatAlert,
} from '../schemas/detection';
import type { InteractionEnvelope } from '../schemas/envelope';
import { boundedName, detectInteraction, detectorVersion, withNote, type DetectOptions } from './index';

export interface AnalyzeOptions {
  canaries?: CanaryConfig;
  now?: () => Date;
}

function alertFor(finding: Finding, a: DetectionAnalysis): ThreatAlert | undefined {
  if (finding.severity !== 'high' && finding.severity !== 'critical') return undefined;
  return {
    event: 'threat_detected',
    interactionId: a.interactionId,
    agentId: a.agentId,
    threatType: finding.threatType,
    severity: finding.severity,
    timestamp: a.analyzedAt,
    details: {
      confidence: finding.confidence,
      description: finding.explanation,
      ruleId: finding.ruleId,
      field: finding.field,
    },
  };
}

/**
 * Longest id an analysis carries as sent (agent, user, session, conversation, platform): the bound
 * ingest's schema puts on them, held here too since the analysis repeats them, in every alert as
 * well. A longer one is named by boundedName. interactionId and accountId are the analysis's
 * identity and are never rewritten; if they are beyond reason, fitAnalysis finds it cannot fit.
 */
export const MAX_ID_CHARS = 256;

const boundedId = (id: string) => boundedName(id, MAX_ID_CHARS);

const alertsOf = (a: DetectionAnalysis): ThreatAlert[] =>
  a.findings.map((f) => alertFor(f, a)).filter((x): x is ThreatAlert => x !== undefined);

/**
 * Runs the detectors over one interaction and shapes the result the stream, the CLI and replay all
 * emit. Pure apart from the clock, so the three produce the same findings for the same record.
 */
export function analyzeEnvelope(env: InteractionEnvelope, opts: AnalyzeOptions = {}): AnalysisMessage {
  const r = env.record;
  const detectOptions: DetectOptions = {
    canaries: [...(opts.canaries?.['*'] ?? []), ...(opts.canaries?.[r.agentId] ?? [])],
  };
  const findings = detectInteraction(
    {
      prompt: r.prompt,
      response: r.response,
      toolCalls: r.toolCalls,
      metadata: r.metadata,
      agentId: r.agentId,
    },
    detectOptions,
  );
  const analysis: DetectionAnalysis = {
    schemaVersion: DETECTION_SCHEMA_VERSION,
    interactionId: env.interactionId,
    accountId: env.accountId,
    agentId: boundedId(r.agentId),
    receivedAt: env.receivedAt,
    analyzedAt: (opts.now?.() ?? new Date()).toISOString(),
    detectorVersion,
    platform: boundedId(env.source.platform),
    ...(r.userId ? { userId: boundedId(r.userId) } : {}),
    ...(r.sessionId ? { sessionId: boundedId(r.sessionId) } : {}),
    ...(r.conversationId ? { conversationId: boundedId(r.conversationId) } : {}),
    findings,
  };
  return { ...analysis, alerts: alertsOf(analysis) };
}

const json = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
const rank = (f: Finding) => SEVERITIES.indexOf(f.severity);

/**
 * The analysis within `maxBytes` of JSON (the detections topic's message limit, less the key and
 * headers): when it is larger, its most severe findings that fit, in their order, the last of them
 * noting how many were left out, and their alerts. Findings are bounded in number and their field
 * names in length, so this cuts only what those bounds let through. Undefined when not one finding
 * fits, or the analysis without findings does not (its ids are beyond reason): an empty analysis
 * would claim the interaction is clean, so it cannot be written at all.
 */
export function fitAnalysis(analysis: AnalysisMessage, maxBytes: number): AnalysisMessage | undefined {
  if (json(analysis) <= maxBytes) return analysis;
  const { findings, alerts: _alerts, ...head } = analysis;
  const note = (omitted: number) =>
    `${omitted} findings of this interaction are not listed: the analysis would be larger than its topic takes`;
  // The note goes on the last finding kept and on its alert; the commas are counted generously.
  let room =
    maxBytes - json({ ...analysis, findings: [], alerts: [] }) - 2 * (note(findings.length).length + 8);
  const order = findings.map((_, i) => i).sort((a, b) => rank(findings[b]!) - rank(findings[a]!) || a - b);
  const keep = new Set<number>();
  for (const i of order) {
    const f = findings[i]!;
    const alert = alertFor(f, analysis);
    const cost = json(f) + 1 + (alert ? json(alert) + 1 : 0);
    if (cost > room) break;
    room -= cost;
    keep.add(i);
  }
  if (keep.size === 0) return undefined;
  const kept = findings.filter((_, i) => keep.has(i));
  kept[kept.length - 1] = withNote(kept.at(-1)!, note(findings.length - kept.length));
  const fitted: DetectionAnalysis = { ...head, findings: kept };
  return { ...fitted, alerts: alertsOf(fitted) };
}
