import type { CanaryConfig } from '../config';
import {
  DETECTION_SCHEMA_VERSION,
  type AnalysisMessage,
  type DetectionAnalysis,
  type Finding,
  type ThreatAlert,
} from '../schemas/detection';
import type { InteractionEnvelope } from '../schemas/envelope';
import { detectInteraction, detectorVersion, type DetectOptions } from './index';

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
    agentId: r.agentId,
    receivedAt: env.receivedAt,
    analyzedAt: (opts.now?.() ?? new Date()).toISOString(),
    detectorVersion,
    platform: env.source.platform,
    ...(r.userId ? { userId: r.userId } : {}),
    ...(r.sessionId ? { sessionId: r.sessionId } : {}),
    ...(r.conversationId ? { conversationId: r.conversationId } : {}),
    findings,
  };
  const alerts = findings.map((f) => alertFor(f, analysis)).filter((x): x is ThreatAlert => x !== undefined);
  return { ...analysis, alerts };
}
