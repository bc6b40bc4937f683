import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '@warden/api';
import type { SignupMode } from '@warden/shared/config';
import { createClickhouse } from '@warden/shared/clickhouse/client';
import { KeyAuthenticator, KeyStore, PostgresKeys } from '@warden/shared/keys/index';
import { repoRoot } from '@warden/shared/paths';
import { endpoints } from './support/pipeline';
import { testPostgres, type TestPostgres } from './support/postgres';
import { redisNamespace } from './support/redis-namespace';

/**
 * The management half of the API (issue #22) on the real PostgreSQL and Redis: sign-up modes,
 * invitations, members, projects, passwords and sessions, and that a second organisation can neither
 * see nor touch any of the first's rows (404 on every id, nothing in any list).
 */
const PASSWORD = 'correct horse battery staple';
const { prefix, redis } = redisNamespace('mgmt');
const clickhouse = createClickhouse({ url: endpoints().clickhouseUrl });
let pg: TestPostgres;
let keys: KeyAuthenticator;
const apps: FastifyInstance[] = [];
let app: FastifyInstance;

interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers, asserted field by field
  cookies: { name: string; value: string }[];
}

interface Signed {
  cookie: string;
  csrf: string;
  userId: string;
  organisationId: string;
}

interface CallOptions {
  cookie?: string;
  csrf?: string;
  key?: string;
  project?: string;
  body?: unknown;
  /** The client address the server sees (throttles count per address). */
  from?: string;
}

async function callOn(target: FastifyInstance, method: string, url: string, opts: CallOptions = {}) {
  const headers: Record<string, string> = {};
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.csrf) headers['x-csrf-token'] = opts.csrf;
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  if (opts.project) headers['x-warden-project'] = opts.project;
  const res = await target.inject({
    method: method as 'GET',
    url,
    headers,
    ...(opts.from ? { remoteAddress: opts.from } : {}),
    ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
  });
  return {
    status: res.statusCode,
    body: res.body ? JSON.parse(res.body) : undefined,
    cookies: res.cookies,
  } satisfies Answer;
}
const call = (method: string, url: string, opts: CallOptions = {}) => callOn(app, method, url, opts);
/** A signed-in call: the session cookie and the CSRF header, as the dashboard sends them. */
const as = (s: Signed, body?: unknown): CallOptions => ({
  cookie: s.cookie,
  csrf: s.csrf,
  ...(body !== undefined ? { body } : {}),
});

function signedFrom(res: Answer): Signed {
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  const value = (name: string) => res.cookies.find((c) => c.name === name)?.value ?? '';
  const csrf = value('warden_csrf');
  expect(csrf).toBe(res.body.csrfToken);
  return {
    cookie: `warden_session=${value('warden_session')}; warden_csrf=${csrf}`,
    csrf,
    userId: res.body.user.userId,
    organisationId: res.body.organisationId,
  };
}

const login = async (email: string, password = PASSWORD) =>
  signedFrom(await call('POST', '/api/v1/auth/login', { body: { email, password } }));

async function appWith(signup: SignupMode): Promise<FastifyInstance> {
  const built = await buildApp({
    pool: pg.pool,
    redis,
    redisPrefix: prefix,
    keys,
    clickhouse,
    database: 'default',
    signup,
    loginAttemptsPerMinute: 1000,
  });
  apps.push(built);
  return built;
}

/** Invites and accepts at once: the new member's session. */
async function join(by: Signed, email: string, role: string): Promise<Signed> {
  const invited = await call('POST', '/api/v1/invitations', as(by, { email, role }));
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  return signedFrom(
    await call('POST', `/api/v1/auth/invitations/${invited.body.token}/accept`, {
      body: { password: PASSWORD },
    }),
  );
}

let ownerA: Signed;
let adminA: Signed;
let memberA: Signed;
let viewerA: Signed;
let ownerB: Signed;
let projectA: string;
let projectB: string;

beforeAll(async () => {
  pg = await testPostgres();
  keys = new KeyAuthenticator({ redis, prefix, source: new PostgresKeys(pg.pool) });
  await keys.start();
  app = await appWith('invite');
}, 120_000);

afterAll(async () => {
  for (const a of apps) await a.close();
  await keys?.stop();
  await clickhouse.close();
  await pg?.drop();
});

