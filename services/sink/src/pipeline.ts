import { setTimeout as sleep } from 'node:timers/promises';
import type { ClickHouseClient } from '@clickhouse/client';
import type { Consumer, EachBatchPayload, KafkaMessage } from 'kafkajs';
import { sqlIdentifier } from '@warden/shared/clickhouse/escape';
import { DeadLetterStep } from '@warden/shared/kafka/dead-letter';
import type { DurableWriter } from '@warden/shared/kafka/durable-writer';
import { topics } from '@warden/shared/kafka/topics';
import type { Logger } from '@warden/shared/logger';
import { Counter, Gauge, Histogram, type Registry } from '@warden/shared/metrics';
import { RowBatch } from './steps/batch';
import { inlineDecoder, ThreadDecoder, type RunDecoder } from './steps/decode-threads';
import type { RunRows } from './steps/rows';
import { insertRows, WriteAborted, type RejectedRow } from './steps/write';

export interface SinkOptions {
  consumer: Consumer;
  /** Writes poison messages and rejected rows to the DLQ (acks=all). */
  writer: DurableWriter;
  clickhouse: ClickHouseClient;
  database: string;
  groupId: string;
  logger: Logger;
  metrics: Registry;
  /** Flush when this many rows are buffered… */
  maxRows?: number;
  /** …or when the oldest buffered row is this old. */
  maxAgeMs?: number;
  topics?: string[];
  fromBeginning?: boolean;
  /** Threads that decode and serialize rows; 0 decodes on the consuming thread. Default 1. */
  decodeThreads?: number;
  /**
   * A rewind the consumer refused leaves rows behind that a later commit would skip: the process
   * must start afresh from the committed offsets (runConsumerService's `restart`). Without it, the
   * error is thrown.
   */
  restart?: (reason: string, fields?: Record<string, unknown>) => void;
}

/** One fetched batch of one partition, from read to appended. */
interface Run {
  topic: string;
  partition: number;
  first: string;
  last: string;
  /** Rewinds bump the pipeline's generation; a run of an older one is dropped, not appended. */
  generation: number;
}

/**
 * decode (on its own thread) → batch → insert → commit. Each fetched batch is a run decoded while
 * the next one is fetched; runs join the batch in read order. Offsets are committed only after
 * ClickHouse accepted every row they cover; while ClickHouse fails the consumer pauses (Kafka holds
 * the backlog) and keeps its group membership alive with heartbeats. Poison messages and rows
 * ClickHouse rejects as invalid go to the DLQ with the reason; nothing else is ever skipped.
 */
export class SinkPipeline {
  private batch = new RowBatch();
  private flushing: Promise<void> | null = null;
  private stopping = false;
  /** A rewind failed: nothing may be committed any more (the process is being restarted). */
  private broken = false;
  /** ClickHouse refuses the inserts in hand: the pipeline waits on purpose (no commits meanwhile). */
  private storeFailing = false;
  private timer: NodeJS.Timeout | undefined;
  private heartbeat: (() => Promise<void>) | null = null;
  private readonly maxRows: number;
  private readonly maxAgeMs: number;
  private readonly topics: string[];
  private readonly db: string;
  private readonly m;
  private readonly deadLetters: DeadLetterStep;
  private readonly decoder: RunDecoder;
  /** Runs handed to the decoder and not yet in the batch. */
  private readonly decoding = new Set<Run>();
  private readonly runsAhead = 6;
  /** Settles when every run handed over so far has been appended (or dropped). */
  private appended: Promise<void> = Promise.resolve();
  private generation = 0;
  /** Messages behind the high watermark after the last batch read, per topic and partition. */
  private readonly lag = new Map<string, number>();

  constructor(private readonly opts: SinkOptions) {
    const threads = opts.decodeThreads ?? 1;
    this.decoder = threads > 0 ? new ThreadDecoder(threads) : inlineDecoder();
    this.maxRows = opts.maxRows ?? 50_000;
    this.maxAgeMs = opts.maxAgeMs ?? 1000;
    this.topics = opts.topics ?? [topics.interactions, topics.detections];
    this.db = sqlIdentifier(opts.database);
    this.deadLetters = new DeadLetterStep(opts);
    const registers = [opts.metrics];
    this.m = {
      rows: new Counter({
        name: 'warden_sink_rows_total',
        help: 'Rows inserted, by table.',
        labelNames: ['table'],
        registers,
      }),
      batchRows: new Histogram({
        name: 'warden_sink_batch_rows',
        help: 'Rows per flush.',
        buckets: [1, 10, 100, 500, 1000, 2000, 5000, 10000, 20000, 50000],
        registers,
      }),
      insertSeconds: new Histogram({
        name: 'warden_sink_insert_duration_seconds',
        help: 'Duration of one flush (all tables), retries included.',
        buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
        registers,
      }),
      insertFailures: new Counter({
        name: 'warden_sink_insert_failures_total',
        help: 'Failed insert attempts (retried).',
        registers,
      }),
      lag: new Gauge({
        name: 'warden_consumer_lag_messages',
        help: 'High watermark minus position, by partition.',
        labelNames: ['topic', 'partition'],
        registers,
      }),
      paused: new Gauge({
        name: 'warden_sink_paused',
        help: '1 while consumption is paused because ClickHouse fails.',
        registers,
      }),
    };
  }

