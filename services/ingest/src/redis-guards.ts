import type { Redis } from 'ioredis';
import { AgentRegistry, AgentRegistryUnavailableError } from '@warden/shared/agents/index';
import { IdempotencyStore } from '@warden/shared/idempotency/index';
import {
  KeyAuthenticator,
  KeyUsageRecorder,
  PostgresKeys,
  presentedKeyFromHeaders,
} from '@warden/shared/keys/index';
import type { Logger } from '@warden/shared/logger';
import type { PostgresPool } from '@warden/shared/postgres/client';
import { Counter, type Registry } from '@warden/shared/metrics';
import {
  AddressLimiter,
  rateLimitHeaders,
  RateLimiter,
  RateLimitUnavailableError,
  rateScaleFromEnv,
  scaleLimits,
  type GcraLimits,
} from '@warden/shared/ratelimit/index';
import { defaultChunk, ReservingLimiter } from '@warden/shared/ratelimit/reservations';
import { ApiError } from './errors';
import type { Guards, IdempotencyScope } from './guards';

export interface RedisGuardsOptions {
  redis: Redis;
  /**
   * The control plane's store: keys Redis does not hold are read from it (and cached again), and
   * the key cache's full reload reads it. Never asked per request for a key this process holds.
   */
  postgres?: PostgresPool;
  logger: Logger;
  metrics?: Registry;
  /** Namespace of every Redis key (tests isolate themselves with a random one). */
  prefix?: string;
  /** Multiplies every tier's rate and burst (tests scale them down). */
  rateScale?: number;
  /** Longest wait for Redis on a rate-limit check before deciding locally (default 50 ms). */
  rateLimitTimeoutMs?: number;
  /** Requests without a valid key admitted per client address, in each process (default 60/min, burst 60). */
  addressLimits?: GcraLimits;
  /**
   * Bytes of idempotent answers an account may keep for 24 h, per record a minute its tier admits
   * (default 100 × 1,440 a day: 14.4 MB for free's 100/min); beyond it answers are kept 10 min.
   */
  idempotencyBytesPerRecord?: number;
}

