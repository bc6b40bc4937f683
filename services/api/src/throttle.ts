import type { Redis } from 'ioredis';
import { ApiError } from '@warden/shared/http/errors';
import type { Logger } from '@warden/shared/logger';
import { gcraAllow, LocalGcra, type GcraDecision, type GcraLimits } from '@warden/shared/ratelimit/index';

export interface Throttle {
  /** Counts one attempt under `key` (already namespaced); the decision says whether it may go on. */
  allow(key: string): Promise<GcraDecision>;
  /** Counts one attempt and throws 429 with Retry-After when the key is over its limit. */
  check(key: string, what: string): Promise<void>;
}

/**
 * Throttling of unauthenticated, CPU-costly requests (each hashes a password with argon2id) by the
 * same GCRA ingest limits accounts with: one Redis round trip; while Redis is away, by this
 * process's own copy, never by nothing.
 */
export function createThrottle(opts: { redis: Redis; ratePerMinute: number; logger?: Logger }): Throttle {
  const limits: GcraLimits = { ratePerMinute: opts.ratePerMinute, burst: opts.ratePerMinute * 2 };
  const local = new LocalGcra(10_000);
  const allow = async (key: string): Promise<GcraDecision> => {
    try {
      return await gcraAllow(opts.redis, key, limits);
    } catch (err) {
      opts.logger?.warn({ err: (err as Error).message }, 'throttle: Redis unavailable, limiting locally');
      return local.allow(key, limits);
    }
  };
  return {
    allow,
    async check(key, what) {
      const decision = await allow(key);
      if (decision.allowed) return;
      const retryAfter = String(Math.max(1, Math.ceil(decision.retryAfterSeconds)));
      throw new ApiError('RATE_LIMIT_EXCEEDED', `Too many ${what}; retry in ${retryAfter} s.`, undefined, {
        'retry-after': retryAfter,
      });
    },
  };
}
