import type { ClickHouseClient } from '@clickhouse/client';
import { analysisRow, detectionRows, interactionRow } from '@warden/shared/clickhouse/rows';
import type { DetectionAnalysis, Finding } from '@warden/shared/schemas/detection';
import { buildEnvelope, type EventEnvelope, type InteractionEnvelope } from '@warden/shared/schemas/envelope';

/**
 * A small, fully known data set for the analytics tests: 60 interactions of account `acme` on
 * 2025-03-01 09:00–11:59 UTC (20 per hour, three agents), one more the next day (outside the range),
 * 5 of another account, lifecycle events, and findings of detector 1.0.0 and of a replay (2.0.0)
 * over 10:00–11:00. The test computes every expectation from these definitions in plain TypeScript.
 */
export const ACCOUNT = 'acme';
export const OTHER_ACCOUNT = 'globex';
export const DAY_FROM = '2025-03-01T00:00:00.000Z';
export const DAY_TO = '2025-03-02T00:00:00.000Z';
export const REPLAY_FROM = '2025-03-01T10:00:00.000Z';
export const REPLAY_TO = '2025-03-01T11:00:00.000Z';
export const REPLAY_STARTED_MS = Date.UTC(2025, 2, 5, 12, 0, 0);
export const IN_RANGE = 60;

export const AGENTS = [
  { id: 'support-bot', platform: 'flowise', model: 'gpt-4o' },
  { id: 'sales-bot', platform: 'n8n', model: 'claude-3-5-sonnet' },
  { id: 'ops-bot', platform: 'dify', model: 'gpt-4o-mini' },
] as const;

export interface SeedInteraction {
  i: number;
  id: string;
  account: string;
  agent: (typeof AGENTS)[number];
  receivedMs: number;
  tokens: number;
  responseMs: number;
  tools: { name: string; success?: boolean; error?: string }[];
  userId: string;
  sessionId: string;
}

export const interactionId = (i: number, account = ACCOUNT): string =>
  `01956a00-0000-7000-${account === ACCOUNT ? '8000' : '9000'}-${String(i).padStart(12, '0')}`;

const agentOf = (i: number) => AGENTS[i % 3] ?? AGENTS[0];

function seedInteraction(i: number, account = ACCOUNT): SeedInteraction {
  const hour = Math.floor(i / 20);
  const receivedMs =
    i === IN_RANGE
      ? Date.UTC(2025, 2, 2, 0, 30, 0, 5) // next day: outside every query range
      : Date.UTC(2025, 2, 1, 9 + hour, 0, 0) + (i % 20) * 170_000 + 123;
  const tools =
    i % 4 === 0
      ? [
          { name: 'search', success: true },
          { name: 'db_query', success: i % 8 !== 0 },
        ]
      : i % 5 === 0
        ? [{ name: 'email', error: 'timeout' }]
        : [];
  return {
    i,
    id: interactionId(i, account),
    account,
    agent: agentOf(i),
    receivedMs,
    tokens: 100 + i,
    responseMs: i % 9 === 8 ? 0 : 200 + 10 * i,
    tools,
    userId: `user-${i % 5}`,
    sessionId: `sess-${i % 7}`,
  };
}

/** acme 0..59 in range, acme 60 next day. */
export const ACME: SeedInteraction[] = Array.from({ length: IN_RANGE + 1 }, (_, i) => seedInteraction(i));
export const OTHERS: SeedInteraction[] = Array.from({ length: 5 }, (_, i) =>
  seedInteraction(i, OTHER_ACCOUNT),
);

export function envelopeOf(s: SeedInteraction): InteractionEnvelope {
  return buildEnvelope(
    {
      agentId: s.agent.id,
      prompt: `prompt ${s.i}`,
      response: `response ${s.i}`,
      metadata: {
        model: s.agent.model,
        tokens_used: s.tokens,
        ...(s.responseMs > 0 ? { response_time_ms: s.responseMs } : {}),
      },
      ...(s.tools.length > 0 ? { toolCalls: s.tools } : {}),
      userId: s.userId,
      sessionId: s.sessionId,
    },
    {
      accountId: s.account,
      endpoint: `/api/v1/integrations/${s.agent.platform}/telemetry`,
      platform: s.agent.platform,
      interactionId: s.id,
      now: new Date(s.receivedMs),
    },
  );
}

const finding = (
  f: Omit<Finding, 'confidence' | 'explanation' | 'detectorVersion'>,
  version: string,
): Finding => ({
  ...f,
  detectorVersion: version,
  confidence: 0.9,
  explanation: `${f.ruleId} fired`,
});

