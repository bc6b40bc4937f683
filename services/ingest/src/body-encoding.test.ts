import { deflateSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetricsRegistry } from '@warden/shared/metrics';
import { buildApp } from './app';
import { openGuards } from './guards';
import type { EncodedEnvelope } from './publish';

describe('request body encodings', () => {
  let app: FastifyInstance;
  const stored: EncodedEnvelope[] = [];
  beforeAll(async () => {
    app = await buildApp({
      publisher: { publish: async (envelopes) => void stored.push(...envelopes) },
      metrics: createMetricsRegistry('ingest'),
      guards: openGuards,
      limits: { maxRecordBytes: 64 * 1024, maxBodyBytes: 256 * 1024 },
    });
  });
  afterAll(async () => app?.close());

  const record = { agentId: 'a1', prompt: 'héllo wörld', response: 'r' };
  const post = (payload: string | Buffer, headers: Record<string, string>, path = '/telemetry/ingest') =>
    app.inject({
      method: 'POST',
      url: `/api/v1${path}`,
      headers: { 'content-type': 'application/json', ...headers },
      payload,
    });
  const lastRecord = () => JSON.parse(stored.at(-1)!.message.value).record as unknown;

  it.each([
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['GZIP ', gzipSync],
  ])('accepts a body compressed with Content-Encoding: %s', async (encoding, compress) => {
    const res = await post(compress(JSON.stringify(record)), { 'content-encoding': encoding });
    expect(res.statusCode).toBe(200);
    expect(lastRecord()).toEqual(record);
  });

  it('accepts a compressed batch, each record stored', async () => {
    const batch = { interactions: [record, { ...record, agentId: 'a2' }] };
    const res = await post(
      gzipSync(JSON.stringify(batch)),
      { 'content-encoding': 'gzip' },
      '/telemetry/batch',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ accepted: 2 });
  });

  it('400 for a body that is not what its Content-Encoding says', async () => {
    const res = await post(JSON.stringify(record), { 'content-encoding': 'gzip' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'INVALID_REQUEST',
      message: expect.stringMatching(/gzip/),
    });
    const truncated = gzipSync(JSON.stringify(record)).subarray(0, 20);
    expect((await post(truncated, { 'content-encoding': 'gzip' })).statusCode).toBe(400);
  });

  it('415 for another encoding', async () => {
    for (const encoding of ['br', 'compress', 'gzip, gzip', 'zstd']) {
      const res = await post(JSON.stringify(record), { 'content-encoding': encoding });
      expect(res.statusCode, encoding).toBe(415);
      expect(res.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('413 for a zip bomb, cut off at the limit: its decompressed size is what counts', async () => {
    // 64 MiB of JSON in 64 KiB of gzip: the route takes at most 128 KiB (64 KiB record + 64 KiB).
    const bomb = gzipSync(`{"agentId":"a","prompt":"${'a'.repeat(64 * 1024 * 1024)}","response":"r"}`);
    expect(bomb.length).toBeLessThan(128 * 1024);
    const started = performance.now();
    const res = await post(bomb, { 'content-encoding': 'gzip' });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
    // Decoding stopped at the limit instead of inflating 64 MiB.
    expect(performance.now() - started).toBeLessThan(500);
    // Within the batch route's larger limit, the same size is accepted.
    const fits = gzipSync(JSON.stringify({ interactions: [{ ...record, prompt: 'b'.repeat(60 * 1024) }] }));
    const batch = await post(fits, { 'content-encoding': 'gzip' }, '/telemetry/batch');
    expect(batch.statusCode).toBe(200);
  });

  it('415 for a charset other than UTF-8, which is accepted however it is spelled', async () => {
    for (const type of ['application/json; charset=iso-8859-1', 'application/json;charset="utf-16"']) {
      const res = await post(JSON.stringify(record), { 'content-type': type });
      expect(res.statusCode, type).toBe(415);
      expect(res.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    for (const type of ['application/json; charset=UTF-8', 'application/json;charset="utf8"']) {
      expect((await post(JSON.stringify(record), { 'content-type': type })).statusCode, type).toBe(200);
    }
  });

  it('400 for a body that is not valid UTF-8, instead of storing U+FFFD', async () => {
    const text = Buffer.from('{"agentId":"a1","prompt":"caf\xe9","response":"r"}', 'latin1');
    const res = await post(text, {});
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'INVALID_REQUEST',
      message: expect.stringMatching(/UTF-8/),
    });
    // An encoded surrogate is not UTF-8 either.
    const surrogate = Buffer.concat([
      Buffer.from('{"agentId":"a1","prompt":"'),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('","response":"r"}'),
    ]);
    expect((await post(surrogate, {})).statusCode).toBe(400);
  });
});
