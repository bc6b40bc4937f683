import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { answerErrorsInContract } from '@warden/shared/http/answers';
import { apiErrorOf } from '../errors';
import { dashboardPlugin } from './dashboard';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function serve(build: boolean) {
  const root = mkdtempSync(join(tmpdir(), 'warden-web-'));
  dirs.push(root);
  if (build) {
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(root, 'assets', 'app.js.gz'), gzipSync('console.log(1)'));
  }
  const app = Fastify();
  answerErrorsInContract(app, apiErrorOf);
  app.get('/api/v1/me', async () => ({ kind: 'session' }));
  await app.register(dashboardPlugin, { root });
  return app;
}

describe('dashboard plugin', () => {
  it('serves index.html at / and at page URLs, assets as built, and leaves /api/ to the API', async () => {
    const app = await serve(true);
    for (const url of ['/', '/detections?severity=high', '/interactions/abc']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    const asset = await app.inject({ url: '/assets/app.js', headers: { 'accept-encoding': 'gzip' } });
    expect(asset.headers['content-encoding']).toBe('gzip');
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await app.inject({ url: '/api/v1/me' })).json()).toEqual({ kind: 'session' });
    const miss = await app.inject({ url: '/api/v1/nothing?x=1' });
    expect(miss.statusCode).toBe(404);
    expect(miss.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No route GET /api/v1/nothing.' } });
    expect((await app.inject({ method: 'POST', url: '/detections' })).statusCode).toBe(404);
    await app.close();
  });

  it('says how to build it when the build is missing', async () => {
    const app = await serve(false);
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toMatch(/npm run build/);
    await app.close();
  });
});