/** Findings of detector 1.0.0, and of 2.0.0 (drops the phone rule and the injection at i=30, adds a card at i=25). */
export function findingsFor(i: number, version: '1.0.0' | '2.0.0'): Finding[] {
  const out: Finding[] = [];
  const v2 = version === '2.0.0';
  if (i % 6 === 0 && !(v2 && i === 30))
    out.push(
      finding(
        {
          detector: 'injection',
          ruleId: 'inj.ignore-previous',
          threatType: 'prompt_injection',
          severity: 'high',
          field: 'prompt',
          start: 0,
          end: 20,
          view: 'raw',
        },
        version,
      ),
    );
  if (i % 10 === 3)
    out.push(
      finding(
        {
          detector: 'pii',
          ruleId: 'pii.email',
          threatType: 'pii_leak',
          severity: 'medium',
          field: 'response',
          start: 5,
          end: 25,
          view: 'raw',
          entityType: 'EMAIL_ADDRESS',
          masked: '****@example.com',
        },
        version,
      ),
    );
  if (i % 20 === 3 && !v2)
    out.push(
      finding(
        {
          detector: 'pii',
          ruleId: 'pii.phone',
          threatType: 'pii_leak',
          severity: 'medium',
          field: 'response',
          start: 30,
          end: 42,
          view: 'raw',
          entityType: 'PHONE_NUMBER',
          masked: '****1234',
        },
        version,
      ),
    );
  if (i === 25 && v2)
    out.push(
      finding(
        {
          detector: 'pii',
          ruleId: 'pii.card',
          threatType: 'pii_leak',
          severity: 'high',
          field: 'prompt',
          start: 3,
          end: 19,
          view: 'raw',
          entityType: 'CREDIT_CARD',
          masked: '****4242',
        },
        version,
      ),
    );
  if (i % 15 === 7)
    out.push(
      finding(
        {
          detector: 'jailbreak',
          ruleId: 'jb.dan',
          threatType: 'jailbreak',
          severity: 'critical',
          field: 'prompt',
          start: 0,
          end: 50,
          view: 'nfkc',
        },
        version,
      ),
    );
  if (i % 12 === 11)
    out.push(
      finding(
        {
          detector: 'secrets',
          ruleId: 'sec.aws-key',
          threatType: 'secret_leak',
          severity: 'high',
          field: 'toolCalls[0].output',
          start: 0,
          end: 20,
          view: 'raw',
          entityType: 'AWS_ACCESS_KEY',
          masked: '****MPLE',
        },
        version,
      ),
    );
  return out;
}

export const replayed = (s: SeedInteraction): boolean =>
  s.account === ACCOUNT && s.receivedMs >= Date.parse(REPLAY_FROM) && s.receivedMs < Date.parse(REPLAY_TO);

export function analysisOf(
  s: SeedInteraction,
  version: '1.0.0' | '2.0.0',
  analyzedMs: number,
): DetectionAnalysis {
  return {
    schemaVersion: 1,
    interactionId: s.id,
    accountId: s.account,
    agentId: s.agent.id,
    receivedAt: new Date(s.receivedMs).toISOString(),
    analyzedAt: new Date(analyzedMs).toISOString(),
    detectorVersion: version,
    platform: s.agent.platform,
    userId: s.userId,
    sessionId: s.sessionId,
    findings: findingsFor(s.i, version),
  };
}

/** Lifecycle events; `events-only-bot` never sends an interaction. */
export const EVENTS: EventEnvelope[] = [
  ['ev-1', ACCOUNT, 'ops-bot', 'conversation_started', 'dify', Date.UTC(2025, 2, 1, 8, 59, 0)],
  ['ev-2', ACCOUNT, 'ops-bot', 'conversation_started', 'dify', Date.UTC(2025, 2, 1, 10, 1, 0)],
  ['ev-3', ACCOUNT, 'ops-bot', 'message_end', 'dify', Date.UTC(2025, 2, 1, 10, 2, 0)],
  ['ev-4', ACCOUNT, 'events-only-bot', 'workflow_started', 'n8n', Date.UTC(2025, 2, 1, 11, 0, 0)],
  ['ev-5', OTHER_ACCOUNT, 'support-bot', 'message_end', 'flowise', Date.UTC(2025, 2, 1, 10, 0, 0)],
].map(([id, account, agent, type, platform, ms]) => ({
  schemaVersion: 1,
  interactionId: String(id),
  accountId: String(account),
  receivedAt: new Date(Number(ms)).toISOString(),
  source: { endpoint: `/api/v1/integrations/${String(platform)}/telemetry`, platform: String(platform) },
  event: { agentId: String(agent), eventType: String(type), conversationId: 'c-1', data: { step: 1 } },
}));

/**
 * Writes both accounts' interactions, each analysed once by detector 1.0.0, into `db`: the raw
 * tables and, through their views, the rollups agree (the API suites' seed).
 */
export async function seedAnalysedOnce(client: ClickHouseClient, db: string): Promise<void> {
  const seeded = [...ACME, ...OTHERS];
  await client.insert({
    table: `${db}.interactions`,
    values: seeded.map(envelopeOf).map(interactionRow),
    format: 'JSONEachRow',
  });
  const analyses = seeded.map((s) => analysisOf(s, '1.0.0', s.receivedMs + 2000));
  await client.insert({
    table: `${db}.detections`,
    values: analyses.flatMap(detectionRows),
    format: 'JSONEachRow',
  });
  await client.insert({ table: `${db}.analyses`, values: analyses.map(analysisRow), format: 'JSONEachRow' });
}
