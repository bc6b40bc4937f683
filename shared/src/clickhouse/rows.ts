import { createHash } from 'node:crypto';
import type { DetectionAnalysis, Finding, Severity, ThreatType } from '../schemas/detection';
import type { EventEnvelope, InteractionEnvelope } from '../schemas/envelope';
import { InteractionRecord, type ToolCall } from '../schemas/interaction';

/** `YYYY-MM-DD hh:mm:ss` in UTC: the DateTime text every ClickHouse version parses. */
export function clickhouseDateTime(ms: number): string {
  // Rows of one batch mostly share their second: formatting it once is a measurable part of a flush.
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastFormatted = new Date(second * 1000).toISOString().slice(0, 19).replace('T', ' ');
  }
  return lastFormatted;
}
let lastSecond = Number.NaN;
let lastFormatted = '';

const knownFields = new Set(Object.keys(InteractionRecord.properties));

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const uint = (v: unknown, max: number): number =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.min(Math.round(v), max) : 0;

/** The identifiers a client may send to tie records together: one set of columns, in both tables. */
interface CorrelationColumns {
  user_id: string;
  session_id: string;
  conversation_id: string;
  app_id: string;
  workflow_id: string;
  execution_id: string;
  node_id: string;
}

function correlationColumns(ids: {
  userId?: string | undefined;
  sessionId?: string | undefined;
  conversationId?: string | undefined;
  appId?: string | undefined;
  workflowId?: string | undefined;
  executionId?: string | undefined;
  nodeId?: string | undefined;
}): CorrelationColumns {
  return {
    user_id: ids.userId ?? '',
    session_id: ids.sessionId ?? '',
    conversation_id: ids.conversationId ?? '',
    app_id: ids.appId ?? '',
    workflow_id: ids.workflowId ?? '',
    execution_id: ids.executionId ?? '',
    node_id: ids.nodeId ?? '',
  };
}

/** A client clock counts for event time only when it parses and is not absurd (over a day ahead). */
function trustedClientMs(claimed: unknown, receivedMs: number): number {
  const ms = typeof claimed === 'string' ? Date.parse(claimed) : Number.NaN;
  return Number.isFinite(ms) && ms > 0 && ms < receivedMs + 86_400_000 ? ms : receivedMs;
}

export interface InteractionRow extends CorrelationColumns {
  account_id: string;
  interaction_id: string;
  agent_id: string;
  received_at: string;
  received_ms: number;
  event_time: string;
  endpoint: string;
  platform: string;
  chatflow_id: string;
  chat_id: string;
  prompt: string;
  response: string;
  model: string;
  model_provider: string;
  environment: string;
  tokens_used: number;
  response_time_ms: number;
  tool_call_count: number;
  tool_names: string[];
  tool_failures: number;
  /** Parallel to tool_names: 1 where that call failed (migration 0002). */
  tool_failed: number[];
  /** Parallel to tool_names: execution_time_ms, 0 when not reported (migration 0002). */
  tool_ms: number[];
  tool_calls: string;
  metadata: string;
  extra: string;
  schema_version: number;
}

const toolFailed = (t: ToolCall): boolean =>
  t.success === false || (typeof t.error === 'string' && t.error !== '');

