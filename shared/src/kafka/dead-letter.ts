import { deadLetterMessage, type DeadLetter } from '../codec/dead-letters';
import type { Logger } from '../logger';
import { Counter, type Registry } from '../metrics';
import type { DurableWriter } from './durable-writer';
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
 * `warden.dlq.v1` with the reason and the step that gave up, and is counted by step. `send`
 * resolves only once Kafka acknowledged the dead letters, so the caller commits past them after.
 */
export class DeadLetterStep {
  private readonly sent: Counter<'step'>;

  constructor(private readonly opts: DeadLetterStepOptions) {
    this.sent =
      (opts.metrics.getSingleMetric(METRIC) as Counter<'step'> | undefined) ??
      new Counter({
        name: METRIC,
        help: 'Messages sent to the DLQ, by step.',
        labelNames: ['step'],
        registers: [opts.metrics],
      });
  }

  async send(letters: readonly UnprocessableMessage[]): Promise<void> {
    if (letters.length === 0) return;
    for (const { originalTopic, partition, message, reason, step } of letters)
      this.opts.logger.warn(
        { topic: originalTopic, partition, offset: message.offset, reason, step },
        'message sent to the DLQ',
      );
    await this.opts.writer.write(
      topics.dlq,
      letters.map((letter) => deadLetterMessage({ ...letter, consumer: this.opts.groupId })),
    );
    for (const { step } of letters) this.sent.inc({ step });
  }
}
