import type { Message, Producer } from 'kafkajs';

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

  /** Resolves when Kafka acknowledged every message; rejects with KafkaUnavailableError otherwise. */
  write(topic: string, messages: Message[]): Promise<void> {
    const parts: Array<{ messages: Message[]; bytes: number }> = [];
    let part: Message[] = [];
    let bytes = 0;
    for (const m of messages) {
      const size = messageBytes(m);
      if (part.length > 0 && (bytes + size > this.maxBatchBytes || part.length >= this.maxBatchMessages)) {
        parts.push({ messages: part, bytes });
        part = [];
        bytes = 0;
      }
      part.push(m);
      bytes += size;
    }
    parts.push({ messages: part, bytes });
    if (parts.length === 1) return this.enqueue(topic, messages, bytes);
    return Promise.all(parts.map((p) => this.enqueue(topic, p.messages, p.bytes))).then(() => undefined);
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
          const failure = new KafkaUnavailableError(err.message, { cause: err });
          for (const p of batch) settle(p, failure);
        },
      )
      .finally(() => {
        this.inFlight--;
        this.idle.push(producer);
        this.pump();
      });
  }
}

const byteLength = (v: Buffer | string | null | undefined) =>
  v == null ? 0 : typeof v === 'string' ? Buffer.byteLength(v) : v.length;

/** A message's size in a record batch: key, value, headers and a record's fixed overhead. */
function messageBytes(m: Message): number {
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
