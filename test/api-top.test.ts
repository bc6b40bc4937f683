import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '@warden/shared/clickhouse/client';
import { detectionRows } from '@warden/shared/clickhouse/rows';
import { KeyStore, PostgresKeys } from '@warden/shared/keys/index';
import { UserDirectory } from '@warden/shared/users/index';
import {
  ACCOUNT,
  ACME,
  analysisOf,
  DAY_FROM,
  DAY_TO,
  OTHER_ACCOUNT,
  seedAnalysedOnce,
} from './support/analytics-seed';
import { apiClient, type Signed, listeningApi, type ListeningApi } from './support/api-client';
import { testDatabase } from './support/pipeline';
import { testPostgres, type TestPostgres } from './support/postgres';
import { redisNamespace } from './support/redis-namespace';

/**
 * GET /api/v1/analytics/top (the overview's and an agent page's top lists) on the real stack: acme in
 * organisation A, globex and an empty project in B. Expectations are direct ClickHouse counts over the
 * seed, and stay so after the sink inserts a block of detections a second time.
 */
const PASSWORD = 'correct horse battery staple';
const EMPTY_ACCOUNT = 'initech';
const { prefix, redis } = redisNamespace('api-top');
let pg: TestPostgres;
let ch: Awaited<ReturnType<typeof testDatabase>>;
let api: ListeningApi;
let app: FastifyInstance;
let base = '';
const { call, login } = apiClient(() => base);
let keyA: { keyId: string; key: string };
let keyB: { keyId: string; key: string };
let keyEmpty: { keyId: string; key: string };
let ingestOnly: { keyId: string; key: string };
let ownerA: Signed;
let ownerB: Signed;

const range = `from=${DAY_FROM}&to=${DAY_TO}`;
const rangeSql = `received_at >= toDateTime('2025-03-01 00:00:00', 'UTC') AND received_at < toDateTime('2025-03-02 00:00:00', 'UTC')`;
const COLUMNS = {
  agent: 'agent_id',
  rule: 'rule_id',
  threat: 'threat_type',
  user: 'user_id',
  session: 'session_id',
} as const;
type By = keyof typeof COLUMNS;

interface Item {
  key: string;
  findings: number;
  flaggedInteractions: number;
  critical: number;
  high: number;
}

/** The top list computed straight from raw `detections` (the seed has one analysis per interaction). */
async function directTop(account: string, by: By, limit = 10, agentId?: string): Promise<Item[]> {
  const column = COLUMNS[by];
  const rows = await selectRows<{ key: string; f: string; i: string; c: string; h: string }>(
    ch.client,
    `SELECT ${column} AS key, uniqExact(finding_id) AS f, uniqExact(interaction_id) AS i,
       uniqExactIf(finding_id, severity = 'critical') AS c, uniqExactIf(finding_id, severity = 'high') AS h
     FROM ${ch.db}.detections
     WHERE account_id = '${account}' AND ${rangeSql} AND ${column} != ''
       ${agentId ? `AND agent_id = '${agentId}'` : ''}
     GROUP BY key ORDER BY f DESC, key LIMIT ${limit}`,
  );
  return rows.map((r) => ({
    key: r.key,
    findings: Number(r.f),
    flaggedInteractions: Number(r.i),
    critical: Number(r.c),
    high: Number(r.h),
  }));
}

