import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/** `/metrics`, `/healthz` for consumers, which have no HTTP API of their own. Port 0 picks a free one. */
export async function serveMetrics(
  registry: Registry,
  port: number,
  ready: () => boolean = () => true,
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
  await new Promise<void>((resolve) => server.listen(port, '0.0.0.0', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
