import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What renders a scrape: a prom-client Registry, or anything producing the same text. */
export interface MetricsSource {
  contentType: string;
  metrics(): Promise<string>;
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * `/metrics`, `/healthz` and `/readyz` on a port of their own: for consumers, which have no HTTP API,
 * and for ingest, whose API port is public. Port 0 picks a free one. `registry` may be anything that
 * renders metrics (ingest's primary serves its workers' summed).
 */
export async function serveMetrics(
  registry: MetricsSource,
  port: number,
  ready: () => boolean = () => true,
  host = '0.0.0.0',
): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    if (req.url === '/metrics') {
      registry.metrics().then(
        (body) => res.writeHead(200, { 'content-type': registry.contentType }).end(body),
        () => res.writeHead(500).end(),
      );
      return;
    }
    if (req.url === '/healthz') return void res.writeHead(200).end('ok');
    if (req.url === '/readyz')
      return void res.writeHead(ready() ? 200 : 503).end(ready() ? 'ready' : 'not ready');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const { port: bound } = server.address() as AddressInfo;
  const local = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${local}:${bound}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
