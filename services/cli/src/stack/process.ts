import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
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

/** What `waitUntil` watches besides the check: the process that should answer, and its log. */
export interface WaitWatch {
  pid: number;
  /** Its last lines go into the error when the process exits before it answers. */
  logFile?: string;
}

/** The last `lines` lines of a log file, or '' when there is none. */
export function logTail(file: string, lines = 15): string {
  if (!existsSync(file)) return '';
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

/**
 * Polls `check` until it returns true; throws with `what` and the last error after `timeoutMs`.
 * With `watch`, throws at once when that process exits first, with the tail of its log: a server
 * that could not bind its port or read its config says so instead of a timeout.
 */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  watch?: WaitWatch,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (err) {
      lastError = err;
    }
    if (watch && !isAlive(watch.pid)) {
      const tail = watch.logFile ? logTail(watch.logFile) : '';
      throw new ExitedBeforeHealthyError(
        `${what} exited before it answered (pid ${watch.pid})` +
          (tail ? `; the end of ${watch.logFile}:\n${tail}` : ''),
      );
    }
    await sleep(250);
  }
  const reason = lastError instanceof Error ? `: ${lastError.message}` : '';
  const tail = watch?.logFile ? logTail(watch.logFile) : '';
  throw new Error(
    `${what} did not become healthy within ${Math.round(timeoutMs / 1000)} s${reason}` +
      (tail ? `; the end of ${watch!.logFile}:\n${tail}` : ''),
  );
}

/** A server that `waitUntil` watched exited before it answered (a port taken, a bad config). */
export class ExitedBeforeHealthyError extends Error {
  override name = 'ExitedBeforeHealthyError';
}

export function commandExists(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** First path among `candidates` that resolves to an executable, or undefined. */
export function findExecutable(candidates: string[]): string | undefined {
  return candidates.find((c) => commandExists(c));
}

/** The kernel's ephemeral range, where outgoing connections take their local ports. */
function ephemeralPorts(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (low && high) return [low, high];
  } catch {
    // not Linux: the common default
  }
  return [32768, 60999];
}

function listensOn(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });
}

/**
 * A TCP port on 127.0.0.1 that nothing listens on now, for a server started next. Chosen below
 * the kernel's ephemeral range: a port the OS hands out there can be taken by any outgoing
 * connection before the server binds it (seen under a loaded test run: a ClickHouse replica that
 * never came up). Falls back to a port the OS picks.
 */
export async function freePort(): Promise<number> {
  const [low] = ephemeralPorts();
  const from = 20000; // above the stack's fixed ports (15432, 18123, 19000, 19092…)
  if (low - from > 1000) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const port = from + Math.floor(Math.random() * (low - from));
      if (await listensOn(port)) return port;
    }
  }
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => done(port));
    });
  });
}
