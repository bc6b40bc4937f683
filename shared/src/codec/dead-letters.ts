/** `warden.dlq.v1`: messages that can never be processed, with where they came from and why. */
import type { IHeaders, Message } from 'kafkajs';
import { messageBytes } from '../kafka/durable-writer';

/**
 * Why a message was given up on, in a word (the `reason` label of `warden_dlq_messages_total` and
 * the `dlq-reason-class` header): a small fixed set, the free text is in `dlq-reason`.
 * - `invalid`: the message is not what its topic carries (not JSON, not its schema).
 * - `failed`: a step threw on it (a detector bug).
 * - `too_large`: what it becomes is larger than its destination takes, even bounded.
 * - `refused`: its destination refused it as invalid (Kafka, or ClickHouse parse and type errors).
 */
export const DEAD_LETTER_REASONS = ['invalid', 'failed', 'too_large', 'refused'] as const;
export type DeadLetterReason = (typeof DEAD_LETTER_REASONS)[number];

export interface DeadLetter {
  originalTopic: string;
  partition: number;
  /** The message as consumed (or, for a row ClickHouse refused, the row with offset -1). */
  message: { offset: string; key: Buffer | string | null; value: Buffer | string | null; headers?: IHeaders };
  /** Why it can never be processed, in words an operator can act on. */
  reason: string;
  reasonClass: DeadLetterReason;
  /** Which step gave up: decode, detect, produce, insert, … */
  step: string;
  /** The consumer group that sent it. */
  consumer: string;
}

/** Longest reason kept in the `dlq-reason` header. */
const MAX_REASON = 1000;

const bytesOf = (v: Buffer | string | null): Buffer =>
  v === null ? Buffer.alloc(0) : typeof v === 'string' ? Buffer.from(v) : v;

/**
 * A message for `warden.dlq.v1`: the original key, value and headers untouched, plus where it came
 * from and why, in headers so a replay tool can route it back without parsing.
 *
 * At most `maxBytes` (messageBytes; the DLQ's limit): a dead letter Kafka refused would stop its
 * consumer as surely as the message did. Past it the value is cut to what fits, and if the
 * original key and headers alone do not fit they go too; `dlq-truncated` says what was cut and
 * `dlq-original-value-bytes` how long the value was.
 */
export function deadLetterMessage(d: DeadLetter, maxBytes = Number.POSITIVE_INFINITY): Message {
  const own = {
    'dlq-original-topic': d.originalTopic,
    'dlq-original-partition': String(d.partition),
    'dlq-original-offset': d.message.offset,
    'dlq-reason': d.reason.slice(0, MAX_REASON),
    'dlq-reason-class': d.reasonClass,
    'dlq-step': d.step,
    'dlq-consumer': d.consumer,
    'dlq-timestamp': new Date().toISOString(),
  };
  const whole: Message = {
    key: d.message.key,
    value: d.message.value,
    headers: { ...d.message.headers, ...own },
  };
  if (messageBytes(whole) <= maxBytes) return whole;
  const value = bytesOf(d.message.value);
  const cut = (truncated: string, key: Message['key'], headers: IHeaders): Message => {
    const marked = {
      ...headers,
      'dlq-truncated': truncated,
      'dlq-original-value-bytes': String(value.length),
    };
    const room = maxBytes - messageBytes({ key, value: null, headers: marked });
    return { key, value: value.subarray(0, Math.max(0, room)), headers: marked };
  };
  const valueCut = cut('value', d.message.key, { ...d.message.headers, ...own });
  return messageBytes(valueCut) <= maxBytes ? valueCut : cut('key,headers,value', null, own);
}

/** Where a dead letter came from and why, as its headers say. */
export interface DeadLetterOrigin {
  originalTopic: string;
  partition: number;
  offset: string;
  reason: string;
  /** One of DEAD_LETTER_REASONS ('' for a dead letter of an older Warden). */
  reasonClass: string;
  step: string;
  consumer: string;
  /** When it was sent to the DLQ (ISO). */
  timestamp: string;
  /** What was cut to fit the DLQ (`value`, or `key,headers,value`); undefined when kept whole. */
  truncated?: string;
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
  const truncated = header(headers, 'dlq-truncated');
  return {
    originalTopic,
    partition: Number(header(headers, 'dlq-original-partition') ?? -1),
    offset: header(headers, 'dlq-original-offset') ?? '-1',
    reason,
    reasonClass: header(headers, 'dlq-reason-class') ?? '',
    step: header(headers, 'dlq-step') ?? '',
    consumer: header(headers, 'dlq-consumer') ?? '',
    timestamp: header(headers, 'dlq-timestamp') ?? '',
    ...(truncated !== undefined ? { truncated } : {}),
  };
}