  async start(): Promise<void> {
    const { consumer } = this.opts;
    await this.decoder.ready();
    await consumer.connect();
    for (const topic of this.topics)
      await consumer.subscribe({ topic, fromBeginning: this.opts.fromBeginning ?? true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: 1,
      eachBatch: (payload) => this.onBatch(payload),
    });
    this.timer = setInterval(
      () => {
        if (!this.flushing && !this.batch.isEmpty && this.batch.age() >= this.maxAgeMs)
          void this.flush().catch(() => undefined);
      },
      Math.max(50, Math.floor(this.maxAgeMs / 4)),
    );
  }

  /** The topics it consumes, and whether it waits on ClickHouse on purpose (the stall watch's view). */
  get watch(): { topics: string[]; waiting: () => boolean } {
    return { topics: this.topics, waiting: () => this.storeFailing };
  }

  /** Flushes what is buffered, commits it, and leaves the group. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.appended;
    await this.flushing?.catch(() => undefined);
    // A final flush: if ClickHouse is down it is abandoned after one attempt and Kafka keeps the rows.
    this.stopping = true;
    await this.flush().catch((err: unknown) =>
      this.opts.logger.warn({ err }, 'final flush abandoned; rows stay in Kafka'),
    );
    await this.opts.consumer.disconnect();
    await this.decoder.close();
  }

  private async onBatch({
    batch,
    resolveOffset,
    heartbeat,
    isRunning,
    isStale,
  }: EachBatchPayload): Promise<void> {
    this.heartbeat = heartbeat;
    const lag = Math.max(0, Number(BigInt(batch.highWatermark) - BigInt(batch.lastOffset()) - 1n));
    this.m.lag.set({ topic: batch.topic, partition: String(batch.partition) }, lag);
    this.lag.set(`${batch.topic}\u0000${batch.partition}`, lag);
    const { topic, partition, messages } = batch;
    // Backpressure: a bounded number of runs decode ahead of the rows being batched.
    while (this.decoding.size >= this.runsAhead) {
      await Promise.race([this.appended, sleep(1000)]);
      await heartbeat().catch(() => undefined);
    }
    // Stale: a rewind or rebalance sought this partition elsewhere since the fetch.
    if (messages.length === 0 || isStale() || !isRunning()) return;
    const run: Run = {
      topic,
      partition,
      first: messages[0]!.offset,
      last: messages[messages.length - 1]!.offset,
      generation: this.generation,
    };
    this.decoding.add(run);
    const decoded = this.decoder.decode(
      topic,
      messages.map((m) => m.value),
    );
    // Runs join the batch in the order they were read, whatever order the threads finish in.
    this.appended = this.appended.then(() => this.append(run, messages, decoded));
    // The fetch position moves on while the run decodes; the commit waits for its insert.
    resolveOffset(run.last);
    await heartbeat();
  }

  /**
   * Every partition read so far is at its high watermark and nothing waits to be decoded: a backlog
   * was just drained, so a batch already half full is written now instead of when it ages.
   */
  private caughtUp(): boolean {
    if (this.decoding.size > 0) return false;
    for (const lag of this.lag.values()) if (lag > 0) return false;
    return true;
  }

  /** Adds a decoded run to the batch, its poison messages to the DLQ first, and flushes on size. */
  private async append(run: Run, messages: KafkaMessage[], decoded: Promise<RunRows>): Promise<void> {
    try {
      const { tables, failures } = await decoded;
      // Rewound meanwhile: the run is read again from Kafka.
      if (run.generation !== this.generation) return;
      await this.deadLetters.send(
        failures.map((f) => ({
          originalTopic: run.topic,
          partition: run.partition,
          message: messages[f.index]!,
          reason: f.reason,
          reasonClass: 'invalid',
          step: 'decode',
        })),
      );
      if (run.generation !== this.generation) return;
      for (const t of tables) this.batch.add(t.table, t.chunks, t.rows);
      this.batch.cover(run.topic, run.partition, run.first, run.last);
      this.decoding.delete(run);
      if (this.batch.size >= this.maxRows || (this.batch.size >= this.maxRows / 2 && this.caughtUp()))
        await this.startFlush();
    } catch (err) {
      if (run.generation !== this.generation) return;
      this.opts.logger.error(
        { err, topic: run.topic, partition: run.partition, offset: run.first },
        'run could not be decoded or dead-lettered; rewinding to read it again',
      );
      this.rewind();
    } finally {
      this.decoding.delete(run);
    }
  }

