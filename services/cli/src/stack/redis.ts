import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { loadStackConfig, redactUrl } from '@warden/shared/config';
import { ensureExecutable } from './prerequisites';
import { spawnDetached, waitUntil } from './process';

export async function redisHealthy(url: string): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

export function startRedis(port: number, progress: (line: string) => void): number {
  const server = ensureExecutable('Redis server (redis-server)', ['redis-server'], 'redis-server', progress);
  const dir = resolve(loadStackConfig().dir, 'redis');
  mkdirSync(dir, { recursive: true });
  return spawnDetached(
    server,
    ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', dir],
    { logFile: resolve(dir, 'server.log') },
  );
}

export async function waitForRedis(url: string, timeoutMs = 20000): Promise<void> {
  await waitUntil(`Redis at ${redactUrl(url)}`, () => redisHealthy(url), timeoutMs);
}
