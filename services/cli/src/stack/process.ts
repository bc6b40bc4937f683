import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Starts a long-running server detached from this process, output appended to `logFile`. */
export function spawnDetached(
  command: string,
  args: string[],
  opts: { logFile: string; cwd?: string; env?: NodeJS.ProcessEnv; uid?: number; gid?: number },
): number {
  mkdirSync(dirname(opts.logFile), { recursive: true });
  const out = openSync(opts.logFile, 'a');
  try {
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      detached: true,
      stdio: ['ignore', out, out],
      ...(opts.uid !== undefined ? { uid: opts.uid, gid: opts.gid } : {}),
    });
    if (child.pid === undefined) throw new Error(`could not start ${command}`);
    child.unref();
    return child.pid;
  } finally {
    closeSync(out);
  }
}

export function isAlive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM, wait for a clean exit, SIGKILL the process group if it does not come. */
export async function stopProcess(
  pid: number,
  graceMs = 20000,
): Promise<'stopped' | 'killed' | 'not-running'> {
  if (!isAlive(pid)) return 'not-running';
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return 'stopped';
    await sleep(100);
  }
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    process.kill(pid, 'SIGKILL');
  }
  return 'killed';
}

/** Polls `check` until it returns true; throws with `what` and the last error after `timeoutMs`. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (err) {
      lastError = err;
    }
    await sleep(250);
  }
  const reason = lastError instanceof Error ? `: ${lastError.message}` : '';
  throw new Error(`${what} did not become healthy within ${Math.round(timeoutMs / 1000)} s${reason}`);
}

export function commandExists(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** First path among `candidates` that resolves to an executable, or undefined. */
export function findExecutable(candidates: string[]): string | undefined {
  return candidates.find((c) => commandExists(c));
}

/** A TCP port on 127.0.0.1 that nothing listens on now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => done(port));
    });
  });
}
