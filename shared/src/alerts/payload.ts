import { createHash } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { SEVERITIES, Severity, ThreatType, type DetectionAnalysis, type Finding } from '../schemas/detection';

/**
 * The body of every `threat_detected` webhook: the contract's fields exactly (event, agentId,
 * threatType, severity, timestamp, details {confidence, description}) plus what a receiver needs
 * to group, link and deduplicate.
 */
export const ThreatDetectedWebhook = Type.Object(
  {
    event: Type.Literal('threat_detected'),
    agentId: Type.String(),
    threatType: ThreatType,
    severity: Severity,
    timestamp: Type.String({
      format: 'date-time',
      description: 'When the first counted detection was analysed.',
    }),
    details: Type.Object({
      confidence: Type.Number({ minimum: 0, maximum: 1 }),
      description: Type.String(),
    }),
    interactionId: Type.String({ description: 'The first interaction the alert counted.' }),
    projectId: Type.String(),
    ruleId: Type.String({
      description: 'The alert rule that matched (`default` when the project has none).',
    }),
    dedupKey: Type.String({
      description:
        'The same for every alert of one project, agent, threat type and rule: an update of a grouped alert carries the key of the first.',
    }),
    count: Type.Integer({
      minimum: 1,
      description:
        'Detections grouped into this alert so far: 1 on the first delivery, the total in the update sent when the window closes.',
    }),
    link: Type.String({
      format: 'uri',
      description: 'The interaction in the dashboard: <dashboard>/interactions/<interactionId>.',
    }),
  },
  { $id: 'ThreatDetectedWebhook' },
);
export type ThreatDetectedWebhook = Static<typeof ThreatDetectedWebhook>;

/** An alert rule as the alerter applies it. */
export interface AlertRule {
  id: string;
  minSeverity: Severity;
  /** Empty: every threat type. */
  threatTypes: string[];
  /** Empty: every agent. */
  agents: string[];
  windowSeconds: number;
}

/** What applies to a project that has no rule of its own: high and critical, any type, any agent, 10 min. */
export const DEFAULT_RULE: AlertRule = {
  id: 'default',
  minSeverity: 'high',
  threatTypes: [],
  agents: [],
  windowSeconds: 600,
};

const rank = (s: Severity) => SEVERITIES.indexOf(s);

export const ruleMatches = (rule: AlertRule, agentId: string, f: Finding): boolean =>
  rank(f.severity) >= rank(rule.minSeverity) &&
  (rule.threatTypes.length === 0 || rule.threatTypes.includes(f.threatType)) &&
  (rule.agents.length === 0 || rule.agents.includes(agentId));

/** The grouping key: project, agent, threat type, rule (hashed, so it carries no names). */
export function dedupKey(projectId: string, agentId: string, threatType: string, ruleId: string): string {
  const digest = createHash('sha256').update(JSON.stringify([projectId, agentId, threatType, ruleId]));
  return `dk_${digest.digest('hex').slice(0, 32)}`;
}

/** One alert a detection raises under one rule, before grouping. */
export interface RaisedAlert {
  projectId: string;
  rule: AlertRule;
  dedupKey: string;
  interactionId: string;
  agentId: string;
  threatType: string;
  severity: Severity;
  timestamp: string;
  confidence: number;
  description: string;
}

/**
 * The alerts an analysis raises under a project's rules: per rule and threat type, the most severe
 * (then most confident) matching finding, so one interaction counts once per group.
 */
export function raisedAlerts(a: DetectionAnalysis, rules: readonly AlertRule[]): RaisedAlert[] {
  const best = new Map<string, { rule: AlertRule; f: Finding }>();
  for (const rule of rules) {
    for (const f of a.findings) {
      if (!ruleMatches(rule, a.agentId, f)) continue;
      const key = `${rule.id}\u0000${f.threatType}`;
      const held = best.get(key);
      if (
        !held ||
        rank(f.severity) > rank(held.f.severity) ||
        (f.severity === held.f.severity && f.confidence > held.f.confidence)
      )
        best.set(key, { rule, f });
    }
  }
  return [...best.values()].map(({ rule, f }) => ({
    projectId: a.accountId,
    rule,
    dedupKey: dedupKey(a.accountId, a.agentId, f.threatType, rule.id),
    interactionId: a.interactionId,
    agentId: a.agentId,
    threatType: f.threatType,
    severity: f.severity,
    timestamp: a.analyzedAt,
    confidence: f.confidence,
    description: f.explanation,
  }));
}

/** The webhook body for an alert with `count` detections so far. */
export function threatPayload(
  alert: RaisedAlert,
  count: number,
  dashboardUrl: string,
): ThreatDetectedWebhook {
  return {
    event: 'threat_detected',
    agentId: alert.agentId,
    threatType: alert.threatType as ThreatDetectedWebhook['threatType'],
    severity: alert.severity,
    timestamp: alert.timestamp,
    details: { confidence: alert.confidence, description: alert.description },
    interactionId: alert.interactionId,
    projectId: alert.projectId,
    ruleId: alert.rule.id,
    dedupKey: alert.dedupKey,
    count,
    link: `${dashboardUrl}/interactions/${encodeURIComponent(alert.interactionId)}`,
  };
}

/**
 * A delivery's body as a Slack incoming-webhook message (`{"text": …}` in Slack's mrkdwn), for
 * endpoints whose format is `slack`. `body` is the stored JSON payload; anything else is passed on
 * as a plain line of text.
 */
export function slackMessage(body: string): string {
  let payload: Partial<ThreatDetectedWebhook> & { event?: string };
  try {
    payload = JSON.parse(body) as typeof payload;
  } catch {
    return JSON.stringify({ text: body });
  }
  if (payload.event !== 'threat_detected')
    return JSON.stringify({
      text: `Warden ${payload.event ?? 'event'}: this endpoint receives Warden's alerts.`,
    });
  const escape = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const count = (payload.count ?? 1) > 1 ? ` (${payload.count} detections)` : '';
  const lines = [
    `:rotating_light: *${escape(payload.severity ?? '')}* ${escape(payload.threatType ?? '')} on agent \`${escape(payload.agentId ?? '')}\`${count}`,
    escape(payload.details?.description ?? ''),
    payload.link ? `<${payload.link}|Open the interaction in Warden>` : '',
  ];
  return JSON.stringify({ text: lines.filter(Boolean).join('\n') });
}
