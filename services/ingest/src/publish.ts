import { envelopeMessage } from '@warden/shared/codec/index';
import { topics } from '@warden/shared/kafka/topics';
import type { KafkaWriterThread } from '@warden/shared/kafka/writer-thread';
import type { TopicEnvelope } from '@warden/shared/schemas/envelope';

/** Anything that durably stores envelopes: Kafka in production, the same writer in tests. */
export interface EnvelopePublisher {
  publish(envelopes: TopicEnvelope[]): Promise<void>;
}

/** Publishes to `warden.interactions.v1`; resolves only after Kafka acknowledged (acks=all). */
export function kafkaPublisher(writer: KafkaWriterThread): EnvelopePublisher {
  return {
    publish: (envelopes) => writer.write(topics.interactions, envelopes.map(envelopeMessage)),
  };
}
