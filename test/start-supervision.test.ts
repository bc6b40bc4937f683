import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '@warden/shared/keys/index';
import { services } from '@warden/cli';
import { apiClient } from './support/api-client';
import { eventually, uniqueName } from './support/pipeline';
import {
  missingAcknowledged,
  probeThrough,
  startWarden,
  steadyTraffic,
  type RunningWarden,
} from './support/warden-start';

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
  const agentId = uniqueName('agent');
  let warden: RunningWarden;
  let traffic: ReturnType<typeof steadyTraffic>;
  let lastRestart = 0;

  beforeAll(async () => {
    warden = await startWarden();
    // `warden start` migrated its own control-plane database and keeps the demo key's hash there.
    const demo = await warden.controlPlane.pool.query('SELECT project_id FROM api_keys WHERE hash = $1', [
      hashKey(warden.key),
    ]);
    expect(demo.rows).toEqual([{ project_id: 'demo' }]);
    // Wait until the consumers have joined and a record makes it through.
    expect(await probeThrough(warden, agentId, 60_000)).toBeGreaterThan(0);
    traffic = steadyTraffic(warden, agentId);
  }, 180_000);

  afterAll(async () => {
    await traffic?.stop();
    await warden?.stop();
  });

  it('prints a first sign-in on a fresh install, whose organisation holds the demo project', async () => {
    const [, email, password] = /Sign in\s+(\S+) \/ (\S+)/.exec(warden.output()) ?? [];
    expect(email).toBe('owner@warden.local');
    const { call, login } = apiClient(() => `http://127.0.0.1:${warden.apiPort}`);
    const owner = await login(email!, password!);
    const projects = await call('GET', '/api/v1/projects', { cookie: owner.cookie });
    expect(projects.status).toBe(200);
    expect(projects.body.projects.map((p: { projectId: string }) => p.projectId)).toContain('demo');
  });

  for (const name of services) {
    it(`restarts ${name} within 10 s of a SIGKILL`, async () => {
      const before = servicePid(warden.pid, name);
      expect(before, warden.output()).toBeGreaterThan(0);
      process.kill(before!, 'SIGKILL');
      const killedAt = Date.now();
      const after = await eventually(
        async () => servicePid(warden.pid, name),
        (pid) => pid !== undefined && pid !== before,
        10_000,
      );
      expect(after, warden.output()).toBeGreaterThan(0);
      expect(after).not.toBe(before);
      expect(warden.output()).toContain(`${name} killed by SIGKILL; restarting in 1 s`);
      // Back in service: ingest acknowledges a request sent after the kill (for the consumers, the
      // last test checks that everything acknowledged reached ClickHouse).
      if (name === 'ingest') {
        const answered = await eventually(
          async () => traffic.acknowledged.filter((a) => a.sentAt > killedAt).length,
          (n) => n > 0,
          10_000 - (Date.now() - killedAt),
        );
        expect(answered, `no 200 within 10 s of the kill\n${warden.output()}`).toBeGreaterThan(0);
      }
      // The API answers again on its port, where `start` said it would be.
      if (name === 'api') {
        expect(warden.output()).toContain(`http://127.0.0.1:${warden.apiPort}/api/v1`);
        const healthy = await eventually(
          async () =>
            fetch(`http://127.0.0.1:${warden.apiPort}/healthz`, { signal: AbortSignal.timeout(1000) }).then(
              (r) => r.status,
              () => 0,
            ),
          (status) => status === 200,
          10_000 - (Date.now() - killedAt),
        );
        expect(healthy, warden.output()).toBe(200);
      }
      lastRestart = Date.now();
    }, 30_000);
  }

  it('loses no acknowledged record through the restarts', async () => {
    // Records after the last restart too, so the restarted consumers are seen to process new work.
    const after = await eventually(
      async () => traffic.acknowledged.filter((a) => a.sentAt > lastRestart).length,
      (n) => n >= 20,
      30_000,
    );
    expect(after, JSON.stringify([...traffic.refusals])).toBeGreaterThanOrEqual(20);
    await traffic.stop();
    expect(await missingAcknowledged(warden, agentId, traffic.acknowledged)).toEqual([]);
  }, 90_000);
});
