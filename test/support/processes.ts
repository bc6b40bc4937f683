import { spawn, type ChildProcess } from 'node:child_process';
import { repoRoot } from '@warden/shared/paths';
import { serviceArgs, type ServiceName } from '@warden/cli';

// The stack's own helper: one way to find a free port, for the servers tests start.
export { freePort } from '@warden/cli';

export interface ServiceProcess {
  child: ChildProcess;
  output: () => string;
  /** Sends `signal` and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Runs a service's real entry point as its own process, the way `npm start` does. */
export function runService(name: ServiceName, env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, serviceArgs(name), {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  return {
    child,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