export interface RedisGuards extends Guards {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The production guards. Auth answers from an in-process key cache kept fresh by Redis pub/sub
 * (no round trip per request); the rate limit is one Redis round trip (GCRA) with a local fallback
 * when Redis is down; known agents are cached; idempotency claims and answers live in Redis.
 */
export function redisGuards(opts: RedisGuardsOptions): RedisGuards {
  const { redis, logger, prefix } = opts;
  const onError = (during: string) => (err: unknown) =>
    logger.warn({ err, during }, 'Redis-backed guard degraded');
  const source = opts.postgres ? { source: new PostgresKeys(opts.postgres, 'ingest') } : {};
  const auth = new KeyAuthenticator({
    redis,
    prefix,
    ...source,
    onError: (err, during) => onError(during)(err),
  });
  // With PostgreSQL, usage counts go there (once a second per process, never per request).
  const usage = new KeyUsageRecorder({ redis, prefix, ...source, onError: onError('usage') });
  const sharedLimiter = new RateLimiter({
    redis,
    prefix,
    registry: opts.metrics,
    onRedisError: onError('rate limit'),
    ...(opts.rateScale !== undefined ? { scale: opts.rateScale } : {}),
    ...(opts.rateLimitTimeoutMs !== undefined ? { timeoutMs: opts.rateLimitTimeoutMs } : {}),
  });
  // Large accounts reserve requests in chunks: one Redis round trip per chunk, not per request.
  // Chunk sizes follow the limits actually enforced (after WARDEN_RATE_SCALE).
  const scale = opts.rateScale ?? rateScaleFromEnv();
  const limiter = new ReservingLimiter(sharedLimiter, {
    chunkFor: (limits) => defaultChunk(scaleLimits(limits, scale)),
  });
  const strangers = new AddressLimiter(opts.addressLimits);
  const agents = new AgentRegistry({ redis, prefix, onError: onError('agents') });
  // Idempotency-Key headers and client interaction ids: one protocol, keys kept apart.
  const idempotency: Record<IdempotencyScope, IdempotencyStore> = {
    request: new IdempotencyStore({ redis, prefix }),
    record: new IdempotencyStore({ redis, prefix, space: 'iid' }),
  };
  const idempotencyBudgetPerRate = (opts.idempotencyBytesPerRecord ?? 100) * 24 * 60;
  const bookkeepingFailures = opts.metrics
    ? new Counter({
        name: 'warden_ingest_bookkeeping_failures_total',
        help: 'Writes after the Kafka acknowledgement that failed (the answer stood), by step',
        labelNames: ['step'],
        registers: [opts.metrics],
      })
    : undefined;
  /** Bookkeeping after the Kafka ack: a failure is logged and counted, never the request's error. */
  const afterAck = (step: string, write: Promise<unknown>) =>
    write.then(
      () => undefined,
      (err: unknown) => {
        bookkeepingFailures?.inc({ step });
        logger.warn({ err, step }, 'bookkeeping after the Kafka acknowledgement failed; the answer stands');
      },
    );

  return {
    start: () => auth.start(),
    stop: async () => {
      await auth.stop();
      await usage.stop();
    },

    async authenticate(req, scope) {
      const presented = presentedKeyFromHeaders(req.headers);
      // A key this process knows to be valid costs nothing more; anything else is charged to the
      // client's address first, so neither bad keys nor random ones (a Redis lookup each) flood.
      let result = auth.known(presented);
      if (!result?.ok) {
        const decision = strangers.allow(req.ip);
        if (!decision.allowed) {
          const headers = rateLimitHeaders(decision, strangers.limits, 'unauthenticated');
          throw new ApiError(
            'RATE_LIMIT_EXCEEDED',
            `Too many requests without a valid API key from this address; check the key (Authorization: Bearer <key>) and retry after ${headers['Retry-After']} s.`,
            undefined,
            headers,
          );
        }
        result ??= await auth.authenticate(presented);
      }
      if (!result.ok) {
        if (result.reason === 'unavailable') {
          throw new ApiError('SERVICE_UNAVAILABLE', result.message, undefined, { 'retry-after': '2' });
        }
        throw new ApiError('INVALID_API_KEY', result.message);
      }
      if (!(result.scopes as string[]).includes(scope)) {
        throw new ApiError(
          'INSUFFICIENT_PERMISSIONS',
          `This API key lacks the "${scope}" scope required here; create a key with --scopes ${scope}.`,
        );
      }
      return {
        accountId: result.accountId,
        keyId: result.keyId,
        tier: result.tier,
        scopes: result.scopes,
        agentLimit: result.limits.agentLimit,
        ratePerMinute: result.limits.ratePerMinute,
        burst: result.limits.burst,
      };
    },

    async rateLimit(caller, reply, cost, prepaid = 0) {
      const limits = { ratePerMinute: caller.ratePerMinute, burst: caller.burst };
      // One record always fits; more may be beyond the burst (after WARDEN_RATE_SCALE).
      const burst = cost + prepaid > 1 ? scaleLimits(limits, scale).burst : Infinity;
      if (cost + prepaid > burst) {
        // However long the client waited, this many records would never fit at once.
        throw new ApiError(
          'PAYLOAD_TOO_LARGE',
          `This request carries ${cost + prepaid} records; the ${caller.tier} tier admits at most ${burst} at once (its burst): send them in batches of at most ${burst}.`,
          {
            field: 'interactions',
            expected: `at most ${burst} records`,
            received: `${cost + prepaid} records`,
          },
        );
      }
      let decision;
      try {
        decision = await limiter.check(caller.accountId, limits, cost, prepaid);
      } catch (err) {
        if (!(err instanceof RateLimitUnavailableError)) throw err;
        throw new ApiError('SERVICE_UNAVAILABLE', err.message, undefined, {
          'retry-after': String(err.retryAfterSeconds),
        });
      }
      const headers = rateLimitHeaders(decision, decision.limits);
      reply.headers(headers);
      if (decision.allowed) return;
      throw new ApiError(
        'RATE_LIMIT_EXCEEDED',
        `Rate limit of the ${caller.tier} tier exceeded (${decision.limits.ratePerMinute} records/min, burst ${decision.limits.burst}); retry after ${headers['Retry-After']} s and back off exponentially.`,
        undefined,
        headers,
      );
    },

    async admitAgent(caller, agentId) {
      let admission;
      try {
        admission = await agents.admit(caller.accountId, agentId, caller.agentLimit);
      } catch (err) {
        // A new agent cannot be counted while Redis is away; known agents never get here.
        if (err instanceof AgentRegistryUnavailableError) {
          throw new ApiError(
            'SERVICE_UNAVAILABLE',
            'New agents cannot be registered right now; retry shortly.',
            undefined,
            {
              'retry-after': '2',
            },
          );
        }
        throw err;
      }
      if (admission.archived) {
        throw new ApiError(
          'AGENT_LIMIT_EXCEEDED',
          `Agent "${agentId}" is archived and holds no slot of the ${caller.tier} tier's ${caller.agentLimit}; unarchive it (PATCH /api/v1/agents/{agentId} with {"archived": false}) to send its data again.`,
          { field: 'agentId', expected: 'an agent that is not archived', received: 'an archived agentId' },
        );
      }
      if (!admission.allowed) {
        throw new ApiError(
          'AGENT_LIMIT_EXCEEDED',
          `The ${caller.tier} tier allows ${caller.agentLimit} agents and this account has ${admission.count}; "${agentId}" would be a new one. Known agents keep working.`,
          {
            field: 'agentId',
            expected: `one of the account's ${caller.agentLimit} registered agents`,
            received: 'a new agentId',
          },
        );
      }
    },

    async claimIdempotency(caller, key, fingerprint, scope = 'request') {
      let begun;
      try {
        begun = await idempotency[scope].begin(caller.accountId, key, fingerprint);
      } catch (err) {
        // Without Redis a retry cannot be recognised: refuse rather than risk a second write.
        logger.warn({ err }, 'idempotency store unavailable');
        throw new ApiError(
          'SERVICE_UNAVAILABLE',
          scope === 'request'
            ? 'Idempotent requests cannot be checked right now; retry shortly.'
            : 'Records with their own interactionId cannot be checked right now; retry shortly.',
          undefined,
          {
            'retry-after': '2',
          },
        );
      }
      if (begun.state === 'claimed') return { state: 'claimed', token: begun.token };
      if (begun.state === 'replay') return { state: 'replay', answer: begun.answer };
      return { state: begun.state };
    },
    completeIdempotency(caller, key, token, answer, fingerprint, scope = 'request') {
      return afterAck(
        'idempotency',
        idempotency[scope].complete(
          caller.accountId,
          key,
          answer,
          token,
          fingerprint,
          caller.ratePerMinute * idempotencyBudgetPerRate,
        ),
      );
    },
    async abandonIdempotency(caller, key, token, scope = 'request') {
      await idempotency[scope].abandon(caller.accountId, key, token);
    },

    recordUsage(caller, records) {
      if (records > 0) usage.recordUsage(caller.keyId, records);
    },
  };
}
