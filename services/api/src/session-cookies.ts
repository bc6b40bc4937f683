import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Role, SessionStore } from '@warden/shared/users/index';
import { CSRF_COOKIE, SESSION_COOKIE } from './caller';

export interface CookieOptions {
  sessions: SessionStore;
  sessionTtlMs: number;
  /** Secure cookies always, never, or when the request came over TLS. */
  cookieSecure: 'auto' | boolean;
}

const secure = (opts: CookieOptions, req: FastifyRequest) =>
  opts.cookieSecure === 'auto' ? req.protocol === 'https' : opts.cookieSecure;

/**
 * Starts a session for a user who proved who they are (sign-in, sign-up, an accepted invitation):
 * the HttpOnly session cookie and the page-readable CSRF cookie, and the sign-in answer's body.
 */
export async function startSession(
  opts: CookieOptions,
  req: FastifyRequest,
  reply: FastifyReply,
  user: { userId: string; email: string; organisationId: string; role: Role },
) {
  const session = await opts.sessions.create({
    userId: user.userId,
    organisationId: user.organisationId,
    ttlMs: opts.sessionTtlMs,
    address: req.ip,
    ...(req.headers['user-agent'] ? { userAgent: req.headers['user-agent'] } : {}),
  });
  const cookie = {
    path: '/',
    sameSite: 'lax' as const,
    secure: secure(opts, req),
    expires: session.expiresAt,
  };
  reply.setCookie(SESSION_COOKIE, session.token, { ...cookie, httpOnly: true });
  // Readable by the page on purpose: it echoes it in x-csrf-token (see caller.ts).
  reply.setCookie(CSRF_COOKIE, session.csrfToken, { ...cookie, httpOnly: false });
  return {
    user: { userId: user.userId, email: user.email },
    organisationId: user.organisationId,
    role: user.role,
    csrfToken: session.csrfToken,
    expiresAt: session.expiresAt.toISOString(),
  };
}

/** Clears both session cookies (sign-out). */
export function clearSessionCookies(opts: CookieOptions, req: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secure(opts, req),
  });
  reply.clearCookie(CSRF_COOKIE, { path: '/', sameSite: 'lax', secure: secure(opts, req) });
}