describe('sign-up', () => {
  it('lets the first user of a fresh install sign up whatever the mode, then only by the mode', async () => {
    const fresh = await call('GET', '/api/v1/auth/config');
    expect(fresh.body).toEqual({ signup: 'invite', firstUser: true });

    const first = await call('POST', '/api/v1/auth/signup', {
      body: { email: 'owner@a.test', password: PASSWORD, organisation: 'Org A' },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.role).toBe('owner');
    ownerA = signedFrom(first);
    const projects = await call('GET', '/api/v1/projects', as(ownerA));
    expect(projects.body.projects).toHaveLength(1);
    expect(projects.body.projects[0]).toMatchObject({ name: 'Default', tier: 'free' });
    projectA = projects.body.projects[0].projectId;

    expect((await call('GET', '/api/v1/auth/config')).body).toEqual({ signup: 'invite', firstUser: false });
    const second = await call('POST', '/api/v1/auth/signup', {
      body: { email: 'someone@else.test', password: PASSWORD, organisation: 'Else' },
    });
    expect(second.status).toBe(403);
    expect(second.body.error.message).toMatch(/invitation/);

    const closed = await appWith('closed');
    const refused = await callOn(closed, 'POST', '/api/v1/auth/signup', {
      body: { email: 'someone@else.test', password: PASSWORD, organisation: 'Else' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/warden users create/);
    expect((await callOn(closed, 'GET', '/api/v1/auth/config')).body.signup).toBe('closed');
  });

  it('lets only one of several racing sign-ups on a fresh install become the first user', async () => {
    const fresh = await testPostgres();
    const racing = await buildApp({
      pool: fresh.pool,
      redis,
      redisPrefix: prefix,
      keys,
      clickhouse,
      database: 'default',
    });
    try {
      const answers = await Promise.all(
        [1, 2, 3].map((n) =>
          callOn(racing, 'POST', '/api/v1/auth/signup', {
            body: { email: `first${n}@race.test`, password: PASSWORD, organisation: `Race ${n}` },
          }),
        ),
      );
      // The losers are refused: 409 when they raced past the first check, 403 when they came later.
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s !== 201).every((s) => s === 409 || s === 403)).toBe(true);
      const { rows } = await fresh.pool.query('SELECT count(*)::int AS users FROM users');
      expect(rows[0].users).toBe(1);
    } finally {
      await racing.close();
      await fresh.drop();
    }
  });

  it('when open, anyone creates an organisation of their own, never joins an existing one', async () => {
    const open = await appWith('open');
    const taken = await callOn(open, 'POST', '/api/v1/auth/signup', {
      body: { email: 'intruder@b.test', password: PASSWORD, organisation: 'org a' },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('CONFLICT');
    const sameEmail = await callOn(open, 'POST', '/api/v1/auth/signup', {
      body: { email: 'OWNER@a.test', password: PASSWORD, organisation: 'Another' },
    });
    expect(sameEmail.status).toBe(409);
    const short = await callOn(open, 'POST', '/api/v1/auth/signup', {
      body: { email: 'short@b.test', password: 'short', organisation: 'Short' },
    });
    expect(short.status).toBe(400);

    const b = await callOn(open, 'POST', '/api/v1/auth/signup', {
      body: { email: 'owner@b.test', password: PASSWORD, organisation: 'Org B' },
    });
    expect(b.status, JSON.stringify(b.body)).toBe(201);
    ownerB = signedFrom(b);
    expect(ownerB.organisationId).not.toBe(ownerA.organisationId);
    projectB = (await call('GET', '/api/v1/projects', as(ownerB))).body.projects[0].projectId;
    expect(projectB).not.toBe(projectA);
  });
});

describe('invitations', () => {
  it('gives a one-time link whose token is stored hashed; accepting creates the user and signs them in, once', async () => {
    const invited = await call(
      'POST',
      '/api/v1/invitations',
      as(ownerA, { email: 'admin@a.test', role: 'admin' }),
    );
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ email: 'admin@a.test', role: 'admin', status: 'pending' });
    expect(invited.body.link).toBe(`/invite/${invited.body.token}`);
    const days = (Date.parse(invited.body.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const stored = await pg.pool.query('SELECT * FROM invitations');
    expect(JSON.stringify(stored.rows)).not.toContain(invited.body.token);

    const accepted = await call('POST', `/api/v1/auth/invitations/${invited.body.token}/accept`, {
      body: { password: PASSWORD, name: 'Ada Admin' },
    });
    expect(accepted.status).toBe(200);
    adminA = signedFrom(accepted);
    expect(adminA.organisationId).toBe(ownerA.organisationId);
    expect((await call('GET', '/api/v1/me', as(adminA))).body).toMatchObject({ role: 'admin' });

    const again = await call('POST', `/api/v1/auth/invitations/${invited.body.token}/accept`, {
      body: { password: PASSWORD },
    });
    expect(again.status).toBe(404);
    expect(again.body.error.message).toMatch(/ask for a new invitation/);
    const listed = await call('GET', '/api/v1/invitations', as(ownerA));
    expect(listed.body.invitations[0]).toMatchObject({ email: 'admin@a.test', status: 'accepted' });
    expect(JSON.stringify(listed.body)).not.toContain(invited.body.token);

    memberA = await join(adminA, 'member@a.test', 'member');
    viewerA = await join(memberA, 'viewer@a.test', 'viewer');
  });

  it('refuses revoked and expired links, a viewer inviting, and anyone inviting above their role', async () => {
    const revoked = await call(
      'POST',
      '/api/v1/invitations',
      as(ownerA, { email: 'r@a.test', role: 'member' }),
    );
    expect(
      (await call('DELETE', `/api/v1/invitations/${revoked.body.invitationId}`, as(ownerA))).status,
    ).toBe(204);
    const usingRevoked = await call('POST', `/api/v1/auth/invitations/${revoked.body.token}/accept`, {
      body: { password: PASSWORD },
    });
    expect(usingRevoked.status).toBe(404);

    const expiring = await call(
      'POST',
      '/api/v1/invitations',
      as(ownerA, { email: 'e@a.test', role: 'member' }),
    );
    await pg.pool.query(`UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      expiring.body.invitationId,
    ]);
    const usingExpired = await call('POST', `/api/v1/auth/invitations/${expiring.body.token}/accept`, {
      body: { password: PASSWORD },
    });
    expect(usingExpired.status).toBe(404);

    const byViewer = await call(
      'POST',
      '/api/v1/invitations',
      as(viewerA, { email: 'v2@a.test', role: 'viewer' }),
    );
    expect(byViewer.status).toBe(403);
    expect(byViewer.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    const memberAboveRole = await call(
      'POST',
      '/api/v1/invitations',
      as(memberA, { email: 'x@a.test', role: 'admin' }),
    );
    expect(memberAboveRole.status).toBe(403);
    const adminMakesOwner = await call(
      'POST',
      '/api/v1/invitations',
      as(adminA, { email: 'x@a.test', role: 'owner' }),
    );
    expect(adminMakesOwner.status).toBe(403);
    const existing = await call(
      'POST',
      '/api/v1/invitations',
      as(ownerA, { email: 'MEMBER@a.test', role: 'viewer' }),
    );
    expect(existing.status).toBe(409);
  });

  it('rejects a state change made with a session but without the CSRF token', async () => {
    const noToken = await call('POST', '/api/v1/invitations', {
      cookie: ownerA.cookie,
      body: { email: 'csrf@a.test', role: 'viewer' },
    });
    expect(noToken.status).toBe(403);
    expect(noToken.body.error.code).toBe('CSRF_TOKEN_INVALID');
    const wrongToken = await call('PATCH', `/api/v1/projects/${projectA}`, {
      cookie: ownerA.cookie,
      csrf: adminA.csrf,
      body: { name: 'hijacked' },
    });
    expect(wrongToken.status).toBe(403);
    expect(wrongToken.body.error.code).toBe('CSRF_TOKEN_INVALID');
    for (const [method, url] of [
      ['POST', '/api/v1/projects'],
      ['PATCH', `/api/v1/members/${viewerA.userId}`],
      ['DELETE', `/api/v1/members/${viewerA.userId}`],
      ['POST', '/api/v1/me/password'],
      ['DELETE', '/api/v1/me/sessions/ses_x'],
    ] as const) {
      const res = await call(method, url, { cookie: ownerA.cookie, body: {} });
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.error.code, `${method} ${url}`).toBe('CSRF_TOKEN_INVALID');
    }
    const project = await call('GET', `/api/v1/projects/${projectA}`, as(ownerA));
    expect(project.body.name).toBe('Default');
  });
});

describe('projects', () => {
  it('owners create projects; members rename but cannot change the tier; the tier reaches the key cache', async () => {
    expect((await call('POST', '/api/v1/projects', as(memberA, { name: 'Nope' }))).status).toBe(403);
    const created = await call(
      'POST',
      '/api/v1/projects',
      as(ownerA, { name: 'Second', tier: 'professional' }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Second', tier: 'professional', activeKeys: 0, settings: {} });

    const renamed = await call(
      'PATCH',
      `/api/v1/projects/${created.body.projectId}`,
      as(memberA, { name: 'Renamed', settings: { retentionDays: 30 } }),
    );
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', settings: { retentionDays: 30 } });

    const tierByMember = await call(
      'PATCH',
      `/api/v1/projects/${created.body.projectId}`,
      as(memberA, { tier: 'enterprise' }),
    );
    expect(tierByMember.status).toBe(403);
    expect(tierByMember.body.error.message).toMatch(/owner or admin/);
    const limitsByMember = await call(
      'PATCH',
      `/api/v1/projects/${created.body.projectId}`,
      as(memberA, { limits: { ratePerMinute: 99_999 } }),
    );
    expect(limitsByMember.status).toBe(403);
    expect((await call('PATCH', `/api/v1/projects/${projectA}`, as(viewerA, { name: 'x' }))).status).toBe(
      403,
    );

    const upgraded = await call(
      'PATCH',
      `/api/v1/projects/${created.body.projectId}`,
      as(adminA, { tier: 'business', limits: { agentLimit: 7 } }),
    );
    expect(upgraded.status).toBe(200);
    expect(upgraded.body).toMatchObject({ tier: 'business', limits: { agentLimit: 7 }, name: 'Renamed' });
    // The limits in force (the tier's defaults under the overrides) and what is used of them now.
    expect(upgraded.body).toMatchObject({
      effectiveLimits: { ratePerMinute: 5_000, burst: 10_000, agentLimit: 7 },
      usage: { agents: 0, activeKeys: 0 },
    });
    const cached = await new KeyStore({ redis, prefix }).getAccount(created.body.projectId);
    expect(cached).toMatchObject({ tier: 'business', limits: { agentLimit: 7 } });

    const listed = await call('GET', '/api/v1/projects', as(viewerA));
    expect(listed.body.projects.map((p: { projectId: string }) => p.projectId).sort()).toEqual(
      [projectA, created.body.projectId].sort(),
    );
  });
});

describe('members', () => {
  it('lists the organisation; owners and admins change roles; the last owner stays; a removed member is signed out', async () => {
    const listed = await call('GET', '/api/v1/members', as(viewerA));
    expect(listed.status).toBe(200);
    expect(listed.body.members.map((m: { email: string }) => m.email).sort()).toEqual(
      ['admin@a.test', 'member@a.test', 'owner@a.test', 'viewer@a.test'].sort(),
    );
    expect(listed.body.members.find((m: { email: string }) => m.email === 'admin@a.test').name).toBe(
      'Ada Admin',
    );

    expect(
      (await call('PATCH', `/api/v1/members/${viewerA.userId}`, as(memberA, { role: 'admin' }))).status,
    ).toBe(403);
    const adminOnOwner = await call(
      'PATCH',
      `/api/v1/members/${ownerA.userId}`,
      as(adminA, { role: 'viewer' }),
    );
    expect(adminOnOwner.status).toBe(403);
    const lastOwner = await call('PATCH', `/api/v1/members/${ownerA.userId}`, as(ownerA, { role: 'admin' }));
    expect(lastOwner.status).toBe(409);
    expect(lastOwner.body.error.message).toMatch(/last owner/);
    expect((await call('DELETE', `/api/v1/members/${ownerA.userId}`, as(ownerA))).status).toBe(409);

    const promoted = await call('PATCH', `/api/v1/members/${viewerA.userId}`, as(adminA, { role: 'member' }));
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ userId: viewerA.userId, role: 'member' });
    expect((await call('GET', '/api/v1/me', as(viewerA))).body.role).toBe('member');
    const demoted = await call('PATCH', `/api/v1/members/${viewerA.userId}`, as(adminA, { role: 'viewer' }));
    expect(demoted.body.role).toBe('viewer');

    const leaving = await join(ownerA, 'leaving@a.test', 'member');
    expect((await call('DELETE', `/api/v1/members/${leaving.userId}`, as(adminA))).status).toBe(204);
    expect((await call('GET', '/api/v1/me', as(leaving))).status).toBe(401);
    expect((await call('DELETE', `/api/v1/members/${leaving.userId}`, as(adminA))).status).toBe(404);
  });

  it('a viewer cannot create keys; a member can', async () => {
    const byViewer = await call('POST', '/api/v1/keys', as(viewerA, {}));
    expect(byViewer.status).toBe(403);
    expect(byViewer.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect((await call('POST', '/api/v1/keys', as(memberA, {}))).status).toBe(201);
  });
});

describe('passwords and sessions', () => {
  it('lists and revokes own sessions; expired and revoked sessions answer 401', async () => {
    const laptop = await login('member@a.test');
    const phone = await login('member@a.test');
    const mine = await call('GET', '/api/v1/me/sessions', as(laptop));
    expect(mine.status).toBe(200);
    const current = mine.body.sessions.filter((s: { current: boolean }) => s.current);
    expect(current).toHaveLength(1);
    expect(mine.body.sessions.length).toBeGreaterThanOrEqual(3); // the invitation's, laptop, phone
    const phoneId = (await call('GET', '/api/v1/me/sessions', as(phone))).body.sessions.find(
      (s: { current: boolean }) => s.current,
    ).sessionId;

    // Another user's session id is not found, and stays live.
    expect((await call('DELETE', `/api/v1/me/sessions/${phoneId}`, as(adminA))).status).toBe(404);
    expect((await call('GET', '/api/v1/me', as(phone))).status).toBe(200);

    expect((await call('DELETE', `/api/v1/me/sessions/${phoneId}`, as(laptop))).status).toBe(204);
    const revoked = await call('GET', '/api/v1/me', as(phone));
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe('UNAUTHENTICATED');
    expect((await call('DELETE', `/api/v1/me/sessions/${phoneId}`, as(laptop))).status).toBe(404);

    const expiring = await login('member@a.test');
    await pg.pool.query(
      `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE csrf_hash = encode(sha256($1::bytea), 'hex')`,
      [expiring.csrf],
    );
    expect((await call('GET', '/api/v1/members', as(expiring))).status).toBe(401);
    expect((await call('GET', '/api/v1/me', as(laptop))).status).toBe(200);
  });

  it('changes the password with the current one and ends every other session', async () => {
    const here = await login('viewer@a.test');
    const elsewhere = await login('viewer@a.test');
    const wrong = await call(
      'POST',
      '/api/v1/me/password',
      as(here, { current: 'not it at all', new: 'a new long passphrase' }),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details.field).toBe('current');
    const weak = await call('POST', '/api/v1/me/password', as(here, { current: PASSWORD, new: 'short' }));
    expect(weak.status).toBe(400);
    expect(weak.body.error.message).toMatch(/at least 12/);

    const changed = await call(
      'POST',
      '/api/v1/me/password',
      as(here, { current: PASSWORD, new: 'a new long passphrase' }),
    );
    expect(changed.status).toBe(204);
    expect((await call('GET', '/api/v1/me', as(here))).status).toBe(200);
    expect((await call('GET', '/api/v1/me', as(elsewhere))).status).toBe(401);
    expect(
      (await call('POST', '/api/v1/auth/login', { body: { email: 'viewer@a.test', password: PASSWORD } }))
        .status,
    ).toBe(401);
    await login('viewer@a.test', 'a new long passphrase');
  });

  it('resets a password with a one-time token printed by `warden users reset-password`', async () => {
    const before = await login('admin@a.test');
    const cli = spawnSync(
      process.execPath,
      [
        resolve(repoRoot, 'node_modules/.bin/warden'),
        'users',
        'reset-password',
        '--email',
        'Admin@a.test',
        '--json',
      ],
      { cwd: repoRoot, env: { ...process.env, DATABASE_URL: pg.url }, encoding: 'utf8', timeout: 60_000 },
    );
    expect(cli.status, cli.stderr).toBe(0);
    const { token, expiresAt } = JSON.parse(cli.stdout) as { token: string; expiresAt: string };
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(3_600_000);
    const stored = await pg.pool.query('SELECT * FROM password_resets');
    expect(JSON.stringify(stored.rows)).not.toContain(token);

    const reset = await call('POST', '/api/v1/auth/reset', {
      body: { token, password: 'reset long passphrase' },
    });
    expect(reset.status).toBe(204);
    expect((await call('GET', '/api/v1/me', as(before))).status).toBe(401);
    adminA = await login('admin@a.test', 'reset long passphrase');
    const twice = await call('POST', '/api/v1/auth/reset', {
      body: { token, password: 'another long passphrase' },
    });
    expect(twice.status).toBe(400);
    expect(twice.body.error.message).toMatch(/reset-password/);

    const unknown = spawnSync(
      process.execPath,
      [resolve(repoRoot, 'node_modules/.bin/warden'), 'users', 'reset-password', '--email', 'nobody@a.test'],
      { cwd: repoRoot, env: { ...process.env, DATABASE_URL: pg.url }, encoding: 'utf8', timeout: 60_000 },
    );
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toMatch(/No user has the email/);
  });
});

describe('throttling', () => {
  it('limits unauthenticated requests that hash a password per address, with Retry-After', async () => {
    const strict = await buildApp({
      pool: pg.pool,
      redis,
      redisPrefix: prefix,
      keys,
      clickhouse,
      database: 'default',
      loginAttemptsPerMinute: 1, // burst 2
    });
    apps.push(strict);
    for (const [url, body] of [
      ['/api/v1/auth/reset', { token: 'rst_guess', password: 'a guessed long password' }],
      ['/api/v1/auth/invitations/inv_guess/accept', { password: 'a guessed long password' }],
      ['/api/v1/auth/signup', { email: 'x@y.test', password: 'a guessed long password', organisation: 'Y' }],
    ] as const) {
      const statuses: number[] = [];
      let last: Answer | undefined;
      for (let i = 0; i < 3; i += 1) {
        last = await callOn(strict, 'POST', url, { body, from: '10.9.9.9' });
        statuses.push(last.status);
      }
      expect(statuses[2], url).toBe(429);
      expect(statuses.slice(0, 2)).not.toContain(429);
      expect(last!.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
      // Another address is not held back by this one.
      expect((await callOn(strict, 'POST', url, { body, from: '10.9.9.10' })).status).not.toBe(429);
    }
  });
});

describe('tenant isolation', () => {
  it('answers 404 to every id-bearing route of another organisation and lists none of its rows', async () => {
    const aKey = await call('POST', '/api/v1/keys', {
      ...as(ownerA, { scopes: ['admin'] }),
      project: projectA,
    });
    expect(aKey.status).toBe(201);
    const aInvitation = await call(
      'POST',
      '/api/v1/invitations',
      as(ownerA, { email: 'pending@a.test', role: 'viewer' }),
    );
    const aSession = (await call('GET', '/api/v1/me/sessions', as(ownerA))).body.sessions[0].sessionId;
    const bKey = await call('POST', '/api/v1/keys', as(ownerB, { scopes: ['admin'] }));
    expect(bKey.status).toBe(201);

    const routes: [string, string, unknown?][] = [
      ['GET', `/api/v1/projects/${projectA}`],
      ['PATCH', `/api/v1/projects/${projectA}`, { name: 'taken over' }],
      ['PATCH', `/api/v1/projects/${projectA}`, { tier: 'enterprise' }],
      ['PATCH', `/api/v1/members/${memberA.userId}`, { role: 'viewer' }],
      ['PATCH', `/api/v1/members/${ownerA.userId}`, { role: 'owner' }],
      ['DELETE', `/api/v1/members/${memberA.userId}`],
      ['DELETE', `/api/v1/invitations/${aInvitation.body.invitationId}`],
      ['DELETE', `/api/v1/me/sessions/${aSession}`],
      ['DELETE', `/api/v1/keys/${aKey.body.keyId}`],
      ['POST', `/api/v1/keys/${aKey.body.keyId}/rotate`, {}],
    ];
    for (const [method, url, body] of routes) {
      const res = await call(method, url, as(ownerB, body));
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    // B's admin key: A's project by id, or by a forged project header, is not found either.
    expect((await call('GET', `/api/v1/projects/${projectA}`, { key: bKey.body.key })).status).toBe(404);
    expect(
      (
        await call('PATCH', `/api/v1/projects/${projectA}`, {
          key: bKey.body.key,
          body: { tier: 'enterprise' },
        })
      ).status,
    ).toBe(404);
    expect((await call('GET', '/api/v1/keys', { key: bKey.body.key, project: projectA })).status).toBe(404);
    expect((await call('GET', '/api/v1/keys', { ...as(ownerB), project: projectA })).status).toBe(404);
    // Session-only routes refuse keys outright.
    expect((await call('GET', '/api/v1/members', { key: bKey.body.key })).status).toBe(403);

    // Lists: none of A's rows.
    const seen = JSON.stringify([
      (await call('GET', '/api/v1/projects', as(ownerB))).body,
      (await call('GET', '/api/v1/projects', { key: bKey.body.key })).body,
      (await call('GET', '/api/v1/members', as(ownerB))).body,
      (await call('GET', '/api/v1/invitations', as(ownerB))).body,
      (await call('GET', '/api/v1/me/sessions', as(ownerB))).body,
      (await call('GET', '/api/v1/keys', as(ownerB))).body,
    ]);
    for (const secret of [
      projectA,
      memberA.userId,
      ownerA.userId,
      '@a.test',
      aKey.body.keyId,
      aSession,
      ownerA.organisationId,
    ]) {
      expect(seen).not.toContain(secret);
    }
    expect(seen).toContain(projectB);

    // Nothing of A changed.
    const a = await call('GET', `/api/v1/projects/${projectA}`, as(ownerA));
    expect(a.body).toMatchObject({ name: 'Default', tier: 'free' });
    expect((await call('GET', '/api/v1/me', as(memberA))).body.role).toBe('member');
    const invitations = await call('GET', '/api/v1/invitations', as(ownerA));
    expect(
      invitations.body.invitations.find(
        (i: { invitationId: string }) => i.invitationId === aInvitation.body.invitationId,
      ).status,
    ).toBe('pending');
  });
});

describe('audit log and OpenAPI', () => {
  it('records security events', async () => {
    await call('POST', '/api/v1/auth/login', {
      body: { email: 'owner@a.test', password: 'wrong password!' },
    });
    const { rows } = await pg.pool.query<{ action: string }>(
      'SELECT DISTINCT action FROM audit_log WHERE organisation_id = $1',
      [ownerA.organisationId],
    );
    expect(rows.map((r) => r.action)).toEqual(
      expect.arrayContaining([
        'session.created',
        'session.sign_in_failed',
        'session.revoked',
        'invitation.created',
        'invitation.accepted',
        'invitation.revoked',
        'member.role_changed',
        'member.removed',
        'user.password_changed',
        'user.password_reset_requested',
        'user.password_reset',
        'project.created',
        'project.updated',
        'key.created',
      ]),
    );
    const failed = await pg.pool.query('SELECT * FROM audit_log WHERE action = $1', [
      'session.sign_in_failed',
    ]);
    expect(JSON.stringify(failed.rows)).not.toContain('wrong password!');
  });

  it('documents every management route with each status it answers', async () => {
    const doc = await call('GET', '/api/v1/openapi.json');
    const verdict = await new Validator().validate(doc.body);
    expect(verdict.errors ?? []).toEqual([]);
    const statuses = (path: string, method: string) => Object.keys(doc.body.paths[path][method].responses);
    expect(statuses('/api/v1/projects', 'post')).toEqual(
      expect.arrayContaining(['201', '400', '401', '403']),
    );
    expect(statuses('/api/v1/projects/{projectId}', 'patch')).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404']),
    );
    expect(statuses('/api/v1/members/{userId}', 'patch')).toEqual(
      expect.arrayContaining(['200', '403', '404', '409']),
    );
    expect(statuses('/api/v1/members/{userId}', 'delete')).toEqual(
      expect.arrayContaining(['204', '404', '409']),
    );
    expect(statuses('/api/v1/invitations', 'post')).toEqual(expect.arrayContaining(['201', '403', '409']));
    expect(statuses('/api/v1/invitations/{invitationId}', 'delete')).toEqual(
      expect.arrayContaining(['204', '404']),
    );
    expect(statuses('/api/v1/auth/invitations/{token}/accept', 'post')).toEqual(
      expect.arrayContaining(['200', '404', '409']),
    );
    expect(statuses('/api/v1/auth/signup', 'post')).toEqual(expect.arrayContaining(['201', '403', '409']));
    expect(statuses('/api/v1/auth/config', 'get')).toContain('200');
    expect(statuses('/api/v1/auth/reset', 'post')).toEqual(expect.arrayContaining(['204', '400']));
    expect(statuses('/api/v1/me/password', 'post')).toEqual(
      expect.arrayContaining(['204', '400', '401', '403']),
    );
    expect(statuses('/api/v1/me/sessions', 'get')).toContain('200');
    expect(statuses('/api/v1/me/sessions/{sessionId}', 'delete')).toEqual(
      expect.arrayContaining(['204', '404']),
    );
  });
});
