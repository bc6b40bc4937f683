import { normalizeDelivery, type PlatformShape } from './delivery';
import {
  idText,
  isJsonObject,
  moveField,
  parseEmbeddedJson,
  plainText,
  replyText,
  type JsonObject,
} from './payload';
import { labelPlatform } from './records';
import type { DeliveryQuery, Normalized } from './types';

/**
 * Flowise prediction response: `{text | json, question, chatId, chatMessageId, sessionId, usedTools,
 * followUpPrompts (JSON string), …}`, plus `chatflowId` when the sender adds it.
 */
function mapFlowiseFields(draft: JsonObject): void {
  moveField(draft, 'question', 'prompt', plainText);
  moveField(draft, 'text', 'response', plainText);
  // Flows with a structured output answer in `json` instead of `text`.
  if (isJsonObject(draft.json) || Array.isArray(draft.json)) moveField(draft, 'json', 'response', replyText);
  moveField(draft, 'usedTools', 'toolCalls', (used) => (Array.isArray(used) ? used : undefined));
  // Flowise's own session defaults to the chat; observability tools map chatId to the session too.
  if (draft.sessionId === undefined && idText(draft.chatId) !== undefined)
    draft.sessionId = idText(draft.chatId);
  if (typeof draft.chatMessageId === 'number') draft.chatMessageId = idText(draft.chatMessageId);
  if (draft.followUpPrompts !== undefined) draft.followUpPrompts = parseEmbeddedJson(draft.followUpPrompts);
  labelPlatform(draft, 'flowise');
}

const flowiseShape: PlatformShape = {
  textKeys: ['prompt', 'response', 'question', 'text', 'json'],
  agentIds: (draft) => [draft.chatflowId],
  mapNativeFields: mapFlowiseFields,
};

export function normalizeFlowisePayload(body: Record<string, unknown>, query?: DeliveryQuery): Normalized {
  return normalizeDelivery(body, query, flowiseShape);
}
