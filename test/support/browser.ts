import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { repoRoot } from '@warden/shared/paths';

/**
 * The dashboard suites' browser: Debian's Chromium (`apt-get install chromium`; CHROMIUM_PATH for
 * another) driven headless by playwright-core, axe-core's check and the README's screenshots.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = join(repoRoot, 'docs', 'screenshots');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
export const VIEWPORT = { width: 1360, height: 900 };

/** Flags that keep Chromium from reaching out or needing a GPU in CI (../shared/notes). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

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