/** Flattens an envelope into the `interactions` row; analytics fields are lifted from metadata. */
export function interactionRow(env: InteractionEnvelope): InteractionRow {
  const r = env.record;
  const meta = r.metadata ?? {};
  const receivedMs = Date.parse(env.receivedAt);
  const eventMs = trustedClientMs(meta.timestamp, receivedMs);
  const tools = r.toolCalls ?? [];
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(r)) if (!knownFields.has(key)) extra[key] = value;
  return {
    account_id: env.accountId,
    interaction_id: env.interactionId,
    agent_id: r.agentId,
    received_at: clickhouseDateTime(receivedMs),
    received_ms: receivedMs,
    event_time: clickhouseDateTime(eventMs),
    endpoint: env.source.endpoint,
    platform: env.source.platform || str(meta.platform),
    ...correlationColumns(r),
    chatflow_id: r.chatflowId ?? '',
    chat_id: r.chatId ?? '',
    prompt: r.prompt,
    response: r.response,
    model: str(meta.model) || str((meta as Record<string, unknown>).model_name),
    model_provider: str(meta.model_provider),
    environment: str(meta.environment),
    tokens_used: uint(meta.tokens_used, 4_294_967_295),
    response_time_ms: uint(meta.response_time_ms, 4_294_967_295),
    tool_call_count: Math.min(tools.length, 65535),
    tool_names: tools.map((t) => t.name),
    tool_failures: tools.filter(toolFailed).length,
    tool_failed: tools.map((t) => (toolFailed(t) ? 1 : 0)),
    tool_ms: tools.map((t) => uint(t.execution_time_ms, 4_294_967_295)),
    tool_calls: JSON.stringify(tools),
    metadata: JSON.stringify(meta),
    extra: JSON.stringify(extra),
    schema_version: env.schemaVersion,
  };
}

export interface EventRow extends CorrelationColumns {
  account_id: string;
  event_id: string;
  agent_id: string;
  event_type: string;
  received_at: string;
  received_ms: number;
  occurred_at: string;
  occurred_ms: number;
  endpoint: string;
  platform: string;
  message_id: string;
  data: string;
  schema_version: number;
}

/** Flattens a lifecycle event envelope into the `events` row. */
export function eventRow(env: EventEnvelope): EventRow {
  const e = env.event;
  const receivedMs = Date.parse(env.receivedAt);
  const occurredMs = trustedClientMs(e.occurredAt, receivedMs);
  return {
    account_id: env.accountId,
    event_id: env.interactionId,
    agent_id: e.agentId,
    event_type: e.eventType,
    received_at: clickhouseDateTime(receivedMs),
    received_ms: receivedMs,
    occurred_at: clickhouseDateTime(occurredMs),
    occurred_ms: occurredMs,
    endpoint: env.source.endpoint,
    platform: env.source.platform,
    ...correlationColumns(e),
    message_id: e.messageId ?? '',
    data: JSON.stringify(e.data ?? {}),
    schema_version: env.schemaVersion,
  };
}

/**
 * Identity of a finding across runs: the same detector and rule firing on the same span of the same
 * view of the same interaction is the same finding, whatever the detector version or run time. That
 * makes retries and replays collapse in ReplacingMergeTree and in `uniqExact(finding_id)`.
 */
export function findingId(
  interactionId: string,
  f: Pick<Finding, 'detector' | 'ruleId' | 'field' | 'start' | 'end' | 'view'>,
): string {
  const key = JSON.stringify([interactionId, f.detector, f.ruleId, f.field, f.start, f.end, f.view]);
  return createHash('sha256').update(key).digest('hex').slice(0, 32);
}

export interface DetectionRow {
  account_id: string;
  interaction_id: string;
  finding_id: string;
  agent_id: string;
  received_at: string;
  received_ms: number;
  analyzed_at: string;
  analyzed_ms: number;
  analysis_detector_version: string;
  platform: string;
  user_id: string;
  session_id: string;
  conversation_id: string;
  detector: string;
  detector_version: string;
  rule_id: string;
  threat_type: ThreatType;
  severity: Severity;
  confidence: number;
  field: string;
  span_start: number;
  span_end: number;
  view: string;
  entity_type: string;
  explanation: string;
  masked: string;
}

export interface AnalysisRow {
  account_id: string;
  interaction_id: string;
  agent_id: string;
  received_at: string;
  received_ms: number;
  analyzed_at: string;
  analyzed_ms: number;
  detector_version: string;
  platform: string;
  user_id: string;
  session_id: string;
  conversation_id: string;
  finding_count: number;
}

function isoMs(value: string, what: string): number {
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw new Error(`${what} is not an ISO date-time: ${JSON.stringify(value)}`);
  return ms;
}

