/**
 * GCRA (generic cell rate algorithm), the leaky-bucket-as-meter used by redis-cell and
 * go-redis/redis_rate: per key, one number — the theoretical arrival time (TAT) of the next request
 * on a perfectly paced stream. A request of `cost` is allowed when it would not push the TAT further
 * than `burst` emission intervals past now. A rested key admits `burst` requests at once, then one
 * every 60/ratePerMinute seconds.
 *
 * This is the single statement of the arithmetic: the Lua script in redis-gcra.ts mirrors it line
 * for line, and the local fallback calls it directly.
 */

export interface GcraLimits {
  /** Sustained rate. */
  ratePerMinute: number;
  /** Largest number of requests (cost units) admitted at once on a rested key. */
  burst: number;
}

export interface GcraDecision {
  allowed: boolean;
  /** Requests that could still be made right now. */
  remaining: number;
  /** Seconds until the key is fully rested (remaining back to burst). */
  resetSeconds: number;
  /** Seconds until this request would be allowed; 0 when allowed. */
  retryAfterSeconds: number;
}

export interface GcraStep {
  decision: GcraDecision;
  /** TAT to store, in ms, or undefined when nothing changes (denied without a prepaid part). */
  tatMs: number | undefined;
  /** How long the stored TAT matters: after this it equals "rested" and may be dropped. */
  ttlMs: number;
}

export function assertGcraInput(limits: GcraLimits, cost: number, prepaid = 0): void {
  if (!(limits.ratePerMinute > 0) || !Number.isFinite(limits.ratePerMinute)) {
    throw new RangeError(`ratePerMinute must be a positive number (got ${limits.ratePerMinute}).`);
  }
  if (!(limits.burst >= 1) || !Number.isFinite(limits.burst)) {
    throw new RangeError(`burst must be at least 1 (got ${limits.burst}).`);
  }
  if (!Number.isInteger(prepaid) || prepaid < 0) {
    throw new RangeError(`prepaid must be a non-negative integer, got ${prepaid}.`);
  }
  if (!Number.isInteger(cost) || cost < 0 || cost + prepaid > limits.burst) {
    throw new RangeError(
      `cost must be an integer from 0 to burst (${limits.burst}) less prepaid (${prepaid}), got ${cost}: a request above burst could never pass.`,
    );
  }
}

export function emissionIntervalMs(limits: GcraLimits): number {
  return 60_000 / limits.ratePerMinute;
}

/**
 * One GCRA decision. `storedTatMs` is what the key holds (undefined = never seen or expired).
 *
 * `prepaid` is the part of the same request charged earlier (ingest charges a request's first unit
 * before its body is read, the rest once it knows how many records the body carries). The request is
 * judged as a whole, as if nothing had been charged yet: when it does not fit, the prepaid units
 * are refunded (the returned `tatMs`), so a refused request costs nothing and its Retry-After is the
 * wait after which the whole request fits.
 */
export function gcraStep(
  storedTatMs: number | undefined,
  nowMs: number,
  limits: GcraLimits,
  cost = 1,
  prepaid = 0,
): GcraStep {
  const interval = emissionIntervalMs(limits);
  const tolerance = interval * limits.burst;
  const tat = Math.max(storedTatMs ?? nowMs, nowMs);
  // The TAT before this request's prepaid units (never before now: a rested key is just rested).
  const before = Math.max(tat - interval * prepaid, nowMs);
  const allowAt = before + interval * (prepaid + cost) - tolerance;
  if (nowMs < allowAt) {
    return {
      decision: {
        allowed: false,
        remaining: Math.max(0, Math.floor((nowMs - (before - tolerance)) / interval)),
        resetSeconds: (before - nowMs) / 1000,
        retryAfterSeconds: (allowAt - nowMs) / 1000,
      },
      tatMs: prepaid > 0 ? before : undefined,
      ttlMs: before - nowMs,
    };
  }
  const newTat = tat + interval * cost;
  return {
    decision: {
      allowed: true,
      remaining: Math.max(0, Math.floor((nowMs - (newTat - tolerance)) / interval)),
      resetSeconds: (newTat - nowMs) / 1000,
      retryAfterSeconds: 0,
    },
    tatMs: newTat,
    ttlMs: newTat - nowMs,
  };
}

/**
 * The same GCRA held in process memory: the Redis-down fallback. Bounded: when full, rested keys
 * are dropped first (a rested key is the same as an absent one), then the oldest.
 */
export class LocalGcra {
  private readonly tats = new Map<string, number>();

  constructor(private readonly maxKeys = 100_000) {}

  allow(key: string, limits: GcraLimits, cost = 1, nowMs = Date.now(), prepaid = 0): GcraDecision {
    assertGcraInput(limits, cost, prepaid);
    const step = gcraStep(this.tats.get(key), nowMs, limits, cost, prepaid);
    if (step.tatMs !== undefined) {
      if (!this.tats.has(key) && this.tats.size >= this.maxKeys) this.evict(nowMs);
      this.tats.delete(key);
      this.tats.set(key, step.tatMs);
    }
    return step.decision;
  }

  get size(): number {
    return this.tats.size;
  }

  private evict(nowMs: number): void {
    for (const [key, tat] of this.tats) if (tat <= nowMs) this.tats.delete(key);
    if (this.tats.size < this.maxKeys) return;
    const oldest = this.tats.keys().next();
    if (!oldest.done) this.tats.delete(oldest.value);
  }
}
