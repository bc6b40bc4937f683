import { uuidv7 } from 'uuidv7';
import type { InteractionRecord } from './interaction';

export const ENVELOPE_SCHEMA_VERSION = 1;

/** What ingest writes to `warden.interactions.v1`: the validated record plus where it came from. */
export interface InteractionEnvelope {
  schemaVersion: number;
  interactionId: string;
  accountId: string;
  receivedAt: string;
  source: { endpoint: string; platform: string };
  record: InteractionRecord;
}

export function newInteractionId(): string {
  return uuidv7();
}

export function buildEnvelope(
  record: InteractionRecord,
  ctx: { accountId: string; endpoint: string; platform: string; interactionId?: string; now?: Date },
): InteractionEnvelope {
  return {
    schemaVersion: ENVELOPE_SCHEMA_VERSION,
    interactionId: ctx.interactionId ?? newInteractionId(),
    accountId: ctx.accountId,
    receivedAt: (ctx.now ?? new Date()).toISOString(),
    source: { endpoint: ctx.endpoint, platform: ctx.platform },
    record,
  };
}

/** Partition key: one conversation stays ordered, load spreads across conversations. */
export function partitionKey(env: InteractionEnvelope): string {
  const r = env.record;
  return `${env.accountId}:${r.conversationId ?? r.sessionId ?? env.interactionId}`;
}

/** Headers let consumers route without parsing the value. */
export function envelopeHeaders(env: InteractionEnvelope): Record<string, string> {
  return {
    'account-id': env.accountId,
    'agent-id': env.record.agentId,
    'interaction-id': env.interactionId,
    'schema-version': String(env.schemaVersion),
    'received-at': env.receivedAt,
  };
}
