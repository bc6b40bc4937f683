import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { Guards } from '../guards';

declare module 'fastify' {
  interface FastifyReply {
    /**
     * Charges the rest of a request that carries `records` records (its first unit was charged on
     * arrival): 429 with Retry-After when they do not fit now (the first unit is then refunded, so
     * Retry-After is the wait for the whole request), 413 when they never could (more than the
     * tier's burst). Updates the RateLimit headers.
     */
    chargeRecords(records: number): Promise<void>;
  }
}

export interface RateLimitOptions {
  guards: Guards;
}

/**
 * Rate limits count records. Every request is charged one unit before the body is read (RateLimit
 * headers on every answer, 429 with Retry-After beyond the tier's rate), so a limited caller costs
 * no parsing; a route whose body carries several records charges the rest with
 * `reply.chargeRecords` once it knows how many. Runs after the auth plugin's hook.
 */
export const rateLimitPlugin = fp<RateLimitOptions>(
  async (app, { guards }) => {
    // The guard's own promise is the hook's: no async wrapper around it.
    app.addHook('onRequest', (req, reply) => guards.rateLimit(req.caller, reply, 1));
    app.decorateReply('chargeRecords', function (this: FastifyReply, records: number) {
      return records > 1 ? guards.rateLimit(this.request.caller, this, records - 1, 1) : Promise.resolve();
    });
  },
  { name: 'warden-rate-limit', dependencies: ['warden-auth'], decorators: { request: ['caller'] } },
);
