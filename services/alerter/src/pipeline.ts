import type { Consumer, EachBatchPayload } from 'kafkajs';
import { recordAlerts, rulesOf } from '@warden/shared/alerts/outbox';
import { raisedAlerts, type RaisedAlert } from '@warden/shared/alerts/payload';
import { decodeAnalysis } from '@warden/shared/codec/index';
import { DeadLetterStep, type UnprocessableMessage } from '@warden/shared/kafka/dead-letter';
import type { DurableWriter } from '@warden/shared/kafka/durable-writer';
import { topics } from '@warden/shared/kafka/topics';
import type { Logger } from '@warden/shared/logger';
import { Counter, type Registry } from '@warden/shared/metrics';
import type { PostgresPool } from '@warden/shared/postgres/client';
import type { DetectionAnalysis } from '@warden/shared/schemas/detection';

export interface AlerterPipelineOptions {
  consumer: Consumer;
  writer: DurableWriter;
  groupId: string;
  logger: Logger;
  metrics: Registry;
  pool: PostgresPool;
  dashboardUrl: string;
  fromBeginning?: boolean;
  /** Called after a batch put deliveries into the outbox, so the delivery loop looks at once. */
  onEnqueued?: () => void;
}

/**
 * decode → rules → group → outbox → commit. A batch's alerts are grouped and their deliveries
 * written to PostgreSQL in one transaction before its offsets are resolved: a crash before the
 * commit re-reads the batch, and the outbox counts each interaction once per group, so nothing is
 * lost or double-counted. Sending is the Dispatcher's, never this consumer's: a slow endpoint
 * cannot hold a partition.
 */
export class AlerterPipeline {
  private readonly deadLetters: DeadLetterStep;
  private readonly m;

  constructor(private readonly opts: AlerterPipelineOptions) {
    this.deadLetters = new DeadLetterStep(opts);
    const registers = [opts.metrics];
    this.m = {
      alerts: new Counter({
        name: 'warden_alerter_alerts_total',
        help: 'Detections matching an alert rule, by outcome (raised, grouped, repeated, unknown_project).',
        labelNames: ['outcome'],
        registers,
      }),
    };
  }

  async start(): Promise<void> {
    const { consumer } = this.opts;
    await consumer.connect();
    await consumer.subscribe({ topic: topics.detections, fromBeginning: this.opts.fromBeginning ?? true });
    await consumer.run({
      eachBatchAutoResolve: false,
      autoCommitInterval: 1000,
      partitionsConsumedConcurrently: 3,
      eachBatch: (payload) => this.onBatch(payload),
    });
  }

  async stop(): Promise<void> {
    await this.opts.consumer.disconnect();
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
    const analyses: DetectionAnalysis[] = [];
    const deadLetters: UnprocessableMessage[] = [];
    for (const message of batch.messages) {
      const decoded = decodeAnalysis(message.value);
      if (decoded.ok) analyses.push(decoded.value);
      else
        deadLetters.push({
          originalTopic: batch.topic,
          partition: batch.partition,
          message,
          reason: decoded.reason,
          reasonClass: 'invalid',
          step: 'decode',
        });
    }
    const withFindings = analyses.filter((a) => a.findings.length > 0);
    const alerts: RaisedAlert[] = [];
    if (withFindings.length > 0) {
      const rules = await rulesOf(this.opts.pool, [...new Set(withFindings.map((a) => a.accountId))]);
      for (const a of withFindings) alerts.push(...raisedAlerts(a, rules.get(a.accountId) ?? []));
    }
    // A PostgreSQL failure fails the batch: kafkajs retries it, nothing is resolved.
    const [recorded] = await Promise.all([
      recordAlerts(this.opts.pool, alerts, this.opts.dashboardUrl),
      this.deadLetters.send(deadLetters),
    ]);
    this.m.alerts.inc({ outcome: 'raised' }, recorded.raised);
    this.m.alerts.inc({ outcome: 'grouped' }, recorded.grouped);
    this.m.alerts.inc({ outcome: 'repeated' }, recorded.repeated);
    this.m.alerts.inc({ outcome: 'unknown_project' }, recorded.unknownProject);
    if (recorded.deliveries > 0) this.opts.onEnqueued?.();
    resolveOffset(batch.lastOffset());
    await heartbeat();
    await commitOffsetsIfNecessary();
  }
}