/** One analysis run of one interaction: the row that decides which findings are current. */
export function analysisRow(a: DetectionAnalysis): AnalysisRow {
  const receivedMs = isoMs(a.receivedAt, 'receivedAt');
  const analyzedMs = isoMs(a.analyzedAt, 'analyzedAt');
  return {
    account_id: a.accountId,
    interaction_id: a.interactionId,
    agent_id: a.agentId,
    received_at: clickhouseDateTime(receivedMs),
    received_ms: receivedMs,
    analyzed_at: clickhouseDateTime(analyzedMs),
    analyzed_ms: analyzedMs,
    detector_version: a.detectorVersion,
    platform: a.platform,
    user_id: a.userId ?? '',
    session_id: a.sessionId ?? '',
    conversation_id: a.conversationId ?? '',
    finding_count: new Set(a.findings.map((f) => findingId(a.interactionId, f))).size,
  };
}

const clamp01 = (n: number): number => (Number.isFinite(n) ? Math.min(Math.max(n, 0), 1) : 0);

/** One row per finding; an analysis without findings yields none (its `analysisRow` still counts). */
export function detectionRows(a: DetectionAnalysis): DetectionRow[] {
  const base = analysisRow(a);
  return a.findings.map((f) => ({
    account_id: base.account_id,
    interaction_id: base.interaction_id,
    finding_id: findingId(a.interactionId, f),
    agent_id: base.agent_id,
    received_at: base.received_at,
    received_ms: base.received_ms,
    analyzed_at: base.analyzed_at,
    analyzed_ms: base.analyzed_ms,
    analysis_detector_version: base.detector_version,
    platform: base.platform,
    user_id: base.user_id,
    session_id: base.session_id,
    conversation_id: base.conversation_id,
    detector: f.detector,
    detector_version: f.detectorVersion,
    rule_id: f.ruleId,
    threat_type: f.threatType,
    severity: f.severity,
    confidence: clamp01(f.confidence),
    field: f.field,
    span_start: uint(f.start, 4_294_967_295),
    span_end: uint(f.end, 4_294_967_295),
    view: f.view,
    entity_type: f.entityType ?? '',
    explanation: f.explanation,
    masked: f.masked ?? '',
  }));
}

const parsedJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * Rebuilds the envelope from a stored `interactions` row, for a replay that re-reads ClickHouse
 * instead of Kafka (past the topic's retention). Lossless for everything `interactionRow` keeps.
 */
export function envelopeFromRow(row: InteractionRow): InteractionEnvelope {
  const metadata = parsedJson(row.metadata);
  const toolCalls = parsedJson(row.tool_calls);
  const extra = parsedJson(row.extra);
  const record: InteractionRecord = {
    ...(extra !== null && typeof extra === 'object' ? (extra as Record<string, unknown>) : {}),
    agentId: row.agent_id,
    prompt: row.prompt,
    response: row.response,
  };
  if (metadata !== null && typeof metadata === 'object' && Object.keys(metadata).length > 0)
    record.metadata = metadata as InteractionRecord['metadata'];
  if (Array.isArray(toolCalls) && toolCalls.length > 0) record.toolCalls = toolCalls as ToolCall[];
  const ids = {
    userId: row.user_id,
    sessionId: row.session_id,
    conversationId: row.conversation_id,
    chatflowId: row.chatflow_id,
    chatId: row.chat_id,
    appId: row.app_id,
    workflowId: row.workflow_id,
    executionId: row.execution_id,
    nodeId: row.node_id,
  } as const;
  for (const [key, value] of Object.entries(ids))
    if (value !== '') (record as Record<string, unknown>)[key] = value;
  return {
    schemaVersion: row.schema_version,
    interactionId: row.interaction_id,
    accountId: row.account_id,
    receivedAt: new Date(row.received_ms).toISOString(),
    source: { endpoint: row.endpoint, platform: row.platform },
    record,
  };
}
