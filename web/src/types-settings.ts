// The shapes of the settings and account answers the pages read (services/api/src/schemas-management.ts,
// services/api/src/routes/alerts.ts and keys.ts).
import type { Role } from './types';

export interface Limits {
  ratePerMinute: number;
  burst: number;
  agentLimit: number;
}

export interface Project {
  projectId: string;
  name: string;
  tier: 'starter' | 'free' | 'professional' | 'business' | 'enterprise';
  limits?: Partial<Limits>;
  effectiveLimits?: Limits;
  usage?: { agents: number; activeKeys: number };
  settings: Record<string, unknown>;
  createdAt: string;
  activeKeys: number;
}

export interface Member {
  userId: string;
  email: string;
  name?: string;
  role: Role;
  joinedAt: string;
}

export interface Invitation {
  invitationId: string;
  email: string;
  role: Role;
  invitedBy?: string;
  createdAt: string;
  expiresAt: string;
  status: 'pending' | 'accepted' | 'revoked' | 'expired';
}

export interface CreatedInvitation extends Invitation {
  token: string;
  link: string;
}

export interface AuthConfig {
  signup: 'open' | 'invite' | 'closed';
  firstUser: boolean;
}

export interface WebhookEndpoint {
  id: string;
  projectId: string;
  url: string;
  description: string | null;
  events: string[];
  format: 'standard' | 'slack';
  enabled: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  failingSince: string | null;
  previousSecretUntil: string | null;
  createdAt: string;
}

export interface EndpointWithSecret {
  endpoint: WebhookEndpoint;
  secret: string;
}

export interface DeliveryAttempt {
  at: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

export interface Delivery {
  id: string;
  event: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  log: DeliveryAttempt[];
}

export interface KeyUsage {
  keyId: string;
  from: string;
  to: string;
  total: number;
  days: { day: string; requests: number }[];
}

export const ROLES: Role[] = ['owner', 'admin', 'member', 'viewer'];

/** What each role may do in the settings pages (the API refuses the rest anyway). */
export const mayManageOrg = (role?: Role) => role === 'owner' || role === 'admin';

export interface UserSession {
  sessionId: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  address?: string;
  userAgent?: string;
  current: boolean;
}

export interface AlertRule {
  id: string;
  name: string;
  minSeverity: 'low' | 'medium' | 'high' | 'critical';
  threatTypes: string[];
  agents: string[];
  windowSeconds: number;
  enabled: boolean;
  createdAt: string;
}

/** The detector's threat types (shared/src/schemas/detection.ts ThreatType). */
export const THREAT_TYPES = [
  'prompt_injection',
  'jailbreak',
  'pii_leak',
  'secret_leak',
  'system_prompt_leak',
  'data_exfiltration',
  'canary_leak',
  'obfuscation',
] as const;
