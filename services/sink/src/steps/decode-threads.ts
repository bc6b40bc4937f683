import { Worker } from 'node:worker_threads';
import { runRows, type RunRows } from './rows';

/** Message values packed into one buffer (length -1: a null value), to hand to a thread without copies. */
export interface PackedValues {
  data: Uint8Array;
  lengths: Int32Array;
}

export function packValues(values: ReadonlyArray<Buffer | null>): PackedValues {
  const lengths = new Int32Array(values.length);
  let total = 0;
  values.forEach((v, i) => {
    lengths[i] = v ? v.length : -1;
    total += v?.length ?? 0;
  });
  // Its own ArrayBuffer (never a slice of Node's shared pool), so it can be transferred.
  const data = Buffer.allocUnsafeSlow(total);
  let at = 0;
  for (const v of values) if (v) at += v.copy(data, at);
  return { data, lengths };
}

export function unpackValues({ data, lengths }: PackedValues): Array<Buffer | null> {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const out: Array<Buffer | null> = [];
  let at = 0;
  for (const len of lengths) {
    if (len < 0) out.push(null);
    else {
      out.push(buf.subarray(at, at + len));
      at += len;
    }
  }
  return out;
}

/** One run for a decode thread (see decode-thread-entry.ts). */
export interface DecodeRequest extends PackedValues {
  id: number;
  topic: string;
}

/** Turns runs of messages into rows; results resolve in any order, callers keep their own. */
export interface RunDecoder {
  /** Resolves once the decoder can take runs (threads loaded). */
  ready(): Promise<void>;
  decode(topic: string, values: ReadonlyArray<Buffer | null>): Promise<RunRows>;
  close(): Promise<void>;
}

/** Decodes on the calling thread. */
export function inlineDecoder(): RunDecoder {
  return {
    ready: async () => undefined,
    decode: async (topic, values) => runRows(topic, values),
    close: async () => undefined,
  };
}

/** Young generation per decode thread: almost everything a thread allocates dies young. */
const YOUNG_GENERATION_MB = 96;

interface Pending {
  resolve: (run: RunRows) => void;
  reject: (err: Error) => void;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
  loaded: Promise<void>;
}

/**
 * Decodes on worker threads, round robin (Arroyo's parallel transform step, as threads): JSON
 * parsing, row building and serialization leave the thread that fetches from Kafka and streams
 * inserts, so the two overlap on separate cores. Values travel packed in one transferred buffer and
 * rows come back as transferred chunks, so nothing is copied twice. A thread that dies fails its
 * pending runs (the pipeline reads them again) and is replaced on the next run.
 */
export class ThreadDecoder implements RunDecoder {
  private readonly threads: Array<Thread | undefined>;
  private next = 0;
  private ids = 0;

  constructor(threads: number) {
    this.threads = new Array(Math.max(1, threads)).fill(undefined);
  }

  async ready(): Promise<void> {
    await Promise.all(this.threads.map((_, slot) => (this.threads[slot] ??= this.spawn(slot)).loaded));
  }

  decode(topic: string, values: ReadonlyArray<Buffer | null>): Promise<RunRows> {
    const slot = this.next;
    this.next = (this.next + 1) % this.threads.length;
    const thread = (this.threads[slot] ??= this.spawn(slot));
    const id = ++this.ids;
    const packed = packValues(values);
    const req: DecodeRequest = { id, topic, ...packed };
    return new Promise<RunRows>((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      thread.worker.ref();
      thread.worker.postMessage(req, [packed.data.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    const running = this.threads.filter((t) => t !== undefined);
    this.threads.fill(undefined);
    await Promise.all(running.map((t) => t.worker.terminate()));
  }

  private spawn(slot: number): Thread {
    // Services run TypeScript through tsx; a worker's entry is loaded before `--import` hooks
    // apply, so the thread registers tsx itself, then imports its entry.
    const entry = new URL('./decode-thread-entry.ts', import.meta.url).href;
    const worker = new Worker(
      `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`,
      { eval: true, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } },
    );
    let loaded!: () => void;
    let failed!: (err: Error) => void;
    const thread: Thread = {
      worker,
      pending: new Map(),
      loaded: new Promise<void>((resolve, reject) => {
        loaded = resolve;
        failed = reject;
      }),
    };
    // A thread that fails to load rejects `loaded`; only `ready()` callers need to see that.
    thread.loaded.catch(() => undefined);
    worker.on('message', (msg: { ready: true } | { id: number; run: RunRows }) => {
      if ('ready' in msg) {
        if (thread.pending.size === 0) worker.unref();
        loaded();
        return;
      }
      const { id, run } = msg;
      const p = thread.pending.get(id);
      thread.pending.delete(id);
      // An idle thread must not keep a stopping process alive.
      if (thread.pending.size === 0) worker.unref();
      p?.resolve(run);
    });
    const fail = (err: Error) => {
      failed(err);
      if (this.threads[slot] === thread) this.threads[slot] = undefined;
      for (const p of thread.pending.values()) p.reject(err);
      thread.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`sink decode thread exited with code ${code}`)));
    return thread;
  }
}
