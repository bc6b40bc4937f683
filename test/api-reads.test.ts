import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRegistry } from '@warden/shared/agents/index';
import { selectRows } from '@warden/shared/clickhouse/client';
import { KeyStore, PostgresKeys, usageDay } from '@warden/shared/keys/index';
import { SEVERITIES } from '@warden/shared/schemas/detection';
import { UserDirectory } from '@warden/shared/users/index';
import {
  ACCOUNT,
  ACME,
  AGENTS,
  DAY_FROM,
  DAY_TO,
  OTHER_ACCOUNT,
  OTHERS,
  seedAnalysedOnce,
} from './support/analytics-seed';
import { apiClient, type Signed, listeningApi, type ListeningApi } from './support/api-client';
import { testDatabase } from './support/pipeline';
import { testPostgres, type TestPostgres } from './support/postgres';
import { redisNamespace } from './support/redis-namespace';

/**
 * The read half of the API (issue #22): agents, interactions pages, the detections export and key
 * usage, on the real stack, with acme (free tier: 3 agents) in organisation A and globex in B.
 * Expectations come from direct ClickHouse queries over the same seed.
 */
const PASSWORD = 'correct horse battery staple';
const { prefix, redis } = redisNamespace('api-reads');
let pg: TestPostgres;
let ch: Awaited<ReturnType<typeof testDatabase>>;
let api: ListeningApi;
let app: FastifyInstance;
let base = '';
const { call, login } = apiClient(() => base);
let keyA: { keyId: string; key: string };
let keyB: { keyId: string; key: string };
let ownerA: Signed;
let ownerB: Signed;

const range = `from=${DAY_FROM}&to=${DAY_TO}`;
const inRange = (s: { receivedMs: number }) =>
  s.receivedMs >= Date.parse(DAY_FROM) && s.receivedMs < Date.parse(DAY_TO);
const acmeIds = new Set(ACME.map((s) => s.id));
const globexIds = new Set(OTHERS.map((s) => s.id));

const direct = <T>(query: string) => selectRows<T>(ch.client, query);
const rangeSql = `received_at >= toDateTime('2025-03-01 00:00:00', 'UTC') AND received_at < toDateTime('2025-03-02 00:00:00', 'UTC')`;

beforeAll(async () => {
  pg = await testPostgres();
  ch = await testDatabase('warden_test_api_reads');
  await seedAnalysedOnce(ch.client, ch.db);

  const users = new UserDirectory(pg.pool);
  const a = await users.createUser({
    email: 'owner@a.test',
    password: PASSWORD,
    organisation: 'A',
    role: 'owner',
  });
  await users.createUser({ email: 'viewer@a.test', password: PASSWORD, organisation: 'A', role: 'viewer' });
  const b = await users.createUser({
    email: 'owner@b.test',
    password: PASSWORD,
    organisation: 'B',
    role: 'owner',
  });
  const store = new KeyStore({ redis, prefix, source: new PostgresKeys(pg.pool) });
  await store.createProject({ accountId: ACCOUNT, tier: 'free', organisationId: a.organisationId });
  await store.createProject({
    accountId: OTHER_ACCOUNT,
    tier: 'professional',
    organisationId: b.organisationId,
  });
  keyA = await store.createKey({ accountId: ACCOUNT, scopes: ['analytics:read', 'keys:manage'] });
  keyB = await store.createKey({ accountId: OTHER_ACCOUNT, scopes: ['analytics:read', 'keys:manage'] });

  api = await listeningApi({
    pool: pg.pool,
    redis,
    redisPrefix: prefix,
    clickhouse: ch.client,
    database: ch.db,
  });
  ({ app, base } = api);
  ownerA = await login('owner@a.test', PASSWORD);
  ownerB = await login('owner@b.test', PASSWORD);
}, 180_000);

afterAll(async () => {
  await api?.close();
  await ch?.drop();
  await pg?.drop();
});

