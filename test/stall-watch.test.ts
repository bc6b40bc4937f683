import { afterEach, describe, expect, it } from 'vitest';
import type { Consumer } from 'kafkajs';
import { createLogger } from '@warden/shared/logger';
import { watchForStall } from '@warden/shared/kafka/stall-watch';
import { privateTopics, uniqueName } from './support/pipeline';

/**
 * The stall watch reads a member's committed offsets from the real broker: a consumer that reads
 * and never commits while its partitions hold more is reported; one that commits, one whose
 * pipeline says it waits on purpose, and one with nothing behind are not.
 */
describe('stall watch', () => {
  const { kafka, producer, topics } = privateTopics('stall-watch');
  const log = createLogger('stall-watch-test');
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0)) await step();
  });

  /** A member of a new group on the interactions topic; `commit` says whether it commits what it reads. */
  const member = async (commit: boolean, waiting?: () => boolean) => {
    const groupId = uniqueName('stall-group');
    const consumer: Consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100 });
    const stalls: Array<{ reason: string; behind?: number; stillForMs: number }> = [];
    const watch = watchForStall({
      kafka,
      consumer,
      groupId,
      topics: [topics.interactions],
      log,
      stallMs: 3_000,
      intervalMs: 500,
      ...(waiting ? { waiting } : {}),
      onStall: (detail) => stalls.push(detail),
    });
    await consumer.connect();
    await consumer.subscribe({ topic: topics.interactions, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch }) => {
        if (!commit) return;
        const next = (BigInt(batch.lastOffset()) + 1n).toString();
        await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: next }]);
      },
    });
    cleanup.push(async () => {
      await watch.stop();
      await consumer.disconnect();
    });
    return stalls;
  };

  const send = async (count: number) => {
    await producer.send({
      topic: topics.interactions,
      messages: Array.from({ length: count }, (_, i) => ({ key: `k${i}`, value: `v${i}` })),
    });
  };

  it('reports a member whose partitions hold more while its commits stand still', async () => {
    await send(20);
    const stalls = await member(false);
    await expect.poll(() => stalls.length, { timeout: 15_000, interval: 250 }).toBe(1);
    expect(stalls[0]!.behind).toBeGreaterThanOrEqual(20);
    expect(stalls[0]!.stillForMs).toBeGreaterThanOrEqual(3_000);
  }, 30_000);

  it('does not report a member that commits, nor one that waits on purpose', async () => {
    await send(20);
    const committing = await member(true);
    const waiting = await member(false, () => true);
    const keepSending = setInterval(() => void send(5).catch(() => undefined), 500);
    try {
      await new Promise((done) => setTimeout(done, 7_000));
    } finally {
      clearInterval(keepSending);
    }
    expect(committing).toEqual([]);
    expect(waiting).toEqual([]);
  }, 30_000);
});
