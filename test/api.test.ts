import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore, PostgresKeys } from '@warden/shared/keys/index';
import { UserDirectory } from '@warden/shared/users/index';
import {
  ACCOUNT,
  ACME,
  DAY_FROM,
  DAY_TO,
  OTHER_ACCOUNT,
  OTHERS,
  analysisOf,
  seedAnalysedOnce,
} from './support/analytics-seed';
import { apiClient, listeningApi, type ListeningApi } from './support/api-client';
import { eventually, queryRows, testDatabase } from './support/pipeline';
import { testPostgres, type TestPostgres } from './support/postgres';
import { redisNamespace } from './support/redis-namespace';

/**
 * The management and analytics API (issue #22 point 4) on the real stack: PostgreSQL for users,
 * sessions, projects and keys; Redis for the key cache and sign-in throttle; ClickHouse seeded with
 * the analytics data set, acme's in organisation A and globex's in organisation B.
 */
const PASSWORD = 'correct horse battery staple';
const { prefix, redis } = redisNamespace('api');
let pg: TestPostgres;
let ch: Awaited<ReturnType<typeof testDatabase>>;
let api: ListeningApi;
let base: string;

const client = apiClient(() => base);
const { call } = client;
const login = (email: string, password = PASSWORD) => client.login(email, password);

const acmeRange = `from=${DAY_FROM}&to=${DAY_TO}`;

beforeAll(async () => {
  pg = await testPostgres();
  ch = await testDatabase('warden_test_api');
  // The analytics seed: every interaction once, analysed once (rollups and raw rows agree).
  await seedAnalysedOnce(ch.client, ch.db);

  const users = new UserDirectory(pg.pool);
  const a = await users.createUser({
    email: 'owner@a.test',
    password: PASSWORD,
    organisation: 'Org A',
    role: 'owner',
  });
  await users.createUser({
    email: 'viewer@a.test',
    password: PASSWORD,
    organisation: 'Org A',
    role: 'viewer',
  });
  await users.createUser({
    email: 'throttled@a.test',
    password: PASSWORD,
    organisation: 'Org A',
    role: 'member',
  });
  await users.createUser({
    email: 'demoted@a.test',
    password: PASSWORD,
    organisation: 'Org A',
    role: 'member',
  });
  const b = await users.createUser({
    email: 'owner@b.test',
    password: PASSWORD,
    organisation: 'Org B',
    role: 'owner',
  });
  const store = new KeyStore({ redis, prefix, source: new PostgresKeys(pg.pool) });
  await store.createProject({ accountId: ACCOUNT, tier: 'professional', organisationId: a.organisationId });
  await store.createProject({
    accountId: OTHER_ACCOUNT,
    tier: 'professional',
    organisationId: b.organisationId,
  });

  api = await listeningApi({
    pool: pg.pool,
    redis,
    redisPrefix: prefix,
    clickhouse: ch.client,
    database: ch.db,
    loginAttemptsPerMinute: 3,
  });
  ({ base } = api);
}, 180_000);

afterAll(async () => {
  await api?.close();
  await ch?.drop();
  await pg?.drop();
});

