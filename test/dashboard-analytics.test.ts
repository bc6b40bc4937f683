import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { ClickHouseClient } from '@clickhouse/client';
import { createClickhouse } from '@warden/shared/clickhouse/client';
import { analysisRow, detectionRows, interactionRow } from '@warden/shared/clickhouse/rows';
import { ensureDashboardBuilt } from '@warden/shared/dashboard-build';
import { PostgresKeys } from '@warden/shared/keys/index';
import { UserDirectory } from '@warden/shared/users/index';
import { ACME, analysisOf, envelopeOf, type SeedInteraction } from './support/analytics-seed';
import { endpoints, uniqueName } from './support/pipeline';
import { checkPage, launchChromium, signedInContext } from './support/browser';
import { startWarden, type RunningWarden } from './support/warden-start';

/**
 * The analytics pages (overview, detections, an agent) in Debian's Chromium against `warden start`,
 * over the analytics seed moved to two days ago: its 60 interactions of three agents, their users and
 * five rules. Each page passes axe-core and is photographed into docs/screenshots/ (as in
 * dashboard.test.ts, whose harness this repeats).
 */
const PASSWORD = 'a long analytics password';

let warden: RunningWarden;
let clickhouse: ClickHouseClient;
let browser: Browser;
let owner: BrowserContext;
let base: string;
let projectId: string;

// The seed's day (2025-03-01) moved to two days ago, UTC: a custom range of that day shows all of it.
const DAY_MS = 86_400_000;
const SEED_DAY = Date.UTC(2025, 2, 1);
const day = Math.floor(Date.now() / DAY_MS) * DAY_MS - 2 * DAY_MS;
const from = new Date(day).toISOString();
const to = new Date(day + DAY_MS).toISOString();
const custom = `range=custom&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
const seeded = (account: string): SeedInteraction[] =>
  ACME.slice(0, 60).map((s) => ({ ...s, account, receivedMs: s.receivedMs - SEED_DAY + day }));

/** A signed-in browser context (the session cookie through the API's login). */
const signedIn = (email: string): Promise<BrowserContext> =>
  signedInContext(browser, base, { email, password: PASSWORD }, { timezoneId: 'UTC' });

async function insertAnalysed(rows: SeedInteraction[]) {
  const db = warden.database;
  await clickhouse.insert({
    table: `${db}.interactions`,
    values: rows.map(envelopeOf).map(interactionRow),
    format: 'JSONEachRow',
  });
  const analyses = rows.map((s) => analysisOf(s, '1.0.0', s.receivedMs + 2000));
  await clickhouse.insert({
    table: `${db}.detections`,
    values: analyses.flatMap(detectionRows),
    format: 'JSONEachRow',
  });
  await clickhouse.insert({
    table: `${db}.analyses`,
    values: analyses.map(analysisRow),
    format: 'JSONEachRow',
  });
}

/** The texts of a table's first column (the keys of a top list, the rows of a table). */
const keysOf = (p: Page, top: string) => p.locator(`[data-top="${top}"] tbody th`).allInnerTexts();

beforeAll(async () => {
  ensureDashboardBuilt();
  warden = await startWarden();
  base = `http://127.0.0.1:${warden.apiPort}`;
  clickhouse = createClickhouse({ url: endpoints().clickhouseUrl });
  const users = new UserDirectory(warden.controlPlane.pool);
  const created = await users.createUser({
    email: 'owner@analytics.test',
    password: PASSWORD,
    organisation: uniqueName('Analytics Org'),
    role: 'owner',
  });
  const lonely = await users.createUser({
    email: 'newcomer@analytics.test',
    password: PASSWORD,
    organisation: uniqueName('Empty Org'),
    role: 'owner',
  });
  projectId = uniqueName('analytics');
  const projects = new PostgresKeys(warden.controlPlane.pool);
  await projects.createProject({
    accountId: projectId,
    tier: 'professional',
    organisationId: created.organisationId,
  });
  await projects.createProject({
    accountId: uniqueName('empty'),
    tier: 'professional',
    organisationId: lonely.organisationId,
  });
  await insertAnalysed(seeded(projectId));
  browser = await launchChromium();
  owner = await signedIn('owner@analytics.test');
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await clickhouse?.close();
  await warden?.stop();
}, 120_000);

