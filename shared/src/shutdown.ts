import type { Logger } from './logger';

/** How long a service's stop may take before it exits anyway. */
export const SHUTDOWN_GRACE_MS = 30_000;

/**
 * Runs `stop` once on SIGTERM or SIGINT, then exits; a second signal or a stop that hangs past
 * `graceMs` exits at once so an orchestrator is never left waiting.
 */
export function onShutdown(log: Logger, stop: () => Promise<void>, graceMs = SHUTDOWN_GRACE_MS): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      log.error({ graceMs }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, graceMs);
    timer.unref();
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
