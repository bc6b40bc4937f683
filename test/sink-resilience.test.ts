import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickhouse } from '@warden/shared/clickhouse/client';
import { migrate } from '@warden/shared/clickhouse/migrate';
import { envelopeMessage } from '@warden/shared/codec/index';
import { createDurableProducer, createKafka } from '@warden/shared/kafka/client';
import { DurableWriter } from '@warden/shared/kafka/durable-writer';
import { ensureTopics, topicNames } from '@warden/shared/kafka/topics';
import { buildEnvelope } from '@warden/shared/schemas/envelope';
import { startClickhouse, stopProcess, waitForClickhouse } from '@warden/cli';
import { endpoints, eventually, queryRows, testDatabase, uniqueName } from './support/pipeline';
import { runService } from './support/processes';

/** The sink as its own process: poison messages, SIGKILL mid-batch, and a ClickHouse outage. */
describe('sink resilience', () => {
  const kafka = createKafka({ brokers: endpoints().kafkaBrokers, clientId: 'sink-resilience' });
  const admin = kafka.admin();
  const producer = createDurableProducer(kafka);
  const writer = new DurableWriter(producer, { timeoutMs: 10_000 });
  // Topics of its own: a sink group that starts from the earliest offset reads only this file's
  // records, not whatever history a developer's stack has collected.
  const prefix = `${uniqueName('sink-resilience')}.`;
  const topics = topicNames(prefix);
  const sinkEnv = (env: Record<string, string>) => ({ ...env, WARDEN_TOPIC_PREFIX: prefix });

  beforeAll(async () => {
    await admin.connect();
    await ensureTopics(admin, { prefix });
    await producer.connect();
  });
  afterAll(async () => {
    await writer.drain();
    await producer.disconnect();
    await admin.deleteTopics({ topics: Object.values(topics) });
    await admin.disconnect();
  });

  const envelopes = (agentId: string, n: number, offset = 0) =>
    Array.from({ length: n }, (_, i) =>
      buildEnvelope(
        { agentId, prompt: `p${offset + i}`, response: 'r', sessionId: `s${i % 13}` },
        { accountId: 'acct-sink', endpoint: '/telemetry/ingest', platform: 'custom' },
      ),
    );
  const produce = (list: ReturnType<typeof envelopes>) =>
    writer.write(topics.interactions, list.map(envelopeMessage));

  const distinct = async (client: ReturnType<typeof createClickhouse>, db: string, agentId: string) =>
    Number(
      (
        await queryRows<{ n: number }>(
          client,
          `SELECT uniqExact(interaction_id) AS n FROM ${db}.interactions WHERE agent_id = '${agentId}'`,
        )
      )[0]?.n ?? 0,
    );

  it('sends a poison message to the DLQ with its reason and keeps consuming', async () => {
    const db = await testDatabase('warden_test_poison');
    const group = uniqueName('sink-poison');
    const sink = runService(
      'sink',
      sinkEnv({
        CLICKHOUSE_DATABASE: db.db,
        WARDEN_SINK_GROUP: group,
        WARDEN_SINK_MAX_AGE_MS: '200',
        WARDEN_SINK_METRICS_PORT: '0',
      }),
    );
    const agentId = uniqueName('poison');
    const dlq = kafka.consumer({ groupId: uniqueName('dlq-reader') });
    const dead: Array<{ reason: string; consumer: string; value: string }> = [];
    try {
      await dlq.connect();
      await dlq.subscribe({ topic: topics.dlq, fromBeginning: true });
      await dlq.run({
        eachMessage: async ({ message }) => {
          if (message.headers?.['dlq-consumer']?.toString() !== group) return;
          dead.push({
            reason: message.headers['dlq-reason']!.toString(),
            consumer: group,
            value: message.value?.toString() ?? '',
          });
        },
      });
      await produce(envelopes(agentId, 5));
      await writer.write(topics.interactions, [{ key: 'poison', value: 'this is not json {' }]);
      await produce(envelopes(agentId, 5, 5));
      expect(
        await eventually(
          () => distinct(db.client, db.db, agentId),
          (n) => n >= 10,
          60_000,
        ),
      ).toBe(10);
      await eventually(
        async () => dead.length,
        (n) => n >= 1,
        20_000,
      );
      expect(dead.find((d) => d.value === 'this is not json {')?.reason).toMatch(/not JSON/);
    } finally {
      await dlq.disconnect();
      await sink.stop();
      await db.drop();
    }
  });

  it('SIGKILL mid-batch, restart: still exactly N', async () => {
    const db = await testDatabase('warden_test_sigkill');
    const group = uniqueName('sink-kill');
    const env = sinkEnv({
      CLICKHOUSE_DATABASE: db.db,
      WARDEN_SINK_GROUP: group,
      WARDEN_SINK_MAX_AGE_MS: '300',
      WARDEN_SINK_MAX_ROWS: '500',
      WARDEN_SINK_METRICS_PORT: '0',
    });
    const agentId = uniqueName('kill');
    const n = 3000;
    let sink = runService('sink', env);
    try {
      const all = envelopes(agentId, n);
      await produce(all.slice(0, 1500));
      // Kill as soon as the first rows are in: a batch is in flight or buffered, uncommitted.
      await eventually(
        () => distinct(db.client, db.db, agentId),
        (c) => c > 0,
        60_000,
      );
      await sink.stop('SIGKILL');
      await produce(all.slice(1500));
      sink = runService('sink', env);
      expect(
        await eventually(
          () => distinct(db.client, db.db, agentId),
          (c) => c >= n,
          90_000,
        ),
      ).toBe(n);
      const final = await queryRows<{ n: number }>(
        db.client,
        `SELECT count() AS n FROM ${db.db}.interactions FINAL WHERE agent_id = '${agentId}'`,
      );
      expect(Number(final[0]?.n)).toBe(n);
    } finally {
      await sink.stop();
      await db.drop();
    }
  }, 180_000);

  describe('ClickHouse outage', () => {
    const ports = { http: 28123, tcp: 29000 };
    const url = `http://127.0.0.1:${ports.http}`;
    const dir = mkdtempSync(join(tmpdir(), 'warden-ch-outage-'));
    let pid = 0;
    beforeAll(async () => {
      pid = startClickhouse(ports, () => undefined, dir);
      await waitForClickhouse(url);
    });
    afterAll(async () => {
      if (pid) await stopProcess(pid);
      rmSync(dir, { recursive: true, force: true });
    });

    it('ClickHouse stopped for 30 s under load and restarted: nothing lost', async () => {
      const client = createClickhouse({ url });
      const db = uniqueName('warden_test_outage');
      await migrate(client, { database: db });
      const group = uniqueName('sink-outage');
      const sink = runService(
        'sink',
        sinkEnv({
          CLICKHOUSE_URL: url,
          CLICKHOUSE_DATABASE: db,
          WARDEN_SINK_GROUP: group,
          WARDEN_SINK_MAX_AGE_MS: '300',
          WARDEN_SINK_METRICS_PORT: '0',
        }),
      );
      const agentId = uniqueName('outage');
      let sent = 0;
      const load = async (until: number) => {
        while (Date.now() < until) {
          await produce(envelopes(agentId, 50, sent));
          sent += 50;
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      try {
        await load(Date.now() + 3000);
        await eventually(
          () => distinct(client, db, agentId),
          (c) => c > 0,
          30_000,
        );
        await stopProcess(pid);
        await load(Date.now() + 30_000);
        pid = startClickhouse(ports, () => undefined, dir);
        await waitForClickhouse(url);
        await load(Date.now() + 2000);
        expect(
          await eventually(
            () => distinct(client, db, agentId),
            (c) => c >= sent,
            90_000,
          ),
        ).toBe(sent);
        expect(sink.child.exitCode).toBeNull();
      } finally {
        await sink.stop();
        await client.command({ query: `DROP DATABASE IF EXISTS ${db}` }).catch(() => undefined);
        await client.close();
      }
    }, 240_000);
  });
});
