import type { Message } from 'kafkajs';
import type { DurableWriter } from '@warden/shared/kafka/durable-writer';
import { topics } from '@warden/shared/kafka/topics';
import { envelopeHeaders, partitionKey, type TopicEnvelope } from '@warden/shared/schemas/envelope';

/** Anything that durably stores envelopes: Kafka in production, the same writer in tests. */
export interface EnvelopePublisher {
  publish(envelopes: TopicEnvelope[]): Promise<void>;
}

export function envelopeMessage(env: TopicEnvelope): Message {
  return { key: partitionKey(env), value: JSON.stringify(env), headers: envelopeHeaders(env) };
}

/** Publishes to `warden.interactions.v1`; resolves only after Kafka acknowledged (acks=all). */
export function kafkaPublisher(writer: DurableWriter): EnvelopePublisher {
  return {
    publish: (envelopes) => writer.write(topics.interactions, envelopes.map(envelopeMessage)),
  };
}
