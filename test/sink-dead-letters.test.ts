import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopeMessage } from '@warden/shared/codec/index';
import { createDurableProducer, createKafka } from '@warden/shared/kafka/client';
import { ensureTopics, topicNames } from '@warden/shared/kafka/topics';
import { buildEnvelope } from '@warden/shared/schemas/envelope';
import { endpoints, eventually, queryRows, testDatabase, uniqueName } from './support/pipeline';
import { runService } from './support/processes';

/**
 * A dead letter is the message plus headers: the DLQ must take one of the largest message its
 * source topic takes, or the consumer that gives up on that message is stuck on it for ever.
 */
describe('sink: dead letters of the largest messages', () => {
  const kafka = createKafka({ brokers: endpoints().kafkaBrokers, clientId: 'sink-dead-letters' });
  const admin = kafka.admin();
  const producer = createDurableProducer(kafka);
  // Topics of its own, made as `warden topics` makes them.
  const prefix = `${uniqueName('sink-dead-letters')}.`;
  const topics = topicNames(prefix);

  beforeAll(async () => {
    await admin.connect();
    await ensureTopics(admin, { prefix });
    await producer.connect();
  });
  afterAll(async () => {
    await producer.disconnect();
    await admin.deleteTopics({ topics: Object.values(topics) });
    await admin.disconnect();
  });

  it('dead-letters a poison message as large as the topic takes, whole, and inserts the records after it', async () => {
    const db = await testDatabase('warden_test_dead_letters');
    const group = uniqueName('sink-dead-letters');
    const sink = runService('sink', {
      CLICKHOUSE_DATABASE: db.db,
      WARDEN_SINK_GROUP: group,
      WARDEN_SINK_MAX_AGE_MS: '200',
      WARDEN_SINK_METRICS_PORT: '0',
      WARDEN_TOPIC_PREFIX: prefix,
    });
    const dlq = kafka.consumer({ groupId: uniqueName('dlq-reader') });
    const dead: Array<{ reason: string; bytes: number; truncated?: string }> = [];
    const agentId = uniqueName('after-poison');
    try {
      await dlq.connect();
      await dlq.subscribe({ topic: topics.dlq, fromBeginning: true });
      await dlq.run({
        eachMessage: async ({ message }) => {
          if (message.headers?.['dlq-consumer']?.toString() !== group) return;
          dead.push({
            reason: message.headers['dlq-reason']!.toString(),
            bytes: message.value?.length ?? 0,
            ...(message.headers['dlq-truncated']
              ? { truncated: message.headers['dlq-truncated'].toString() }
              : {}),
          });
        },
      });
      // Not JSON, and just under the topic's 2 MiB: its dead letter is over 2 MiB. Written with a
      // plain producer (any client with access to the topic), so the broker's limit is the only one.
      const poison = Buffer.alloc(2 * 1024 * 1024 - 300, 'x');
      const key = 'acct-sink:one-session';
      await producer.send({ topic: topics.interactions, acks: -1, messages: [{ key, value: poison }] });
      const after = Array.from({ length: 5 }, (_, i) =>
        buildEnvelope(
          { agentId, sessionId: 'one-session', prompt: `p${i}`, response: 'r' },
          { accountId: 'acct-sink', endpoint: '/telemetry/ingest', platform: 'custom' },
        ),
      );
      // The same key: the same partition, behind the poison message.
      await producer.send({ topic: topics.interactions, acks: -1, messages: after.map(envelopeMessage) });
      expect(after.every((e) => envelopeMessage(e).key === key)).toBe(true);

      const inserted = () =>
        queryRows<{ n: number }>(
          db.client,
          `SELECT uniqExact(interaction_id) AS n FROM ${db.db}.interactions WHERE agent_id = '${agentId}'`,
        ).then((rows) => Number(rows[0]?.n ?? 0));
      expect(await eventually(inserted, (n) => n >= after.length, 60_000)).toBe(after.length);
      await eventually(
        async () => dead.length,
        (n) => n >= 1,
        20_000,
      );
      expect(dead[0]).toEqual({ reason: expect.stringMatching(/not JSON/), bytes: poison.length });
    } finally {
      await dlq.disconnect();
      await sink.stop();
      await db.drop();
    }
  }, 120_000);
});
