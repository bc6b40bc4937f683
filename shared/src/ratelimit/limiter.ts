import type { Redis } from 'ioredis';
import { rateScaleFromEnv } from '../config';
import { resolveLimits, type Tier, type TierLimits } from '../keys/tiers';
import { Counter, Gauge, type Registry } from '../metrics';
import { REDIS_COMMAND_TIMEOUT_MS } from '../redis';
import { LocalGcra, type GcraDecision, type GcraLimits } from './gcra';
import { gcraAllow } from './redis-gcra';

export interface RateLimitDecision extends GcraDecision {
  /** True when Redis was not used (unreachable, or failed recently): the local per-process limit decided. */
  degraded: boolean;
  /** The limits actually applied (after scaling), for the headers. */
  limits: GcraLimits;
}

export interface RateLimiterOptions {
  redis: Redis;
  prefix?: string;
  /** Longest wait for a connected Redis's answer before the request is refused (503). Default: the connection's own commandTimeout, REDIS_COMMAND_TIMEOUT_MS. */
  timeoutMs?: number;
  /** After a Redis failure, decide locally for this long before trying Redis again. Default 1 s. */
  retryRedisAfterMs?: number;
  /** Multiplies every rate and burst (tests, load shaping). Default: WARDEN_RATE_SCALE, else 1. */
  scale?: number;
  /** Divides limits in local mode, e.g. the number of ingest processes, so N processes together stay
   *  near the account's limit during an outage. Default 1: each process enforces the full limit. */
  localShare?: number;
  /** Bound on accounts tracked by the local fallback. Default 100,000. */
  localMaxKeys?: number;
  /** Registers warden_ratelimit_* metrics here when given. */
  registry?: Registry;
  onRedisError?: (error: unknown) => void;
}

export function scaleLimits(limits: GcraLimits, scale: number): GcraLimits {
  if (scale === 1) return { ratePerMinute: limits.ratePerMinute, burst: limits.burst };
  return {
    ratePerMinute: limits.ratePerMinute * scale,
    burst: Math.max(1, Math.round(limits.burst * scale)),
  };
}

class RedisTimeoutError extends Error {
  constructor(ms: number) {
    super(`Redis did not answer the rate-limit check within ${ms} ms`);
    this.name = 'RedisTimeoutError';
  }
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisTimeoutError(ms)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** This limiter's deadline, or the connection's own `commandTimeout` (ioredis rejects with this message). */
const timedOut = (error: unknown): boolean =>
  error instanceof RedisTimeoutError || (error instanceof Error && error.message === 'Command timed out');

/**
 * Redis is connected but has not answered the rate-limit check in time (overloaded, blocked by a
 * slow command, or part of a partial outage). The request is not admitted: a local decision would
 * know nothing of what Redis has already admitted for the account. Ingest answers 503 with
 * Retry-After.
 */
export class RateLimitUnavailableError extends Error {
  readonly retryAfterSeconds = 1;
  constructor(ms: number) {
    super(`The rate limiter (Redis) did not answer within ${ms} ms; retry in a second.`);
    this.name = 'RateLimitUnavailableError';
  }
}

/**
 * Per-account rate limiting: GCRA in Redis, one round trip, shared by every ingest process.
 *
 * Two kinds of Redis trouble are told apart, because only one of them may be decided locally:
 * - **Unreachable** (not connected, or the command failed): the decision is made in this process with
 *   the same GCRA arithmetic (`degraded: true`, counted in metrics), and Redis is left alone for
 *   `retryRedisAfterMs` so an outage costs at most one failed call per interval. Trade-off, chosen on
 *   purpose: during an outage each process enforces the limit on its own, so an account can get up
 *   to N × its limit across N processes (or set `localShare`), rather than all traffic rejected.
 * - **Slow** (connected, no answer yet): the check waits for Redis up to `timeoutMs`; if Redis still
 *   has not answered, `RateLimitUnavailableError` (503, Retry-After) — never a local decision, which
 *   under a flood would admit a fresh burst per process on top of what Redis already admitted. A
 *   partial outage where some commands time out therefore answers those requests 503 and the others
 *   from Redis; no request is admitted without a decision that counts every process's admissions.
 */
export class RateLimiter {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly timeoutMs: number;
  private readonly retryRedisAfterMs: number;
  private readonly scale: number;
  private readonly localShare: number;
  private readonly local: LocalGcra;
  private readonly onRedisError: (error: unknown) => void;
  private redisRetryAt = 0;
  private readonly metrics:
    { decisions: Counter<'result' | 'mode'>; failures: Counter<'reason'>; degraded: Gauge } | undefined;

