import type { EnvelopeMessage } from '@warden/shared/codec/index';
import { topics } from '@warden/shared/kafka/topics';
import type { KafkaWriterThread } from '@warden/shared/kafka/writer-thread';

/**
 * An envelope as ingest publishes it: its message, encoded once when it was admitted (and its size
 * checked then), with the ids its answer names.
 */
export interface EncodedEnvelope {
  interactionId: string;
  agentId: string;
  message: EnvelopeMessage;
}

/** Anything that durably stores envelopes: Kafka in production, the same writer in tests. */
export interface EnvelopePublisher {
  publish(envelopes: EncodedEnvelope[]): Promise<void>;
}

/** Publishes to `warden.interactions.v1`; resolves only after Kafka acknowledged (acks=all). */
export function kafkaPublisher(writer: KafkaWriterThread): EnvelopePublisher {
  return {
    publish: (envelopes) =>
      writer.write(
        topics.interactions,
        envelopes.map((e) => e.message),
      ),
  };
}
