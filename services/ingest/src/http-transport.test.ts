import { connect, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetricsRegistry } from '@warden/shared/metrics';
import { buildApp } from './app';
import { openGuards } from './guards';

/** What a client speaking raw HTTP over one socket reads back until the server closes it. */
interface RawAnswer {
  status: number;
  body: string;
  closed: boolean;
  ms: number;
}

describe('ingest over a socket', () => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    app = await buildApp({
      publisher: { publish: async () => undefined },
      metrics: createMetricsRegistry('ingest'),
      guards: openGuards,
      timeouts: { requestMs: 800, headersMs: 400 },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => app?.close());

  /** Writes `parts` (a pause between them), then reads until the server closes or `waitMs` passes. */
  const raw = (parts: string[], waitMs = 3000) =>
    new Promise<RawAnswer>((resolve) => {
      const started = performance.now();
      const socket = connect(port, '127.0.0.1');
      let out = '';
      const done = (closed: boolean) => {
        clearTimeout(timer);
        socket.destroy();
        const [head = '', ...rest] = out.split('\r\n\r\n');
        resolve({
          status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
          body: rest.join('\r\n\r\n'),
          closed,
          ms: performance.now() - started,
        });
      };
      const timer = setTimeout(() => done(false), waitMs);
      socket.on('data', (chunk) => (out += chunk.toString()));
      socket.on('close', () => done(true));
      socket.on('error', () => undefined);
      socket.on('connect', async () => {
        for (const part of parts) {
          socket.write(part);
          await new Promise((r) => setTimeout(r, 50));
        }
      });
    });

  /** The contract's error body, and nothing else in it. */
  const contractError = (answer: RawAnswer, code: string) => {
    const body = JSON.parse(answer.body) as { error: Record<string, unknown> };
    expect(Object.keys(body)).toEqual(['error']);
    expect(body.error).toMatchObject({ code, message: expect.any(String) });
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message']);
  };

  it('answers 408 and closes when a body stalls, within the request timeout', async () => {
    const answer = await raw([
      'POST /api/v1/telemetry/ingest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
      '{"agentId"',
    ]);
    expect(answer).toMatchObject({ status: 408, closed: true });
    expect(answer.ms).toBeLessThan(2000);
    contractError(answer, 'REQUEST_TIMEOUT');
  });

  it('answers 408 and closes when headers stall, within the headers timeout', async () => {
    const answer = await raw(['POST /api/v1/telemetry/ingest HTTP/1.1\r\nHost: x\r\nContent-Ty']);
    expect(answer).toMatchObject({ status: 408, closed: true });
    expect(answer.ms).toBeLessThan(1500);
    contractError(answer, 'REQUEST_TIMEOUT');
  });

  it.each([
    ['a malformed request line', 'GARBAGE\r\n\r\n', 400, 'INVALID_REQUEST'],
    ['a bad header', 'GET /healthz HTTP/1.1\r\nHost x\r\n\r\n', 400, 'INVALID_REQUEST'],
    [
      'headers over 16 KiB',
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'HEADERS_TOO_LARGE',
    ],
    [
      'a URL over 16 KiB',
      `GET /api/v1/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      414,
      'URI_TOO_LONG',
    ],
    [
      'a bad percent-encoding',
      'GET /api/v1/%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      400,
      'INVALID_REQUEST',
    ],
    [
      'an over-long path parameter',
      `POST /api/v1/integrations/${'x'.repeat(200)}/telemetry HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}`,
      414,
      'URI_TOO_LONG',
    ],
    ['no route', 'GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 404, 'NOT_FOUND'],
  ])("answers %s with the contract's body", async (_name, request, status, code) => {
    const answer = await raw([request]);
    expect(answer.status).toBe(status);
    contractError(answer, code);
  });

  it("handles a request that arrives while the app closes instead of answering Fastify's 503", async () => {
    const waiting: Array<() => void> = [];
    const slow = await buildApp({
      publisher: { publish: () => new Promise<void>((resolve) => waiting.push(resolve)) },
      metrics: createMetricsRegistry('ingest'),
      guards: openGuards,
    });
    await slow.listen({ port: 0, host: '127.0.0.1' });
    const socket = connect((slow.server.address() as AddressInfo).port, '127.0.0.1');
    let out = '';
    socket.on('data', (chunk) => (out += chunk.toString()));
    const request = (body: string) =>
      `POST /api/v1/telemetry/ingest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const record = JSON.stringify({ agentId: 'a', prompt: 'p', response: 'r' });
    await new Promise((r) => socket.on('connect', r));
    socket.write(request(record));
    await new Promise((r) => setTimeout(r, 100));
    const closing = slow.close();
    // The connection is busy with the first request, so closing leaves it open for this one.
    socket.write(request(record));
    await new Promise((r) => setTimeout(r, 200));
    for (const resolve of waiting) resolve();
    await closing;
    await new Promise((r) => setTimeout(r, 100));
    socket.destroy();
    const statuses = [...out.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([200, 200]);
  });
});
