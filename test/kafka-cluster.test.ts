import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive, startKafkaCluster, stopProcess, type KafkaPorts } from '@warden/cli';
import { createClickhouse } from '@warden/shared/clickhouse/client';
import { createKafka } from '@warden/shared/kafka/client';
import { endpoints, eventually, queryRows, readTopicToEnd, uniqueName } from './support/pipeline';
import { freePort } from './support/processes';
import {
  missingAcknowledged,
  probeThrough,
  startWarden,
  steadyTraffic,
  type RunningWarden,
} from './support/warden-start';

/**
 * Issue #25: Warden on a Kafka cluster of three KRaft brokers (this run's own, on free ports), as
 * `warden stack up --kafka-brokers 3` runs them. Topics get three replicas with
 * min.insync.replicas=2 and ingest writes with acks=all: one broker lost costs nothing acknowledged;
 * two lost turn answers into 503 — never a 200 for a record that is not stored — until one returns.
 */
describe('Kafka cluster of three brokers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'warden-kafka-cluster-'));
  const say = () => undefined;
  const agentId = uniqueName('cluster');
  const sinkGroup = uniqueName('warden-test-cluster-sink');
  const ports: KafkaPorts[] = [];
  let pids: number[] = [];
  let brokers: string[] = [];
  let warden: RunningWarden;
  let traffic: ReturnType<typeof steadyTraffic>;

  const liveBrokers = async () => {
    const admin = createKafka({ brokers, clientId: 'warden-test', connectionTimeoutMs: 1000 }).admin({
      retry: { retries: 0 },
    });
    try {
      await admin.connect();
      return (await admin.describeCluster()).brokers.length;
    } catch {
      return 0;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  };
  const restart = async (...nodes: number[]) => {
    const started = startKafkaCluster(ports, say, dir, nodes);
    nodes.forEach((node, i) => (pids[node] = started[i]!));
  };
  /**
   * Where records missing from ClickHouse are: their partition and offset in the interactions topic
   * (or not in Kafka at all), beside the sink group's committed offsets and the partitions' ends.
   */
  const whereAre = async (missing: string[]) => {
    if (missing.length === 0) return '';
    const kafka = createKafka({ brokers, clientId: 'warden-test-diagnose' });
    const admin = kafka.admin();
    try {
      await admin.connect();
      const topic = warden.topics.interactions;
      const [committed] = await admin.fetchOffsets({ groupId: sinkGroup, topics: [topic] });
      const found: Record<string, string> = {};
      const { complete, ends } = await readTopicToEnd(kafka, topic, (partition, message) => {
        const text = message.value?.toString() ?? '';
        for (const id of missing) if (text.includes(id)) found[id] = `${partition}@${message.offset}`;
      });
      return JSON.stringify({
        missing: missing.map((id) => ({ id, at: found[id] ?? (complete ? 'not in Kafka' : 'not read') })),
        committed: committed?.partitions,
        ends,
      });
    } catch (err) {
      return `diagnosis failed: ${String(err)}`;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  };
  /**
   * Every record acknowledged before the check began is in ClickHouse (waiting up to 5 min), and how
   * long that took. A snapshot: while traffic goes on, the newest acknowledgements are always a
   * flush or two ahead of ClickHouse, and waiting for a moment when none is would time out.
   */
  const caughtUp = async (after: string) => {
    const started = Date.now();
    const expected = traffic.acknowledged.slice();
    const missing = await missingAcknowledged(warden, agentId, expected, 300_000);
    // The services' own lines, without ingest's expected 503s, say where a stall is.
    const log = warden
      .output()
      .split('\n')
      .filter((line) => !line.includes('"statusCode":503'))
      .join('\n');
    expect(missing, `${await whereAre(missing)}\n${log.slice(-30_000)}`).toEqual([]);
    const tookMs = Date.now() - started;
    console.log(
      `${after}: all ${expected.length} acknowledged records stored ${tookMs} ms after the check began`,
    );
    // A slow catch-up is allowed but should say why: the services' lines about stalls and restarts.
    if (tookMs > 30_000)
      console.log(
        log
          .split('\n')
          .filter((line) => /stall|exit|restart|crash|rebalanc|gave up|coordinator/i.test(line))
          .slice(-40)
          .join('\n'),
      );
  };
  const acknowledgedSince = (t: number) => traffic.acknowledged.filter((a) => a.sentAt > t).length;

  beforeAll(async () => {
    for (let i = 0; i < 3; i++) ports.push({ broker: await freePort(), controller: await freePort() });
    brokers = ports.map((p) => `127.0.0.1:${p.broker}`);
    pids = startKafkaCluster(ports, say, dir);
    expect(await eventually(liveBrokers, (n) => n === 3, 120_000)).toBe(3);
    warden = await startWarden({ KAFKA_BROKERS: brokers.join(','), WARDEN_SINK_GROUP: sinkGroup });
    expect(await probeThrough(warden, agentId, 90_000)).toBeGreaterThan(0);
    traffic = steadyTraffic(warden, agentId, 60);
  }, 300_000);

  afterAll(async () => {
    try {
      await traffic?.stop();
      await warden?.stop();
    } finally {
      await Promise.all(pids.map((pid) => stopProcess(pid, 10_000)));
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it('creates the topics with three replicas, two of which must have a write', async () => {
    const admin = createKafka({ brokers, clientId: 'warden-test' }).admin();
    await admin.connect();
    try {
      const names = Object.values(warden.topics);
      const { topics } = await admin.fetchTopicMetadata({ topics: names });
      for (const topic of topics)
        for (const partition of topic.partitions) expect(partition.replicas).toHaveLength(3);
      const { resources } = await admin.describeConfigs({
        includeSynonyms: false,
        resources: names.map((name) => ({ type: 2, name })),
      });
      for (const r of resources)
        expect(r.configEntries.find((e) => e.configName === 'min.insync.replicas')?.configValue).toBe('2');
    } finally {
      await admin.disconnect();
    }
  });

  it('one broker SIGKILLed: ingest keeps acknowledging, and every acknowledged record is stored once', async () => {
    process.kill(pids[1]!, 'SIGKILL');
    const killedAt = Date.now();
    // Partitions led by the dead broker move to another within the controllers' session timeout.
    const during = await eventually(
      async () => acknowledgedSince(killedAt + 10_000),
      (n) => n >= 20,
      60_000,
    );
    expect(during, JSON.stringify([...traffic.refusals])).toBeGreaterThanOrEqual(20);
    await restart(1);
    expect(await eventually(liveBrokers, (n) => n === 3, 120_000)).toBe(3);
    const rejoined = Date.now();
    expect(
      await eventually(
        async () => acknowledgedSince(rejoined),
        (n) => n >= 20,
        60_000,
      ),
    ).toBeGreaterThanOrEqual(20);
    // The consumers lose the dead broker's partitions and their group coordinator, restart and
    // rejoin: the backlog can take minutes to drain on a busy machine, but nothing is missing.
    await caughtUp('one broker killed and restarted');
    // Exactly once in effect: a record the producer retried is one row after merging.
    const clickhouse = createClickhouse({ url: endpoints().clickhouseUrl });
    try {
      const [counts] = await queryRows<{ rows: number; ids: number }>(
        clickhouse,
        `SELECT count() AS rows, uniqExact(interaction_id) AS ids FROM ${warden.database}.interactions FINAL WHERE agent_id = '${agentId}'`,
      );
      expect(Number(counts?.rows)).toBe(Number(counts?.ids));
    } finally {
      await clickhouse.close();
    }
  }, 720_000);

  it('two of three brokers down: 503, never 200, until one returns', async () => {
    process.kill(pids[1]!, 'SIGKILL');
    process.kill(pids[2]!, 'SIGKILL');
    // "Sent after the kill" starts once both are gone: a write that reached them while SIGKILL was
    // being delivered was replicated, and its 200 is honest.
    await eventually(
      async () => [pids[1], pids[2]].some(isAlive),
      (alive) => !alive,
      10_000,
    );
    const killedAt = Date.now();
    const refusedBefore = traffic.refusals.get(503) ?? 0;
    // A write needs two in-sync replicas: with one broker left, nothing sent now can be acknowledged.
    await eventually(
      async () => (traffic.refusals.get(503) ?? 0) - refusedBefore,
      (n) => n >= 3,
      60_000,
    );
    expect(acknowledgedSince(killedAt)).toBe(0);
    await restart(1);
    const back = await eventually(
      async () => acknowledgedSince(killedAt),
      (n) => n >= 10,
      180_000,
    );
    expect(back, JSON.stringify([...traffic.refusals])).toBeGreaterThanOrEqual(10);
    await restart(2);
    expect(await eventually(liveBrokers, (n) => n === 3, 120_000)).toBe(3);
    await traffic.stop();
    await caughtUp('two brokers killed and restarted');
  }, 720_000);
});
