import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { repoRoot } from '@warden/shared/paths';
import { VIEWPORT } from './chromium';

export { launchChromium, VIEWPORT } from './chromium';

/** The dashboard suites' browser (./chromium), axe-core's check and the README's screenshots. */
const SCREENSHOTS = join(repoRoot, 'docs', 'screenshots');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact?: string;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical violations on the page as it is now. */
export async function accessibilityProblems(p: Page): Promise<string[]> {
  await p.addScriptTag({ path: AXE });
  const violations = await p.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: () => Promise<{ violations: AxeViolation[] }> } })
      .axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Checked and photographed: no serious or critical axe-core violation, a screenshot in docs/screenshots/. */
export async function checkPage(p: Page, name: string): Promise<void> {
  expect(await accessibilityProblems(p), `${name}: axe-core`).toEqual([]);
  await p.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** A browser context signed in through the API's login (its session and CSRF cookies set). */
export async function signedInContext(
  browser: Browser,
  base: string,
  credentials: { email: string; password: string },
  options: { timezoneId?: string; clipboard?: boolean } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: VIEWPORT,
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
  });
  const res = await context.request.post(`${base}/api/v1/auth/login`, { data: credentials });
  expect(res.status(), await res.text()).toBe(200);
  if (options.clipboard)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  return context;
}
