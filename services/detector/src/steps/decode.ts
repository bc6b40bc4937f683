import type { InteractionEnvelope } from '@warden/shared/schemas/envelope';

export type DecodedInteraction =
  | { kind: 'interaction'; envelope: InteractionEnvelope }
  /** Platform lifecycle events carry no text to analyse; they are passed over. */
  | { kind: 'skip' }
  | { kind: 'poison'; reason: string };

/** Parses one message of `warden.interactions.v1`. Pure. */
export function decodeInteraction(value: Buffer | null): DecodedInteraction {
  if (!value || value.length === 0) return { kind: 'poison', reason: 'empty message value' };
  let msg: unknown;
  try {
    msg = JSON.parse(value.toString('utf8'));
  } catch (err) {
    return { kind: 'poison', reason: `value is not JSON: ${(err as Error).message}` };
  }
  if (!msg || typeof msg !== 'object' || Array.isArray(msg))
    return { kind: 'poison', reason: 'value is not a JSON object' };
  const env = msg as Partial<InteractionEnvelope> & { event?: unknown };
  if (typeof env.interactionId !== 'string' || typeof env.accountId !== 'string') {
    return { kind: 'poison', reason: 'envelope lacks interactionId or accountId' };
  }
  if (env.event && !env.record) return { kind: 'skip' };
  const r = env.record;
  if (!r || typeof r.agentId !== 'string' || typeof r.prompt !== 'string' || typeof r.response !== 'string') {
    return { kind: 'poison', reason: 'envelope lacks a record with string agentId, prompt and response' };
  }
  if (!env.source || typeof env.receivedAt !== 'string')
    return { kind: 'poison', reason: 'envelope lacks source or receivedAt' };
  return { kind: 'interaction', envelope: env as InteractionEnvelope };
}
