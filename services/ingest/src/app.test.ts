import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createMetricsRegistry } from '@warden/shared/metrics';
import { buildApp } from './app';
import { ApiError } from './errors';
import { openGuards, type Guards } from './guards';

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

describe('ingest guards', () => {
  it('authenticate, then rate-limit, before the body is read, on the telemetry routes only', async () => {
    const calls: string[] = [];
    let limited = false;
    const guards: Guards = {
      ...openGuards,
      authenticate: async (req, scope) => {
        calls.push(`auth ${scope}`);
        if (req.headers.authorization !== 'Bearer ok') throw new ApiError('INVALID_API_KEY', 'No API key.');
        return openGuards.authenticate(req, scope);
      },
      rateLimit: async (_caller, reply, cost) => {
        calls.push(`limit ${cost}`);
        reply.header('ratelimit', '"default";r=0;t=60');
        if (limited)
          throw new ApiError('RATE_LIMIT_EXCEEDED', 'Slow down.', undefined, { 'retry-after': '60' });
      },
    };
    const app = await buildApp({
      publisher: { publish: async () => undefined },
      metrics: createMetricsRegistry('ingest'),
      guards,
    });
    const post = (authorization: string, payload: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/telemetry/ingest',
        headers: { 'content-type': 'application/json', authorization },
        payload,
      });
    try {
      const refused = await post('Bearer nope', '{"not json');
      expect(refused.statusCode).toBe(401);
      expect(refused.json().error.code).toBe('INVALID_API_KEY');
      expect(calls).toEqual(['auth ingest']);

      limited = true;
      const slowed = await post('Bearer ok', '{"not json');
      expect(slowed.statusCode).toBe(429);
      expect(slowed.headers['retry-after']).toBe('60');
      expect(slowed.headers['ratelimit']).toBe('"default";r=0;t=60');
      expect(calls).toEqual(['auth ingest', 'auth ingest', 'limit 1']);

      limited = false;
      expect((await post('Bearer ok', '{"not json')).statusCode).toBe(400);
      calls.length = 0;
      for (const url of ['/healthz', '/readyz', '/metrics', '/api/v1/openapi.json', '/api/v1/nowhere'])
        await app.inject({ method: 'GET', url });
      expect(calls).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