describe('sessions', () => {
  it('signs in with HttpOnly SameSite=Lax session and page-readable CSRF cookies; /me; sign-out ends it', async () => {
    const s = await login('owner@a.test');
    const session = s.setCookies.find((c) => c.startsWith('warden_session='))!;
    const csrf = s.setCookies.find((c) => c.startsWith('warden_csrf='))!;
    expect(session).toMatch(/; HttpOnly/i);
    expect(session).toMatch(/; SameSite=Lax/i);
    expect(session).not.toMatch(/; Secure/i); // plain HTTP, cookieSecure auto
    expect(csrf).not.toMatch(/HttpOnly/i);
    expect(csrf).toMatch(/; SameSite=Lax/i);

    const me = await call('GET', '/api/v1/me', { cookie: s.cookie });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ kind: 'session', user: { email: 'owner@a.test' }, role: 'owner' });
    // Only hashes are stored.
    const { rows } = await pg.pool.query('SELECT token_hash, csrf_hash FROM sessions');
    expect(JSON.stringify(rows)).not.toContain(s.csrf);

    expect((await call('POST', '/api/v1/auth/logout', { cookie: s.cookie })).status).toBe(403); // no CSRF token
    const out = await call('POST', '/api/v1/auth/logout', { cookie: s.cookie, csrf: s.csrf });
    expect(out.status).toBe(204);
    const after = await call('GET', '/api/v1/me', { cookie: s.cookie });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('UNAUTHENTICATED');
  });

  it('ends expired sessions, and reads the role live: a demotion applies on the next request', async () => {
    const expiring = await login('owner@a.test');
    const live = await login('owner@a.test');
    await pg.pool.query(
      `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE csrf_hash = encode(sha256($1::bytea), 'hex')`,
      [expiring.csrf],
    );
    const expired = await call('GET', '/api/v1/me', { cookie: expiring.cookie });
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('UNAUTHENTICATED');
    expect((await call('GET', '/api/v1/me', { cookie: live.cookie })).status).toBe(200);

    const member = await login('demoted@a.test');
    expect((await call('GET', '/api/v1/me', { cookie: member.cookie })).body.role).toBe('member');
    await pg.pool.query(
      `UPDATE memberships SET role = 'viewer' WHERE user_id = (SELECT id FROM users WHERE email = 'demoted@a.test')`,
    );
    const refused = await call('POST', '/api/v1/keys', { ...member, body: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect((await call('GET', '/api/v1/me', { cookie: member.cookie })).body.role).toBe('viewer');
  });

  it('answers 401 to a wrong password and to an unknown email alike', async () => {
    for (const [email, password] of [
      ['owner@a.test', 'not the password at all'],
      ['nobody@a.test', PASSWORD],
    ]) {
      const res = await call('POST', '/api/v1/auth/login', { body: { email, password } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        error: { code: 'INVALID_CREDENTIALS', message: 'Email or password is wrong.' },
      });
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    expect((await call('GET', '/api/v1/me')).status).toBe(401);
  });

  it('throttles sign-in per email and address: 429 with Retry-After once the burst is spent', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await call('POST', '/api/v1/auth/login', {
        body: { email: 'throttled@a.test', password: 'wrong password, again' },
      });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(res.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
      }
    }
    // 3 a minute, burst 6: the right password is refused too while throttled.
    expect(statuses.slice(0, 6)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(statuses.slice(6)).toEqual([429, 429]);
    const right = await call('POST', '/api/v1/auth/login', {
      body: { email: 'throttled@a.test', password: PASSWORD },
    });
    expect(right.status).toBe(429);
    // Another email from the same address is not affected.
    await login('viewer@a.test');
  });
});