describe('agents', () => {
  it('lists agents with activity equal to direct ClickHouse counts, merged with their PostgreSQL row', async () => {
    const named = await call('PATCH', '/api/v1/agents/support-bot', {
      ...ownerA,
      body: { name: 'Support', description: 'Answers customers', canaries: ['CANARY-1234'] },
    });
    expect(named.status, named.text).toBe(200);
    expect(named.body).toMatchObject({ name: 'Support', canaries: ['CANARY-1234'], archived: false });

    const res = await call('GET', `/api/v1/agents?${range}`, { key: keyA.key });
    expect(res.status, res.text).toBe(200);
    const interactions = await direct<{ agent_id: string; n: string }>(
      `SELECT agent_id, uniqExact(interaction_id) AS n FROM ${ch.db}.interactions
       WHERE account_id = '${ACCOUNT}' AND ${rangeSql} GROUP BY agent_id`,
    );
    const findings = await direct<{ agent_id: string; severity: string; n: string }>(
      `SELECT agent_id, severity, uniqExact(finding_id) AS n FROM ${ch.db}.detections
       WHERE account_id = '${ACCOUNT}' AND ${rangeSql} GROUP BY agent_id, severity`,
    );
    expect(res.body.agents.map((a: { agentId: string }) => a.agentId)).toEqual(
      AGENTS.map((a) => a.id).sort(),
    );
    for (const agent of res.body.agents) {
      const expected = Object.fromEntries(
        SEVERITIES.map((sev) => [
          sev,
          Number(findings.find((f) => f.agent_id === agent.agentId && f.severity === sev)?.n ?? 0),
        ]),
      );
      expect(agent.bySeverity).toEqual(expected);
      expect(agent.findings).toBe(Object.values(expected).reduce((x, y) => x + y, 0));
      expect(agent.interactions).toBe(Number(interactions.find((r) => r.agent_id === agent.agentId)?.n));
      expect(agent.firstSeen <= agent.lastSeen).toBe(true);
    }
    expect(res.body.agents.reduce((n: number, a: { interactions: number }) => n + a.interactions, 0)).toBe(
      ACME.filter(inRange).length,
    );
    expect(res.body.agents.find((a: { agentId: string }) => a.agentId === 'support-bot')).toMatchObject({
      name: 'Support',
      description: 'Answers customers',
    });
    const one = await call('GET', `/api/v1/agents/sales-bot?${range}`, { key: keyA.key });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(res.body.agents.find((a: { agentId: string }) => a.agentId === 'sales-bot'));
  });

  it('archiving frees a slot of the tier agent limit at once; unarchiving needs one', async () => {
    // The registry ingest admits agents with; free tier: 3 agents.
    const ingest = new AgentRegistry({ redis, prefix, lastSeenEveryMs: 0 });
    for (const a of AGENTS) expect((await ingest.admit(ACCOUNT, a.id, 3)).allowed).toBe(true);
    expect((await ingest.admit(ACCOUNT, 'new-bot', 3)).allowed).toBe(false);

    const viewer = await login('viewer@a.test', PASSWORD);
    expect(
      (await call('PATCH', '/api/v1/agents/sales-bot', { ...viewer, body: { archived: true } })).status,
    ).toBe(403);
    const archived = await call('PATCH', '/api/v1/agents/sales-bot', {
      key: keyA.key,
      body: { archived: true },
    });
    expect(archived.status, archived.text).toBe(200);
    expect(archived.body).toMatchObject({ archived: true, archivedAt: expect.any(String) });
    expect((await ingest.admit(ACCOUNT, 'new-bot', 3)).allowed).toBe(true);
    // The archived agent itself is refused: at once here (re-checked on its next request), and a
    // process that had it cached notices within lastSeenEveryMs.
    await ingest.admit(ACCOUNT, 'sales-bot', 3);
    await new Promise((r) => setTimeout(r, 100));
    expect(await ingest.admit(ACCOUNT, 'sales-bot', 3)).toMatchObject({ allowed: false, archived: true });

    const full = await call('PATCH', '/api/v1/agents/sales-bot', {
      key: keyA.key,
      body: { archived: false },
    });
    expect(full.status).toBe(409);
    expect(full.body.error.code).toBe('CONFLICT');
    expect(
      (await call('PATCH', '/api/v1/agents/ops-bot', { key: keyA.key, body: { archived: true } })).status,
    ).toBe(200);
    const back = await call('PATCH', '/api/v1/agents/sales-bot', {
      key: keyA.key,
      body: { archived: false },
    });
    expect(back.status, back.text).toBe(200);
    expect(back.body.archived).toBe(false);
    expect((await ingest.admit(ACCOUNT, 'sales-bot', 3)).allowed).toBe(true);
    await ingest.admit(ACCOUNT, 'ops-bot', 3); // cached as known here: passes once, then re-checked
    await new Promise((r) => setTimeout(r, 100));
    expect(await ingest.admit(ACCOUNT, 'ops-bot', 3)).toMatchObject({ allowed: false, archived: true });
    const listed = await call('GET', `/api/v1/agents?${range}`, { key: keyA.key });
    expect(
      listed.body.agents
        .filter((a: { archived: boolean }) => a.archived)
        .map((a: { agentId: string }) => a.agentId),
    ).toEqual(['ops-bot']);
  });

  it('rejects a PATCH with nothing to change or unknown fields', async () => {
    expect((await call('PATCH', '/api/v1/agents/support-bot', { key: keyA.key, body: {} })).status).toBe(400);
    expect(
      (await call('PATCH', '/api/v1/agents/support-bot', { key: keyA.key, body: { owner: 'x' } })).status,
    ).toBe(400);
  });
});

