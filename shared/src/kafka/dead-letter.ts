import { DEAD_LETTER_REASONS, deadLetterMessage, type DeadLetter } from '../codec/dead-letters';
import type { Logger } from '../logger';
import { Counter, type Registry } from '../metrics';
import { KafkaRefusedError, type DurableWriter } from './durable-writer';
import { topics } from './topics';

export interface DeadLetterStepOptions {
  /** Writes the dead letters with acks=all. */
  writer: DurableWriter;
  /** The consumer group sending them (the `dlq-consumer` header). */
  groupId: string;
  logger: Logger;
  metrics: Registry;
}

/** A message a step gave up on: where it came from, why, and which step (decode, detect, insert, …). */
export type UnprocessableMessage = Omit<DeadLetter, 'consumer'>;

const METRIC = 'warden_dlq_messages_total';

/**
 * Every consumer's last step for a message it can never process: the message goes to
 * `warden.dlq.v1` with the reason and the step that gave up, and is counted by step and reason
 * class. `send` resolves only once Kafka acknowledged the dead letters, so the caller commits past
 * them after.
 *
 * A dead letter is cut to the DLQ's limit (see deadLetterMessage). Should Kafka still refuse one (a
 * DLQ made smaller than Warden's spec), the letters go again with only the headers that say where
 * they came from and why, so that the partition moves on; a failure beyond that is transient and
 * the caller retries.
 */
export class DeadLetterStep {
  private readonly sent: Counter<'step' | 'reason'>;

  constructor(private readonly opts: DeadLetterStepOptions) {
    this.sent =
      (opts.metrics.getSingleMetric(METRIC) as Counter<'step' | 'reason'> | undefined) ??
      new Counter({
        name: METRIC,
        help: `Messages sent to the DLQ, by step and reason (${DEAD_LETTER_REASONS.join(', ')}).`,
        labelNames: ['step', 'reason'],
        registers: [opts.metrics],
      });
  }

  async send(letters: readonly UnprocessableMessage[]): Promise<void> {
    if (letters.length === 0) return;
    for (const { originalTopic, partition, message, reason, reasonClass, step } of letters)
      this.opts.logger.warn(
        { topic: originalTopic, partition, offset: message.offset, reason, reasonClass, step },
        'message sent to the DLQ',
      );
    const { writer, groupId } = this.opts;
    const encode = (maxBytes: number) =>
      letters.map((letter) => deadLetterMessage({ ...letter, consumer: groupId }, maxBytes));
    try {
      await writer.write(topics.dlq, encode(writer.limitOf(topics.dlq)));
    } catch (err) {
      if (!(err instanceof KafkaRefusedError)) throw err;
      this.opts.logger.error(
        { err: err.message, topic: topics.dlq },
        "Kafka refused dead letters; sending them with their headers only. Raise the DLQ topic's max.message.bytes (`warden topics`)",
      );
      await writer.write(topics.dlq, encode(0));
    }
    for (const { step, reasonClass } of letters) this.sent.inc({ step, reason: reasonClass });
  }
}
