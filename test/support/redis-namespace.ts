import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import { afterAll } from 'vitest';
import { freePort } from './processes';

/**
 * Each suite works under its own random key prefix on the shared Redis and deletes only its own
 * keys afterwards (SCAN + DEL), never FLUSH: other suites and the running stack share the server.
 */
export function redisUrl(): string {
  const url = process.env.REDIS_URL;
  if (!url)
    throw new Error('REDIS_URL is not set; run through the integration project (global setup sets it).');
  return url;
}

export function testPrefix(suite: string): string {
  return `wardentest:${suite}:${randomBytes(6).toString('hex')}:`;
}

export function connect(options: RedisOptions = {}): Redis {
  return new Redis(redisUrl(), { maxRetriesPerRequest: 1, ...options });
}

/** A client pointed at a closed port: every command fails, as when Redis is down. */
export function unreachableRedis(): Redis {
  const client = new Redis({
    host: '127.0.0.1',
    port: 1,
    connectTimeout: 200,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => 200,
  });
  client.on('error', () => undefined);
  return client;
}

export async function deletePrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
}

/**
 * A suite's own corner of the shared Redis: a random prefix and a client, the prefix's keys deleted
 * and the client closed after the suite. Call it inside `describe`.
 */
export function redisNamespace(suite: string): { prefix: string; redis: Redis } {
  const prefix = testPrefix(suite);
  const redis = connect();
  afterAll(async () => {
    await deletePrefix(redis, prefix);
    redis.disconnect();
  });
  return { prefix, redis };
}

/** Polls until `check` holds or the timeout passes; returns the last value and the time it took. */
export async function pollUntil<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs: number,
  everyMs = 20,
): Promise<{ value: T; elapsedMs: number }> {
  const start = Date.now();
  let value = await read();
  while (!check(value) && Date.now() - start < timeoutMs) {
    await new Promise((resolve) => setTimeout(resolve, everyMs));
    value = await read();
  }
  return { value, elapsedMs: Date.now() - start };
}

export interface PrivateRedis {
  url: string;
  stop(): Promise<void>;
}

/**
 * A redis-server of the suite's own on a free port, nothing saved: the one place a test may
 * FLUSHALL (the shared server's databases belong to everyone), or slow the server down.
 */
export async function startPrivateRedis(extraArgs: string[] = []): Promise<PrivateRedis> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', ...extraArgs],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = `redis://127.0.0.1:${port}`;
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  const { value } = await pollUntil(
    () =>
      probe.connect().then(
        () => probe.ping(),
        () => 'down',
      ),
    (reply) => reply === 'PONG',
    10_000,
    50,
  );
  probe.disconnect();
  if (value !== 'PONG') {
    child.kill('SIGKILL');
    throw new Error(`redis-server on port ${port} did not answer within 10 s`);
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
