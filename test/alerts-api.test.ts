import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickhouse, type ClickHouseClient } from '@warden/shared/clickhouse/client';
import { KeyStore, PostgresKeys } from '@warden/shared/keys/index';
import { UserDirectory } from '@warden/shared/users/index';
import { endpoints } from './support/pipeline';
import { testPostgres, type TestPostgres } from './support/postgres';
import { redisNamespace } from './support/redis-namespace';
import { apiClient, type Signed, listeningApi, type ListeningApi } from './support/api-client';

/** The webhook and alert-rule routes (issue #24 point 4): roles, tenancy, secrets shown once. */
const PASSWORD = 'correct horse battery staple';
const PROJECT_A = 'alerts-api-a';
const PROJECT_B = 'alerts-api-b';
const { prefix, redis } = redisNamespace('alerts-api');
let pg: TestPostgres;
let api: ListeningApi;
let clickhouse: ClickHouseClient;
let base: string;
const secretKey = randomBytes(32);

const client = apiClient(() => base);
const login = (email: string) => client.login(email, PASSWORD);
/** A signed-in call under /api/v1, the CSRF token echoed. */
const call = (who: Signed, method: string, path: string, body?: unknown) =>
  client.call(method, `/api/v1${path}`, { cookie: who.cookie, csrf: who.csrf, body });

let owner: Signed;
let member: Signed;
let viewer: Signed;
let otherOwner: Signed;

beforeAll(async () => {
  pg = await testPostgres();
  const users = new UserDirectory(pg.pool);
  const a = await users.createUser({
    email: 'owner@alerts-a.test',
    password: PASSWORD,
    organisation: 'Alerts A',
    role: 'owner',
  });
  await users.createUser({
    email: 'member@alerts-a.test',
    password: PASSWORD,
    organisation: 'Alerts A',
    role: 'member',
  });
  await users.createUser({
    email: 'viewer@alerts-a.test',
    password: PASSWORD,
    organisation: 'Alerts A',
    role: 'viewer',
  });
  const b = await users.createUser({
    email: 'owner@alerts-b.test',
    password: PASSWORD,
    organisation: 'Alerts B',
    role: 'owner',
  });
  const store = new KeyStore({ redis, prefix, source: new PostgresKeys(pg.pool) });
  await store.createProject({ accountId: PROJECT_A, tier: 'professional', organisationId: a.organisationId });
  await store.createProject({ accountId: PROJECT_B, tier: 'professional', organisationId: b.organisationId });
  clickhouse = createClickhouse({ url: endpoints().clickhouseUrl });
  api = await listeningApi({
    pool: pg.pool,
    redis,
    redisPrefix: prefix,
    clickhouse,
    database: 'unused',
    secretKey,
  });
  ({ base } = api);
  owner = await login('owner@alerts-a.test');
  member = await login('member@alerts-a.test');
  viewer = await login('viewer@alerts-a.test');
  otherOwner = await login('owner@alerts-b.test');
}, 120_000);

afterAll(async () => {
  await api?.close();
  await clickhouse?.close();
  await pg?.drop();
});

