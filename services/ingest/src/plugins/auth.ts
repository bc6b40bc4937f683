import fp from 'fastify-plugin';
import type { Caller, Guards } from '../guards';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling: set by the auth plugin's onRequest hook on the routes it guards. */
    caller: Caller;
  }
}

export interface AuthOptions {
  guards: Guards;
  /** The key scope every route of the registering context requires. */
  scope: string;
}

/**
 * Authenticates the API key before the body is read (a refused caller costs little) and puts the
 * caller on `request.caller`. Registered inside a routes plugin, it guards that plugin's routes only.
 */
export const authPlugin = fp<AuthOptions>(
  async (app, { guards, scope }) => {
    // Declared up front so every request of these routes has the same shape.
    app.decorateRequest('caller');
    app.addHook('onRequest', async (req) => {
      req.caller = await guards.authenticate(req, scope);
    });
  },
  { name: 'warden-auth' },
);
