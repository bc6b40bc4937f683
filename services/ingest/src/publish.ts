import type { Message } from 'kafkajs';
import { topics } from '@warden/shared/kafka/topics';
import type { KafkaWriterThread } from '@warden/shared/kafka/writer-thread';
import {
  envelopeHeaders,
  partitionKey,
  type InteractionEnvelope,
  type TopicEnvelope,
} from '@warden/shared/schemas/envelope';

/** Anything that durably stores envelopes: Kafka in production, the same writer in tests. */
export interface EnvelopePublisher {
  publish(envelopes: TopicEnvelope[]): Promise<void>;
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

export function envelopeMessage(env: TopicEnvelope): Message {
  return { key: partitionKey(env), value: envelopeValue(env), headers: envelopeHeaders(env) };
}

/** Publishes to `warden.interactions.v1`; resolves only after Kafka acknowledged (acks=all). */
export function kafkaPublisher(writer: KafkaWriterThread): EnvelopePublisher {
  return {
    publish: (envelopes) => writer.write(topics.interactions, envelopes.map(envelopeMessage)),
  };
}
