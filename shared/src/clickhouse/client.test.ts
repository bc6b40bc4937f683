import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickhouse, selectRows } from './client';

/** A stand-in ClickHouse HTTP endpoint that records what each request authenticated with. */
describe('createClickhouse credentials', () => {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-ndjson' }).end('{"n":1}\n'));
  });
  let port = 0;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const credentialsOf = (headers: IncomingHttpHeaders) => {
    const basic = /^Basic (.+)$/.exec(headers.authorization ?? '')?.[1];
    return basic ? Buffer.from(basic, 'base64').toString() : undefined;
  };

  it('sends the user and password CLICKHOUSE_URL carries (http://user:password@host:8123)', async () => {
    const client = createClickhouse({ url: `http://warden:s3cr%40t@127.0.0.1:${port}`, database: 'warden' });
    try {
      expect(await selectRows<{ n: number }>(client, 'SELECT 1 AS n')).toEqual([{ n: 1 }]);
    } finally {
      await client.close();
    }
    expect(credentialsOf(seen.at(-1)!)).toBe('warden:s3cr@t');
  });

  it('uses the default user without a password when the URL names none (the local stack)', async () => {
    const client = createClickhouse({ url: `http://127.0.0.1:${port}` });
    try {
      await selectRows(client, 'SELECT 1 AS n');
    } finally {
      await client.close();
    }
    expect(credentialsOf(seen.at(-1)!)).toBe('default:');
  });
});
