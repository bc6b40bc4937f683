import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '@warden/shared/http/errors';
import { presentedKeyFromHeaders, type KeyAuthenticator, type Scope } from '@warden/shared/keys/index';
import type { PostgresPool } from '@warden/shared/postgres/client';
import { sha256Hex, type SessionCaller, type SessionStore } from '@warden/shared/users/index';

export const SESSION_COOKIE = 'warden_session';
export const CSRF_COOKIE = 'warden_csrf';
export const CSRF_HEADER = 'x-csrf-token';
export const PROJECT_HEADER = 'x-warden-project';

/** Who is calling: a signed-in person (cookie) or an API key (header). */
export type Caller =
  | { kind: 'session'; session: SessionCaller }
  | { kind: 'key'; keyId: string; projectId: string; scopes: Scope[] };

/**
 * What a route needs, declared in its `config.permission`:
 * - `analytics:read` — any member (viewer included) or a key with `analytics:read`/`admin`;
 * - `keys:read` — any member, or a key with `keys:manage`/`admin`;
 * - `keys:manage` — owner, admin or member (not viewer), or a key with `keys:manage`/`admin`;
 * - `alerts:read` — any member, or a key with `admin`;
 * - `alerts:manage` — owner or admin, or a key with `admin` (webhook endpoints and alert rules);
 * - `caller` — anyone authenticated (no project needed).
 * Organisation-level permissions (no project is fixed; the route bounds itself by organisation):
 * - `projects:read` — any member, or a key with `analytics:read`/`keys:manage`/`admin` (its own project);
 * - `projects:write` — owner, admin or member, or an `admin` key (its own project);
 * - `org:read` — any signed-in member (API keys belong to a project, not to a person);
 * - `org:invite` — owner, admin or member, signed in;
 * - `org:manage` — owner or admin, signed in.
 */
export type Permission =
  | 'analytics:read'
  | 'keys:read'
  | 'keys:manage'
  | 'caller'
  | 'projects:read'
  | 'projects:write'
  | 'org:read'
  | 'org:invite'
  | 'org:manage'
  | 'alerts:read'
  | 'alerts:manage';

/** Permissions whose requests act on one project, fixed by the guard (X-Warden-Project or the key's). */
const PROJECT_BOUND = new Set<Permission>([
  'analytics:read',
  'keys:read',
  'keys:manage',
  'alerts:read',
  'alerts:manage',
]);

