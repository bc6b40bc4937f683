import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickhouse, type ClickHouseClient } from '@warden/shared/clickhouse/client';
import { createKafka } from '@warden/shared/kafka/client';
import { topicNames } from '@warden/shared/kafka/topics';
import { repoRoot } from '@warden/shared/paths';
import { freePort, services } from '@warden/cli';
import { endpoints, eventually, queryRows, uniqueName } from './support/pipeline';

/** The pid of the child of `parent` that runs `services/<name>/src/main.ts`, read from /proc. */
function servicePid(parent: number, name: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== parent) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(join('services', name, 'src', 'main.ts'))) return Number(entry);
    } catch {
      // the process ended while it was read
    }
  }
  return undefined;
}

/**
 * Issue #25: under `warden start`, a service killed with SIGKILL is started again within 10 s, and no
 * record ingest acknowledged meanwhile is missing from ClickHouse. The product runs as a user runs it
 * (the CLI's `start`), on this run's own topics, database, consumer groups and state directory.
 */
describe('warden start supervises its services', () => {
  const database = uniqueName('warden_test_start');
  // Topics of its own: the consumers start at their beginning, and nothing else writes to them.
  const topicPrefix = `${uniqueName('start')}.`;
  const stateDir = mkdtempSync(join(tmpdir(), 'warden-start-'));
  const agentId = uniqueName('agent');
  let port: number;
  let start: ChildProcess;
  let output = '';
  let clickhouse: ClickHouseClient;
  let key = '';
  /** Ids ingest answered 200 for, with the time each request was sent. */
  const acknowledged: { id: string; sentAt: number }[] = [];
  const refusals = new Map<number, number>();
  let sending = true;
  let sender: Promise<void>;
  let lastRestart = 0;

  const post = async (prompt: string): Promise<string | undefined> => {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/telemetry/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ agentId, prompt, response: 'ok' }),
        signal: AbortSignal.timeout(5_000),
      });
      if (res.status !== 200) {
        refusals.set(res.status, (refusals.get(res.status) ?? 0) + 1);
        return undefined;
      }
      return ((await res.json()) as { interactionId: string }).interactionId;
    } catch {
      return undefined; // ingest is down: nothing was acknowledged
    }
  };
  const stored = async (): Promise<Set<string>> =>
    new Set(
      (
        await queryRows<{ id: string }>(
          clickhouse,
          `SELECT DISTINCT interaction_id AS id FROM ${database}.interactions WHERE agent_id = '${agentId}'`,
        )
      ).map((r) => r.id),
    );

  beforeAll(async () => {
    port = await freePort();
    clickhouse = createClickhouse({ url: endpoints().clickhouseUrl });
    start = spawn(
      process.execPath,
      ['--import', 'tsx', resolve(repoRoot, 'services/cli/src/main.ts'), 'start'],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          PORT: String(port),
          WARDEN_INGEST_METRICS_PORT: '0',
          WARDEN_DETECTOR_METRICS_PORT: '0',
          WARDEN_SINK_METRICS_PORT: '0',
          CLICKHOUSE_DATABASE: database,
          WARDEN_DETECTOR_GROUP: uniqueName('warden-test-start-detector'),
          WARDEN_SINK_GROUP: uniqueName('warden-test-start-sink'),
          WARDEN_TOPIC_PREFIX: topicPrefix,
          WARDEN_SINK_MAX_AGE_MS: '200',
          WARDEN_STACK_DIR: stateDir,
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    start.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    start.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const running = await eventually(
      async () => output,
      (o) => o.includes('Warden is running') || start.exitCode !== null,
      120_000,
    );
    expect(running, output).toContain('Warden is running');
    key = /Demo key\s+(\S+)/.exec(output)?.[1] ?? '';
    expect(key).toMatch(/^wdn_/);
    // Wait until the consumers have joined and a record makes it through.
    const probe = await eventually(
      async () => {
        await post('probe');
        return (await stored()).size;
      },
      (n) => n > 0,
      60_000,
    );
    expect(probe).toBeGreaterThan(0);
    sender = (async () => {
      for (let i = 0; sending; i++) {
        const sentAt = Date.now();
        const id = await post(`record ${i}`);
        if (id) acknowledged.push({ id, sentAt });
        await new Promise((r) => setTimeout(r, 40));
      }
    })();
  }, 180_000);

  afterAll(async () => {
    sending = false;
    await sender;
    if (start && start.exitCode === null) {
      start.kill('SIGTERM');
      await eventually(
        async () => start.exitCode ?? start.signalCode,
        (v) => v !== null,
        30_000,
      );
    }
    await clickhouse?.command({ query: `DROP DATABASE IF EXISTS ${database}` });
    const admin = createKafka({ brokers: endpoints().kafkaBrokers, clientId: 'warden-test' }).admin();
    await admin.connect();
    await admin.deleteTopics({ topics: Object.values(topicNames(topicPrefix)) });
    await admin.disconnect();
    await clickhouse?.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  for (const name of services) {
    it(`restarts ${name} within 10 s of a SIGKILL`, async () => {
      const before = servicePid(start.pid!, name);
      expect(before, output).toBeGreaterThan(0);
      process.kill(before!, 'SIGKILL');
      const killedAt = Date.now();
      const after = await eventually(
        async () => servicePid(start.pid!, name),
        (pid) => pid !== undefined && pid !== before,
        10_000,
      );
      expect(after, output).toBeGreaterThan(0);
      expect(after).not.toBe(before);
      expect(output).toContain(`${name} killed by SIGKILL; restarting in 1 s`);
      // Back in service: ingest acknowledges a request sent after the kill (for the consumers, the
      // last test checks that everything acknowledged reached ClickHouse).
      if (name === 'ingest') {
        const answered = await eventually(
          async () => acknowledged.filter((a) => a.sentAt > killedAt).length,
          (n) => n > 0,
          10_000 - (Date.now() - killedAt),
        );
        expect(answered, `no 200 within 10 s of the kill\n${output}`).toBeGreaterThan(0);
      }
      lastRestart = Date.now();
    }, 30_000);
  }

  it('loses no acknowledged record through the restarts', async () => {
    // Records after the last restart too, so the restarted consumers are seen to process new work.
    const after = await eventually(
      async () => acknowledged.filter((a) => a.sentAt > lastRestart).length,
      (n) => n >= 20,
      30_000,
    );
    expect(after, JSON.stringify([...refusals])).toBeGreaterThanOrEqual(20);
    sending = false;
    await sender;
    const rows = await eventually(stored, (ids) => acknowledged.every((a) => ids.has(a.id)), 60_000);
    expect(acknowledged.filter((a) => !rows.has(a.id))).toEqual([]);
  }, 90_000);
});
