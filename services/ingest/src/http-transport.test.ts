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

  it('answers 408 and closes when a body stalls, within the request timeout', async () => {
    const answer = await raw([
      'POST /api/v1/telemetry/ingest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
      '{"agentId"',
    ]);
    expect(answer).toMatchObject({ status: 408, closed: true });
    expect(answer.ms).toBeLessThan(2000);
  });

  it('answers 408 and closes when headers stall, within the headers timeout', async () => {
    const answer = await raw(['POST /api/v1/telemetry/ingest HTTP/1.1\r\nHost: x\r\nContent-Ty']);
    expect(answer).toMatchObject({ status: 408, closed: true });
    expect(answer.ms).toBeLessThan(1500);
  });
});
