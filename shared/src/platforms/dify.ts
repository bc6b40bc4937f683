import { normalizeDelivery, type PlatformShape } from './delivery';
import type { NamedEvent } from './events';
import {
  finiteNumber,
  idText,
  isJsonObject,
  isoTime,
  moveField,
  parseEmbeddedJson,
  plainText,
  type JsonObject,
} from './payload';
import { labelPlatform } from './records';
import type { DeliveryQuery, Normalized } from './types';

/**
 * Dify `metadata.usage` (`total_tokens`, `latency` in seconds, `total_price` as text, …) mapped to the
 * record's `tokens_used` and `response_time_ms`; the usage object itself is kept as sent.
 */
export function withDifyUsage(metadata: JsonObject): JsonObject {
  const usage = metadata.usage;
  if (!isJsonObject(usage)) return metadata;
  const mapped = { ...metadata };
  const prompt = finiteNumber(usage.prompt_tokens);
  const completion = finiteNumber(usage.completion_tokens);
  const tokens =
    finiteNumber(usage.total_tokens) ??
    (prompt !== undefined && completion !== undefined ? prompt + completion : undefined);
  if (mapped.tokens_used === undefined && tokens !== undefined && tokens >= 0)
    mapped.tokens_used = Math.round(tokens);
  const latencySeconds = finiteNumber(usage.latency);
  if (mapped.response_time_ms === undefined && latencySeconds !== undefined && latencySeconds >= 0) {
    mapped.response_time_ms = Math.round(latencySeconds * 1000);
  }
  return mapped;
}

/** Value meant for one tool when Dify keyed a JSON object by tool name; a lone tool gets the whole value. */
function valueForTool(value: unknown, tool: string, toolCount: number): unknown {
  if (isJsonObject(value) && Object.hasOwn(value, tool)) return value[tool];
  return toolCount === 1 ? value : undefined;
}

/**
 * Dify `agent_thought`: `tool` lists the tools used, `;`-separated, and `tool_input` / `observation`
 * are JSON strings keyed by tool name.
 */
export function difyThoughtToolCalls(tool: unknown, toolInput: unknown, observation: unknown): JsonObject[] {
  if (typeof tool !== 'string') return [];
  const names = tool
    .split(';')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const inputs = parseEmbeddedJson(toolInput);
  const outputs = parseEmbeddedJson(observation);
  return names.map((name) => {
    const call: JsonObject = { name };
    const input = valueForTool(inputs, name, names.length);
    const output = valueForTool(outputs, name, names.length);
    if (input !== undefined) call.input = input;
    if (output !== undefined) call.output = output;
    return call;
  });
}

/**
 * Dify chat response (`event: "message"`): `query` (added by the sender: the response does not carry
 * it), `answer`, `conversation_id`, `mode`, `metadata.usage`, `created_at` in unix seconds.
 */
function mapDifyFields(draft: JsonObject): void {
  moveField(draft, 'query', 'prompt', plainText);
  moveField(draft, 'answer', 'response', plainText);
  moveField(draft, 'conversation_id', 'conversationId', idText);
  moveField(draft, 'app_id', 'appId', idText);
  moveField(draft, 'user', 'userId', idText);
  labelPlatform(draft, 'dify');
  if (!isJsonObject(draft.metadata)) return;
  const metadata = withDifyUsage(draft.metadata);
  const timestamp = isoTime(draft.created_at);
  if (metadata.timestamp === undefined && timestamp !== undefined) {
    metadata.timestamp = timestamp;
    delete draft.created_at;
  }
  if (metadata.conversation_mode === undefined && typeof draft.mode === 'string') {
    metadata.conversation_mode = draft.mode;
    delete draft.mode;
  }
  draft.metadata = metadata;
}

/** Sets `key` from a nested value unless the body already has it under any spelling. */
function liftId(draft: JsonObject, keys: readonly [string, ...string[]], value: unknown): void {
  const text = idText(value);
  if (text !== undefined && keys.every((key) => draft[key] === undefined)) draft[keys[0]] = text;
}

/**
 * Stream events: workflow and node events nest their run under `data` (`workflow_id`, `node_id`,
 * `created_at`, `finished_at`); `message_end` names its message `id`; `agent_thought` carries tools.
 */
function prepareDifyEvent(draft: JsonObject, named: NamedEvent): void {
  const run = draft.data;
  if (isJsonObject(run)) {
    liftId(draft, ['workflowId', 'workflow_id'], run.workflow_id);
    liftId(draft, ['executionId', 'execution_id', 'workflow_run_id'], run.workflow_run_id);
    liftId(draft, ['nodeId', 'node_id'], run.node_id);
    const at = isoTime(run.finished_at) ?? isoTime(run.created_at);
    if (draft.created_at === undefined && draft.occurredAt === undefined && at !== undefined)
      draft.occurredAt = at;
  }
  if (named.type === 'message_end' && draft.messageId === undefined && draft.message_id === undefined) {
    moveField(draft, 'id', 'messageId', idText);
  }
  if (isJsonObject(draft.metadata)) draft.metadata = withDifyUsage(draft.metadata);
  if (named.type === 'agent_thought' && draft.toolCalls === undefined) {
    const calls = difyThoughtToolCalls(draft.tool, draft.tool_input, draft.observation);
    if (calls.length > 0) draft.toolCalls = calls;
  }
}

const difyShape: PlatformShape = {
  textKeys: ['prompt', 'response', 'query', 'answer'],
  agentIds: (draft) => [draft.appId, draft.app_id],
  mapNativeFields: mapDifyFields,
  prepareEvent: prepareDifyEvent,
};

export function normalizeDifyPayload(body: Record<string, unknown>, query?: DeliveryQuery): Normalized {
  return normalizeDelivery(body, query, difyShape);
}
