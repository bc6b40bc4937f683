import type { Consumer, EachBatchPayload, KafkaMessage, Message } from 'kafkajs';
import { analysisMessage, decodeEnvelope, type DeadLetterReason } from '@warden/shared/codec/index';
import { analyzeEnvelope, fitAnalysis, type AnalyzeOptions } from '@warden/shared/detectors/analyze';
import { DeadLetterStep, type UnprocessableMessage } from '@warden/shared/kafka/dead-letter';
import { messageBytes, type DurableWriter } from '@warden/shared/kafka/durable-writer';
import { topics } from '@warden/shared/kafka/topics';
import type { Logger } from '@warden/shared/logger';
import { Counter, Histogram, type Registry } from '@warden/shared/metrics';
import type { AnalysisMessage } from '@warden/shared/schemas/detection';

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

/** An analysis to produce, and the interaction it analyses (dead-lettered if Kafka refuses the analysis). */
interface Produced {
  message: Message;
  source: KafkaMessage;
}

/**
 * decode → detect → produce → commit. A batch's analyses (one per interaction, also when clean)
 * and dead letters are produced first; only then are its offsets resolved, so a crash re-analyses
 * rather than loses. Findings keep the interaction's key, so one conversation stays in order.
 *
 * A failure that retrying cannot mend never holds the partition: an analysis larger than the
 * detections topic takes is cut to its most severe findings (fitAnalysis), and an interaction
 * whose analysis still cannot be written, or that Kafka refuses, goes to the DLQ with the reason.
 * Any other failure to write (Kafka down, slow, short of replicas) fails the batch, which kafkajs
 * retries: Kafka holds the backlog.
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
      truncated: new Counter({
        name: 'warden_detector_truncated_analyses_total',
        help: 'Analyses cut to their most severe findings to fit the detections topic.',
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
  ): { analyses: Produced[]; deadLetters: UnprocessableMessage[] } {
    const analyses: Produced[] = [];
    const deadLetters: UnprocessableMessage[] = [];
    const deadLetter = (message: KafkaMessage, reason: string, reasonClass: DeadLetterReason, step: string) =>
      deadLetters.push({ originalTopic: topic, partition, message, reason, reasonClass, step });
    for (const message of messages) {
      const decoded = decodeEnvelope(message.value);
      if (!decoded.ok) {
        deadLetter(message, decoded.reason, 'invalid', 'decode');
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
        deadLetter(message, `detector failed: ${(err as Error).message}`, 'failed', 'detect');
        continue;
      }
      this.m.seconds.observe((performance.now() - started) / 1000);
      this.m.analysed.inc();
      for (const f of analysis.findings)
        this.m.findings.inc({ threatType: f.threatType, severity: f.severity });
      const produced = this.fitted(analysis, message.key);
      if (typeof produced === 'string') deadLetter(message, produced, 'too_large', 'produce');
      else analyses.push({ message: produced, source: message });
    }
    return { analyses, deadLetters };
  }

  /**
   * The analysis as a message the detections topic takes: as it is, or cut by fitAnalysis; the
   * reason when not even that fits.
   */
  private fitted(analysis: AnalysisMessage, key: Buffer | null): Message | string {
    const limit = this.opts.writer.limitOf(topics.detections);
    const whole = analysisMessage(analysis, key);
    const size = messageBytes(whole);
    if (size <= limit) return whole;
    const cut = fitAnalysis(analysis, limit - (size - Buffer.byteLength(whole.value as string)));
    const message = cut && analysisMessage(cut, key);
    if (message && messageBytes(message) <= limit) {
      this.m.truncated.inc();
      return message;
    }
    return (
      `analysis too large for ${topics.detections}: ${size} bytes with ${analysis.findings.length} ` +
      `findings, more than the ${limit} it takes even cut to its most severe findings`
    );
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
    const { topic, partition } = batch;
    const { analyses, deadLetters } = this.process(topic, partition, batch.messages);
    // Every write must be acknowledged before the offsets move; on a transient failure kafkajs
    // retries the batch. Analyses Kafka refuses for good are dead-lettered instead.
    const [refused] = await Promise.all([
      this.opts.writer.writeEach(
        topics.detections,
        analyses.map((a) => a.message),
      ),
      this.deadLetters.send(deadLetters),
    ]);
    await this.deadLetters.send(
      refused.map((r) => ({
        originalTopic: topic,
        partition,
        message: analyses[r.index]!.source,
        reason: `Kafka refused its analysis: ${r.reason}`,
        reasonClass: r.refusal === 'too_large' ? 'too_large' : 'refused',
        step: 'produce',
      })),
    );
    resolveOffset(batch.lastOffset());
    await heartbeat();
    await commitOffsetsIfNecessary();
  }
}
