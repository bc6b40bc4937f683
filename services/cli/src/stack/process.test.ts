import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExitedBeforeHealthyError, freePort, spawnDetached, waitUntil } from './process';

describe('freePort', () => {
  it('picks a port below the ephemeral range, where outgoing connections cannot take it', async () => {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20000);
      expect(port).toBeLessThan(low!);
    }
  });
});

describe('waitUntil watching a process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'warden-wait-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails at once when the process exits first, with the end of its log', async () => {
    const logFile = join(dir, 'server.log');
    const pid = spawnDetached('sh', ['-c', 'echo "Address already in use: 127.0.0.1:1234"; exit 3'], {
      logFile,
    });
    const started = Date.now();
    const waiting = waitUntil('a server', async () => false, 30_000, { pid, logFile });
    await expect(waiting).rejects.toBeInstanceOf(ExitedBeforeHealthyError);
    await expect(waiting).rejects.toThrow(/exited before it answered[\s\S]*Address already in use/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('still times out with the reason when the process lives but never answers', async () => {
    const pid = spawnDetached('sleep', ['5'], { logFile: join(dir, 'sleep.log') });
    await expect(waitUntil('a quiet server', async () => false, 600, { pid })).rejects.toThrow(
      'a quiet server did not become healthy within 1 s',
    );
    process.kill(pid, 'SIGKILL');
  });
});
