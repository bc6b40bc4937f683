import cluster from 'node:cluster';
import { loadIngestConfig } from '@warden/shared/config';
import { createLogger } from '@warden/shared/logger';
import { serveMetrics } from '@warden/shared/metrics-server';
import { onShutdown, SHUTDOWN_GRACE_MS } from '@warden/shared/shutdown';
import { workersMetrics } from './cluster-metrics';

/**
 * Ingest entry point. One process by default; WARDEN_INGEST_WORKERS=N runs N workers sharing the
 * port (node:cluster), each a full ingest with its own Kafka producers and key cache: the service
 * is stateless, so workers and machines scale the same way.
 */
// The whole ingest config is validated here, in the primary: a bad value stops ingest once instead
// of failing in every worker the primary would keep forking.
const { workers, metricsPort, metricsHost } = loadIngestConfig();

if (cluster.isPrimary && workers > 1) {
  const log = createLogger('ingest');
  // Workers counted here, not read from cluster.workers: Node removes a worker from that list once
  // it has both exited and disconnected, in either order, so at the last 'exit' the list may still
  // hold it, and a primary that waited for an empty list there never exited (a CI run's SIGTERM
  // went unanswered for 180 s).
  let alive = 0;
  let stopping: (() => void) | undefined;
  const fork = () => {
    alive++;
    cluster.fork();
  };
  for (let i = 0; i < workers; i++) fork();
  cluster.on('exit', (worker, code, signal) => {
    alive--;
    if (stopping) {
      if (alive === 0) stopping();
      return;
    }
    log.error({ pid: worker.process.pid, code, signal }, 'ingest worker died; starting another');
    fork();
  });
  // Each worker drains within onShutdown's grace; the primary waits a little longer for them.
  onShutdown(
    log,
    () =>
      new Promise<void>((done) => {
        stopping = done;
        if (alive === 0) return done();
        for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
      }),
    SHUTDOWN_GRACE_MS + 5_000,
  );
  // A scrape of the primary's metrics port sees every worker's metrics, summed.
  const metrics = await serveMetrics(workersMetrics(), metricsPort, undefined, metricsHost);
  log.info({ workers, metrics: metrics.url }, 'ingest primary started its workers');
} else {
  await import('./server');
}