describe('keys and roles', () => {
  it('rejects a state-changing session request without the CSRF token, or with another one', async () => {
    const s = await login('owner@a.test');
    const other = await login('owner@a.test');
    for (const csrf of [undefined, 'forged', other.csrf]) {
      const res = await call('POST', '/api/v1/keys', {
        cookie: s.cookie,
        ...(csrf ? { csrf } : {}),
        body: {},
      });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('CSRF_TOKEN_INVALID');
    }
    expect((await call('GET', '/api/v1/keys', { cookie: s.cookie })).body.keys).toEqual([]);
  });

  it('creates, lists, rotates and revokes keys of the project; the secret only in create and rotate', async () => {
    const s = await login('owner@a.test');
    const created = await call('POST', '/api/v1/keys', {
      ...s,
      body: { name: 'ci', scopes: ['ingest', 'analytics:read'] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ projectId: ACCOUNT, scopes: ['ingest', 'analytics:read'] });
    expect(created.body.key).toMatch(/^wdn_live_/);
    const listed = await call('GET', '/api/v1/keys', { cookie: s.cookie });
    expect(listed.body.keys).toEqual([
      expect.objectContaining({
        keyId: created.body.keyId,
        name: 'ci',
        status: 'active',
        projectId: ACCOUNT,
        // The signed-in user who created it, for the dashboard's creator column.
        createdBy: 'owner@a.test',
      }),
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);

    const rotated = await call('POST', `/api/v1/keys/${created.body.keyId}/rotate`, {
      ...s,
      body: { gracePeriod: '0' },
    });
    expect(rotated.status).toBe(201);
    expect(rotated.body.replacesKeyId).toBe(created.body.keyId);
    expect(rotated.body.key).toMatch(/^wdn_live_/);
    // Grace 0: the old key fails as expired once the change reached the key cache (pub/sub, milliseconds).
    expect(
      await eventually(
        async () => (await call('GET', '/api/v1/me', { key: created.body.key })).status,
        (status) => status === 401,
        5000,
      ),
    ).toBe(401);
    expect((await call('GET', '/api/v1/me', { key: rotated.body.key })).body.key.projectId).toBe(ACCOUNT);

    const revoked = await call('DELETE', `/api/v1/keys/${rotated.body.keyId}`, { ...s });
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe('revoked');
    expect(
      await eventually(
        async () => (await call('GET', '/api/v1/me', { key: rotated.body.key })).status,
        (status) => status === 401,
        5000,
      ),
    ).toBe(401);
  });

  it('a viewer reads keys but cannot create them; a key without keys:manage cannot either', async () => {
    const v = await login('viewer@a.test');
    expect((await call('GET', '/api/v1/keys', { cookie: v.cookie })).status).toBe(200);
    const refused = await call('POST', '/api/v1/keys', { ...v, body: { scopes: ['ingest'] } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');

    const owner = await login('owner@a.test');
    const reader = await call('POST', '/api/v1/keys', { ...owner, body: { scopes: ['analytics:read'] } });
    const byKey = await call('POST', '/api/v1/keys', { key: reader.body.key, body: { scopes: ['ingest'] } });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    // A key needs no CSRF token: a keys:manage key creates keys, but not admin ones.
    const manager = await call('POST', '/api/v1/keys', { ...owner, body: { scopes: ['keys:manage'] } });
    expect((await call('POST', '/api/v1/keys', { key: manager.body.key, body: {} })).status).toBe(201);
    expect(
      (await call('POST', '/api/v1/keys', { key: manager.body.key, body: { scopes: ['admin'] } })).status,
    ).toBe(403);
  });
});

describe('analytics', () => {
  it('an analytics:read key reads the overview; it equals direct ClickHouse counts of the seed', async () => {
    const owner = await login('owner@a.test');
    const reader = await call('POST', '/api/v1/keys', { ...owner, body: { scopes: ['analytics:read'] } });
    const res = await call('GET', `/api/v1/analytics/overview?${acmeRange}&interval=hour`, {
      key: reader.body.key,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const where = `account_id = '${ACCOUNT}' AND received_at >= toDateTime('2025-03-01 00:00:00', 'UTC') AND received_at < toDateTime('2025-03-02 00:00:00', 'UTC')`;
    const [direct] = await queryRows<{ interactions: number; tokens: number; agents: number }>(
      ch.client,
      `SELECT uniqExact(interaction_id) AS interactions, sum(tokens_used) AS tokens, uniqExact(agent_id) AS agents
       FROM ${ch.db}.interactions WHERE ${where}`,
    );
    const severities = await queryRows<{ severity: string; findings: number }>(
      ch.client,
      `SELECT severity, uniqExact(finding_id) AS findings FROM ${ch.db}.detections WHERE ${where} GROUP BY severity`,
    );
    const [found] = await queryRows<{ findings: number; flagged: number }>(
      ch.client,
      `SELECT uniqExact(finding_id) AS findings, uniqExact(interaction_id) AS flagged FROM ${ch.db}.detections WHERE ${where}`,
    );
    expect(direct!.interactions).toBe(60);
    expect(res.body.totals).toMatchObject({
      interactions: Number(direct!.interactions),
      tokens: Number(direct!.tokens),
      activeAgents: Number(direct!.agents),
      findings: Number(found!.findings),
      flaggedInteractions: Number(found!.flagged),
    });
    expect(Number(found!.findings)).toBeGreaterThan(0);
    for (const { severity, findings } of severities)
      expect(res.body.totals.bySeverity[severity]).toBe(Number(findings));
    // The series adds up to the totals; by day it is one bucket.
    const sum = (xs: { interactions: number }[]) => xs.reduce((a, b) => a + b.interactions, 0);
    expect(res.body.series).toHaveLength(3);
    expect(sum(res.body.series)).toBe(60);
    const daily = await call('GET', `/api/v1/analytics/overview?${acmeRange}&interval=day`, {
      key: reader.body.key,
    });
    expect(daily.body.series).toEqual([
      {
        bucket: '2025-03-01 00:00:00',
        interactions: 60,
        tokens: Number(direct!.tokens),
        findings: Number(found!.findings),
        bySeverity: res.body.totals.bySeverity,
      },
    ]);
    // An ingest-only key may not read.
    const ingestOnly = await call('POST', '/api/v1/keys', { ...owner, body: { scopes: ['ingest'] } });
    expect(
      (await call('GET', `/api/v1/analytics/overview?${acmeRange}`, { key: ingestOnly.body.key })).status,
    ).toBe(403);
  });

  it('pages detections newest first with a cursor: every current finding exactly once', async () => {
    const owner = await login('owner@a.test');
    const seen: { findingId: string; receivedAt: string; interactionId: string }[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await call(
        'GET',
        `/api/v1/detections?${acmeRange}&limit=7${cursor ? `&cursor=${cursor}` : ''}`,
        { cookie: owner.cookie },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      seen.push(...res.body.items);
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor && pages < 100);
    const [direct] = await queryRows<{ findings: number }>(
      ch.client,
      `SELECT uniqExact(finding_id) AS findings FROM ${ch.db}.detections
       WHERE account_id = '${ACCOUNT}' AND received_at < toDateTime('2025-03-02 00:00:00', 'UTC')`,
    );
    expect(seen).toHaveLength(Number(direct!.findings));
    expect(new Set(seen.map((d) => `${d.interactionId}/${d.findingId}`)).size).toBe(seen.length);
    const times = seen.map((d) => Date.parse(d.receivedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const filtered = await call('GET', `/api/v1/detections?${acmeRange}&severity=critical&limit=1000`, {
      cookie: owner.cookie,
    });
    expect(filtered.body.items.length).toBeGreaterThan(0);
    expect(filtered.body.items.every((d: { severity: string }) => d.severity === 'critical')).toBe(true);
    expect((await call('GET', `/api/v1/detections?cursor=garbage`, { cookie: owner.cookie })).status).toBe(
      400,
    );
  });

  it('shows one interaction with its findings', async () => {
    const owner = await login('owner@a.test');
    const flagged = ACME.find((s) => analysisOf(s, '1.0.0', 0).findings.length > 0)!;
    const res = await call('GET', `/api/v1/interactions/${flagged.id}`, { cookie: owner.cookie });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ interactionId: flagged.id, agentId: flagged.agent.id });
    expect(res.body.findings.length).toBe(analysisOf(flagged, '1.0.0', 0).findings.length);
  });
});

describe('tenant isolation', () => {
  it("organisation B's session and key get 404 on A's ids and see none of A's rows", async () => {
    const a = await login('owner@a.test');
    const b = await login('owner@b.test');
    const aKey = await call('POST', '/api/v1/keys', {
      ...a,
      body: { scopes: ['analytics:read', 'keys:manage'] },
    });
    const bKey = (
      await call('POST', '/api/v1/keys', { ...b, body: { scopes: ['analytics:read', 'keys:manage'] } })
    ).body.key as string;
    const aInteraction = ACME[3]!.id;

    for (const who of [{ cookie: b.cookie }, { key: bKey }]) {
      // A's interaction id, plainly and with A's project named.
      expect((await call('GET', `/api/v1/interactions/${aInteraction}`, who)).status).toBe(404);
      const forged = await call('GET', `/api/v1/interactions/${aInteraction}`, { ...who, project: ACCOUNT });
      expect(forged.status).toBe(404);
      expect(forged.body.error.code).toBe('NOT_FOUND');
      // Lists and aggregates hold only B's rows.
      const list = await call('GET', `/api/v1/detections?${acmeRange}&limit=1000`, who);
      expect(list.status).toBe(200);
      expect(list.body.items.length).toBeGreaterThan(0);
      expect(
        list.body.items.every((d: { interactionId: string }) => OTHERS.some((o) => o.id === d.interactionId)),
      ).toBe(true);
      const filteredByA = await call(
        'GET',
        `/api/v1/detections?${acmeRange}&agentId=${ACME[0]!.agent.id}`,
        who,
      );
      expect(
        filteredByA.body.items.some((d: { interactionId: string }) => d.interactionId.includes('-8000-')),
      ).toBe(false);
      const overview = await call('GET', `/api/v1/analytics/overview?${acmeRange}`, who);
      expect(overview.body.totals.interactions).toBe(OTHERS.length);
      expect(
        (await call('GET', `/api/v1/analytics/overview?${acmeRange}`, { ...who, project: ACCOUNT })).status,
      ).toBe(404);
      // A's keys: not listed, not revocable, not rotatable.
      const keysOfB = await call('GET', '/api/v1/keys', who);
      expect(keysOfB.body.keys.every((k: { projectId: string }) => k.projectId === OTHER_ACCOUNT)).toBe(true);
      const csrf = 'cookie' in who ? { csrf: b.csrf } : {};
      expect((await call('DELETE', `/api/v1/keys/${aKey.body.keyId}`, { ...who, ...csrf })).status).toBe(404);
      expect(
        (await call('POST', `/api/v1/keys/${aKey.body.keyId}/rotate`, { ...who, ...csrf, body: {} })).status,
      ).toBe(404);
    }
    // A's key still works and still sees A's interaction.
    expect((await call('GET', `/api/v1/interactions/${aInteraction}`, { key: aKey.body.key })).status).toBe(
      200,
    );
  });

  it('publishes a valid OpenAPI 3.1 document listing each route and the statuses it answers', async () => {
    const doc = await call('GET', '/api/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/auth/login',
        '/api/v1/me',
        '/api/v1/keys',
        '/api/v1/keys/{keyId}/rotate',
        '/api/v1/analytics/overview',
        '/api/v1/detections',
        '/api/v1/interactions/{interactionId}',
      ]),
    );
    const verdict = await new Validator().validate(doc.body);
    expect(verdict.errors ?? []).toEqual([]);
    expect(verdict.valid).toBe(true);
    // Every status a route answers is listed.
    const keysPost = doc.body.paths['/api/v1/keys'].post.responses;
    expect(Object.keys(keysPost)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '404']));
    expect(doc.body.paths['/api/v1/auth/login'].post.responses['429']).toBeDefined();
    expect(doc.body.paths['/api/v1/interactions/{interactionId}'].get.responses['404']).toBeDefined();
    expect(doc.body.components.securitySchemes.session).toEqual({
      type: 'apiKey',
      in: 'cookie',
      name: 'warden_session',
    });
  });
});
