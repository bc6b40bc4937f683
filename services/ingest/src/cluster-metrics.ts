import { AggregatorRegistry, type Registry } from '@warden/shared/metrics';
import type { MetricsSource } from '@warden/shared/metrics-server';

// With WARDEN_INGEST_WORKERS > 1 the primary serves the metrics port, and a scrape sees every
// worker's metrics summed (counters and histograms add up; gauges too, e.g. memory in all workers).

/** In a worker: answer the primary's requests for this worker's metrics with `registry`. */
export function reportMetricsToPrimary(registry: Registry): void {
  AggregatorRegistry.setRegistries(registry);
  // prom-client installs a worker's answering listener when an AggregatorRegistry is constructed.
  new AggregatorRegistry();
}

/** In the primary: every worker's metrics, summed, as one scrape. */
export function workersMetrics(): MetricsSource {
  const aggregator = new AggregatorRegistry();
  return { contentType: aggregator.contentType, metrics: () => aggregator.clusterMetrics() };
}
