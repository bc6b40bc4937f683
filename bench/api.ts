/**
 * `npm run bench:api`: the read API over real HTTP against ClickHouse seeded with BENCH_INTERACTIONS
 * (default 1,000,000) interactions over the last 30 days and findings for a third of them (two each),
 * in a private ClickHouse database (seeded on the server with INSERT … SELECT FROM numbers()) and a
 * private PostgreSQL database, both dropped at the end. Measures the 30-day overview, the detections
 * page and the export's rows/s, each against the same query run directly on ClickHouse in the same
 * run (shared/src/analytics, no HTTP, no auth), and prints the ratio. Then the dashboard's overview
 * page over the same 30 days in Debian's Chromium (a fresh browser context per load, signed in, so the
 * JavaScript is fetched each time) until its tiles and chart show and until its top lists show,
 * against the overview request alone.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { buildApp } from '@warden/api';
import {
  detectionsPage,
  overviewFromStates,
  overviewWithActivity,
  streamDetectionLines,
} from '@warden/shared/analytics/index';
import { createClickhouse } from '@warden/shared/clickhouse/client';
import { migrate } from '@warden/shared/clickhouse/migrate';
import { loadEndpoints } from '@warden/shared/config';
import { KeyAuthenticator, KeyStore, PostgresKeys } from '@warden/shared/keys/index';
import { ensureDashboardBuilt, dashboardRoot } from '@warden/shared/dashboard-build';
import { createPostgres, dropDatabase, ensureDatabase } from '@warden/shared/postgres/client';
import { migratePostgres } from '@warden/shared/postgres/migrate';
import { UserDirectory } from '@warden/shared/users/index';
import { launchChromium, VIEWPORT } from '../test/support/chromium';
import { percentile, printTable } from './support/load';

const N = Number(process.env.BENCH_INTERACTIONS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40);
const PAGE_LOADS = Number(process.env.BENCH_PAGE_LOADS ?? 9);
const OWNER = { email: 'owner@bench-api.test', password: 'a long bench password' };
const DAY_MS = 86_400_000;
const PROJECT = 'bench-api';
const suffix = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;

const say = (line: string) => console.log(`[bench:api] ${line}`);
const endpoints = loadEndpoints();
const ch = createClickhouse({ url: endpoints.clickhouseUrl, requestTimeoutMs: 600_000 });
const db = `bench_api_${suffix}`;
const pgUrl = new URL(endpoints.databaseUrl);
pgUrl.pathname = `/bench_api_${suffix}`;
const redis = new Redis(endpoints.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1 });
const prefix = `bench-api-${suffix}:`;

const toMs = Math.floor(Date.now() / 3_600_000) * 3_600_000;
const fromMs = toMs - 30 * DAY_MS;

async function seed(): Promise<void> {
  await migrate(ch, { database: db });
  const started = performance.now();
  // Interactions spread evenly over the 30 days, 20 agents, 2,000 users, 20,000 sessions.
  const at = `(${fromMs} + intDiv(number * ${toMs - fromMs - 1000}, ${N}))`;
  await ch.command({
    query: `INSERT INTO ${db}.interactions (account_id, interaction_id, agent_id, received_at, received_ms,
        event_time, endpoint, platform, user_id, session_id, conversation_id, prompt, response, model,
        tokens_used, response_time_ms, tool_call_count, tool_failures, metadata, schema_version)
      SELECT '${PROJECT}', concat('bench-', toString(number)), concat('agent-', toString(number % 20)),
        toDateTime(intDiv(${at}, 1000), 'UTC'), ${at}, toDateTime(intDiv(${at}, 1000), 'UTC'),
        '/api/v1/telemetry', 'custom', concat('user-', toString(number % 2000)),
        concat('sess-', toString(number % 20000)), concat('conv-', toString(number % 50000)),
        'Could you summarise the refund policy for my order?', 'Refunds are possible within 30 days.',
        'gpt-4o-mini', 150 + number % 100, 300 + number % 500, 1, number % 10 = 0, '{}', 1
      FROM numbers(${N})`,
  });
  // A third of the interactions analysed with two findings; every interaction has its analysis row.
  const severity = `['low', 'medium', 'high', 'critical'][1 + (number + k) % 4]`;
  await ch.command({
    query: `INSERT INTO ${db}.detections (account_id, interaction_id, finding_id, agent_id, received_at,
        received_ms, analyzed_at, analyzed_ms, analysis_detector_version, platform, user_id, session_id,
        conversation_id, detector, detector_version, rule_id, threat_type, severity, confidence, field,
        span_start, span_end, view, entity_type, explanation, masked)
      SELECT '${PROJECT}', concat('bench-', toString(number)), concat('f-', toString(number), '-', toString(k)),
        concat('agent-', toString(number % 20)), toDateTime(intDiv(${at}, 1000), 'UTC'), ${at},
        toDateTime(intDiv(${at}, 1000) + 2, 'UTC'), ${at} + 2000, '1.0.0', 'custom',
        concat('user-', toString(number % 2000)), concat('sess-', toString(number % 20000)),
        concat('conv-', toString(number % 50000)), 'regex', '1.0.0',
        if(k = 0, 'pii.email', 'injection.ignore_previous'), if(k = 0, 'pii_leak', 'prompt_injection'),
        ${severity}, 0.9, if(k = 0, 'response', 'prompt'), 10, 30, 'raw', if(k = 0, 'email', ''),
        if(k = 0, 'an email address in the response', 'asks to ignore previous instructions'),
        if(k = 0, 'j***@example.com', '')
      FROM numbers(${N}) ARRAY JOIN [0, 1] AS k WHERE number % 3 = 0`,
  });
  await ch.command({
    query: `INSERT INTO ${db}.analyses (account_id, interaction_id, agent_id, received_at, received_ms,
        analyzed_at, analyzed_ms, detector_version, platform, user_id, session_id, conversation_id, finding_count)
      SELECT '${PROJECT}', concat('bench-', toString(number)), concat('agent-', toString(number % 20)),
        toDateTime(intDiv(${at}, 1000), 'UTC'), ${at}, toDateTime(intDiv(${at}, 1000) + 2, 'UTC'),
        ${at} + 2000, '1.0.0', 'custom', concat('user-', toString(number % 2000)),
        concat('sess-', toString(number % 20000)), concat('conv-', toString(number % 50000)),
        if(number % 3 = 0, 2, 0)
      FROM numbers(${N})`,
  });
  say(
    `seeded ${N.toLocaleString('en')} interactions in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

/** Latencies of `n` sequential runs of `run`, after two warm-up runs. */
async function timed(n: number, run: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  await run();
  await run();
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await run();
    ms.push(performance.now() - t);
  }
  return quantiles(ms);
}

