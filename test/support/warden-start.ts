import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createClickhouse } from '@warden/shared/clickhouse/client';
import { createKafka } from '@warden/shared/kafka/client';
import { topicNames } from '@warden/shared/kafka/topics';
import { repoRoot } from '@warden/shared/paths';
import { endpoints, eventually, queryRows, uniqueName } from './pipeline';
import { testPostgres, type TestPostgres } from './postgres';
import { freePort } from './processes';
import { connect, deletePrefix } from './redis-namespace';

export interface RunningWarden {
  /** The `warden start` process (its children are the services). */
  pid: number;
  port: number;
  /** The management API's port (API_PORT). */
  apiPort: number;
  /** Its ClickHouse database, Kafka topics and control-plane (PostgreSQL) database. */
  database: string;
  controlPlane: TestPostgres;
  topics: ReturnType<typeof topicNames>;
  /** The demo key `start` printed. */
  key: string;
  output: () => string;
  /** Posts one record; the interactionId when ingest answered 200, else the status (0: no answer). */
  post: (agentId: string, prompt: string) => Promise<{ id?: string; status: number }>;
  /** The interaction ids of `agentId` in ClickHouse. */
  stored: (agentId: string) => Promise<Set<string>>;
  /** SIGTERM to `start`, then its database, topics and state directory are removed. */
  stop: () => Promise<void>;
}

/**
 * The product as a user runs it (`warden start`), on a run of its own: its topics, database,
 * consumer groups and state directory, so nothing else's records or services are in the way.
 * `env` adds to or overrides that (KAFKA_BROKERS of a test cluster, say).
 */
export async function startWarden(env: Record<string, string> = {}): Promise<RunningWarden> {
  // `warden start`'s demo project is the same in every run and its agents are counted in the shared
  // Redis (keys `warden:agents:demo…`): each run's unique agents would fill the tier's agent limit
  // (25) across runs and suites and turn later records into 403s. Every run starts from none.
  const redis = connect();
  try {
    await deletePrefix(redis, 'warden:agents:demo');
  } finally {
    redis.disconnect();
  }
  const database = uniqueName('warden_test_start');
  const topicPrefix = `${uniqueName('start')}.`;
  const stateDir = mkdtempSync(join(tmpdir(), 'warden-start-'));
  const port = await freePort();
  const apiPort = await freePort();
  const brokers = env.KAFKA_BROKERS?.split(',') ?? endpoints().kafkaBrokers;
  // Generous: dropping a database a sink has just written to can take a while on a busy server.
  const controlPlane = await testPostgres({ migrate: false });
  const clickhouse = createClickhouse({ url: endpoints().clickhouseUrl, requestTimeoutMs: 120_000 });
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', resolve(repoRoot, 'services/cli/src/main.ts'), 'start'],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: String(port),
        API_PORT: String(apiPort),
        WARDEN_INGEST_METRICS_PORT: '0',
        WARDEN_DETECTOR_METRICS_PORT: '0',
        WARDEN_SINK_METRICS_PORT: '0',
        WARDEN_ALERTER_METRICS_PORT: '0',
        CLICKHOUSE_DATABASE: database,
        DATABASE_URL: controlPlane.url,
        WARDEN_DETECTOR_GROUP: uniqueName('warden-test-start-detector'),
        WARDEN_SINK_GROUP: uniqueName('warden-test-start-sink'),
        WARDEN_ALERTER_GROUP: uniqueName('warden-test-start-alerter'),
        WARDEN_TOPIC_PREFIX: topicPrefix,
        WARDEN_SINK_MAX_AGE_MS: '200',
        WARDEN_STACK_DIR: stateDir,
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await eventually(
        async () => child.exitCode ?? child.signalCode,
        (v) => v !== null,
        30_000,
      );
    }
    await controlPlane.drop();
    await clickhouse.command({ query: `DROP DATABASE IF EXISTS ${database}` });
    await clickhouse.close();
    const admin = createKafka({ brokers, clientId: 'warden-test' }).admin();
    await admin.connect();
    await admin.deleteTopics({ topics: Object.values(topicNames(topicPrefix)) }).catch(() => undefined);
    await admin.disconnect();
    rmSync(stateDir, { recursive: true, force: true });
  };
  const running = await eventually(
    async () => output,
    (o) => o.includes('Warden is running') || child.exitCode !== null,
    120_000,
  );
  const key = /Demo key\s+(\S+)/.exec(output)?.[1] ?? '';
  if (!running.includes('Warden is running') || !key.startsWith('wdn_')) {
    await stop();
    throw new Error(`warden start did not come up:\n${output}`);
  }
  const post = async (agentId: string, prompt: string) => {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/telemetry/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ agentId, prompt, response: 'ok' }),
        signal: AbortSignal.timeout(10_000),
      });
      if (res.status !== 200) return { status: res.status };
      return { status: 200, id: ((await res.json()) as { interactionId: string }).interactionId };
    } catch {
      return { status: 0 }; // no answer: nothing was acknowledged
    }
  };
  const stored = async (agentId: string) =>
    new Set(
      (
        await queryRows<{ id: string }>(
          clickhouse,
          `SELECT DISTINCT interaction_id AS id FROM ${database}.interactions WHERE agent_id = '${agentId}'`,
        )
      ).map((r) => r.id),
    );
  return {
    pid: child.pid!,
    port,
    apiPort,
    database,
    controlPlane,
    topics: topicNames(topicPrefix),
    key,
    output: () => output,
    post,
    stored,
    stop,
  };
}

/**
 * Posts a probe until one reaches ClickHouse: the consumers have joined their groups and the
 * pipeline is through end to end. Returns how many of `agentId`'s records are stored.
 */
export function probeThrough(warden: RunningWarden, agentId: string, timeoutMs = 90_000): Promise<number> {
  return eventually(
    async () => {
      await warden.post(agentId, 'probe');
      return (await warden.stored(agentId)).size;
    },
    (n) => n > 0,
    timeoutMs,
  );
}

/**
 * Posts one record after another (a pause of `pauseMs` between them) until stopped, keeping the
 * ids ingest acknowledged with the time each request was sent, and a count of every other answer.
 */
export function steadyTraffic(warden: RunningWarden, agentId: string, pauseMs = 40) {
  const acknowledged: { id: string; sentAt: number }[] = [];
  const refusals = new Map<number, number>();
  let sending = true;
  const loop = (async () => {
    for (let i = 0; sending; i++) {
      const sentAt = Date.now();
      const { id, status } = await warden.post(agentId, `record ${i}`);
      if (id) acknowledged.push({ id, sentAt });
      else refusals.set(status, (refusals.get(status) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, pauseMs));
    }
  })();
  const stop = async () => {
    sending = false;
    await loop;
  };
  return { acknowledged, refusals, stop };
}

/** Waits until ClickHouse holds every acknowledged id of `agentId`; returns those still missing. */
export async function missingAcknowledged(
  warden: RunningWarden,
  agentId: string,
  acknowledged: { id: string }[],
  timeoutMs = 60_000,
): Promise<string[]> {
  const rows = await eventually(
    () => warden.stored(agentId),
    (ids) => acknowledged.every((a) => ids.has(a.id)),
    timeoutMs,
  );
  return acknowledged.filter((a) => !rows.has(a.id)).map((a) => a.id);
}
