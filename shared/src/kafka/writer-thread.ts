import { Worker } from 'node:worker_threads';
import type { Message } from 'kafkajs';
import { KafkaUnavailableError, type FlushInfo } from './durable-writer';

export interface WriterThreadOptions {
  brokers: string[];
  clientId: string;
  /** Idempotent producers on the thread (see DurableWriter's spreadBytes). */
  producers: number;
  /** How long a caller waits for Kafka's acknowledgement before it is told Kafka is unavailable. */
  timeoutMs: number;
  connectionTimeoutMs?: number;
  /** Name of the thread's logger (kafkajs and connection warnings); none: the thread logs nothing. */
  loggerName?: string;
  onFlush?: (info: FlushInfo) => void;
  /** The thread's entry module (tests substitute a fake). */
  entry?: URL;
}

/** What the thread is started with (workerData). */
export type WriterThreadConfig = Omit<WriterThreadOptions, 'onFlush' | 'entry'>;

export interface WriteRequest {
  id: number;
  topic: string;
  messages: Message[];
}

export type ToWriterThread = { type: 'write'; writes: WriteRequest[] } | { type: 'close' };

export type FromWriterThread =
  | {
      type: 'done';
      ok: number[];
      failed: Array<{ id: number; reason: string }>;
      flushes: FlushInfo[];
    }
  | { type: 'connected'; producers: number }
  | { type: 'closed' };

interface Pending {
  resolve: () => void;
  reject: (err: Error) => void;
  deadline: number;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
  closed?: () => void;
}

/**
 * The thread's own DurableWriter answers a write that Kafka does not acknowledge in time; this
 * deadline, a little later, only catches a thread that stopped answering altogether.
 */
const DEADLINE_GRACE_MS = 250;

/**
 * Kafka writes (kafkajs producers and a DurableWriter: encoding, the protocol, the sockets) on a
 * worker thread, so request handling and producing use two cores. Each event-loop turn's writes
 * cross to the thread as one message, and its acknowledgements come back batched the same way.
 * The contract is DurableWriter's: a write resolves only after Kafka acknowledged it with
 * acks=all and rejects with KafkaUnavailableError otherwise, at the latest shortly after
 * `timeoutMs`, also when the thread died (a new one starts on the next write).
 */
export class KafkaWriterThread {
  private thread: Thread | undefined;
  private ids = 0;
  private outbox: WriteRequest[] = [];
  private outboxScheduled = false;
  private sweeper: NodeJS.Timeout | undefined;
  private connectedProducers = 0;
  private closing = false;
  private whenConnected: Array<() => void> = [];

  constructor(private readonly opts: WriterThreadOptions) {}

  /** Whether at least one producer on the thread is connected (readiness). */
  get connected(): boolean {
    return this.connectedProducers > 0;
  }

  /** Starts the thread and its producers' connection attempts now instead of on the first write. */
  start(): void {
    this.thread ??= this.spawn();
  }

  /** Starts the thread and resolves once one of its producers is connected. */
  connect(): Promise<void> {
    this.start();
    if (this.connected) return Promise.resolve();
    return new Promise((resolve) => this.whenConnected.push(resolve));
  }

  write(topic: string, messages: Message[]): Promise<void> {
    if (this.closing) return Promise.reject(new KafkaUnavailableError('the writer is shutting down'));
    const thread = (this.thread ??= this.spawn());
    const id = ++this.ids;
    return new Promise<void>((resolve, reject) => {
      if (thread.pending.size === 0) thread.worker.ref();
      thread.pending.set(id, { resolve, reject, deadline: performance.now() + this.opts.timeoutMs });
      this.outbox.push({ id, topic, messages });
      if (!this.outboxScheduled) {
        this.outboxScheduled = true;
        // After this turn's I/O callbacks: every request read in it crosses in one message.
        setImmediate(this.flushOutbox);
      }
    });
  }

  /** Hands the queued writes to Kafka, waits for their outcome, disconnects and ends the thread. */
  async close(): Promise<void> {
    this.closing = true;
    const thread = this.thread;
    if (thread) {
      this.flushOutbox();
      await new Promise<void>((resolve) => {
        thread.closed = resolve;
        thread.worker.ref();
        thread.worker.postMessage({ type: 'close' } satisfies ToWriterThread);
      });
      await thread.worker.terminate();
    }
    clearInterval(this.sweeper);
  }

  private readonly flushOutbox = (): void => {
    this.outboxScheduled = false;
    if (this.outbox.length === 0 || !this.thread) return;
    const writes = this.outbox;
    this.outbox = [];
    this.thread.worker.postMessage({ type: 'write', writes } satisfies ToWriterThread);
  };

  private spawn(): Thread {
    const { onFlush: _onFlush, entry, ...config } = this.opts;
    const url = (entry ?? new URL('./writer-thread-entry.ts', import.meta.url)).href;
    // Services run TypeScript through tsx; a worker's entry is loaded before `--import` hooks
    // apply, so the thread registers tsx itself, then imports its entry.
    const worker = new Worker(
      `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url)}); });`,
      { eval: true, workerData: config satisfies WriterThreadConfig },
    );
    worker.unref();
    const thread: Thread = { worker, pending: new Map() };
    worker.on('message', (msg: FromWriterThread) => this.receive(thread, msg));
    const fail = (reason: string) => {
      if (this.thread === thread) {
        this.thread = undefined;
        // Not yet handed over, and rejected just below: nothing may write them after the 503.
        this.outbox = [];
      }
      this.connectedProducers = 0;
      this.settleAll(thread, new KafkaUnavailableError(reason));
      thread.closed?.();
    };
    worker.on('error', (err) => fail(`the Kafka writer thread failed: ${err.message}`));
    worker.on('exit', (code) => fail(`the Kafka writer thread exited with code ${code}`));
    this.sweeper ??= setInterval(this.sweep, DEADLINE_GRACE_MS).unref();
    return thread;
  }

  private receive(thread: Thread, msg: FromWriterThread): void {
    switch (msg.type) {
      case 'done':
        for (const info of msg.flushes) this.opts.onFlush?.(info);
        for (const id of msg.ok) this.settle(thread, id, undefined);
        for (const { id, reason } of msg.failed) this.settle(thread, id, new KafkaUnavailableError(reason));
        return;
      case 'connected':
        if (this.thread !== thread) return;
        this.connectedProducers = msg.producers;
        if (this.connected) for (const resolve of this.whenConnected.splice(0)) resolve();
        return;
      case 'closed':
        thread.closed?.();
        return;
    }
  }

  private settle(thread: Thread, id: number, err: KafkaUnavailableError | undefined): void {
    const p = thread.pending.get(id);
    if (!p) return;
    thread.pending.delete(id);
    // An idle thread must not keep a stopping process alive.
    if (thread.pending.size === 0 && !thread.closed) thread.worker.unref();
    if (err) p.reject(err);
    else p.resolve();
  }

  private settleAll(thread: Thread, err: KafkaUnavailableError): void {
    for (const id of [...thread.pending.keys()]) this.settle(thread, id, err);
  }

  /** Pending writes are in deadline order (one timeout for all): reject the overdue prefix. */
  private readonly sweep = (): void => {
    const thread = this.thread;
    if (!thread) return;
    const overdue = performance.now() - DEADLINE_GRACE_MS;
    for (const [id, p] of thread.pending) {
      if (p.deadline > overdue) break;
      this.settle(
        thread,
        id,
        new KafkaUnavailableError(`no answer from the Kafka writer thread within ${this.opts.timeoutMs} ms`),
      );
    }
  };
}