  constructor(options: RateLimiterOptions) {
    this.redis = options.redis;
    this.prefix = options.prefix ?? 'warden:';
    this.timeoutMs = options.timeoutMs ?? REDIS_COMMAND_TIMEOUT_MS;
    this.retryRedisAfterMs = options.retryRedisAfterMs ?? 1_000;
    this.scale = options.scale ?? rateScaleFromEnv();
    this.localShare = Math.max(1, options.localShare ?? 1);
    this.local = new LocalGcra(options.localMaxKeys);
    this.onRedisError = options.onRedisError ?? (() => undefined);
    if (options.registry) {
      const registers = [options.registry];
      this.metrics = {
        decisions: new Counter({
          name: 'warden_ratelimit_decisions_total',
          help: 'Rate-limit decisions by result (allowed|limited|unavailable) and mode (redis|local fallback)',
          labelNames: ['result', 'mode'],
          registers,
        }),
        failures: new Counter({
          name: 'warden_ratelimit_redis_failures_total',
          help: 'Rate-limit checks Redis did not answer, by reason: timeout (connected, too slow: 503), unreachable or error (decided locally)',
          labelNames: ['reason'],
          registers,
        }),
        degraded: new Gauge({
          name: 'warden_ratelimit_degraded',
          help: '1 while rate limits are enforced per process because Redis is unavailable',
          registers,
        }),
      };
    }
  }

  /** True while decisions are local (Redis failed recently). */
  get degraded(): boolean {
    return Date.now() < this.redisRetryAt;
  }

  /** The account's limits: tier defaults, account overrides, then the scale. */
  limitsFor(tier: Tier, overrides?: Partial<TierLimits>): GcraLimits {
    return scaleLimits(resolveLimits(tier, overrides), this.scale);
  }

  /** Checks an account whose tier (and overrides) are known, e.g. from an AuthResult. */
  checkAccount(
    account: { accountId: string; tier: Tier; limits?: Partial<TierLimits> },
    cost = 1,
  ): Promise<RateLimitDecision> {
    return this.decide(account.accountId, this.limitsFor(account.tier, account.limits), cost, 0);
  }

  /**
   * Checks explicit (unscaled) limits, e.g. `AuthResult.limits`, which already include overrides.
   * `prepaid`: units of the same request charged by an earlier check (see gcraStep).
   */
  check(accountId: string, limits: GcraLimits, cost = 1, prepaid = 0): Promise<RateLimitDecision> {
    return this.decide(accountId, scaleLimits(limits, this.scale), cost, prepaid);
  }

  private async decide(
    accountId: string,
    limits: GcraLimits,
    cost: number,
    prepaid: number,
  ): Promise<RateLimitDecision> {
    const key = `${this.prefix}ratelimit:${accountId}`;
    if (Date.now() >= this.redisRetryAt) {
      if (this.redis.status !== 'ready') {
        this.failed('unreachable', new Error(`Redis is ${this.redis.status}, not ready`));
      } else {
        try {
          const decision = await withDeadline(
            gcraAllow(this.redis, key, limits, cost, prepaid),
            this.timeoutMs,
          );
          this.recovered();
          return this.count({ ...decision, degraded: false, limits }, 'redis');
        } catch (error) {
          if (error instanceof RangeError) throw error;
          if (timedOut(error) && this.redis.status === 'ready') {
            this.metrics?.failures.inc({ reason: 'timeout' });
            this.metrics?.decisions.inc({ result: 'unavailable', mode: 'redis' });
            throw new RateLimitUnavailableError(this.timeoutMs);
          }
          this.failed(timedOut(error) ? 'unreachable' : 'error', error);
        }
      }
    }
    const localLimits = this.localShare === 1 ? limits : scaleLimits(limits, 1 / this.localShare);
    // A share of the limits may be smaller than a request the full limits admit: it then needs the
    // whole local bucket, never more.
    const localPrepaid = Math.min(prepaid, localLimits.burst);
    const decision = this.local.allow(
      key,
      localLimits,
      Math.min(cost, localLimits.burst - localPrepaid),
      Date.now(),
      localPrepaid,
    );
    return this.count({ ...decision, degraded: true, limits: localLimits }, 'local');
  }

  private failed(reason: 'unreachable' | 'error', error: unknown): void {
    this.redisRetryAt = Date.now() + this.retryRedisAfterMs;
    this.metrics?.failures.inc({ reason });
    this.metrics?.degraded.set(1);
    this.onRedisError(error);
  }

  private recovered(): void {
    this.metrics?.degraded.set(0);
  }

  private count(decision: RateLimitDecision, mode: 'redis' | 'local'): RateLimitDecision {
    this.metrics?.decisions.inc({ result: decision.allowed ? 'allowed' : 'limited', mode });
    return decision;
  }
}
