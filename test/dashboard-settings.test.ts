import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ensureDashboardBuilt } from '@warden/shared/dashboard-build';
import { PostgresKeys } from '@warden/shared/keys/index';
import { UserDirectory } from '@warden/shared/users/index';
import { eventually, uniqueName } from './support/pipeline';
import { freePort } from './support/processes';
import {
  accessibilityProblems,
  checkPage,
  launchChromium,
  signedInContext,
  VIEWPORT,
} from './support/browser';
import { startWarden, type RunningWarden } from './support/warden-start';

/**
 * The dashboard's settings and account pages in Debian's Chromium (headless, playwright-core) against
 * `warden start`: sign-up, invitations, members, the project and its limits, webhooks with their
 * deliveries (to a receiver on loopback), the project picker and per-key usage; roles as a viewer
 * sees them. The harness is test/dashboard.test.ts's (axe-core, screenshots in docs/screenshots/).
 */
const PASSWORD = 'a long settings password';

let warden: RunningWarden;
let browser: Browser;
let owner: BrowserContext;
let page: Page;
let base: string;
let projectId: string;
let secondProjectId: string;
let receiver: http.Server;
let receiverUrl: string;
/** An endpoint of the receiver that answers 410 Gone: the alerter disables it. */
let goneUrl: string;
/** What the loopback receiver got: the raw body and headers, to verify signatures with. */
const received: { body: string; headers: Record<string, string> }[] = [];

/** A browser context signed in through the API (its cookies are the page's). */
const signedIn = (email: string): Promise<BrowserContext> =>
  signedInContext(browser, base, { email, password: PASSWORD }, { clipboard: true });

const clipboard = (p: Page) =>
  p.evaluate(() =>
    (
      globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
    ).navigator.clipboard.readText(),
  );

beforeAll(async () => {
  ensureDashboardBuilt();
  const port = await freePort();
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        headers: req.headers as Record<string, string>,
      });
      if (req.url === '/gone') res.writeHead(410, { 'content-type': 'text/plain' }).end('this hook is gone');
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('received by the test receiver');
    });
  });
  await new Promise<void>((done) => receiver.listen(port, '127.0.0.1', () => done()));
  receiverUrl = `http://127.0.0.1:${port}/warden-alerts`;
  goneUrl = `http://127.0.0.1:${port}/gone`;

  warden = await startWarden({
    WARDEN_SECRET_KEY: randomBytes(32).toString('base64'),
    WARDEN_WEBHOOK_ALLOW_PRIVATE: '1',
    WARDEN_SIGNUP: 'open',
  });
  base = `http://127.0.0.1:${warden.apiPort}`;
  const users = new UserDirectory(warden.controlPlane.pool);
  const org = uniqueName('Settings Org');
  const created = await users.createUser({
    email: 'owner@settings.test',
    password: PASSWORD,
    organisation: org,
    role: 'owner',
  });
  await users.createUser({
    email: 'viewer@settings.test',
    password: PASSWORD,
    organisation: org,
    role: 'viewer',
  });
  const keys = new PostgresKeys(warden.controlPlane.pool);
  projectId = uniqueName('settings');
  await keys.createProject({
    accountId: projectId,
    name: 'Production',
    tier: 'professional',
    organisationId: created.organisationId,
  });
  secondProjectId = uniqueName('settings-staging');
  await keys.createProject({
    accountId: secondProjectId,
    name: 'Staging',
    tier: 'free',
    organisationId: created.organisationId,
  });
  browser = await launchChromium();
  owner = await signedIn('owner@settings.test');
  page = await owner.newPage();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await warden?.stop();
  receiver?.closeAllConnections();
  await new Promise<void>((done) => (receiver ? receiver.close(() => done()) : done()));
}, 120_000);

