import { setTimeout as sleep } from 'node:timers/promises';
import type { ClickHouseClient } from '@clickhouse/client';
import type { Consumer, EachBatchPayload, KafkaMessage, Producer } from 'kafkajs';
import { sqlIdentifier } from '@warden/shared/clickhouse/escape';
import { deadLetterMessage } from '@warden/shared/kafka/dlq';
import { topics } from '@warden/shared/kafka/topics';
import type { Logger } from '@warden/shared/logger';
import { Counter, Gauge, Histogram, type Registry } from '@warden/shared/metrics';
import { RowBatch } from './steps/batch';
import { decodeMessage } from './steps/decode';
import { insertRows, WriteAborted, type RejectedRow } from './steps/write';

export interface SinkOptions {
  consumer: Consumer;
  /** Sends poison messages and rejected rows to the DLQ (acks=all). */
  dlqProducer: Producer;
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
}

/**
 * decode → batch → insert → commit. Offsets are committed only after ClickHouse accepted every row
 * they cover; while ClickHouse fails the consumer pauses (Kafka holds the backlog) and keeps its
 * group membership alive with heartbeats. Poison messages and rows ClickHouse rejects as invalid
 * go to the DLQ with the reason; nothing else is ever skipped.
 */
export class SinkPipeline {
  private batch = new RowBatch();
  private flushing: Promise<void> | null = null;
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;
  private heartbeat: (() => Promise<void>) | null = null;
  private readonly maxRows: number;
  private readonly maxAgeMs: number;
  private readonly topics: string[];
  private readonly db: string;
  private readonly m;

  constructor(private readonly opts: SinkOptions) {
    this.maxRows = opts.maxRows ?? 50_000;
    this.maxAgeMs = opts.maxAgeMs ?? 1000;
    this.topics = opts.topics ?? [topics.interactions, topics.detections];
    this.db = sqlIdentifier(opts.database);
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
      dlq: new Counter({
        name: 'warden_dlq_messages_total',
        help: 'Messages sent to the DLQ, by step.',
        labelNames: ['step'],
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

  /** Flushes what is buffered, commits it, and leaves the group. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flushing?.catch(() => undefined);
    // A final flush: if ClickHouse is down it is abandoned after one attempt and Kafka keeps the rows.
    this.stopping = true;
    await this.flush().catch((err: unknown) =>
      this.opts.logger.warn({ err }, 'final flush abandoned; rows stay in Kafka'),
    );
    await this.opts.consumer.disconnect();
  }

  private async onBatch({
    batch,
    resolveOffset,
    heartbeat,
    isRunning,
    isStale,
  }: EachBatchPayload): Promise<void> {
    this.heartbeat = heartbeat;
    const lag = Number(BigInt(batch.highWatermark) - BigInt(batch.lastOffset()) - 1n);
    this.m.lag.set({ topic: batch.topic, partition: String(batch.partition) }, Math.max(0, lag));
    // Offsets are covered per run of messages, before every await: a flush that starts meanwhile
    // (size or age) commits exactly what its rows stand for. Staleness (a rewind or rebalance sought
    // elsewhere) can only arise during an await, so it is checked after each one.
    const { topic, partition } = batch;
    let from: string | undefined;
    let last: string | undefined;
    const coverRead = () => {
      if (from !== undefined) this.batch.cover(topic, partition, from, last!);
      from = undefined;
    };
    if (isStale()) return;
    for (const message of batch.messages) {
      if (!isRunning()) break;
      const decoded = decodeMessage(topic, message.value);
      if (decoded.ok) {
        for (const { table, row } of decoded.rows) this.batch.add(table, JSON.stringify(row));
      } else {
        coverRead();
        await this.deadLetter(topic, partition, message, decoded.reason, 'decode');
        if (isStale()) return;
      }
      from ??= message.offset;
      last = message.offset;
      if (this.batch.size >= this.maxRows) {
        coverRead();
        await this.startFlush();
        if (isStale()) return;
      }
    }
    coverRead();
    // Resolving moves the fetch position on, once per batch; the commit waits for the insert.
    if (last !== undefined) resolveOffset(last);
    if (isRunning()) await heartbeat();
  }

  private async deadLetter(
    topic: string,
    partition: number,
    message: KafkaMessage,
    reason: string,
    step: string,
  ): Promise<void> {
    this.opts.logger.warn({ topic, partition, offset: message.offset, reason }, 'message sent to the DLQ');
    await this.opts.dlqProducer.send({
      topic: topics.dlq,
      acks: -1,
      messages: [
        deadLetterMessage({
          originalTopic: topic,
          partition,
          message,
          reason,
          step,
          consumer: this.opts.groupId,
        }),
      ],
    });
    this.m.dlq.inc({ step });
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
   * A batch could not be written or committed: seek every partition it (or the batch filling behind
   * it) touched back to its first uncommitted offset and drop the buffer, so all of it is read
   * again. Committing the later batch alone would skip the failed rows.
   */
  private rewind(failed: RowBatch): void {
    const first = new Map<string, { topic: string; partition: number; offset: string }>();
    for (const r of [...this.batch.rewinds(), ...failed.rewinds()])
      first.set(`${r.topic}\u0000${r.partition}`, r);
    this.batch = new RowBatch();
    for (const r of first.values()) {
      try {
        this.opts.consumer.seek(r);
      } catch (seekErr) {
        this.opts.logger.warn(
          { err: seekErr, ...r },
          'rewind failed; the partition is re-read after the next rebalance',
        );
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
      for (const r of rejected) await this.rejectRow(r);
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
        consumer.resume(this.topics.map((topic) => ({ topic })));
        this.m.paused.set(0);
      }
    }
  }

  private async rejectRow(r: RejectedRow & { table: string }): Promise<void> {
    const value = Buffer.from(r.row);
    await this.opts.dlqProducer.send({
      topic: topics.dlq,
      acks: -1,
      messages: [
        deadLetterMessage({
          originalTopic: `clickhouse:${r.table}`,
          partition: -1,
          message: { offset: '-1', key: null, value },
          reason: r.reason,
          step: 'insert',
          consumer: this.opts.groupId,
        }),
      ],
    });
    this.m.dlq.inc({ step: 'insert' });
  }
}
