import { KafkaUnavailableError } from '@warden/shared/kafka/durable-writer';
import { ApiError } from './errors';
import type { EncodedEnvelope, EnvelopePublisher } from './publish';

/** Retry-After for a Kafka outage: long enough for a broker restart, short enough to catch up. */
const kafkaRetryAfterSeconds = 5;

/** Publishes and maps "Kafka did not acknowledge" to 503 with Retry-After: never a 200. */
export async function publishOrUnavailable(
  publisher: EnvelopePublisher,
  envelopes: EncodedEnvelope[],
): Promise<void> {
  try {
    await publisher.publish(envelopes);
  } catch (err) {
    if (err instanceof KafkaUnavailableError) {
      throw new ApiError(
        'SERVICE_UNAVAILABLE',
        'The record could not be stored right now and was not accepted. Retry with backoff.',
        undefined,
        { 'retry-after': String(kafkaRetryAfterSeconds) },
      );
    }
    throw err;
  }
}
