import cluster from 'node:cluster';
import { loadIngestConfig } from '@warden/shared/config';
import { createLogger } from '@warden/shared/logger';
import { serveMetrics } from '@warden/shared/metrics-server';
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
  let stopping = false;
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    log.error({ pid: worker.process.pid, code, signal }, 'ingest worker died; starting another');
    cluster.fork();
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    });
  }
  // A scrape of the primary's metrics port sees every worker's metrics, summed.
  const metrics = await serveMetrics(workersMetrics(), metricsPort, undefined, metricsHost);
  log.info({ workers, metrics: metrics.url }, 'ingest primary started its workers');
} else {
  await import('./server');
}
