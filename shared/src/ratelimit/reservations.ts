import type { GcraLimits } from './gcra';
import type { RateLimitDecision } from './limiter';

/** What ReservingLimiter needs of RateLimiter. */
export interface AccountLimiter {
  check(accountId: string, limits: GcraLimits, cost?: number, prepaid?: number): Promise<RateLimitDecision>;
}

export interface ReservationOptions {
  /** Requests taken from Redis at once for an account with these limits; 1 turns reservation off. */
  chunkFor?: (limits: GcraLimits) => number;
  /** Unused reserved requests are given up (not refunded) after this long. Default 1 s. */
  ttlMs?: number;
}

/**
 * Large accounts pay one Redis round trip per `chunk` requests instead of one per request: the
 * process charges the shared GCRA for a chunk and spends it locally. The account is never admitted
 * beyond its limit (requests are charged before they are served); near the limit a process may
 * hold up to chunk-1 unused requests for at most `ttlMs`. Small limits (burst < 1,000) keep one
 * round trip per request, so their accounting stays exact.
 */
export function defaultChunk(limits: GcraLimits): number {
  return limits.burst >= 1000 ? Math.min(50, Math.floor(limits.burst / 100)) : 1;
}

interface Reserved {
  tokens: number;
  expiresAt: number;
  decision: RateLimitDecision;
}

export class ReservingLimiter {
  private readonly reserved = new Map<string, Reserved>();
  private readonly inflight = new Map<string, Promise<unknown>>();
  private readonly chunkFor: (limits: GcraLimits) => number;
  private readonly ttlMs: number;

  constructor(
    private readonly limiter: AccountLimiter,
    opts: ReservationOptions = {},
  ) {
    this.chunkFor = opts.chunkFor ?? defaultChunk;
    this.ttlMs = opts.ttlMs ?? 1000;
  }

  async check(accountId: string, limits: GcraLimits, cost = 1, prepaid = 0): Promise<RateLimitDecision> {
    const chunk = this.chunkFor(limits);
    if (prepaid > 0) {
      // The rest of a request: from what this process holds when it can, else from the shared
      // limit, which refunds the prepaid part when the whole does not fit.
      return this.take(accountId, cost) ?? this.limiter.check(accountId, limits, cost, prepaid);
    }
    if (chunk <= cost) return this.limiter.check(accountId, limits, cost);
    for (;;) {
      const local = this.take(accountId, cost);
      if (local) return local;
      const pending = this.inflight.get(accountId);
      if (!pending) break;
      await pending.catch(() => undefined);
    }
    const request = this.limiter.check(accountId, limits, chunk);
    this.inflight.set(accountId, request);
    let decision: RateLimitDecision;
    try {
      decision = await request;
    } finally {
      this.inflight.delete(accountId);
    }
    if (!decision.allowed || decision.degraded) {
      // Not enough for a chunk (or Redis is away): decide this one request on its own.
      return decision.degraded ? decision : this.limiter.check(accountId, limits, cost);
    }
    if (this.reserved.size > 100_000) this.reserved.clear();
    this.reserved.set(accountId, { tokens: chunk - cost, expiresAt: Date.now() + this.ttlMs, decision });
    return { ...decision, remaining: decision.remaining + chunk - cost };
  }

  private take(accountId: string, cost: number): RateLimitDecision | undefined {
    const r = this.reserved.get(accountId);
    if (!r || r.tokens < cost || r.expiresAt < Date.now()) return undefined;
    r.tokens -= cost;
    return { ...r.decision, remaining: r.decision.remaining + r.tokens };
  }
}