describe('webhook endpoints', () => {
  it('an owner registers an endpoint: the whsec_ secret is in that answer only, stored encrypted', async () => {
    const created = await call(owner, 'POST', '/webhooks', { url: 'https://hooks.example.com/warden' });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.body.endpoint).toMatchObject({
      projectId: PROJECT_A,
      enabled: true,
      events: ['threat_detected'],
      format: 'standard',
    });
    // The Slack incoming-webhook format is an option of the endpoint, set at creation or later.
    const slack = await call(owner, 'POST', '/webhooks', {
      url: 'https://hooks.example.com/s',
      format: 'slack',
    });
    expect(slack.body.endpoint.format).toBe('slack');
    const back = await call(owner, 'PATCH', `/webhooks/${slack.body.endpoint.id}`, { format: 'standard' });
    expect(back.body.format).toBe('standard');
    expect(
      (await call(owner, 'POST', '/webhooks', { url: 'https://h.example.com/', format: 'teams' })).status,
    ).toBe(400);
    expect((await call(owner, 'DELETE', `/webhooks/${slack.body.endpoint.id}`)).status).toBe(204);
    const listed = await call(viewer, 'GET', '/webhooks');
    expect(listed.status).toBe(200);
    expect(listed.body.endpoints).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
    const { rows } = await pg.pool.query<{ secret: string }>('SELECT secret FROM webhook_endpoints');
    expect(rows[0]!.secret).toMatch(/^v1:/);
    expect(rows[0]!.secret).not.toContain(created.body.secret.slice(6, 20));
  });

  it('refuses private, loopback and link-local URLs with how to fix it', async () => {
    for (const url of [
      'http://127.0.0.1:9000/x',
      'http://localhost/x',
      'http://10.0.0.5/x',
      'http://169.254.169.254/',
    ]) {
      const refused = await call(owner, 'POST', '/webhooks', { url });
      expect(refused.status, url).toBe(400);
      expect(refused.body.error.message).toMatch(/private, loopback or link-local/);
    }
    expect((await call(owner, 'POST', '/webhooks', { url: 'ftp://example.com/' })).status).toBe(400);
  });

  it('members and viewers read; only owners and admins change; another organisation sees nothing', async () => {
    expect((await call(member, 'POST', '/webhooks', { url: 'https://hooks.example.com/m' })).status).toBe(
      403,
    );
    const mine = (await call(owner, 'GET', '/webhooks')).body.endpoints[0];
    expect((await call(member, 'GET', `/webhooks/${mine.id}`)).status).toBe(200);
    expect((await call(viewer, 'POST', `/webhooks/${mine.id}/rotate-secret`, {})).status).toBe(403);
    const foreign = await call(otherOwner, 'GET', `/webhooks/${mine.id}`);
    expect(foreign.status).toBe(404);
    expect((await call(otherOwner, 'DELETE', `/webhooks/${mine.id}`)).status).toBe(404);
    expect((await call(otherOwner, 'GET', '/webhooks')).body.endpoints).toEqual([]);
  });

  it('rotates the secret with a grace period, disables and enables, queues a test, logs and retries deliveries, deletes', async () => {
    const created = await call(owner, 'POST', '/webhooks', { url: 'https://hooks.example.com/rotate' });
    const id = created.body.endpoint.id as string;
    const rotated = await call(owner, 'POST', `/webhooks/${id}/rotate-secret`, { gracePeriodHours: 2 });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    const until = Date.parse(rotated.body.endpoint.previousSecretUntil);
    expect(until - Date.now()).toBeGreaterThan(1.9 * 3_600_000);

    const off = await call(owner, 'PATCH', `/webhooks/${id}`, { enabled: false });
    expect(off.body).toMatchObject({ enabled: false, disabledReason: 'disabled by a user' });
    const on = await call(owner, 'PATCH', `/webhooks/${id}`, { enabled: true });
    expect(on.body).toMatchObject({ enabled: true, disabledReason: null });

    const test = await call(owner, 'POST', `/webhooks/${id}/test`);
    expect(test.status).toBe(202);
    const log = await call(viewer, 'GET', `/webhooks/${id}/deliveries`);
    expect(log.body.deliveries).toMatchObject([
      { id: test.body.deliveryId, event: 'test', status: 'pending', log: [] },
    ]);
    await pg.pool.query(`UPDATE webhook_deliveries SET status = 'failed' WHERE id = $1`, [
      test.body.deliveryId,
    ]);
    const retried = await call(owner, 'POST', `/webhooks/${id}/deliveries/${test.body.deliveryId}/retry`);
    expect(retried.status).toBe(202);
    expect((await call(viewer, 'GET', `/webhooks/${id}/deliveries`)).body.deliveries[0].status).toBe(
      'pending',
    );
    expect((await call(owner, 'POST', `/webhooks/${id}/deliveries/msg_nope/retry`)).status).toBe(404);

    expect((await call(owner, 'DELETE', `/webhooks/${id}`)).status).toBe(204);
    expect((await call(owner, 'GET', `/webhooks/${id}`)).status).toBe(404);
  });
});

describe('alert rules', () => {
  it('creates, lists, changes and deletes rules; members cannot', async () => {
    expect((await call(member, 'POST', '/alert-rules', { name: 'x' })).status).toBe(403);
    const created = await call(owner, 'POST', '/alert-rules', {
      name: 'critical injections',
      minSeverity: 'critical',
      threatTypes: ['prompt_injection'],
      windowSeconds: 60,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      minSeverity: 'critical',
      agents: [],
      windowSeconds: 60,
      enabled: true,
    });
    const changed = await call(owner, 'PATCH', `/alert-rules/${created.body.id}`, {
      agents: ['support-bot'],
    });
    expect(changed.body).toMatchObject({ agents: ['support-bot'], minSeverity: 'critical' });
    expect((await call(viewer, 'GET', '/alert-rules')).body.rules).toHaveLength(1);
    expect(
      (await call(otherOwner, 'PATCH', `/alert-rules/${created.body.id}`, { enabled: false })).status,
    ).toBe(404);
    expect((await call(owner, 'POST', '/alert-rules', { minSeverity: 'extreme' })).status).toBe(400);
    expect((await call(owner, 'DELETE', `/alert-rules/${created.body.id}`)).status).toBe(204);
    expect((await call(viewer, 'GET', '/alert-rules')).body.rules).toEqual([]);
  });
});

describe('OpenAPI', () => {
  it('documents the threat_detected payload in the webhooks section', async () => {
    const doc = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as {
      webhooks: Record<
        string,
        { post: { requestBody: { content: Record<string, { schema: { required: string[] } }> } } }
      >;
      paths: Record<string, unknown>;
    };
    const schema = doc.webhooks.threat_detected!.post.requestBody.content['application/json']!.schema;
    expect(schema.required).toEqual(
      expect.arrayContaining([
        'event',
        'agentId',
        'threatType',
        'severity',
        'timestamp',
        'details',
        'dedupKey',
        'count',
      ]),
    );
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/webhooks',
        '/api/v1/webhooks/{id}/rotate-secret',
        '/api/v1/alert-rules',
      ]),
    );
  });
});
