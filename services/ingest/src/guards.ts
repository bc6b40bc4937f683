import type { FastifyReply, FastifyRequest } from 'fastify';

/** Who is calling, as established from the API key. */
export interface Caller {
  accountId: string;
  keyId: string;
  tier: string;
  scopes: string[];
  agentLimit: number;
  ratePerMinute: number;
  burst: number;
}

/** A route's answer, stored as the first answer for idempotent retries. */
export interface StoredAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** What a retry needs when `body` is too large to keep (see IdempotencyStore). */
  summary?: unknown;
}

/**
 * What an idempotency key names: a request (its Idempotency-Key header) or a record (its
 * client-supplied interactionId). Each scope has its own keys.
 */
export type IdempotencyScope = 'request' | 'record';

export type IdempotencyClaim =
  | { state: 'claimed'; token: string }
  | { state: 'replay'; answer: StoredAnswer }
  | { state: 'in_progress' }
  | { state: 'mismatch' };

/**
 * What stands between a request and Kafka: authentication, rate limits, agent limits and
 * idempotency. Each method throws ApiError to refuse. Production wires the Redis-backed
 * implementation (redis-guards.ts); tests of the HTTP layer alone may pass `openGuards`.
 */
export interface Guards {
  authenticate(req: FastifyRequest, scope: string): Promise<Caller>;
  /**
   * Charges `cost` records to the account and sets RateLimit headers on the reply; throws 429 when
   * they do not fit now, 413 when `prepaid + cost` exceeds the burst (it never could). `prepaid`:
   * units of the same request charged by an earlier call, refunded when the whole does not fit.
   */
  rateLimit(caller: Caller, reply: FastifyReply, cost: number, prepaid?: number): Promise<void>;
  /** Throws 403 AGENT_LIMIT_EXCEEDED for a new agent beyond the tier's limit. */
  admitAgent(caller: Caller, agentId: string): Promise<void>;
  claimIdempotency(
    caller: Caller,
    key: string,
    fingerprint: string,
    scope?: IdempotencyScope,
  ): Promise<IdempotencyClaim>;
  /**
   * Stores the answer of a claimed key. Runs after the records were stored in Kafka, so it must not
   * fail the request: an implementation logs and counts its own failures and resolves.
   */
  completeIdempotency(
    caller: Caller,
    key: string,
    token: string,
    answer: StoredAnswer,
    fingerprint: string,
    scope?: IdempotencyScope,
  ): Promise<void>;
  abandonIdempotency(caller: Caller, key: string, token: string, scope?: IdempotencyScope): Promise<void>;
  /** Counts accepted records per key (usage shown by `warden keys list`). */
  recordUsage(caller: Caller, records: number): void;
}

/** No keys, no limits: every request is the `local` account. For tests of the HTTP layer only. */
export const openGuards: Guards = {
  authenticate: async () => ({
    accountId: 'local',
    keyId: 'local',
    tier: 'enterprise',
    scopes: ['ingest'],
    agentLimit: Infinity,
    ratePerMinute: Infinity,
    burst: Infinity,
  }),
  rateLimit: async () => undefined,
  admitAgent: async () => undefined,
  claimIdempotency: async () => ({ state: 'claimed', token: 'local' }),
  completeIdempotency: async () => undefined,
  abandonIdempotency: async () => undefined,
  recordUsage: () => undefined,
};
