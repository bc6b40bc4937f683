import type { Message, Producer } from 'kafkajs';
import { messageLimit } from './topics';

/** Kafka could not take the write in time; the caller must not report the record as stored. */
export class KafkaUnavailableError extends Error {
  constructor(
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`Kafka did not acknowledge the write: ${reason}`, options);
    this.name = 'KafkaUnavailableError';
  }
}

/** Why Kafka refuses a message for good: its size, or its content as a record. */
export type Refusal = 'too_large' | 'invalid';

/**
 * Kafka refused the write for good: sending it again can never succeed, so the caller sets the
 * refused messages aside (the consumers dead-letter them) instead of retrying. Nothing of a write
 * refused before it was sent (`indexes` known) reached Kafka.
 */
export class KafkaRefusedError extends Error {
  constructor(
    readonly reason: string,
    readonly refusal: Refusal,
    /** The refused messages, by index into the write; undefined when Kafka refused the request as a whole. */
    readonly indexes?: number[],
    options?: ErrorOptions,
  ) {
    super(`Kafka refused the write: ${reason}`, options);
    this.name = 'KafkaRefusedError';
  }
}

/**
 * The broker's errors that are about the records themselves (kafkajs does not retry them either).
 * Other non-retriable errors (authorization, an unknown topic, the producer's sequence state) are
 * about the deployment and end when an operator fixes it: they stay transient to the caller.
 */
const refusals: Record<string, Refusal> = {
  MESSAGE_TOO_LARGE: 'too_large',
  RECORD_LIST_TOO_LARGE: 'too_large',
  INVALID_RECORD: 'invalid',
  CORRUPT_MESSAGE: 'invalid',
};

/** The refusal a kafkajs error (or an error it caused) stands for, if it is one. */
export function refusalOf(err: unknown): Refusal | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const type = (e as { type?: unknown }).type;
    if (typeof type === 'string' && Object.hasOwn(refusals, type)) return refusals[type];
  }
  return undefined;
}

/** A message Kafka refused for good, by index into the messages written (see DurableWriter.writeEach). */
export interface RefusedMessage {
  index: number;
  reason: string;
  refusal: Refusal;
}

/** One produce request's size, duration and outcome (metrics). */
export interface FlushInfo {
  messages: number;
  ms: number;
  ok: boolean;
}

interface Pending {
  topic: string;
  messages: Message[];
  /** Estimated size of the messages on the wire. */
  bytes: number;
  resolve: () => void;
  reject: (err: Error) => void;
  /** Set once the request carrying these messages left; a timed-out write still queued is dropped. */
  sent: boolean;
  settled: boolean;
}

export interface DurableWriterOptions {
  /** How long a caller waits for the acknowledgement before it is told Kafka is unavailable. */
  timeoutMs?: number;
  /** Upper bound of messages in one produce request. */
  maxBatchMessages?: number;
  /**
   * Upper bound of one produce request's estimated bytes (default 1 MiB). Kafka refuses a
   * partition's record batch larger than the topic's max.message.bytes (2 MiB on Warden's topics)
   * for good, so a backlog of large writes must leave in several requests. A single message is
   * never split; it is bounded by the record size limit.
   */
  maxBatchBytes?: number;
  /**
   * A second producer starts a request while another is in flight only once this many bytes
   * (estimated) are queued (default a quarter of maxBatchBytes), or once the latest request has
   * been out for spreadAfterMs. Until then the queued writes wait for the request in flight and
   * leave together: fewer, larger requests cost the client and the broker less per record than
   * many small ones sent in parallel, and a slow request still does not hold the backlog back.
   */
  spreadBytes?: number;
  /** See spreadBytes (default 10 ms). */
  spreadAfterMs?: number;
  /** Called after every produce request with its size and duration (metrics). */
  onFlush?: (info: FlushInfo) => void;
  /**
   * The largest message (messageBytes) a topic takes; a larger one is refused before it is sent.
   * Default: the limit of Warden's topic of that name (messageLimit).
   */
  maxMessageBytes?: (topic: string) => number;
  /**
   * Makes a producer to replace one whose request of several messages Kafka refused: kafkajs then
   * rewinds the idempotent sequence numbers of every partition in the request, also of those the
   * broker did append, and the broker takes the next write to such a partition for a duplicate of
   * the appended one: acknowledged, never stored. A fresh producer (a new producer id) starts
   * clean. Without it the producer is kept (tests that never send a refusable request).
   */
  createProducer?: () => Producer;
}

/**
 * Writes records with acks=all through idempotent producers and resolves each caller only after
 * Kafka acknowledged its messages. Each producer has one produce request in flight (kafkajs keeps
 * idempotent sequence numbers right only that way); everything that arrives meanwhile goes into
 * the next request, so batches grow with load without a fixed linger. More producers overlap
 * their round trips only when the backlog is large (see spreadBytes).
 * A caller that awaits each write keeps its order; concurrent writes have none to keep. A write
 * larger than one request goes out in parts, in order with a single producer.
 */
