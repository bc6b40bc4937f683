import type { ChildProcess } from 'node:child_process';

/**
 * `warden start` keeps its services running: a service that exits while Warden is not stopping is
 * started again after a delay that doubles with each crash in a row (1 s, 2 s, 4 s … at most 30 s),
 * and the count goes back to zero once it has stayed up for `stableAfterMs`. Every exit is reported
 * with its code or signal and the delay; from the third crash in a row the line says the service
 * keeps crashing, so a loop is never silent.
 */
export interface RestartPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
  /** A run at least this long ends the crash streak. */
  stableAfterMs: number;
  /** From this many crashes in a row, each report says the service keeps crashing. */
  repeatedAfter: number;
}

export const defaultRestartPolicy: RestartPolicy = {
  firstDelayMs: 1_000,
  maxDelayMs: 30_000,
  stableAfterMs: 30_000,
  repeatedAfter: 3,
};

export interface RestartDecision {
  /** Crashes in a row, this one included. */
  streak: number;
  delayMs: number;
  repeated: boolean;
}

/** What to do after a crash, given the streak before it and how long the run that ended lasted. */
export function nextRestart(
  previousStreak: number,
  ranForMs: number,
  policy: RestartPolicy,
): RestartDecision {
  const streak = ranForMs >= policy.stableAfterMs ? 1 : previousStreak + 1;
  const delayMs = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** (streak - 1));
  return { streak, delayMs, repeated: streak >= policy.repeatedAfter };
}

export function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `killed by ${signal}` : `exited with code ${code ?? 'unknown'}`;
}

export interface Supervised {
  readonly name: string;
  /** The running process, or undefined while a restart is pending. */
  current(): ChildProcess | undefined;
  /** Stops restarting and sends `signal`; resolves when the current process has exited. */
  stop(signal: NodeJS.Signals): Promise<void>;
}

/** Runs `start()` now and again after every unexpected exit, as the policy says. */
export function supervise(
  name: string,
  start: () => ChildProcess,
  say: (line: string) => void,
  policy: RestartPolicy = defaultRestartPolicy,
): Supervised {
  let child: ChildProcess | undefined;
  let stopping = false;
  let streak = 0;
  let timer: NodeJS.Timeout | undefined;
  let exited: Promise<void> = Promise.resolve();

  const launch = () => {
    timer = undefined;
    const startedAt = Date.now();
    const proc = start();
    child = proc;
    exited = new Promise<void>((done) =>
      proc.on('exit', (code, signal) => {
        child = undefined;
        done();
        if (stopping) return;
        const decision = nextRestart(streak, Date.now() - startedAt, policy);
        streak = decision.streak;
        const why = describeExit(code, signal);
        const again = `restarting in ${(decision.delayMs / 1000).toFixed(0)} s`;
        say(
          decision.repeated
            ? `${name} keeps crashing: ${why}, ${decision.streak} times in a row; ${again} (its last lines are above)`
            : `${name} ${why}; ${again}`,
        );
        timer = setTimeout(launch, decision.delayMs);
      }),
    );
    if (streak > 0) say(`${name} restarted (pid ${proc.pid})`);
  };
  launch();

  return {
    name,
    current: () => child,
    async stop(signal) {
      stopping = true;
      if (timer) clearTimeout(timer);
      child?.kill(signal);
      await exited;
    },
  };
}