describe('dashboard settings', () => {
  it('sign-up is linked from /login when open, and creates an owner with a first project', async () => {
    const context = await browser.newContext({ viewport: VIEWPORT });
    const p = await context.newPage();
    await p.goto(`${base}/login`);
    await p.getByRole('link', { name: 'Create one' }).click();
    await p.waitForURL(`${base}/signup`);
    await checkPage(p, 'signup');
    await p.getByLabel('Organisation').fill('Newcomer Ltd');
    await p.getByLabel('Email').fill('newcomer@settings.test');
    await p.getByLabel('Password').fill(PASSWORD);
    await p.getByRole('button', { name: 'Create account' }).click();
    await p.waitForURL(`${base}/`);
    const me = (await (await p.request.get(`${base}/api/v1/me`)).json()) as {
      user: { email: string };
      role: string;
    };
    expect(me).toMatchObject({ user: { email: 'newcomer@settings.test' }, role: 'owner' });
    await p.goto(`${base}/settings/project`);
    await p.getByRole('heading', { name: 'Project: Default' }).waitFor();
    await context.close();
  });

  it('with sign-up by invitation, /login links no sign-up and /signup says how to get in', async () => {
    const context = await browser.newContext({ viewport: VIEWPORT });
    await context.route('**/api/v1/auth/config', (route) =>
      route.fulfill({ json: { signup: 'invite', firstUser: false } }),
    );
    const p = await context.newPage();
    await p.goto(`${base}/login`);
    await p.getByText('Ask an owner or admin of your organisation for an invitation link').waitFor();
    expect(await p.getByRole('link', { name: 'Create one' }).count()).toBe(0);
    await p.goto(`${base}/signup`);
    await p.getByRole('heading', { name: 'Sign-up is not open here' }).waitFor();
    expect(await p.getByRole('button', { name: 'Create account' }).count()).toBe(0);
    await context.close();
  });

  it('an owner invites by link; the link in a fresh browser lets the invitee join', async () => {
    await page.goto(`${base}/settings/members`);
    await page.locator('tr', { hasText: 'viewer@settings.test' }).waitFor();
    await page.getByLabel('Email to invite').fill('invitee@settings.test');
    await page.getByLabel('Role', { exact: true }).selectOption('member');
    await page.getByRole('button', { name: 'Create invitation' }).click();
    const shown = page.getByTestId('invite-link');
    await shown.waitFor();
    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    const link = await clipboard(page);
    expect(link).toMatch(new RegExp(`^${base}/invite/.+`));
    expect(await shown.textContent()).toBe(link);
    await page.locator('tr', { hasText: 'invitee@settings.test' }).waitFor();
    await checkPage(page, 'members');

    // A fresh context: no session, no cookies; the link is all the invitee has.
    const fresh = await browser.newContext({ viewport: VIEWPORT });
    const p = await fresh.newPage();
    await p.goto(link);
    await p.getByRole('heading', { name: 'Join your team on Warden' }).waitFor();
    await checkPage(p, 'invite');
    await p.getByLabel('Your name').fill('Ivy Invitee');
    await p.getByLabel('Password').fill(PASSWORD);
    await p.getByRole('button', { name: 'Accept invitation' }).click();
    await p.waitForURL(`${base}/`);
    const me = (await (await p.request.get(`${base}/api/v1/me`)).json()) as {
      user: { email: string };
      role: string;
    };
    expect(me).toMatchObject({ user: { email: 'invitee@settings.test' }, role: 'member' });
    // The link works once.
    const again = await fresh.newPage();
    await again.goto(link);
    await again.getByLabel('Password').fill(PASSWORD);
    await again.getByRole('button', { name: 'Accept invitation' }).click();
    await again.getByRole('alert').filter({ hasText: 'ask for a new invitation' }).waitFor();
    await fresh.close();

    await page.reload();
    const row = page.locator('tr', { hasText: 'invitee@settings.test' });
    await row.waitFor();
    expect(await row.innerText()).toContain('Ivy Invitee');
    expect(await page.getByRole('heading', { name: 'Pending invitations' }).count()).toBe(1);
    expect(await page.locator('tr[data-invitation-id]', { hasText: 'invitee@settings.test' }).count()).toBe(
      0,
    );

    // The owner changes the newcomer's role, then removes them (after a confirmation).
    await page.getByLabel('Role of invitee@settings.test').selectOption('viewer');
    await expect
      .poll(async () => {
        const members = (await (await page.request.get(`${base}/api/v1/members`)).json()) as {
          members: { email: string; role: string }[];
        };
        return members.members.find((m) => m.email === 'invitee@settings.test')?.role;
      })
      .toBe('viewer');
    page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => row.count()).toBe(0);
  });

  it('a webhook created in the page shows its secret once; the test event is delivered and logged', async () => {
    await page.goto(`${base}/settings/webhooks`);
    await page.getByText('No webhook endpoints yet.').waitFor();
    await page.getByLabel('Endpoint URL').fill(receiverUrl);
    await page.getByLabel('Description (optional)').fill('On-call receiver');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = page.getByTestId('webhook-secret');
    await shown.waitFor();
    const secret = (await shown.textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    expect(await clipboard(page)).toBe(secret);

    await page.getByRole('button', { name: 'Send test event' }).click();
    const delivered = page.locator('tr[data-delivery-id][data-status="delivered"]');
    await delivered.first().waitFor({ timeout: 15_000 });
    const row = await delivered.first().innerText();
    expect(row).toContain('HTTP 200');
    expect(row).toContain('received by the test receiver');
    expect(row).toMatch(/\d+ ms/);
    // The receiver got it signed with the secret the page showed.
    expect(received.length).toBeGreaterThan(0);
    const last = received.at(-1)!;
    expect(() => new Webhook(secret).verify(last.body, last.headers)).not.toThrow();
    await page.getByRole('button', { name: 'Done' }).click();

    // Shown once: a reload has the endpoint and its log, not the secret.
    await page.reload();
    await page.locator('tr[data-delivery-id]').first().waitFor();
    expect(await page.content()).not.toContain(secret);

    // Retry sends it again under the same webhook-id: a second attempt in the log.
    const before = received.length;
    await page
      .getByRole('button', { name: /^Retry delivery/ })
      .first()
      .click();
    await eventually(
      async () => received.length,
      (n) => n > before,
      15_000,
    );
    expect(received.at(-1)!.headers['webhook-id']).toBe(last.headers['webhook-id']);
    await page.getByText('All 2 attempts').waitFor({ timeout: 15_000 });

    // Rotation shows a new secret once; delete asks first.
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('heading', { name: 'The new signing secret' }).waitFor();
    const rotated = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByRole('button', { name: 'Done' }).click();
    page.once('dialog', (d) => void d.dismiss());
    await page.getByRole('button', { name: 'Delete' }).click();
    expect(await page.locator('tr[data-endpoint-id]').count()).toBe(1);

    // An endpoint answering 410 Gone is disabled by the alerter, and the page says why.
    await page.getByLabel('Endpoint URL').fill(goneUrl);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByTestId('webhook-secret').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    const gone = page.locator('tr[data-endpoint-id]', { hasText: goneUrl });
    await gone.getByRole('button', { name: 'Send test event' }).click();
    await gone.locator('.status.disabled').waitFor({ timeout: 20_000 });
    console.log(`410 endpoint shown as: ${await gone.locator('.status.disabled').innerText()}`);
    await page.locator('tr[data-delivery-id]', { hasText: 'HTTP 410' }).waitFor({ timeout: 15_000 });
    // The first endpoint's log again, for the picture.
    await page
      .locator('tr[data-endpoint-id]', { hasText: receiverUrl })
      .getByRole('button', { name: 'Deliveries' })
      .click();
    await page
      .locator('tr[data-delivery-id]', { hasText: 'received by the test receiver' })
      .first()
      .waitFor();

    // Alert rules: none means the default; one added in the page is listed.
    await page.getByText('No rules: high and critical threats').waitFor();
    await page.getByLabel('Rule name').fill('Critical injections');
    await page.getByLabel('Minimum severity').selectOption('critical');
    await page.getByLabel('prompt_injection').check();
    await page.getByRole('button', { name: 'Add rule' }).click();
    const rule = page.locator('tr[data-rule-id]', { hasText: 'Critical injections' });
    await rule.waitFor();
    expect(await rule.innerText()).toContain('prompt_injection');
    await checkPage(page, 'webhooks');
  });

  it('the project page shows tier and limits against usage; the picker switches project', async () => {
    await page.goto(`${base}/settings/project`);
    const picker = page.getByLabel('Project', { exact: true });
    await picker.waitFor();
    await picker.selectOption(projectId);
    await page.getByRole('heading', { name: 'Project: Production' }).waitFor();
    const limits = page.locator('section', { hasText: 'Limits and current usage' });
    expect(await limits.innerText()).toContain('1,000');
    await page.getByLabel('Project name', { exact: true }).fill('Production EU');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('heading', { name: 'Project: Production EU' }).waitFor();
    await page.getByLabel('Agents override').fill('40');
    await page.getByRole('button', { name: 'Save plan' }).click();
    await page.getByText('Plan and limits saved.').waitFor();
    await expect.poll(() => limits.innerText()).toContain('project override');
    await checkPage(page, 'project');

    // The choice is kept (local storage): another page acts on the same project.
    await page.goto(`${base}/settings/webhooks`);
    await page.locator('tr[data-endpoint-id]').first().waitFor();
    await page.getByLabel('Project', { exact: true }).selectOption(secondProjectId);
    await page.getByText('No webhook endpoints yet.').waitFor();
    await page.getByLabel('Project', { exact: true }).selectOption(projectId);
    await page.locator('tr[data-endpoint-id]').first().waitFor();
  });

  it('each key shows a usage sparkline of its last 30 days', async () => {
    await page.goto(`${base}/settings/api-keys`);
    await page.getByLabel('Name').fill('sparkline key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-key').textContent()) ?? '';
    expect(key).toMatch(/^wdn_/);
    const res = await fetch(`http://127.0.0.1:${warden.port}/api/v1/telemetry/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ agentId: uniqueName('spark-agent'), prompt: 'hello', response: 'hi' }),
    });
    expect(res.status, await res.text()).toBe(200);
    const spark = page.getByRole('img', { name: /^sparkline key: 1 request in the last 30 days/ });
    await eventually(
      async () => {
        await page.reload();
        await page.locator('tbody tr').first().waitFor();
        return spark.count().catch(() => 0);
      },
      (n) => n === 1,
      30_000,
    );
    expect(await spark.locator('canvas').count()).toBe(1);
    expect(await accessibilityProblems(page)).toEqual([]);
  });

  it('the account page lists your sessions and says plainly when the current password is wrong', async () => {
    await page.goto(`${base}/settings/account`);
    await page.getByText('(this browser)').waitFor();
    await page.getByLabel('Current password').fill('not the password at all');
    await page.getByLabel('New password').fill('another long password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').filter({ hasText: 'The current password is wrong.' }).waitFor();
    await checkPage(page, 'account');
  });

  it('a viewer sees members, project and webhooks without invite, create, rotate or revoke buttons', async () => {
    const context = await signedIn('viewer@settings.test');
    const viewer = await context.newPage();
    await viewer.goto(`${base}/settings/members`);
    await viewer.locator('tr', { hasText: 'owner@settings.test' }).waitFor();
    expect(await viewer.getByRole('button', { name: 'Create invitation' }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: 'Remove' }).count()).toBe(0);
    expect(await viewer.getByRole('combobox', { name: /^Role of/ }).count()).toBe(0);
    expect(await accessibilityProblems(viewer)).toEqual([]);

    await viewer.goto(`${base}/settings/webhooks`);
    await viewer.getByText('Your role (viewer) can see endpoints').waitFor();
    await viewer.locator('tr[data-rule-id]').first().waitFor();
    for (const name of [
      'Add endpoint',
      'Send test event',
      'Rotate secret',
      'Delete',
      'Disable',
      'Add rule',
    ]) {
      expect(await viewer.getByRole('button', { name }).count(), name).toBe(0);
    }
    expect(await accessibilityProblems(viewer)).toEqual([]);

    await viewer.goto(`${base}/settings/project`);
    await viewer.getByRole('heading', { name: /^Project: / }).waitFor();
    for (const name of ['Save plan', 'Save name', 'Create project']) {
      expect(await viewer.getByRole('button', { name }).count(), name).toBe(0);
    }

    await viewer.goto(`${base}/settings/api-keys`);
    await viewer.getByRole('heading', { name: 'API keys' }).waitFor();
    for (const name of ['Create key', 'Rotate', 'Revoke']) {
      expect(await viewer.getByRole('button', { name }).count(), name).toBe(0);
    }
    await context.close();
  });
});