export class DurableWriter {
  private queue: Pending[] = [];
  private readonly idle: Producer[];
  private inFlight = 0;
  /** Estimated bytes of the queued writes. */
  private queuedBytes = 0;
  private readonly timeoutMs: number;
  private readonly maxBatchMessages: number;
  private readonly maxBatchBytes: number;
  private readonly spreadBytes: number;
  private readonly spreadAfterMs: number;
  /** When the latest produce request left. */
  private lastSendAt = 0;
  /** Pump again once the request in flight has been out for spreadAfterMs. */
  private spreadTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    producers: Producer | Producer[],
    private readonly opts: DurableWriterOptions = {},
  ) {
    this.idle = Array.isArray(producers) ? [...producers] : [producers];
    if (this.idle.length === 0) throw new Error('DurableWriter needs at least one producer');
    this.timeoutMs = opts.timeoutMs ?? 5000;
    this.maxBatchMessages = opts.maxBatchMessages ?? 2000;
    this.maxBatchBytes = opts.maxBatchBytes ?? 1024 * 1024;
    this.spreadBytes = opts.spreadBytes ?? this.maxBatchBytes / 4;
    this.spreadAfterMs = opts.spreadAfterMs ?? 10;
  }

  /** The largest message (messageBytes) the writer sends to `topic`. */
  limitOf(topic: string): number {
    return (this.opts.maxMessageBytes ?? messageLimit)(topic);
  }

  /**
   * Resolves when Kafka acknowledged every message. Rejects with KafkaRefusedError when Kafka refuses
   * them for good (a message over the topic's limit is refused before anything is sent), and with
   * KafkaUnavailableError otherwise: a transient failure, which the caller retries.
   */
  write(topic: string, messages: Message[]): Promise<void> {
    const limit = this.limitOf(topic);
    const parts: Array<{ messages: Message[]; bytes: number; first: number }> = [];
    let part: Message[] = [];
    let bytes = 0;
    let oversized: number[] | undefined;
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i]!;
      const size = messageBytes(m);
      if (size > limit) (oversized ??= []).push(i);
      if (part.length > 0 && (bytes + size > this.maxBatchBytes || part.length >= this.maxBatchMessages)) {
        parts.push({ messages: part, bytes, first: i - part.length });
        part = [];
        bytes = 0;
      }
      part.push(m);
      bytes += size;
    }
    if (oversized) {
      const reason = `${oversized.length} of ${messages.length} messages larger than ${topic} takes (${limit} bytes)`;
      return Promise.reject(new KafkaRefusedError(reason, 'too_large', oversized));
    }
    parts.push({ messages: part, bytes, first: messages.length - part.length });
    if (parts.length === 1) return this.enqueue(topic, messages, bytes);
    return Promise.all(
      parts.map((p) =>
        this.enqueue(topic, p.messages, p.bytes).catch((err: unknown) => {
          // A refusal names messages of its part; the caller knows the write's indexes.
          if (!(err instanceof KafkaRefusedError) || !err.indexes) throw err;
          const indexes = err.indexes.map((i) => p.first + i);
          throw new KafkaRefusedError(err.reason, err.refusal, indexes, { cause: err.cause });
        }),
      ),
    ).then(() => undefined);
  }

  /**
   * Writes the messages Kafka takes and returns the ones it refuses for good, so the caller can set
   * those aside and move on: a refusal naming its messages is taken as it is, one of a request as
   * a whole is narrowed down by halving the write (as the sink isolates rows ClickHouse refuses).
   * A transient failure rejects with KafkaUnavailableError, as write does.
   */
  writeEach(topic: string, messages: Message[]): Promise<RefusedMessage[]> {
    return this.writeNarrowing(topic, messages, 0);
  }

  /** writeEach of messages that start at `offset` of the caller's write. */
  private async writeNarrowing(
    topic: string,
    messages: Message[],
    offset: number,
  ): Promise<RefusedMessage[]> {
    if (messages.length === 0) return [];
    try {
      await this.write(topic, messages);
      return [];
    } catch (err) {
      if (!(err instanceof KafkaRefusedError)) throw err;
      const { reason, refusal, indexes } = err;
      if (indexes) {
        const refused = new Set(indexes);
        const rest = messages.filter((_, i) => !refused.has(i));
        const restIndex = messages.flatMap((_, i) => (refused.has(i) ? [] : [i]));
        const later = await this.writeNarrowing(topic, rest, 0);
        return [
          ...indexes.map((i) => ({ index: offset + i, reason, refusal })),
          ...later.map((r) => ({ ...r, index: offset + restIndex[r.index]! })),
        ].sort((a, b) => a.index - b.index);
      }
      if (messages.length === 1) return [{ index: offset, reason, refusal }];
      const mid = Math.ceil(messages.length / 2);
      return [
        ...(await this.writeNarrowing(topic, messages.slice(0, mid), offset)),
        ...(await this.writeNarrowing(topic, messages.slice(mid), offset + mid)),
      ];
    }
  }

  private enqueue(topic: string, messages: Message[], bytes: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const pending: Pending = { topic, messages, bytes, resolve, reject, sent: false, settled: false };
      const timer = setTimeout(() => {
        if (pending.settled) return;
        pending.settled = true;
        // Not yet sent: it never will be. Already sent: the outcome is unknown, so the caller
        // gets 503 and may retry (duplicates are harmless downstream, losses are not).
        if (!pending.sent) {
          this.queue = this.queue.filter((p) => p !== pending);
          this.queuedBytes -= pending.bytes;
        }
        reject(new KafkaUnavailableError(`no acknowledgement within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      pending.resolve = () => {
        clearTimeout(timer);
        resolve();
      };
      pending.reject = (err) => {
        clearTimeout(timer);
        reject(err);
      };
      this.queue.push(pending);
      this.queuedBytes += bytes;
      this.pump();
    });
  }

  /** Waits until nothing is queued or in flight (graceful shutdown). */
  async drain(): Promise<void> {
    while (this.inFlight > 0 || this.queue.length > 0) await new Promise((r) => setTimeout(r, 10));
  }

  /**
   * Drains, then disconnects the producers the writer holds, the replacements it made included
   * (graceful shutdown of an owner that passed createProducer).
   */
  async close(): Promise<void> {
    await this.drain();
    this.closed = true;
    await Promise.all(this.idle.map((p) => p.disconnect()));
  }

  private pump(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      if (this.inFlight > 0 && this.queuedBytes < this.spreadBytes) {
        const wait = this.lastSendAt + this.spreadAfterMs - performance.now();
        if (wait > 0) {
          this.spreadTimer ??= setTimeout(() => {
            this.spreadTimer = undefined;
            this.pump();
          }, wait);
          return;
        }
      }
      this.sendNext(this.idle.pop()!);
    }
  }

  private sendNext(producer: Producer): void {
    const batch: Pending[] = [];
    let count = 0;
    let bytes = 0;
    while (this.queue.length > 0) {
      const next = this.queue[0]!;
      if (
        batch.length > 0 &&
        (count + next.messages.length > this.maxBatchMessages || bytes + next.bytes > this.maxBatchBytes)
      )
        break;
      this.queue.shift();
      this.queuedBytes -= next.bytes;
      if (next.settled) continue;
      next.sent = true;
      batch.push(next);
      count += next.messages.length;
      bytes += next.bytes;
    }
    if (batch.length === 0) {
      this.idle.push(producer);
      return;
    }
    this.inFlight++;
    this.lastSendAt = performance.now();
    const byTopic = new Map<string, Message[]>();
    for (const p of batch) {
      const list = byTopic.get(p.topic);
      if (list) list.push(...p.messages);
      else byTopic.set(p.topic, [...p.messages]);
    }
    const started = this.lastSendAt;
    let renew = false;
    producer
      .sendBatch({
        acks: -1,
        timeout: this.timeoutMs,
        topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
      })
      .then(
        () => {
          this.opts.onFlush?.({ messages: count, ms: performance.now() - started, ok: true });
          for (const p of batch) settle(p, undefined);
        },
        (err: Error) => {
          this.opts.onFlush?.({ messages: count, ms: performance.now() - started, ok: false });
          const refusal = refusalOf(err);
          // Only a request of one message says which message Kafka refused.
          const failure = refusal
            ? new KafkaRefusedError(err.message, refusal, count === 1 ? [0] : undefined, { cause: err })
            : new KafkaUnavailableError(err.message, { cause: err });
          for (const p of batch) settle(p, failure);
          renew = refusal !== undefined && count > 1;
        },
      )
      .finally(() => {
        this.inFlight--;
        if (renew) this.renew(producer);
        else this.idle.push(producer);
        this.pump();
      });
  }

  /** Replaces a producer whose sequence numbers may be out of step with the broker (see createProducer). */
  private renew(old: Producer): void {
    const create = this.opts.createProducer;
    if (!create || this.closed) {
      this.idle.push(old);
      return;
    }
    void old.disconnect().catch(() => undefined);
    const fresh = create();
    const connect = (attempt: number): void => {
      fresh.connect().then(
        () => {
          if (this.closed) void fresh.disconnect().catch(() => undefined);
          else {
            this.idle.push(fresh);
            this.pump();
          }
        },
        // The broker answered a moment ago; if it is gone now, writes wait (and time out) meanwhile.
        () => {
          if (!this.closed) setTimeout(() => connect(attempt + 1), Math.min(5000, 250 * attempt));
        },
      );
    };
    connect(1);
  }
}

const byteLength = (v: Buffer | string | null | undefined) =>
  v == null ? 0 : typeof v === 'string' ? Buffer.byteLength(v) : v.length;

/**
 * A message's size in a record batch, as the writer estimates it: key, value, headers and a
 * record's fixed overhead (within a few bytes of Kafka's count; topics' limits leave room for the rest).
 */
export function messageBytes(m: Message): number {
  let n = 32 + byteLength(m.key) + byteLength(m.value);
  for (const [k, v] of Object.entries(m.headers ?? {})) {
    for (const one of Array.isArray(v) ? v : [v]) n += 8 + k.length + byteLength(one);
  }
  return n;
}

function settle(p: Pending, err: Error | undefined): void {
  if (p.settled) return;
  p.settled = true;
  if (err) p.reject(err);
  else p.resolve();
}