describe('interactions', () => {
  it('pages newest first without gaps or repeats, with and without filters', async () => {
    const pages = async (query: string, opts: { key?: string; cookie?: string }) => {
      const ids: string[] = [];
      const times: string[] = [];
      let cursor: string | undefined;
      for (let n = 0; n < 100; n++) {
        const res = await call(
          'GET',
          `/api/v1/interactions?${query}&limit=7${cursor ? `&cursor=${cursor}` : ''}`,
          opts,
        );
        expect(res.status, res.text).toBe(200);
        ids.push(...res.body.items.map((i: { interactionId: string }) => i.interactionId));
        times.push(...res.body.items.map((i: { receivedAt: string }) => i.receivedAt));
        cursor = res.body.nextCursor;
        if (!cursor) break;
      }
      return { ids, times };
    };
    const all = await pages(range, { key: keyA.key });
    const expected = ACME.filter(inRange).sort(
      (x, y) => y.receivedMs - x.receivedMs || (x.id < y.id ? 1 : -1),
    );
    expect(all.ids).toEqual(expected.map((s) => s.id));
    expect(new Set(all.ids).size).toBe(all.ids.length);
    expect([...all.times].sort().reverse()).toEqual(all.times);

    const bySession = await pages(`${range}&sessionId=sess-3&agentId=support-bot`, { cookie: ownerA.cookie });
    expect(bySession.ids).toEqual(
      expected.filter((s) => s.sessionId === 'sess-3' && s.agent.id === 'support-bot').map((s) => s.id),
    );
    expect((await call('GET', `/api/v1/interactions?${range}&cursor=bm9wZQ`, { key: keyA.key })).status).toBe(
      400,
    );
  });
});

