import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths';

export const webDir = join(repoRoot, 'web');
export const dashboardRoot = join(webDir, 'dist');

/** Newest modification time of the dashboard's sources (src/, index.html, its configs). */
function newestSource(): number {
  let newest = 0;
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const entry of ['src', 'index.html', 'vite.config.ts', 'package.json', 'tsconfig.json']) {
    visit(join(webDir, entry));
  }
  return newest;
}

/** True when web/dist is missing or older than a source file. */
export function dashboardStale(): boolean {
  const index = join(dashboardRoot, 'index.html');
  return !existsSync(index) || statSync(index).mtimeMs < newestSource();
}

/**
 * Builds the dashboard (`vite build` in web/) when its build is missing or stale, as `npm start` and
 * the browser tests need it; `say` reports what happens. Throws with the build's output on failure.
 */
export function ensureDashboardBuilt(say: (line: string) => void = () => undefined): void {
  if (!dashboardStale()) return;
  say('building the dashboard (web/) …');
  // NODE_ENV as the caller's (vitest sets "test") would make Vite bundle React's development build.
  const run = spawnSync('npm', ['run', 'build', '--silent'], {
    cwd: webDir,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (run.status !== 0) {
    throw new Error(
      `The dashboard build failed; fix web/ and run \`npm run build\`:\n${run.stdout}${run.stderr}`,
    );
  }
}
