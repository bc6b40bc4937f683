import type { PlatformEvent } from '../schemas/interaction';
import { idText, isJsonObject, isoTime, type JsonObject } from './payload';

type EventIdField = Exclude<keyof PlatformEvent, 'agentId' | 'eventType' | 'occurredAt' | 'data'>;

/** Where each event id may sit, first match wins: the contract's camelCase, then platform spellings. */
const eventIdSources: Record<EventIdField, readonly string[]> = {
  conversationId: ['conversationId', 'conversation_id'],
  sessionId: ['sessionId', 'session_id'],
  userId: ['userId', 'user_id', 'user'],
  appId: ['appId', 'app_id'],
  chatflowId: ['chatflowId'],
  chatId: ['chatId'],
  workflowId: ['workflowId', 'workflow_id'],
  executionId: ['executionId', 'execution_id', 'workflow_run_id'],
  nodeId: ['nodeId', 'node_id'],
  messageId: ['messageId', 'message_id', 'chatMessageId'],
};

const occurredAtSources = ['occurredAt', 'timestamp', 'created_at', 'createdAt'] as const;

/** Bodies name their event in `event` (Dify, the contract) or `eventType`. */
const eventTypeSources = ['event', 'eventType'] as const;

export interface NamedEvent {
  key: (typeof eventTypeSources)[number];
  type: string;
}

/** The event a body names, if any; a body without one is never treated as an event. */
export function namedEvent(draft: JsonObject): NamedEvent | undefined {
  for (const key of eventTypeSources) {
    const type = draft[key];
    if (typeof type === 'string' && type.trim() !== '') return { key, type };
  }
  return undefined;
}

/**
 * A lifecycle event: ids and the time are lifted to the top (and removed from `data` so they are not
 * stored twice); everything else the platform sent stays in `data`.
 */
export function buildPlatformEvent(draft: JsonObject, named: NamedEvent, agentId: string): PlatformEvent {
  const data: JsonObject = { ...draft };
  delete data[named.key];
  delete data.agentId;
  const event: PlatformEvent = { agentId, eventType: named.type, data };
  for (const [field, sources] of Object.entries(eventIdSources) as [EventIdField, readonly string[]][]) {
    const source = sources.find((key) => idText(data[key]) !== undefined);
    if (source === undefined) continue;
    event[field] = idText(data[source]);
    delete data[source];
  }
  const timeSource = occurredAtSources.find((key) => isoTime(data[key]) !== undefined);
  if (timeSource !== undefined) {
    event.occurredAt = isoTime(data[timeSource]);
    delete data[timeSource];
  } else if (isJsonObject(data.metadata) && isoTime(data.metadata.timestamp) !== undefined) {
    event.occurredAt = isoTime(data.metadata.timestamp);
  }
  return event;
}
