import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDurableProducer, createKafka } from '@warden/shared/kafka/client';
import { endpoints, readTopicToEnd, uniqueName } from './support/pipeline';

/**
 * The durable producer after a failed request (patches/kafkajs+2.2.4.patch). Upstream kafkajs gave
 * a failed request's sequence numbers out again; when that request had landed for some of its
 * partitions, the broker took the next batch of the same size as a retry of it, answered success
 * with the earlier batch's offset and kept nothing: an acknowledged record that was never stored.
 * Here one request fails for one partition (a record too large for its topic) and lands for the
 * other, which is what a partition without enough in-sync replicas, or a timeout after the write,
 * does to a request in a broker outage.
 */
describe('durable producer: a failed request never costs a later acknowledged record', () => {
  const kafka = createKafka({ brokers: endpoints().kafkaBrokers, clientId: 'warden-test-sequences' });
  const admin = kafka.admin();
  const producer = createDurableProducer(kafka);
  const good = uniqueName('warden-test-seq-good');
  const small = uniqueName('warden-test-seq-small');
  const tooLarge = { topic: small, messages: [{ value: 'x'.repeat(2_000) }] };

  /** Every value in a topic, read from its beginning up to the current end. */
  const valuesIn = async (topic: string): Promise<string[]> => {
    const values: string[] = [];
    const { complete } = await readTopicToEnd(kafka, topic, (_, message) =>
      values.push(message.value?.toString() ?? ''),
    );
    expect(complete, `${topic} read to its end`).toBe(true);
    return values;
  };

  beforeAll(async () => {
    await admin.connect();
    await admin.createTopics({
      waitForLeaders: true,
      topics: [
        { topic: good, numPartitions: 2, replicationFactor: 1 },
        {
          topic: small,
          numPartitions: 1,
          replicationFactor: 1,
          configEntries: [{ name: 'max.message.bytes', value: '200' }],
        },
      ],
    });
    await producer.connect();
  });

  afterAll(async () => {
    await producer.disconnect();
    await admin.deleteTopics({ topics: [good, small] }).catch(() => undefined);
    await admin.disconnect();
  });

  it('a same-size send after a partly landed request is stored, at its own offset', async () => {
    await expect(
      producer.sendBatch({
        acks: -1,
        topicMessages: [{ topic: good, messages: [{ value: 'a', partition: 0 }] }, tooLarge],
      }),
    ).rejects.toThrow(/larger than the max message size/);
    const [answer] = await producer.send({ topic: good, acks: -1, messages: [{ value: 'b', partition: 0 }] });
    const values = await valuesIn(good);
    expect(values).toContain('a'); // the failed request landed here
    expect(values).toContain('b'); // upstream answered success for 'b' with 'a''s offset and dropped it
    expect(answer?.baseOffset).not.toBe('0');
  });

  it('concurrent sends around failing requests: every acknowledged record is in the topic', async () => {
    const acknowledged: string[] = [];
    for (let round = 0; round < 10; round++) {
      const sends = [];
      for (let i = 0; i < 6; i++) {
        const value = `r${round}-${i}`;
        sends.push(
          producer
            .send({ topic: good, acks: -1, messages: [{ value, partition: i % 2 }] })
            .then(() => acknowledged.push(value))
            .catch(() => undefined), // refused is allowed (the client retries); lost is not
        );
        if (i === 2) {
          sends.push(
            producer
              .sendBatch({
                acks: -1,
                topicMessages: [
                  { topic: good, messages: [{ value: `fail${round}`, partition: round % 2 }] },
                  tooLarge,
                ],
              })
              .catch(() => undefined),
          );
        }
      }
      await Promise.all(sends);
    }
    expect(acknowledged.length).toBeGreaterThan(30);
    const stored = new Set(await valuesIn(good));
    expect(acknowledged.filter((v) => !stored.has(v))).toEqual([]);
  });
});
