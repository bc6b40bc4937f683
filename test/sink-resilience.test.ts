import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickhouse } from '@warden/shared/clickhouse/client';
import { migrate } from '@warden/shared/clickhouse/migrate';
import { envelopeMessage } from '@warden/shared/codec/index';
import { DurableWriter } from '@warden/shared/kafka/durable-writer';
import { buildEnvelope } from '@warden/shared/schemas/envelope';
import { startClickhouse, stopProcess, waitForClickhouse } from '@warden/cli';
import {
  eventually,
  followDeadLetters,
  headerText,
  privateTopics,
  queryRows,
  testDatabase,
  uniqueName,
} from './support/pipeline';
import { runService } from './support/processes';

/**
 * The sink as its own process: poison messages (up to the largest a topic takes), SIGKILL
 * mid-batch, and a ClickHouse outage.
 */
describe('sink resilience', () => {
  // Topics of its own: a sink group that starts from the earliest offset reads only this file's.
  const { kafka, producer, prefix, topics } = privateTopics('sink-resilience');
  const writer = new DurableWriter(producer, { timeoutMs: 10_000 });
  const sinkEnv = (env: Record<string, string>) => ({ ...env, WARDEN_TOPIC_PREFIX: prefix });

  // Runs before privateTopics' own afterAll (hooks unwind last-registered first).
  afterAll(() => writer.drain());

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

  /** A sink process of its own (database, consumer group) and a reader of the dead letters it writes. */
  const sinkWithDeadLetters = async (name: string) => {
    const db = await testDatabase(`warden_test_${name}`);
    const group = uniqueName(`sink-${name}`);
    const sink = runService(
      'sink',
      sinkEnv({
        CLICKHOUSE_DATABASE: db.db,
        WARDEN_SINK_GROUP: group,
        WARDEN_SINK_MAX_AGE_MS: '200',
        WARDEN_SINK_METRICS_PORT: '0',
      }),
    );
    const dlq = await followDeadLetters(kafka, topics.dlq, group);
    const stop = async () => {
      await dlq.stop();
      await sink.stop();
      await db.drop();
    };
    return { db, dlq, agentId: uniqueName(name), stop };
  };

  it('sends a poison message to the DLQ with its reason and keeps consuming', async () => {
    const { db, dlq, agentId, stop } = await sinkWithDeadLetters('poison');
    try {
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
        async () => dlq.letters.length,
        (n) => n >= 1,
        20_000,
      );
      const letter = dlq.letters.find((m) => m.value?.toString() === 'this is not json {');
      expect(letter && headerText(letter, 'dlq-reason')).toMatch(/not JSON/);
    } finally {
      await stop();
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

  // A dead letter is the message plus headers: the DLQ must take one of the largest messages its
  // source topic takes, or the consumer that gives up on that message is stuck on it for ever.
  it('dead-letters a poison message as large as the topic takes, whole, and inserts the records after it', async () => {
    const { db, dlq, agentId, stop } = await sinkWithDeadLetters('dead_letters');
    try {
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

      expect(
        await eventually(
          () => distinct(db.client, db.db, agentId),
          (n) => n >= after.length,
          60_000,
        ),
      ).toBe(after.length);
      await eventually(
        async () => dlq.letters.some((m) => (m.value?.length ?? 0) > 1024 * 1024),
        (found) => found,
        20_000,
      );
      // This group reads the file's topics from the start: the earlier tests' small poison is there too.
      const letter = dlq.letters.find((m) => (m.value?.length ?? 0) > 1024 * 1024);
      expect(letter && headerText(letter, 'dlq-reason')).toMatch(/not JSON/);
      expect(letter?.value?.length).toBe(poison.length);
      expect(letter && headerText(letter, 'dlq-truncated')).toBe('');
    } finally {
      await stop();
    }
  }, 120_000);
});
