/** `warden.dlq.v1`: messages that can never be processed, with where they came from and why. */
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

/** Longest reason kept in the `dlq-reason` header. */
const MAX_REASON = 1000;

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
      'dlq-reason': d.reason.slice(0, MAX_REASON),
      'dlq-step': d.step,
      'dlq-consumer': d.consumer,
      'dlq-timestamp': new Date().toISOString(),
    },
  };
}

/** Where a dead letter came from and why, as its headers say. */
export interface DeadLetterOrigin {
  originalTopic: string;
  partition: number;
  offset: string;
  reason: string;
  step: string;
  consumer: string;
  /** When it was sent to the DLQ (ISO). */
  timestamp: string;
}

const header = (headers: IHeaders, name: string): string | undefined => {
  const v = headers[name];
  const one = Array.isArray(v) ? v[0] : v;
  return one === undefined ? undefined : one.toString();
};

/** Reads a consumed dead letter's headers; undefined when the message is not a dead letter. */
export function decodeDeadLetter(headers: IHeaders | undefined): DeadLetterOrigin | undefined {
  if (!headers) return undefined;
  const originalTopic = header(headers, 'dlq-original-topic');
  const reason = header(headers, 'dlq-reason');
  if (originalTopic === undefined || reason === undefined) return undefined;
  return {
    originalTopic,
    partition: Number(header(headers, 'dlq-original-partition') ?? -1),
    offset: header(headers, 'dlq-original-offset') ?? '-1',
    reason,
    step: header(headers, 'dlq-step') ?? '',
    consumer: header(headers, 'dlq-consumer') ?? '',
    timestamp: header(headers, 'dlq-timestamp') ?? '',
  };
}
