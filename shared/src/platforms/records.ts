import { platformIdFields, type InteractionRecord } from '../schemas/interaction';
import { copyPayloadValue, idText, isJsonObject, type JsonObject } from './payload';
import { normalizeToolCalls } from './tool-calls';
import type { DeliveryQuery, Normalized, Platform } from './types';

/** Every id the record stores as text; platforms send some of them as numbers. */
const recordIdFields: readonly string[] = [
  'userId',
  'sessionId',
  'conversationId',
  ...Object.keys(platformIdFields),
];

/**
 * The draft handed to validation. The cast is deliberate: the record may still lack agentId or carry
 * wrong types, and the caller's validation is what reports that (MISSING_REQUIRED_FIELD, …).
 */
export function unvalidatedRecord(draft: unknown): InteractionRecord {
  return draft as InteractionRecord;
}

/**
 * Copies the caller's body (never mutated, prototype keys dropped) and hands the copy to `shape`.
 * A body that is not an object is passed on untouched for validation to reject.
 */
export function normalizeOwnedCopy(body: unknown, shape: (draft: JsonObject) => Normalized): Normalized {
  if (!isJsonObject(body)) return { kind: 'interaction', record: unvalidatedRecord(body) };
  return shape(copyPayloadValue(body) as JsonObject);
}

/** Already the contract's record: prompt and response are text, so no native field is mapped. */
export function isCanonicalRecord(draft: JsonObject): boolean {
  return typeof draft.prompt === 'string' && typeof draft.response === 'string';
}

/** True when any of `keys` holds something: the body talks about a prompt or a response. */
export function carriesConversationText(draft: JsonObject, keys: readonly string[]): boolean {
  return keys.some((key) => draft[key] !== undefined && draft[key] !== null);
}

/** True when the body has an agentId of its own, even a wrongly typed one (validation judges that). */
function hasOwnAgentId(draft: JsonObject): boolean {
  return draft.agentId !== undefined && draft.agentId !== null && draft.agentId !== '';
}

/**
 * The agent for a body without one: `?agentId=` first, then the platform's own id for the flow, app or
 * workflow. Naming the agent after a platform id is a choice: the id is stable and is what the user
 * sees in the platform, whereas rejecting every webhook that lacks `?agentId=` would lose telemetry.
 * With neither, there is no agent, and validation reports the missing agentId.
 */
export function fallbackAgentId(
  query: DeliveryQuery | undefined,
  platformIds: readonly unknown[],
): string | undefined {
  const named = query?.agentId;
  if (typeof named === 'string' && named.trim() !== '') return named;
  for (const candidate of platformIds) {
    const text = idText(candidate);
    if (text !== undefined) return text;
  }
  return undefined;
}

/** The agent an event is stored under, or undefined when none (or a wrongly typed one) is given. */
export function eventAgentId(
  draft: JsonObject,
  query: DeliveryQuery | undefined,
  platformIds: readonly unknown[],
): string | undefined {
  if (typeof draft.agentId === 'string' && draft.agentId !== '') return draft.agentId;
  return hasOwnAgentId(draft) ? undefined : fallbackAgentId(query, platformIds);
}

/** Sets `metadata.platform` on a mapped native body when the sender did not label it. */
export function labelPlatform(draft: JsonObject, platform: Platform): void {
  if (draft.metadata === undefined) draft.metadata = { platform };
  else if (isJsonObject(draft.metadata) && draft.metadata.platform === undefined) {
    draft.metadata = { ...draft.metadata, platform };
  }
}

/**
 * Last step shared by canonical and mapped bodies: ids become text, tool calls take the record's
 * shape, and a body without an agent gets one from the query or the platform ids.
 */
export function finishRecord(
  draft: JsonObject,
  query: DeliveryQuery | undefined,
  platformIds: readonly unknown[],
): InteractionRecord {
  for (const key of recordIdFields) {
    const value = draft[key];
    if (typeof value === 'number') draft[key] = idText(value) ?? value;
  }
  if (draft.toolCalls !== undefined) draft.toolCalls = normalizeToolCalls(draft.toolCalls);
  if (!hasOwnAgentId(draft)) {
    const agentId = fallbackAgentId(query, platformIds);
    if (agentId !== undefined) draft.agentId = agentId;
  }
  return unvalidatedRecord(draft);
}