/** Median and p95 of latencies in ms (sorts them in place). */
function quantiles(ms: number[]): { p50: number; p95: number } {
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p95: percentile(ms, 95) };
}

let pgCreated = false;
let app: Awaited<ReturnType<typeof buildApp>> | undefined;
let keys: KeyAuthenticator | undefined;
const pool = createPostgres({ url: pgUrl.toString() });
try {
  await ensureDatabase(pgUrl.toString());
  pgCreated = true;
  await migratePostgres(pool);
  await seed();

  const { organisationId } = await new UserDirectory(pool).createUser({
    ...OWNER,
    organisation: 'Bench API',
    role: 'owner',
  });
  const store = new KeyStore({ redis, prefix, source: new PostgresKeys(pool) });
  await store.createProject({ accountId: PROJECT, tier: 'enterprise', organisationId });
  const { key } = await store.createKey({ accountId: PROJECT, scopes: ['analytics:read'] });
  keys = new KeyAuthenticator({ redis, prefix, source: new PostgresKeys(pool) });
  await keys.start();
  ensureDashboardBuilt(say);
  app = await buildApp({
    pool,
    redis,
    redisPrefix: prefix,
    keys,
    clickhouse: ch,
    database: db,
    dashboardRoot,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const base = `${origin}/api/v1`;
  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  const range = `from=${new Date(fromMs).toISOString()}&to=${new Date(toMs).toISOString()}`;
  const scope = { accountId: PROJECT, from: fromMs, to: toMs };

  // The first read after seeding summarises every finished hour and stores the summaries; the
  // baseline merges the rollup states of all 720 hours on every read, as the overview did before.
  const coldStarted = performance.now();
  const cold = await overviewWithActivity(ch, db, scope);
  const coldMs = performance.now() - coldStarted;
  const states = JSON.stringify(await overviewFromStates(ch, db, scope));
  for (const [read, answer] of [
    ['first', cold],
    ['stored', await overviewWithActivity(ch, db, scope)],
  ] as const)
    if (JSON.stringify(answer) !== states)
      throw new Error(`overview: the ${read} read disagrees with the rollup states`);
  const overviewApi = await timed(REQUESTS, async () =>
    (await get(`/analytics/overview?${range}&interval=day`)).json(),
  );
  const overviewCh = await timed(REQUESTS, () => overviewWithActivity(ch, db, scope));
  const overviewStates = await timed(REQUESTS, () => overviewFromStates(ch, db, scope));
  // Pages at different depths: the first, then following the cursor.
  let cursor: string | undefined;
  const pageApi = await timed(REQUESTS, async () => {
    const body = (await (
      await get(`/detections?${range}&limit=50${cursor ? `&cursor=${cursor}` : ''}`)
    ).json()) as {
      nextCursor?: string;
    };
    cursor = body.nextCursor;
  });
  let next: Awaited<ReturnType<typeof detectionsPage>>['next'];
  const pageCh = await timed(REQUESTS, async () => {
    next = (await detectionsPage(ch, db, { ...scope, limit: 50, ...(next ? { cursor: next } : {}) })).next;
  });

  const exportApi = async () => {
    const t = performance.now();
    const res = await get(`/detections/export?${range}`);
    let rows = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
      for (const byte of chunk) if (byte === 10) rows++;
    return { rows, seconds: (performance.now() - t) / 1000 };
  };
  const exportCh = async () => {
    const t = performance.now();
    let rows = 0;
    for await (const text of streamDetectionLines(ch, db, scope))
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) rows++;
    return { rows, seconds: (performance.now() - t) / 1000 };
  };
  const viaApi = await exportApi();
  const direct = await exportCh();
  if (viaApi.rows !== direct.rows)
    throw new Error(`export: API ${viaApi.rows} rows, ClickHouse ${direct.rows}`);

  // The overview page as a user opens it: a fresh context (no cached JavaScript), signed in through
  // the API, from navigation until the tiles and the chart show, and until the top lists show too.
  // One load warms the server first.
  say(`overview page in Chromium: ${PAGE_LOADS} loads, each in a fresh browser context …`);
  const browser = await launchChromium();
  const interactive: number[] = [];
  const complete: number[] = [];
  try {
    for (let i = 0; i <= PAGE_LOADS; i++) {
      const context = await browser.newContext({ viewport: VIEWPORT });
      try {
        const login = await context.request.post(`${base}/auth/login`, { data: OWNER });
        if (login.status() !== 200) throw new Error(`login: ${login.status()} ${await login.text()}`);
        const page = await context.newPage();
        const t = performance.now();
        await page.goto(`${origin}/?range=30d`);
        await page.locator('.tile-value').first().waitFor();
        await page.getByText('Interactions over time').waitFor();
        const tiles = performance.now() - t;
        // The three top lists read on after the tiles; the next load waits for them (no pile-up).
        await page.locator('[data-top] table').nth(2).waitFor({ timeout: 120_000 });
        if (i > 0) {
          interactive.push(tiles);
          complete.push(performance.now() - t);
        }
        const shown = Number((await page.locator('.tile-value').first().textContent())?.replace(/\D/g, ''));
        // The page's 30 days end now: the seeded first hour may have left them.
        if (shown < N - Math.ceil(N / 720) - 1)
          throw new Error(`overview page: shows ${shown} interactions of ${N}`);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  const pageLoad = { interactive: quantiles(interactive), complete: quantiles(complete) };

  const ms = (n: number) => Math.round(n * 10) / 10;
  printTable([
    {
      measure: 'overview 30 d, p95 ms',
      api: ms(overviewApi.p95),
      clickhouse: ms(overviewCh.p95),
      ratio: overviewApi.p95 / overviewCh.p95,
      target: '< 300',
      ok: overviewApi.p95 < 300 ? 'yes' : 'NO',
    },
    {
      measure: 'overview 30 d, p50 ms',
      api: ms(overviewApi.p50),
      clickhouse: ms(overviewCh.p50),
      ratio: overviewApi.p50 / overviewCh.p50,
      target: '',
      ok: '',
    },
    {
      measure: 'overview 30 d from rollup states only (before), p95 ms',
      api: ms(overviewApi.p95),
      clickhouse: ms(overviewStates.p95),
      ratio: overviewApi.p95 / overviewStates.p95,
      target: '',
      ok: '',
    },
    {
      measure: 'overview 30 d, first read after seeding (stores 720 hour summaries), ms',
      api: '',
      clickhouse: ms(coldMs),
      ratio: '',
      target: '',
      ok: '',
    },
    {
      measure: 'detections page (50, 30 d), p95 ms',
      api: ms(pageApi.p95),
      clickhouse: ms(pageCh.p95),
      ratio: pageApi.p95 / pageCh.p95,
      target: '< 150',
      ok: pageApi.p95 < 150 ? 'yes' : 'NO',
    },
    {
      measure: 'detections page, p50 ms',
      api: ms(pageApi.p50),
      clickhouse: ms(pageCh.p50),
      ratio: pageApi.p50 / pageCh.p50,
      target: '',
      ok: '',
    },
    {
      measure: `export rows/s (${viaApi.rows.toLocaleString('en')} rows, jsonl)`,
      api: Math.round(viaApi.rows / viaApi.seconds),
      clickhouse: Math.round(direct.rows / direct.seconds),
      ratio: direct.seconds / viaApi.seconds,
      target: '≥ 50,000',
      ok: viaApi.rows / viaApi.seconds >= 50_000 ? 'yes' : 'NO',
    },
  ]);
  console.log('');
  printTable(
    (['interactive', 'complete'] as const).flatMap((stage) =>
      (['p50', 'p95'] as const).map((p) => ({
        measure: `overview page in Chromium, 30 d, ${stage === 'interactive' ? 'tiles and chart' : 'top lists too'}, ${p} ms`,
        page: ms(pageLoad[stage][p]),
        'overview request': ms(overviewApi[p]),
        ratio: pageLoad[stage][p] / overviewApi[p],
        target: stage === 'interactive' && p === 'p50' ? '< 2,000' : '',
        ok: stage === 'interactive' && p === 'p50' ? (pageLoad.interactive.p50 < 2_000 ? 'yes' : 'NO') : '',
      })),
    ),
  );
} finally {
  await app?.close();
  await keys?.stop();
  await ch.command({ query: `DROP DATABASE IF EXISTS ${db}` }).catch(() => undefined);
  await ch.close();
  await pool.end();
  if (pgCreated) await dropDatabase(pgUrl.toString()).catch(() => undefined);
  for await (const batch of redis.scanStream({ match: `${prefix}*`, count: 500 }) as AsyncIterable<string[]>)
    if (batch.length > 0) await redis.del(...batch);
  redis.disconnect();
}
