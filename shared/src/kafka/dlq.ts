import type { IHeaders, Message } from 'kafkajs';

export interface DeadLetter {
  originalTopic: string;
  partition: number;
  /** The message as consumed (or, for a row ClickHouse refused, the row with offset -1). */
  message: { offset: string; key: Buffer | string | null; value: Buffer | string | null; headers?: IHeaders };
  /** Why it can never be processed, in words an operator can act on. */
  reason: string;
  /** Which step gave up: decode, detect, insert, … */
  step: string;
  /** The consumer group that sent it. */
  consumer: string;
}

/**
 * A message for `warden.dlq.v1`: the original key, value and headers untouched, plus where it came
 * from and why, in headers so a replay tool can route it back without parsing.
 */
export function deadLetterMessage(d: DeadLetter): Message {
  return {
    key: d.message.key,
    value: d.message.value,
    headers: {
      ...d.message.headers,
      'dlq-original-topic': d.originalTopic,
      'dlq-original-partition': String(d.partition),
      'dlq-original-offset': d.message.offset,
      'dlq-reason': d.reason.slice(0, 1000),
      'dlq-step': d.step,
      'dlq-consumer': d.consumer,
      'dlq-timestamp': new Date().toISOString(),
    },
  };
}