  /**
   * Hands the buffered rows to the writer and returns once the writer took them: at most one insert
   * is in flight while the next batch fills, so fetching and decoding overlap with ClickHouse's
   * work. A caller arriving while an insert runs waits for it, heartbeating (backpressure).
   */
  private async startFlush(): Promise<void> {
    while (this.flushing) {
      await Promise.race([this.flushing, sleep(1000)]);
      await this.heartbeat?.().catch(() => undefined);
    }
    if (this.batch.isEmpty) return;
    const batch = this.batch;
    this.batch = new RowBatch();
    this.flushing = this.write(batch)
      .catch((err: unknown) => {
        if (!(err instanceof WriteAborted)) this.rewind(batch);
      })
      .finally(() => (this.flushing = null));
  }

  /** Flushes everything buffered and waits until it is inserted and committed. */
  async flush(): Promise<void> {
    await this.startFlush();
    await this.flushing;
  }

  /**
   * A batch could not be written or committed, or a run not decoded: seek every partition it, the
   * batch filling behind it and the runs still decoding touched back to its first uncommitted
   * offset and drop all of them, so everything is read again. Committing the later batch alone would
   * skip the failed rows.
   */
  private rewind(failed?: RowBatch): void {
    const first = new Map<string, { topic: string; partition: number; offset: string }>();
    const runs = [...this.decoding].map((r) => ({ topic: r.topic, partition: r.partition, offset: r.first }));
    for (const r of [...(failed?.rewinds() ?? []), ...this.batch.rewinds(), ...runs]) {
      const key = `${r.topic}\u0000${r.partition}`;
      const seen = first.get(key);
      if (!seen || BigInt(r.offset) < BigInt(seen.offset)) first.set(key, r);
    }
    // Runs still decoding belong to the old position: they are dropped when they arrive.
    this.generation++;
    this.decoding.clear();
    this.batch = new RowBatch();
    for (const r of first.values()) {
      try {
        this.opts.consumer.seek(r);
      } catch (seekErr) {
        // Going on would let a later batch of this partition commit past the dropped rows.
        this.stopping = true;
        this.broken = true;
        const reason = 'a rewind was refused by the consumer';
        if (!this.opts.restart) throw seekErr;
        this.opts.restart(reason, { err: seekErr, ...r });
        return;
      }
    }
  }

  private async write(batch: RowBatch): Promise<void> {
    const started = performance.now();
    const { consumer, clickhouse, logger } = this.opts;
    let paused = false;
    const hooks = {
      aborted: () => this.stopping,
      onRetry: async (err: Error, attempt: number, waitMs: number) => {
        this.m.insertFailures.inc();
        logger.warn(
          { err: err.message, attempt, waitMs },
          'ClickHouse insert failed; retrying (rows stay in Kafka)',
        );
        if (!paused) {
          consumer.pause(this.topics.map((topic) => ({ topic })));
          paused = true;
          this.storeFailing = true;
          this.m.paused.set(1);
        }
        await this.heartbeat?.().catch(() => undefined);
      },
    };
    try {
      // One insert per table, side by side: the server works on them in parallel.
      const perTable = await Promise.all(
        batch.tables().map(async ([table, rows]) => {
          const bad = await insertRows(clickhouse, `${this.db}.${table}`, rows, hooks);
          this.m.rows.inc({ table }, rows.count - bad.length);
          return bad.map((r) => ({ ...r, table }));
        }),
      );
      const rejected: Array<RejectedRow & { table: string }> = perTable.flat();
      await this.deadLetters.send(
        rejected.map((r) => ({
          originalTopic: `clickhouse:${r.table}`,
          partition: -1,
          message: { offset: '-1', key: null, value: Buffer.from(r.row) },
          reason: r.reason,
          reasonClass: 'refused',
          step: 'insert',
        })),
      );
      if (this.broken) throw new WriteAborted();
      await consumer.commitOffsets(batch.commits());
      this.m.batchRows.observe(batch.size);
      this.m.insertSeconds.observe((performance.now() - started) / 1000);
    } catch (err) {
      if (err instanceof WriteAborted) throw err;
      // Not committed: the caller rewinds so these rows are read and written again (ReplacingMergeTree
      // makes a second copy of rows that did get in harmless).
      logger.error({ err }, 'flush failed; offsets not committed, rewinding to re-read the batch');
      throw err;
    } finally {
      if (paused) {
        this.storeFailing = false;
        consumer.resume(this.topics.map((topic) => ({ topic })));
        this.m.paused.set(0);
      }
    }
  }
}
