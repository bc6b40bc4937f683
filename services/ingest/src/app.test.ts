import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createMetricsRegistry } from '@warden/shared/metrics';
import { buildApp } from './app';
import { openGuards } from './guards';

describe('ingest app logging', () => {
  it('logs a 500 once, with its own request id, and nothing for ordinary requests', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    let fail = true;
    const app = await buildApp({
      publisher: {
        publish: async () => {
          if (fail) throw new Error('disk on fire');
        },
      },
      metrics: createMetricsRegistry('ingest'),
      guards: openGuards,
      logger: pino({ level: 'info' }, sink),
    });
    const send = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/telemetry/ingest',
        payload: { agentId: 'a', prompt: 'p', response: 'r' },
      });
    try {
      const failed = [await send(), await send()];
      expect(failed.map((r) => r.statusCode)).toEqual([500, 500]);
      expect(failed[0]!.json().error.code).toBe('INTERNAL_ERROR');
      fail = false;
      expect((await send()).statusCode).toBe(200);
      await new Promise((r) => setImmediate(r));
      expect(lines.map((l) => l.msg)).toEqual(['request failed', 'request failed']);
      const ids = lines.map((l) => l.reqId);
      expect(ids[0]).toEqual(expect.any(String));
      expect(ids[1]).toEqual(expect.any(String));
      expect(ids[0]).not.toBe(ids[1]);
      expect((lines[0]!.err as { message: string }).message).toBe('disk on fire');
    } finally {
      await app.close();
    }
  });
});
