/** `warden.interactions.v1`: interaction and event envelopes, as ingest writes and consumers read them. */
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { Message } from 'kafkajs';
import { EventEnvelope, InteractionEnvelope, type TopicEnvelope } from '../schemas/envelope';
import { checkValue, parseJsonObject, type Decoded } from './json-value';

const subject = (env: TopicEnvelope) => ('record' in env ? env.record : env.event);

/** Partition key: one conversation stays ordered, load spreads across conversations. */
export function partitionKey(env: TopicEnvelope): string {
  const r = subject(env);
  return `${env.accountId}:${r.conversationId ?? r.sessionId ?? env.interactionId}`;
}

/** Headers let consumers route without parsing the value. */
export function envelopeHeaders(env: TopicEnvelope): Record<string, string> {
  return {
    'account-id': env.accountId,
    'agent-id': subject(env).agentId,
    'interaction-id': env.interactionId,
    'schema-version': String(env.schemaVersion),
    'received-at': env.receivedAt,
  };
}

/** Envelopes whose record is written as the JSON text the client sent (see storeRecordAsSent). */
const recordTexts = new WeakMap<TopicEnvelope, string>();

/**
 * Writes the envelope's record as `text`, the JSON it was parsed from and validated as, instead of
 * serialising the parsed object again (the costliest step of a small ingest request after parsing).
 * Only for a record that is exactly what `text` parses to.
 */
export function storeRecordAsSent(env: InteractionEnvelope, text: string): void {
  recordTexts.set(env, text);
}

function envelopeValue(env: TopicEnvelope): string {
  const text = recordTexts.get(env);
  if (text === undefined) return JSON.stringify(env);
  const { record: _record, ...head } = env as InteractionEnvelope;
  return `${JSON.stringify(head).slice(0, -1)},"record":${text}}`;
}

/** The envelope as a message of `warden.interactions.v1`: key, headers, JSON value. */
export function envelopeMessage(env: TopicEnvelope): Message {
  return { key: partitionKey(env), value: envelopeValue(env), headers: envelopeHeaders(env) };
}

const interactionCheck = TypeCompiler.Compile(InteractionEnvelope);
const eventCheck = TypeCompiler.Compile(EventEnvelope);

/**
 * Decodes one message of `warden.interactions.v1`: an event envelope when it carries an `event` and
 * no `record`, an interaction envelope otherwise, each checked against its schema.
 */
export function decodeEnvelope(value: Buffer | null): Decoded<TopicEnvelope> {
  const parsed = parseJsonObject(value);
  if (!parsed.ok) return parsed;
  const msg = parsed.value;
  if (msg.event !== undefined && msg.record === undefined)
    return checkValue(msg, eventCheck, 'an event envelope');
  return checkValue(msg, interactionCheck, 'an interaction envelope');
}
