import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { buildApp, type ApiDeps } from '@warden/api';
import { KeyAuthenticator, PostgresKeys } from '@warden/shared/keys/index';

/** An answer of the API as the tests read it. */
export interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers, asserted field by field
  text: string;
  headers: Headers;
}

export interface CallOptions {
  cookie?: string;
  csrf?: string;
  key?: string;
  project?: string;
  body?: unknown;
}

export interface Signed {
  cookie: string;
  csrf: string;
  setCookies: string[];
}

/** Calls and sign-in against an API listening at `base()`, over real HTTP. */
export function apiClient(base: () => string) {
  async function call(method: string, path: string, opts: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (opts.cookie) headers.cookie = opts.cookie;
    if (opts.csrf) headers['x-csrf-token'] = opts.csrf;
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    if (opts.project) headers['x-warden-project'] = opts.project;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base()}${path}`, {
      method,
      headers,
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    });
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined; // not JSON (an export): read `text`
    }
    return { status: res.status, body, text, headers: res.headers };
  }

  async function login(email: string, password: string): Promise<Signed> {
    const res = await fetch(`${base()}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const setCookies = res.headers.getSetCookie();
    const value = (name: string) =>
      setCookies
        .find((c) => c.startsWith(`${name}=`))
        ?.split(';')[0]
        ?.slice(name.length + 1) ?? '';
    const csrf = value('warden_csrf');
    // The page reads the token from the answer as well as from the cookie: both the same.
    expect(((await res.json()) as { csrfToken: string }).csrfToken).toBe(csrf);
    return { cookie: `warden_session=${value('warden_session')}; warden_csrf=${csrf}`, csrf, setCookies };
  }

  return { call, login };
}

export interface ListeningApi {
  app: FastifyInstance;
  /** `http://127.0.0.1:<port>` */
  base: string;
  close(): Promise<void>;
}

/**
 * The API on a free loopback port over the suite's stores, with its key cache started as main.ts
 * starts it (PostgreSQL the record, Redis the cache under `redisPrefix`).
 */
export async function listeningApi(
  deps: Omit<ApiDeps, 'keys' | 'redisPrefix'> & { redisPrefix: string },
): Promise<ListeningApi> {
  const keys = new KeyAuthenticator({
    redis: deps.redis,
    prefix: deps.redisPrefix,
    source: new PostgresKeys(deps.pool),
  });
  await keys.start();
  const app = await buildApp({ ...deps, keys });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    close: async () => {
      await app.close();
      await keys.stop();
    },
  };
}
