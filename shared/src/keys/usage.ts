import type { Redis } from 'ioredis';
import type { PostgresKeys } from './postgres';
import { keysKeyspace, usageDay, type KeysKeyspace } from './store';

export interface KeyUsageRecorderOptions {
  redis: Redis;
  prefix?: string;
  /** With it, counts go to PostgreSQL (`key_usage`, `api_keys.last_used_at`) instead of Redis. */
  source?: PostgresKeys;
  /** How often counts go to Redis. Default 1 s. */
  flushIntervalMs?: number;
  /** Called when a flush fails; the counts are kept and retried on the next flush. */
  onError?: (error: unknown) => void;
}

/**
 * Per-key request counters, cheap on the hot path: `recordUsage` only adds to an in-process map; a
 * timer writes the sums once a second: to PostgreSQL when it is the store (one statement per
 * flush: `key_usage` per UTC day and `api_keys.last_used_at`), so losing Redis loses no usage; else
 * to Redis in one pipeline (HINCRBY on `key:<id>:usage`, fields `d:<UTC day>` and `total`, plus
 * `lastUsedAt`). Counts of a failed flush are kept for the next one, so an outage delays usage
 * numbers rather than losing them; a process crash loses at most one interval.
 */
export class KeyUsageRecorder {
  private readonly redis: Redis;
  private readonly source: PostgresKeys | undefined;
  private readonly keyspace: KeysKeyspace;
  private readonly onError: (error: unknown) => void;
  private pending = new Map<string, { count: number; lastUsedAt: number }>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(options: KeyUsageRecorderOptions) {
    this.redis = options.redis;
    this.source = options.source;
    this.keyspace = keysKeyspace(options.prefix);
    this.onError = options.onError ?? (() => undefined);
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 1000);
    this.timer.unref();
  }

  recordUsage(keyId: string, n = 1): void {
    const entry = this.pending.get(keyId);
    const now = Date.now();
    if (entry) {
      entry.count += n;
      entry.lastUsedAt = now;
    } else {
      this.pending.set(keyId, { count: n, lastUsedAt: now });
    }
  }

  /** Writes what has accumulated; concurrent calls share one flush. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  /** Stops the timer and writes the remainder. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      if (this.source) await this.source.addUsage(batch, usageDay());
      else await this.writeToRedis(batch);
    } catch (error) {
      // Put the counts back; HINCRBY is not idempotent, so a partial failure may double-count a
      // little — preferred to losing usage. (PostgreSQL's single statement is all or nothing.)
      for (const [keyId, entry] of batch) this.recordMerged(keyId, entry);
      this.onError(error);
    }
  }

  private async writeToRedis(batch: Map<string, { count: number; lastUsedAt: number }>): Promise<void> {
    const day = `d:${usageDay()}`;
    const pipeline = this.redis.pipeline();
    for (const [keyId, { count, lastUsedAt }] of batch) {
      const key = this.keyspace.usage(keyId);
      pipeline.hincrby(key, day, count);
      pipeline.hincrby(key, 'total', count);
      pipeline.hset(key, 'lastUsedAt', lastUsedAt);
    }
    const results = await pipeline.exec();
    const failed = results?.find(([error]) => error);
    if (failed) throw failed[0];
  }

  private recordMerged(keyId: string, entry: { count: number; lastUsedAt: number }): void {
    const current = this.pending.get(keyId);
    if (current) {
      current.count += entry.count;
      current.lastUsedAt = Math.max(current.lastUsedAt, entry.lastUsedAt);
    } else {
      this.pending.set(keyId, entry);
    }
  }
}
