import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { defaultRestartPolicy, describeExit, nextRestart, supervise } from './supervise';

describe('restart policy', () => {
  const policy = defaultRestartPolicy;

  it('doubles the delay with each crash in a row, up to the cap', () => {
    let streak = 0;
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      const decision = nextRestart(streak, 500, policy);
      streak = decision.streak;
      delays.push(decision.delayMs);
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('says a service keeps crashing from the third crash in a row, not before', () => {
    expect(nextRestart(0, 100, policy).repeated).toBe(false);
    expect(nextRestart(1, 100, policy).repeated).toBe(false);
    expect(nextRestart(2, 100, policy)).toMatchObject({ streak: 3, repeated: true });
  });

  it('starts a new streak after a run that lasted', () => {
    expect(nextRestart(5, policy.stableAfterMs, policy)).toEqual({
      streak: 1,
      delayMs: 1_000,
      repeated: false,
    });
  });

  it('names the signal or the exit code', () => {
    expect(describeExit(null, 'SIGKILL')).toBe('killed by SIGKILL');
    expect(describeExit(3, null)).toBe('exited with code 3');
  });
});

describe('supervise', () => {
  const fast = { firstDelayMs: 20, maxDelayMs: 80, stableAfterMs: 60_000, repeatedAfter: 3 };
  const until = async (check: () => boolean, timeoutMs = 5_000) => {
    const start = Date.now();
    while (!check() && Date.now() - start < timeoutMs) await new Promise((r) => setTimeout(r, 10));
    return check();
  };

  it('restarts a killed process and reports why; after stop it restarts nothing', async () => {
    const lines: string[] = [];
    let starts = 0;
    const service = supervise(
      'sleeper',
      () => {
        starts++;
        return spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
      },
      (line) => lines.push(line),
      fast,
    );
    const first = service.current();
    expect(first?.pid).toBeGreaterThan(0);
    first?.kill('SIGKILL');
    expect(await until(() => starts === 2 && service.current() !== undefined)).toBe(true);
    expect(service.current()?.pid).not.toBe(first?.pid);
    expect(lines[0]).toBe('sleeper killed by SIGKILL; restarting in 0 s');
    expect(lines[1]).toMatch(/^sleeper restarted \(pid \d+\)$/);
    await service.stop('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    expect(starts).toBe(2);
    expect(service.current()).toBeUndefined();
  });

  it('reports a crash loop instead of looping silently', async () => {
    const lines: string[] = [];
    const service = supervise(
      'crasher',
      () => spawn(process.execPath, ['-e', 'process.exit(3)'], { stdio: 'ignore' }),
      (line) => lines.push(line),
      fast,
    );
    expect(await until(() => lines.some((l) => l.includes('keeps crashing')))).toBe(true);
    await service.stop('SIGTERM');
    expect(lines.find((l) => l.includes('keeps crashing'))).toMatch(
      /^crasher keeps crashing: exited with code 3, 3 times in a row; restarting in 0 s/,
    );
  });
});
