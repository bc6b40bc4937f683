import { collectDefaultMetrics, Registry } from 'prom-client';

/** The one metrics registry factory: process metrics plus a `service` label on everything. */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

export { AggregatorRegistry, Counter, Gauge, Histogram, type Registry } from 'prom-client';