const KEY_SCOPES: Record<Permission, readonly Scope[]> = {
  'analytics:read': ['analytics:read', 'admin'],
  'keys:read': ['keys:manage', 'admin'],
  'keys:manage': ['keys:manage', 'admin'],
  'alerts:read': ['admin'],
  'alerts:manage': ['admin'],
  caller: ['ingest', 'analytics:read', 'keys:manage', 'admin'],
  'projects:read': ['analytics:read', 'keys:manage', 'admin'],
  'projects:write': ['admin'],
  'org:read': [],
  'org:invite': [],
  'org:manage': [],
};
const SESSION_ROLES: Record<Permission, readonly string[]> = {
  'analytics:read': ['owner', 'admin', 'member', 'viewer'],
  'keys:read': ['owner', 'admin', 'member', 'viewer'],
  'keys:manage': ['owner', 'admin', 'member'],
  'alerts:read': ['owner', 'admin', 'member', 'viewer'],
  'alerts:manage': ['owner', 'admin'],
  caller: ['owner', 'admin', 'member', 'viewer'],
  'projects:read': ['owner', 'admin', 'member', 'viewer'],
  'projects:write': ['owner', 'admin', 'member'],
  'org:read': ['owner', 'admin', 'member', 'viewer'],
  'org:invite': ['owner', 'admin', 'member'],
  'org:manage': ['owner', 'admin'],
};

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling (the guard sets it on routes with a permission). */
    principal: Caller;
    /** The project every query of this request is bounded by (routes that need one). */
    projectId: string;
  }
  interface FastifyContextConfig {
    permission?: Permission;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CallerDeps {
  sessions: SessionStore;
  keys: KeyAuthenticator;
  pool: PostgresPool;
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * The onRequest hook of every guarded route: authenticates (a key when one is presented, else the
 * session cookie), checks CSRF for state-changing session requests, checks the route's permission
 * and fixes the project. A project another organisation owns is answered exactly like one that does
 * not exist (404), so ids of other tenants cannot be told from made-up ones.
 */
export function guard(deps: CallerDeps) {
  return async (req: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const permission = req.routeOptions.config.permission;
    if (!permission) return;
    req.principal = await authenticate(deps, req);
    const caller = req.principal;
    if (caller.kind === 'session') {
      if (!SAFE_METHODS.has(req.method)) checkCsrf(req, caller.session);
      if (!SESSION_ROLES[permission].includes(caller.session.role)) {
        throw new ApiError(
          'INSUFFICIENT_PERMISSIONS',
          `Your role (${caller.session.role}) cannot do this; ask an owner or admin of your organisation.`,
        );
      }
    } else if (KEY_SCOPES[permission].length === 0) {
      throw new ApiError(
        'INSUFFICIENT_PERMISSIONS',
        'This endpoint acts for a person: sign in (POST /api/v1/auth/login); API keys cannot call it.',
      );
    } else if (!caller.scopes.some((s) => KEY_SCOPES[permission].includes(s))) {
      throw new ApiError(
        'INSUFFICIENT_PERMISSIONS',
        `This API key lacks the scope for this endpoint; it needs one of: ${KEY_SCOPES[permission].join(', ')}.`,
      );
    }
    if (PROJECT_BOUND.has(permission)) req.projectId = await projectOf(deps.pool, req, caller);
  };
}

async function authenticate(deps: CallerDeps, req: FastifyRequest): Promise<Caller> {
  const presented = presentedKeyFromHeaders(req.headers);
  if (presented !== undefined) {
    const result = await deps.keys.authenticate(presented);
    if (!result.ok) {
      throw result.reason === 'unavailable'
        ? new ApiError('SERVICE_UNAVAILABLE', result.message, undefined, { 'retry-after': '5' })
        : new ApiError('INVALID_API_KEY', result.message);
    }
    return { kind: 'key', keyId: result.keyId, projectId: result.accountId, scopes: result.scopes };
  }
  const token = req.cookies[SESSION_COOKIE];
  const session = token ? await deps.sessions.find(token) : undefined;
  if (!session) {
    throw new ApiError(
      'UNAUTHENTICATED',
      token
        ? 'Your session has ended (signed out, expired or revoked); sign in again.'
        : 'Sign in (POST /api/v1/auth/login) or send an API key as Authorization: Bearer <key>.',
    );
  }
  return { kind: 'session', session };
}

/**
 * Double submit, bound to the session: sign-in put a random token in the page-readable `warden_csrf`
 * cookie and its hash in the session row; a state-changing request must echo the token in
 * `x-csrf-token`. A cross-site form can send the cookies but cannot read them to set the header, and
 * a cookie planted by a sibling subdomain fails because it is not this session's token.
 */
function checkCsrf(req: FastifyRequest, session: SessionCaller): void {
  const sent = first(req.headers[CSRF_HEADER]);
  const expected = Buffer.from(session.csrfHash, 'hex');
  const got = sent ? Buffer.from(sha256Hex(sent), 'hex') : Buffer.alloc(expected.length);
  if (!sent || !timingSafeEqual(got, expected)) {
    throw new ApiError(
      'CSRF_TOKEN_INVALID',
      `Requests that change state with a session must send the ${CSRF_COOKIE} cookie's value in ${CSRF_HEADER}.`,
    );
  }
}

const notFoundProject = (id: string) =>
  new ApiError('NOT_FOUND', `No project ${JSON.stringify(id.slice(0, 128))} is visible to you.`);

async function projectOf(pool: PostgresPool, req: FastifyRequest, caller: Caller): Promise<string> {
  const asked = first(req.headers[PROJECT_HEADER])?.trim();
  if (caller.kind === 'key') {
    // A key is bound to its project: naming another one finds nothing.
    if (asked && asked !== caller.projectId) throw notFoundProject(asked);
    return caller.projectId;
  }
  const { rows } = await pool.query<{ id: string }>(
    asked
      ? 'SELECT id FROM projects WHERE organisation_id = $1 AND id = $2'
      : 'SELECT id FROM projects WHERE organisation_id = $1 ORDER BY created_at, id LIMIT 1',
    asked ? [caller.session.organisationId, asked] : [caller.session.organisationId],
  );
  const id = rows[0]?.id;
  if (!id) {
    throw asked
      ? notFoundProject(asked)
      : new ApiError('NOT_FOUND', 'Your organisation has no project yet; create one first.');
  }
  return id;
}

/** The signed-in caller of a session-only route (the guard refused keys already). */
export function sessionOf(caller: Caller): SessionCaller {
  if (caller.kind !== 'session') {
    throw new ApiError('INSUFFICIENT_PERMISSIONS', 'This endpoint acts for a person: sign in first.');
  }
  return caller.session;
}

/** Who a change is recorded against in the audit log. */
export const actorOf = (caller: Caller): string =>
  caller.kind === 'session' ? `user:${caller.session.userId}` : `key:${caller.keyId}`;
