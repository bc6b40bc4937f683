/** `warden.interactions.v1`: interaction and event envelopes, as ingest writes and consumers read them. */
import { TypeCompiler } from '@sinclair/typebox/compiler';
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

/** A message of `warden.interactions.v1` as this codec writes it: the value is JSON text. */
export interface EnvelopeMessage {
  key: string;
  value: string;
  headers: Record<string, string>;
}

/** The envelope as a message of `warden.interactions.v1`: key, headers, JSON value. */
export function envelopeMessage(env: TopicEnvelope): EnvelopeMessage {
  return { key: partitionKey(env), value: JSON.stringify(env), headers: envelopeHeaders(env) };
}

/**
 * The envelope as a message whose record is written as `recordText`, the JSON it was parsed from and
 * validated as, instead of serialising the parsed object again (the costliest step of a small ingest
 * request after parsing). Only for a record that is exactly what `recordText` parses to.
 */
export function recordAsSentMessage(env: InteractionEnvelope, recordText: string): EnvelopeMessage {
  const { record: _record, ...head } = env;
  return {
    key: partitionKey(env),
    value: `${JSON.stringify(head).slice(0, -1)},"record":${recordText}}`,
    headers: envelopeHeaders(env),
  };
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