beforeAll(async () => {
  pg = await testPostgres();
  ch = await testDatabase('warden_test_api_top');
  await seedAnalysedOnce(ch.client, ch.db);

  const users = new UserDirectory(pg.pool);
  const a = await users.createUser({
    email: 'owner@a.test',
    password: PASSWORD,
    organisation: 'A',
    role: 'owner',
  });
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
  await store.createProject({
    accountId: EMPTY_ACCOUNT,
    tier: 'professional',
    organisationId: b.organisationId,
  });
  keyA = await store.createKey({ accountId: ACCOUNT, scopes: ['analytics:read'] });
  keyB = await store.createKey({ accountId: OTHER_ACCOUNT, scopes: ['analytics:read'] });
  keyEmpty = await store.createKey({ accountId: EMPTY_ACCOUNT, scopes: ['analytics:read'] });
  ingestOnly = await store.createKey({ accountId: ACCOUNT, scopes: ['ingest'] });

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

describe('GET /api/v1/analytics/top', () => {
  it('ranks agents, rules, users and sessions exactly as direct ClickHouse counts do', async () => {
    for (const by of ['agent', 'rule', 'threat', 'user', 'session'] as const) {
      const res = await call('GET', `/api/v1/analytics/top?${range}&by=${by}`, { key: keyA.key });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ projectId: ACCOUNT, by, from: DAY_FROM, to: DAY_TO });
      const expected = await directTop(ACCOUNT, by);
      expect(expected.length, by).toBeGreaterThan(0);
      expect(res.body.items, by).toEqual(expected);
    }
    // The seed's rules, by hand: every sixth interaction carries the injection (high).
    const rules = (await call('GET', `/api/v1/analytics/top?${range}&by=rule`, { key: keyA.key })).body
      .items as Item[];
    const injection = rules.find((r) => r.key === 'inj.ignore-previous');
    expect(injection).toMatchObject({ findings: 10, flaggedInteractions: 10, high: 10, critical: 0 });
    expect(rules.find((r) => r.key === 'jb.dan')).toMatchObject({ critical: 4, high: 0 });
  });

  it('takes a limit (default 10, at most 100) and an agent filter', async () => {
    const one = await call('GET', `/api/v1/analytics/top?${range}&by=session&limit=2`, { key: keyA.key });
    expect(one.status).toBe(200);
    expect(one.body.items).toEqual(await directTop(ACCOUNT, 'session', 2));
    expect(one.body.items).toHaveLength(2);

    for (const by of ['rule', 'threat', 'user', 'session', 'agent'] as const) {
      const res = await call('GET', `/api/v1/analytics/top?${range}&by=${by}&agentId=sales-bot`, {
        cookie: ownerA.cookie,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.items, by).toEqual(await directTop(ACCOUNT, by, 10, 'sales-bot'));
    }
    for (const bad of ['limit=0', 'limit=101', 'limit=abc', 'by=model', '']) {
      const query = bad.startsWith('by=') || bad === '' ? `${range}&${bad}` : `${range}&by=rule&${bad}`;
      const res = await call('GET', `/api/v1/analytics/top?${query}`, { key: keyA.key });
      expect(res.status, `${bad}: ${res.text}`).toBe(400);
      expect(res.body.error.code).toMatch(/^(INVALID_|MISSING_REQUIRED_FIELD)/);
    }
    const reversed = await call('GET', `/api/v1/analytics/top?from=${DAY_TO}&to=${DAY_FROM}&by=rule`, {
      key: keyA.key,
    });
    expect(reversed.status).toBe(400);
  });

  it('counts a block the sink inserted twice once', async () => {
    // The same findings again, as after a crash between the insert and the offset commit.
    const again = ACME.slice(0, 30).map((s) => analysisOf(s, '1.0.0', s.receivedMs + 2000));
    await ch.client.insert({
      table: `${ch.db}.detections`,
      values: again.flatMap(detectionRows),
      format: 'JSONEachRow',
    });
    const raw = await selectRows<{ n: string }>(
      ch.client,
      `SELECT count() AS n FROM ${ch.db}.detections WHERE account_id = '${ACCOUNT}'`,
    );
    const distinct = await selectRows<{ n: string }>(
      ch.client,
      `SELECT uniqExact(finding_id) AS n FROM ${ch.db}.detections WHERE account_id = '${ACCOUNT}'`,
    );
    // Unless a merge already folded them, the duplicates are there to be miscounted.
    expect(Number(raw[0]?.n)).toBeGreaterThanOrEqual(Number(distinct[0]?.n));
    for (const by of ['agent', 'rule', 'threat', 'user', 'session'] as const) {
      const res = await call('GET', `/api/v1/analytics/top?${range}&by=${by}`, { key: keyA.key });
      expect(res.status).toBe(200);
      expect(res.body.items, by).toEqual(await directTop(ACCOUNT, by));
    }
  });

  it("another project's key sees none of acme's rows, and cannot name acme", async () => {
    for (const by of ['agent', 'rule', 'threat', 'user', 'session'] as const) {
      const empty = await call('GET', `/api/v1/analytics/top?${range}&by=${by}`, { key: keyEmpty.key });
      expect(empty.status).toBe(200);
      expect(empty.body).toMatchObject({ projectId: EMPTY_ACCOUNT, items: [] });

      // globex shares agent and user ids with acme: its lists count only its own five interactions.
      const other = await call('GET', `/api/v1/analytics/top?${range}&by=${by}`, { key: keyB.key });
      expect(other.status).toBe(200);
      expect(other.body.items, by).toEqual(await directTop(OTHER_ACCOUNT, by));
      const total = (other.body.items as Item[]).reduce((n, i) => n + i.findings, 0);
      expect(total, by).toBeLessThanOrEqual(5);
    }
    const named = await call('GET', `/api/v1/analytics/top?${range}&by=rule`, {
      key: keyB.key,
      project: ACCOUNT,
    });
    expect(named.status).toBe(404);
    const session = await call('GET', `/api/v1/analytics/top?${range}&by=rule`, {
      cookie: ownerB.cookie,
      project: ACCOUNT,
    });
    expect(session.status).toBe(404);
    expect(session.text).not.toContain('inj.ignore-previous');
  });

  it('refuses callers without a credential or the scope', async () => {
    expect((await call('GET', `/api/v1/analytics/top?${range}&by=rule`)).status).toBe(401);
    const ingest = await call('GET', `/api/v1/analytics/top?${range}&by=rule`, { key: ingestOnly.key });
    expect(ingest.status).toBe(403);
    expect(ingest.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
  });

  it('lists every status in the OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, unknown>; parameters?: { name: string }[] }>
      >;
    };
    const op = doc.paths['/api/v1/analytics/top']?.get;
    expect(Object.keys(op?.responses ?? {})).toEqual(['200', '400', '401', '403', '404', '500', '503']);
    expect(op?.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(['from', 'to', 'by', 'limit', 'agentId', 'x-warden-project']),
    );
  });
});
