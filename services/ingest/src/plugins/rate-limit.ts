import fp from 'fastify-plugin';
import type { Guards } from '../guards';

export interface RateLimitOptions {
  guards: Guards;
}

/**
 * Charges one request to the caller's account before the body is read: RateLimit headers on every
 * answer, 429 with Retry-After beyond the tier's rate. Runs after the auth plugin's hook.
 */
export const rateLimitPlugin = fp<RateLimitOptions>(
  async (app, { guards }) => {
    // The guard's own promise is the hook's: no async wrapper around it.
    app.addHook('onRequest', (req, reply) => guards.rateLimit(req.caller, reply, 1));
  },
  { name: 'warden-rate-limit', dependencies: ['warden-auth'], decorators: { request: ['caller'] } },
);
