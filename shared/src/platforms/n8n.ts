import { normalizeDelivery, type PlatformShape } from './delivery';
import { moveField, plainText, replyText, type JsonObject } from './payload';
import { labelPlatform } from './records';
import type { DeliveryQuery, Normalized } from './types';

/**
 * n8n AI Agent node output `{output, intermediateSteps?}` merged with the chat trigger's `chatInput`
 * and `sessionId`, plus `workflowId`, `executionId` (often a number) and `nodeId` from expressions.
 */
function mapN8nFields(draft: JsonObject): void {
  moveField(draft, 'chatInput', 'prompt', plainText);
  // With an output parser attached, `output` is an object: the reply is its JSON text.
  moveField(draft, 'output', 'response', replyText);
  moveField(draft, 'intermediateSteps', 'toolCalls', (steps) => (Array.isArray(steps) ? steps : undefined));
  labelPlatform(draft, 'n8n');
}

const n8nShape: PlatformShape = {
  textKeys: ['prompt', 'response', 'chatInput', 'output'],
  agentIds: (draft) => [draft.workflowId],
  mapNativeFields: mapN8nFields,
};

export function normalizeN8nPayload(body: Record<string, unknown>, query?: DeliveryQuery): Normalized {
  return normalizeDelivery(body, query, n8nShape);
}