describe('detections export', () => {
  it('streams every current finding as JSON lines and as CSV, equal to a direct count', async () => {
    const [{ n }] = (await direct<{ n: string }>(
      `SELECT uniqExact(finding_id) AS n FROM ${ch.db}.detections WHERE account_id = '${ACCOUNT}' AND ${rangeSql}`,
    )) as [{ n: string }];
    expect(Number(n)).toBeGreaterThan(10);

    const jsonl = await call('GET', `/api/v1/detections/export?${range}`, { key: keyA.key });
    expect(jsonl.status).toBe(200);
    expect(jsonl.headers.get('content-type')).toContain('application/x-ndjson');
    const rows = jsonl.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { findingId: string; interactionId: string });
    expect(rows.length).toBe(Number(n));
    expect(new Set(rows.map((r) => r.findingId)).size).toBe(rows.length);
    expect(rows.every((r) => acmeIds.has(r.interactionId))).toBe(true);

    const page = await call('GET', `/api/v1/detections?${range}&limit=1000`, { key: keyA.key });
    expect(rows).toEqual(page.body.items);
    // Small pages (each looks back an hour, then wider) join up to the same list, no gaps, no repeats.
    const paged: unknown[] = [];
    let cursor: string | undefined;
    do {
      const next = await call(
        'GET',
        `/api/v1/detections?${range}&limit=7${cursor ? `&cursor=${cursor}` : ''}`,
        {
          key: keyA.key,
        },
      );
      paged.push(...next.body.items);
      cursor = next.body.nextCursor;
    } while (cursor && paged.length <= rows.length);
    expect(paged).toEqual(rows);

    const csv = await call('GET', `/api/v1/detections/export?${range}&format=csv&severity=high`, {
      cookie: ownerA.cookie,
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toMatch(/attachment; filename="detections-.*\.csv"/);
    const lines = csv.text.trim().split('\n');
    expect(lines[0]).toBe(
      'findingId,interactionId,agentId,receivedAt,threatType,severity,ruleId,detector,detectorVersion,confidence,field,start,end,entityType,explanation,masked,userId,sessionId,conversationId',
    );
    const high = page.body.items.filter((i: { severity: string }) => i.severity === 'high');
    expect(high.length).toBeGreaterThan(0);
    expect(lines.length - 1).toBe(high.length);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(
      high.map((i: { findingId: string }) => i.findingId),
    );
  });
});

describe('key usage', () => {
  it('answers requests per UTC day, every day of the window listed', async () => {
    const today = usageDay();
    const twoDaysAgo = usageDay(Date.parse(today) - 2 * 86_400_000);
    await pg.pool.query(
      `INSERT INTO key_usage (key_id, day, requests) VALUES ($1, $2, 40), ($1, $3, 2), ($1, $4, 99)`,
      [keyA.keyId, today, twoDaysAgo, usageDay(Date.parse(today) - 40 * 86_400_000)],
    );
    const res = await call('GET', `/api/v1/keys/${keyA.keyId}/usage?days=7`, { cookie: ownerA.cookie });
    expect(res.status, res.text).toBe(200);
    expect(res.body.days).toHaveLength(7);
    expect(res.body.days.at(-1)).toEqual({ day: today, requests: 40 });
    expect(res.body.days.at(-3)).toEqual({ day: twoDaysAgo, requests: 2 });
    expect(res.body.total).toBe(42);
    expect((await call('GET', `/api/v1/keys/${keyA.keyId}/usage`, { key: keyA.key })).body.days).toHaveLength(
      30,
    );
    expect((await call('GET', `/api/v1/keys/${keyA.keyId}/usage?days=0`, { key: keyA.key })).status).toBe(
      400,
    );
  });
});

describe('tenant isolation', () => {
  it("organisation B gets 404 on A's ids, a forged project header, and sees none of A's rows", async () => {
    // Named by A: B shares agent ids (its own agents), never A's row.
    const bAgent = await call('GET', `/api/v1/agents/support-bot?${range}`, { key: keyB.key });
    expect(bAgent.status).toBe(200);
    expect(bAgent.body.name).toBeUndefined();
    expect(bAgent.body.interactions).toBe(OTHERS.filter((s) => s.agent.id === 'support-bot').length);
    expect((await call('GET', `/api/v1/agents/new-bot?${range}`, { key: keyB.key })).status).toBe(404);
    expect((await call('GET', `/api/v1/agents/guessed-bot`, { key: keyA.key })).status).toBe(404);
    const patched = await call('PATCH', '/api/v1/agents/sales-bot', { ...ownerB, body: { name: 'Mine' } });
    expect(patched.status).toBe(200);
    expect((await call('GET', `/api/v1/agents/sales-bot`, { key: keyA.key })).body.name).toBeUndefined();

    const bAgents = await call('GET', `/api/v1/agents?${range}`, { cookie: ownerB.cookie });
    expect(bAgents.body.projectId).toBe(OTHER_ACCOUNT);
    expect(
      bAgents.body.agents.reduce((n: number, a: { interactions: number }) => n + a.interactions, 0),
    ).toBe(OTHERS.filter(inRange).length);

    // Filters with A's values narrow B's own rows only.
    const acmeSession = ACME[3]!.sessionId;
    for (const query of ['', `&sessionId=${acmeSession}`, `&userId=${ACME[3]!.userId}&agentId=support-bot`]) {
      const list = await call('GET', `/api/v1/interactions?${range}${query}&limit=1000`, { key: keyB.key });
      expect(list.status).toBe(200);
      expect(list.body.items.every((i: { interactionId: string }) => globexIds.has(i.interactionId))).toBe(
        true,
      );
      const exported = await call('GET', `/api/v1/detections/export?${range}${query}`, { key: keyB.key });
      expect(exported.status).toBe(200);
      for (const line of exported.text.split('\n').filter(Boolean))
        expect(globexIds.has((JSON.parse(line) as { interactionId: string }).interactionId)).toBe(true);
    }

    // A's cursor in B's hands pages B's rows.
    const aPage = await call('GET', `/api/v1/interactions?${range}&limit=2`, { key: keyA.key });
    const bNext = await call('GET', `/api/v1/interactions?${range}&cursor=${aPage.body.nextCursor}`, {
      key: keyB.key,
    });
    expect(bNext.body.items.every((i: { interactionId: string }) => globexIds.has(i.interactionId))).toBe(
      true,
    );

    // Forged project header: key and session alike.
    for (const path of [
      `/api/v1/agents?${range}`,
      '/api/v1/agents/support-bot',
      `/api/v1/interactions?${range}`,
      `/api/v1/detections/export?${range}`,
      `/api/v1/keys/${keyB.keyId}/usage`,
    ]) {
      expect((await call('GET', path, { key: keyB.key, project: ACCOUNT })).status, path).toBe(404);
      expect((await call('GET', path, { cookie: ownerB.cookie, project: ACCOUNT })).status, path).toBe(404);
    }
    const forgedPatch = await call('PATCH', '/api/v1/agents/support-bot', {
      ...ownerB,
      project: ACCOUNT,
      body: { archived: true },
    });
    expect(forgedPatch.status).toBe(404);

    // A's key id: not found for B.
    expect((await call('GET', `/api/v1/keys/${keyA.keyId}/usage`, { key: keyB.key })).status).toBe(404);
    expect((await call('GET', `/api/v1/keys/${keyA.keyId}/usage`, { cookie: ownerB.cookie })).status).toBe(
      404,
    );
    expect((await call('GET', `/api/v1/agents/support-bot`, { key: keyA.key })).body.archived).toBe(false);
  });

  it('lists every status each new route answers in the OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const statuses = (path: string, method: string) =>
      Object.keys(doc.paths[path]?.[method]?.responses ?? {});
    expect(statuses('/api/v1/agents', 'get')).toEqual(['200', '400', '401', '403', '404', '500', '503']);
    expect(statuses('/api/v1/agents/{agentId}', 'patch')).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '415',
      '500',
      '503',
    ]);
    expect(statuses('/api/v1/interactions', 'get')).toContain('400');
    expect(statuses('/api/v1/detections/export', 'get')).toContain('200');
    expect(statuses('/api/v1/keys/{keyId}/usage', 'get')).toContain('404');
  });
});
