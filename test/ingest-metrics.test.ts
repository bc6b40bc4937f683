import { SHUTDOWN_GRACE_MS } from '@warden/shared/shutdown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, ensureTestTopics, eventually } from './support/pipeline';
import { freePort, runService, type ServiceProcess } from './support/processes';

/** The requests a scrape counts for a route and status (the latency histogram's count). */
const counted = (scrape: string, route: string, status: number) =>
  scrape
    .split('\n')
    .filter(
      (l) =>
        l.startsWith('warden_http_request_duration_seconds_count{') &&
        l.includes(`route="${route}"`) &&
        l.includes(`status="${status}"`),
    )
    .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);

/** Ingest's real entry point with two workers: metrics on their own port, summed over the workers. */
describe('ingest metrics', () => {
  let ingest: ServiceProcess;
  let api: string;
  let metrics: string;
  beforeAll(async () => {
    await ensureTestTopics();
    const [port, metricsPort] = [await freePort(), await freePort()];
    api = `http://127.0.0.1:${port}`;
    metrics = `http://127.0.0.1:${metricsPort}/metrics`;
    ingest = runService('ingest', {
      PORT: String(port),
      HOST: '127.0.0.1',
      WARDEN_INGEST_WORKERS: '2',
      WARDEN_INGEST_METRICS_PORT: String(metricsPort),
      KAFKA_BROKERS: endpoints().kafkaBrokers.join(','),
      REDIS_URL: endpoints().redisUrl,
    });
    await eventually(
      () =>
        fetch(`${api}/healthz`).then(
          (r) => r.ok,
          () => false,
        ),
      (up) => up,
      60_000,
    );
  }, 90_000);
  afterAll(async () => ingest?.stop());

  it('are not on the public API port', async () => {
    const res = await fetch(`${api}/metrics`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  const scrape = async () => {
    const res = await fetch(metrics);
    expect(res.status).toBe(200);
    return res.text();
  };

  it('count every worker’s requests in one scrape', async () => {
    const route = '/api/v1/telemetry/ingest';
    const before = counted(await scrape(), route, 401);
    // New connections each: the cluster spreads them over both workers.
    const sent = 40;
    for (let i = 0; i < sent; i++) {
      const res = await fetch(`${api}${route}`, { method: 'POST', headers: { connection: 'close' } });
      expect(res.status).toBe(401);
    }
    const after = await scrape();
    expect(counted(after, route, 401) - before).toBe(sent);
    expect(after).toMatch(/^process_resident_memory_bytes\{service="ingest"\} \d+/m);
  });

  // Node reports a worker's exit and its disconnect in either order; the primary must exit after the
  // last of its workers whichever comes last (it once waited forever when the disconnect did).
  it('stop with the service: on SIGTERM the primary exits once both workers have (code 0, in the grace)', async () => {
    const t0 = Date.now();
    await ingest.stop('SIGTERM');
    expect(ingest.child.exitCode, ingest.output()).toBe(0);
    expect(Date.now() - t0).toBeLessThan(SHUTDOWN_GRACE_MS);
  }, 60_000);
});
