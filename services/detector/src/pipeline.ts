import type { Consumer, EachBatchPayload, KafkaMessage, Message } from 'kafkajs';
import { analysisMessage, decodeEnvelope } from '@warden/shared/codec/index';
import { analyzeEnvelope, type AnalyzeOptions } from '@warden/shared/detectors/analyze';
import { DeadLetterStep, type UnprocessableMessage } from '@warden/shared/kafka/dead-letter';
import type { DurableWriter } from '@warden/shared/kafka/durable-writer';
import { topics } from '@warden/shared/kafka/topics';
import type { Logger } from '@warden/shared/logger';
import { Counter, Histogram, type Registry } from '@warden/shared/metrics';

export interface DetectorOptions {
  consumer: Consumer;
  /** Writes analyses and dead letters with acks=all. */
  writer: DurableWriter;
  groupId: string;
  logger: Logger;
  metrics: Registry;
  analyze?: AnalyzeOptions;
  fromBeginning?: boolean;
  /**
   * Partitions whose batches are handled at once (default 1). While one batch waits for its
   * detections to be acknowledged, the next partition's batch is analysed; each partition still
   * goes in order and commits only what it produced.
   */
  partitionsConcurrently?: number;
}

/**
 * decode → detect → produce → commit. A batch's analyses (one per interaction, also when clean)
 * and dead letters are produced first; only then are its offsets resolved, so a crash re-analyses
 * rather than loses. Findings keep the interaction's key, so one conversation stays in order.
 */
export class DetectorPipeline {
  private readonly m;
  private readonly deadLetters: DeadLetterStep;

  constructor(private readonly opts: DetectorOptions) {
    this.deadLetters = new DeadLetterStep(opts);
    const registers = [opts.metrics];
    this.m = {
      analysed: new Counter({
        name: 'warden_detector_interactions_total',
        help: 'Interactions analysed.',
        registers,
      }),
      findings: new Counter({
        name: 'warden_detector_findings_total',
        help: 'Findings by threat type and severity.',
        labelNames: ['threatType', 'severity'],
        registers,
      }),
      seconds: new Histogram({
        name: 'warden_detector_duration_seconds',
        help: 'Detector time per interaction.',
        buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.05, 0.1],
        registers,
      }),
    };
  }

  async start(): Promise<void> {
    const { consumer } = this.opts;
    await consumer.connect();
    await consumer.subscribe({ topic: topics.interactions, fromBeginning: this.opts.fromBeginning ?? true });
    await consumer.run({
      eachBatchAutoResolve: false,
      autoCommitInterval: 1000,
      partitionsConsumedConcurrently: this.opts.partitionsConcurrently ?? 1,
      eachBatch: (payload) => this.onBatch(payload),
    });
  }

  async stop(): Promise<void> {
    // kafkajs finishes the batch in hand, commits resolved offsets and leaves the group.
    await this.opts.consumer.disconnect();
  }

  /** Pure step over a batch: the analyses to produce for it and the messages to dead-letter. */
  process(
    topic: string,
    partition: number,
    messages: KafkaMessage[],
  ): { analyses: Message[]; deadLetters: UnprocessableMessage[] } {
    const analyses: Message[] = [];
    const deadLetters: UnprocessableMessage[] = [];
    const deadLetter = (message: KafkaMessage, reason: string, step: string) =>
      deadLetters.push({ originalTopic: topic, partition, message, reason, step });
    for (const message of messages) {
      const decoded = decodeEnvelope(message.value);
      if (!decoded.ok) {
        deadLetter(message, decoded.reason, 'decode');
        continue;
      }
      // Platform lifecycle events carry no text to analyse; they are passed over.
      if (!('record' in decoded.value)) continue;
      const started = performance.now();
      let analysis;
      try {
        analysis = analyzeEnvelope(decoded.value, this.opts.analyze);
      } catch (err) {
        // A detector bug on one record must not stop the stream: park the record with the reason.
        deadLetter(message, `detector failed: ${(err as Error).message}`, 'detect');
        continue;
      }
      this.m.seconds.observe((performance.now() - started) / 1000);
      this.m.analysed.inc();
      for (const f of analysis.findings)
        this.m.findings.inc({ threatType: f.threatType, severity: f.severity });
      analyses.push(analysisMessage(analysis, message.key));
    }
    return { analyses, deadLetters };
  }

  private async onBatch({
    batch,
    resolveOffset,
    heartbeat,
    commitOffsetsIfNecessary,
    isRunning,
    isStale,
  }: EachBatchPayload): Promise<void> {
    if (!isRunning() || isStale() || batch.messages.length === 0) return;
    const { analyses, deadLetters } = this.process(batch.topic, batch.partition, batch.messages);
    // Both writes must be acknowledged before the offsets move; on failure kafkajs retries the batch.
    await Promise.all([
      analyses.length ? this.opts.writer.write(topics.detections, analyses) : undefined,
      this.deadLetters.send(deadLetters),
    ]);
    resolveOffset(batch.lastOffset());
    await heartbeat();
    await commitOffsetsIfNecessary();
  }
}
