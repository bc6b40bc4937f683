import { buildPlatformEvent, namedEvent, type NamedEvent } from './events';
import type { JsonObject } from './payload';
import {
  carriesConversationText,
  eventAgentId,
  finishRecord,
  isCanonicalRecord,
  normalizeOwnedCopy,
} from './records';
import type { DeliveryQuery, Normalized } from './types';

/** What one platform contributes; the decision between record and event is the same for all. */
export interface PlatformShape {
  /** Canonical and native keys that carry prompt or response text. */
  textKeys: readonly string[];
  /** Platform ids that may name the agent when neither the body nor the query does, in order. */
  agentIds(draft: JsonObject): readonly unknown[];
  /** Maps a native body (not already canonical) onto record fields, in place on the owned copy. */
  mapNativeFields(draft: JsonObject): void;
  /** Brings platform-specific event fields to where the event builder finds them. */
  prepareEvent?(draft: JsonObject, named: NamedEvent): void;
}

/**
 * A body that names an event and carries no prompt or response at all is a lifecycle event and is
 * stored as one, provided an agent can be named. Everything else is an interaction record, so a body
 * with half a conversation, or an event without any agent, meets the normal validation errors.
 */
export function normalizeDelivery(
  body: unknown,
  query: DeliveryQuery | undefined,
  shape: PlatformShape,
): Normalized {
  return normalizeOwnedCopy(body, (draft) => {
    const named = namedEvent(draft);
    if (named !== undefined && !carriesConversationText(draft, shape.textKeys)) {
      const agentId = eventAgentId(draft, query, shape.agentIds(draft));
      if (agentId !== undefined) {
        shape.prepareEvent?.(draft, named);
        return { kind: 'event', event: buildPlatformEvent(draft, named, agentId) };
      }
    }
    if (!isCanonicalRecord(draft)) shape.mapNativeFields(draft);
    return { kind: 'interaction', record: finishRecord(draft, query, shape.agentIds(draft)) };
  });
}