describe('dashboard analytics pages', () => {
  it('the overview of a custom range shows its tiles, charts and top agents, rules and users', async () => {
    const page = await owner.newPage();
    await page.goto(`${base}/?${custom}`);
    await page.locator('[data-top="rule"] tbody tr').first().waitFor();
    await page.locator('[data-top="agent"] tbody tr').first().waitFor();
    await page.locator('[data-top="user"] tbody tr').first().waitFor();
    expect(await page.locator('.tile-value').first().textContent()).toBe('60');
    expect((await keysOf(page, 'agent')).sort()).toEqual(['ops-bot', 'sales-bot', 'support-bot']);
    // Every sixth interaction carries the injection: the seed's most frequent rule.
    expect((await keysOf(page, 'rule'))[0]).toBe('inj.ignore-previous');
    expect((await keysOf(page, 'user')).sort()).toEqual(['user-0', 'user-1', 'user-2', 'user-3', 'user-4']);
    // The overview's series carry findings per severity: the detections chart stacks them.
    await page.getByText('Detections over time, by severity').waitFor();
    expect(
      await page.getByRole('img', { name: /Detections over time, by severity: critical, high/ }).count(),
    ).toBe(1);
    // The custom range's inputs show it, in the browser's time zone (UTC here).
    expect(await page.getByLabel('From').inputValue()).toBe(from.slice(0, 16));
    expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe(to.slice(0, 16));
    // Each top entry links to the detections it counts, over the same range.
    const link = page.locator('[data-top="agent"] a', { hasText: 'sales-bot' });
    expect(await link.getAttribute('href')).toBe(`/detections?agentId=sales-bot&${custom}`);
    await checkPage(page, 'overview-top-lists');

    await link.click();
    await page.waitForURL(/\/detections\?agentId=sales-bot/);
    await page.locator('tr[data-finding-id]').first().waitFor();
    const agents = await page.locator('tr[data-finding-id] td:nth-child(5)').allInnerTexts();
    expect(new Set(agents)).toEqual(new Set(['sales-bot']));
    expect(await page.getByLabel('Agent').inputValue()).toBe('sales-bot');
    await page.close();
  });

  it('the same URL in a fresh browser reproduces the view; a preset puts itself in the URL', async () => {
    const first = await owner.newPage();
    await first.goto(`${base}/?${custom}`);
    await first.locator('[data-top="rule"] tbody tr').first().waitFor();
    const view = async (p: Page) => ({
      tiles: await p.locator('.tile-value').allInnerTexts(),
      agents: await p.locator('[data-top="agent"] tbody').innerText(),
      rules: await p.locator('[data-top="rule"] tbody').innerText(),
      users: await p.locator('[data-top="user"] tbody').innerText(),
    });
    const shown = await view(first);

    const other = await signedIn('owner@analytics.test');
    const second = await other.newPage();
    await second.goto(first.url());
    await second.locator('[data-top="rule"] tbody tr').first().waitFor();
    expect(await view(second)).toEqual(shown);
    await other.close();

    await first.getByRole('button', { name: '7 d' }).click();
    await first.waitForURL(/\?range=7d$/);
    // A custom range typed into the page lands in the URL and shows the same view again.
    await first.getByRole('button', { name: 'Custom' }).click();
    await first.getByLabel('From').fill(from.slice(0, 16));
    await first.getByLabel('To', { exact: true }).fill(to.slice(0, 16));
    await first.getByRole('button', { name: 'Apply range' }).click();
    await first.waitForURL(`${base}/?${custom}`);
    await first.locator('[data-top="rule"] tbody tr').first().waitFor();
    expect(await view(first)).toEqual(shown);
    await first.close();
  });

  it('/detections grouped by rule shows one group per rule; by conversation, one for the seed', async () => {
    const page = await owner.newPage();
    await page.goto(`${base}/detections?group=rule&${custom}`);
    await page.locator('section[data-group]').first().waitFor();
    const groups = await Promise.all(
      (await page.locator('section[data-group]').all()).map((g) => g.getAttribute('data-group')),
    );
    expect(groups.sort()).toEqual(['inj.ignore-previous', 'jb.dan', 'pii.email', 'pii.phone', 'sec.aws-key']);
    const injection = page.locator('section[data-group="inj.ignore-previous"]');
    expect(await injection.locator('tbody tr').count()).toBe(10);
    expect(await page.getByRole('button', { name: 'By rule' }).getAttribute('aria-pressed')).toBe('true');
    await checkPage(page, 'detections-by-rule');

    // "Only this rule" narrows the list to it, ungrouped, and says so in the URL.
    await injection.getByRole('button', { name: 'Only this rule' }).click();
    await page.waitForURL(/ruleId=inj.ignore-previous/);
    expect(page.url()).not.toContain('group=');
    await expect.poll(() => page.locator('tr[data-finding-id]').count()).toBe(10);

    await page.goto(`${base}/detections?group=conversation&${custom}`);
    await page.locator('section[data-group]').first().waitFor();
    expect(await page.locator('section[data-group]').count()).toBe(1);
    await page.getByRole('heading', { name: 'No conversation id' }).waitFor();
    await page.close();
  });

  it('/detections loads older pages on request (130 injections the day before the seed)', async () => {
    const older = Array.from({ length: 130 }, (_, k) => ({
      ...seeded(projectId)[0]!,
      id: uniqueName(`older-${k}`),
      receivedMs: day - DAY_MS + k * 60_000,
    }));
    await insertAnalysed(older);
    const range = `range=custom&from=${encodeURIComponent(new Date(day - DAY_MS).toISOString())}&to=${encodeURIComponent(from)}`;
    const page = await owner.newPage();
    await page.goto(`${base}/detections?${range}`);
    await page.locator('tr[data-finding-id]').first().waitFor();
    expect(await page.locator('tr[data-finding-id]').count()).toBe(100);
    await page.getByRole('button', { name: 'Load older detections' }).click();
    await expect.poll(() => page.locator('tr[data-finding-id]').count()).toBe(130);
    await expect.poll(() => page.getByRole('button', { name: 'Load older detections' }).count()).toBe(0);
    // The newest first, each once, over both pages.
    const ids = await Promise.all(
      (await page.locator('tr[data-finding-id] a[href^="/interactions/"]').all()).map((a) =>
        a.getAttribute('href'),
      ),
    );
    expect(new Set(ids).size).toBe(130);
    expect(ids[0]).toBe(`/interactions/${older[129]!.id}`);
    await page.close();
  });

  it('a new detection appears in /detections within 5 s, without a reload', async () => {
    const page = await owner.newPage();
    await page.goto(`${base}/detections?group=rule`);
    await page.getByRole('button', { name: 'By rule' }).waitFor();
    const fresh = { ...seeded(projectId)[6]!, i: 6, id: uniqueName('live'), receivedMs: Date.now() - 1000 };
    const navigations: string[] = [];
    page.on('framenavigated', (f) => navigations.push(f.url()));
    const t0 = Date.now();
    await insertAnalysed([fresh]);
    await page.locator('section[data-group="inj.ignore-previous"]').waitFor({ timeout: 5_000 });
    await page.locator(`a[href="/interactions/${fresh.id}"]`).first().waitFor({ timeout: 5_000 });
    console.log(`a new detection was on the page ${Date.now() - t0} ms after its insert`);
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(navigations).toEqual([]);
    await page.close();
  });

  it("an agent's page: timeline, threats, top rules, users and sessions, canaries", async () => {
    const page = await owner.newPage();
    await page.goto(`${base}/agents/support-bot?${custom}`);
    await page.locator('[data-top="session"] tbody tr').first().waitFor();
    await page.locator('[data-top="threat"] tbody tr').first().waitFor();
    expect(await keysOf(page, 'threat')).toContain('prompt_injection');
    // support-bot has the interactions i % 3 == 0: users and sessions of those only.
    const users = new Set(
      ACME.slice(0, 60)
        .filter((s) => s.i % 3 === 0)
        .map((s) => s.userId),
    );
    for (const u of await keysOf(page, 'user')) expect(users.has(u), u).toBe(true);
    expect(await page.locator('.tile-value').first().textContent()).toBe('20');
    await page.getByText('Interactions over time').waitFor();
    const rule = page.locator('[data-top="rule"] a', { hasText: 'inj.ignore-previous' });
    expect(await rule.getAttribute('href')).toBe(
      `/detections?ruleId=inj.ignore-previous&agentId=support-bot&${custom}`,
    );

    await page.getByLabel('Canary string').fill('CANARY-analytics-42');
    await page.getByRole('button', { name: 'Add canary' }).click();
    await page.locator('.canaries code', { hasText: 'CANARY-analytics-42' }).waitFor();
    await checkPage(page, 'agent-analytics');
    await page.getByRole('button', { name: 'Remove canary CANARY-analytics-42' }).click();
    await page.getByText('No canaries yet').waitFor();
    await page.close();
  });

  it('a quiet range of a project with data says to widen the range, not to send a first record', async () => {
    const page = await owner.newPage();
    const before = `range=custom&from=${encodeURIComponent(new Date(day - 7 * DAY_MS).toISOString())}&to=${encodeURIComponent(new Date(day - 6 * DAY_MS).toISOString())}`;
    await page.goto(`${base}/?${before}`);
    await page.getByText('No interactions in this range; your agents last sent one').waitFor();
    expect(await page.locator('.empty pre').count()).toBe(0);
    await page.close();
  });

  it('an empty project: the overview and detections say how to send a first record', async () => {
    const context = await signedIn('newcomer@analytics.test');
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.locator('.empty pre').waitFor();
    expect(await page.locator('.empty pre').innerText()).toContain('curl');
    await page.locator('[data-top="agent"]', { hasText: 'No detections in this range' }).waitFor();
    await checkPage(page, 'overview-empty');
    await page.goto(`${base}/detections`);
    await page.locator('.empty pre').waitFor();
    await context.close();
  });
});
