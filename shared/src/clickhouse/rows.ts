import type { InteractionEnvelope } from '../schemas/envelope';
import { InteractionRecord } from '../schemas/interaction';

/** `YYYY-MM-DD hh:mm:ss` in UTC: the DateTime text every ClickHouse version parses. */
export function clickhouseDateTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

const knownFields = new Set(Object.keys(InteractionRecord.properties));

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const uint = (v: unknown, max: number): number =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.min(Math.round(v), max) : 0;

export interface InteractionRow {
  account_id: string;
  interaction_id: string;
  agent_id: string;
  received_at: string;
  received_ms: number;
  event_time: string;
  endpoint: string;
  platform: string;
  user_id: string;
  session_id: string;
  conversation_id: string;
  chatflow_id: string;
  chat_id: string;
  app_id: string;
  workflow_id: string;
  execution_id: string;
  node_id: string;
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
  tool_calls: string;
  metadata: string;
  extra: string;
  schema_version: number;
}

/** Flattens an envelope into the `interactions` row; analytics fields are lifted from metadata. */
export function interactionRow(env: InteractionEnvelope): InteractionRow {
  const r = env.record;
  const meta = r.metadata ?? {};
  const receivedMs = Date.parse(env.receivedAt);
  const claimed = typeof meta.timestamp === 'string' ? Date.parse(meta.timestamp) : Number.NaN;
  // A client clock is trusted for event time only when it parses and is not absurd.
  const eventMs = Number.isFinite(claimed) && claimed > 0 && claimed < receivedMs + 86_400_000 ? claimed : receivedMs;
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
    user_id: r.userId ?? '',
    session_id: r.sessionId ?? '',
    conversation_id: r.conversationId ?? '',
    chatflow_id: r.chatflowId ?? '',
    chat_id: r.chatId ?? '',
    app_id: r.appId ?? '',
    workflow_id: r.workflowId ?? '',
    execution_id: r.executionId ?? '',
    node_id: r.nodeId ?? '',
    prompt: r.prompt,
    response: r.response,
    model: str(meta.model) || str(meta.model_name),
    model_provider: str(meta.model_provider),
    environment: str(meta.environment),
    tokens_used: uint(meta.tokens_used, 4_294_967_295),
    response_time_ms: uint(meta.response_time_ms, 4_294_967_295),
    tool_call_count: Math.min(tools.length, 65535),
    tool_names: tools.map((t) => t.name),
    tool_failures: tools.filter((t) => t.success === false || (typeof t.error === 'string' && t.error !== '')).length,
    tool_calls: JSON.stringify(tools),
    metadata: JSON.stringify(meta),
    extra: JSON.stringify(extra),
    schema_version: env.schemaVersion,
  };
}
