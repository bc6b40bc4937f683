// The shapes of the API's answers the pages read (services/api/src/schemas.ts).

export type Role = 'owner' | 'admin' | 'member' | 'viewer';
export type Severity = 'low' | 'medium' | 'high' | 'critical';
export const SEVERITIES: Severity[] = ['critical', 'high', 'medium', 'low'];

export interface Me {
  kind: 'session' | 'key';
  user?: { userId: string; email: string };
  organisationId?: string;
  role?: Role;
}

export interface KeyListing {
  keyId: string;
  projectId: string;
  name?: string;
  scopes: string[];
  hint: string;
  status: 'active' | 'expiring' | 'expired' | 'revoked';
  createdAt: string;
  createdBy?: string;
  expiresAt?: string;
  revokedAt?: string;
  usage: { today: number; total: number; lastUsedAt?: string };
}

export interface CreatedKey {
  keyId: string;
  key: string;
  projectId: string;
  scopes: string[];
  previousKeyExpiresAt?: string;
}

export interface Overview {
  from: string;
  to: string;
  interval: 'hour' | 'day';
  totals: {
    interactions: number;
    tokens: number;
    toolCalls: number;
    activeAgents: number;
    findings: number;
    flaggedInteractions: number;
    bySeverity: Record<string, number>;
    byThreatType: { threatType: string; findings: number; interactions: number }[];
  };
  series: {
    bucket: string;
    interactions: number;
    tokens: number;
    findings: number;
    /** Findings per severity in the bucket (newer APIs); the chart stacks them when present. */
    bySeverity?: Partial<Record<Severity, number>>;
  }[];
}

export interface Detection {
  findingId: string;
  interactionId: string;
  agentId: string;
  receivedAt: string;
  threatType: string;
  severity: Severity;
  ruleId: string;
  field: string;
  explanation: string;
  masked: string;
  userId: string;
  sessionId: string;
  conversationId?: string;
}

export interface Finding {
  findingId: string;
  detector: string;
  ruleId: string;
  threatType: string;
  severity: Severity;
  confidence: number;
  field: string;
  start: number;
  end: number;
  view: string;
  entityType: string;
  explanation: string;
  masked: string;
}

export interface Interaction {
  interactionId: string;
  agentId: string;
  receivedAt: string;
  platform: string;
  userId: string;
  sessionId: string;
  conversationId: string;
  prompt: string;
  response: string;
  model: string;
  tokensUsed: number;
  responseTimeMs: number;
  toolCalls: unknown;
  metadata: unknown;
  findings: Finding[];
}

/** GET /api/v1/agents (issue #22): not on every install yet; the page says so when it is missing. */
export interface Agent {
  agentId: string;
  name?: string;
  description?: string;
  canaries: string[];
  archived: boolean;
  archivedAt?: string;
  /** Absent for an agent described through the API but never seen in data. */
  firstSeen?: string;
  lastSeen?: string;
  platforms: string[];
  interactions: number;
  findings: number;
  bySeverity: Record<string, number>;
}

/** GET /api/v1/analytics/top: keys ranked by detections. */
export type TopDimension = 'agent' | 'rule' | 'threat' | 'user' | 'session';
export interface TopItem {
  key: string;
  findings: number;
  flaggedInteractions: number;
  critical: number;
  high: number;
}
