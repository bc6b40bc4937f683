import type { FastifyReply, FastifyRequest } from 'fastify';

/** Who is calling, as established from the API key. */
export interface Caller {
  accountId: string;
  keyId: string;
  tier: string;
  scopes: string[];
  agentLimit: number;
}

/** A stored first answer for an idempotent retry. */
export interface StoredAnswer {
  status: number;
  body: unknown;
}

export type IdempotencyClaim =
  { state: 'new' } | { state: 'replay'; answer: StoredAnswer } | { state: 'in-progress' };

/**
 * What stands between a request and Kafka: authentication, rate limits, agent limits and
 * idempotency. Each method throws ApiError to refuse. Production wires Redis-backed
 * implementations (see redis-guards.ts); unit tests may pass `openGuards`.
 */
export interface Guards {
  authenticate(req: FastifyRequest, scope: string): Caller;
  /** Charges `cost` requests to the account; sets RateLimit headers on the reply; throws 429. */
  rateLimit(caller: Caller, reply: FastifyReply, cost: number): Promise<void>;
  /** Throws 403 AGENT_LIMIT_EXCEEDED for a new agent beyond the tier's limit. */
  admitAgent(caller: Caller, agentId: string): Promise<void>;
  claimIdempotency(caller: Caller, key: string): Promise<IdempotencyClaim>;
  completeIdempotency(caller: Caller, key: string, answer: StoredAnswer): Promise<void>;
  abandonIdempotency(caller: Caller, key: string): Promise<void>;
  /** Counts accepted records per key (usage shown by `warden keys list`). */
  recordUsage(caller: Caller, records: number): void;
}

/** No keys, no limits: every request is the `local` account. For unit tests of the HTTP layer only. */
export const openGuards: Guards = {
  authenticate: () => ({
    accountId: 'local',
    keyId: 'local',
    tier: 'enterprise',
    scopes: ['ingest'],
    agentLimit: Infinity,
  }),
  rateLimit: async () => undefined,
  admitAgent: async () => undefined,
  claimIdempotency: async () => ({ state: 'new' }),
  completeIdempotency: async () => undefined,
  abandonIdempotency: async () => undefined,
  recordUsage: () => undefined,
};
