import { createHash, randomBytes } from 'node:crypto';
import type { PostgresPool } from '../postgres/client';
import { randomBase62 } from '../keys/format';
import { isRole, type Role } from './directory';
import { recordAudit } from './audit';

/** A signed-in person as a request sees them (never the token itself). */
export interface SessionCaller {
  sessionId: string;
  userId: string;
  email: string;
  organisationId: string;
  role: Role;
  /** SHA-256 hex of the session's CSRF token, compared with the hash of `x-csrf-token`. */
  csrfHash: string;
  expiresAt: Date;
}

export interface CreatedSession {
  sessionId: string;
  /** Goes into the HttpOnly session cookie; only its hash is stored. */
  token: string;
  /** Goes into the page-readable `warden_csrf` cookie; only its hash is stored. */
  csrfToken: string;
  expiresAt: Date;
}

export interface UserSession {
  sessionId: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  address?: string;
  userAgent?: string;
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/** 256 random bits, URL- and cookie-safe. */
export const secretToken = (): string => randomBytes(32).toString('base64url');

/**
 * Sessions in PostgreSQL (migration 0002 says why there): created at sign-in, looked up by the hash
 * of the cookie's token on every request, ended by sign-out or revocation. A session belongs to one
 * organisation (the user's oldest membership at sign-in); its role is read live from the membership,
 * so a demotion or removal takes effect on the next request.
 */
export class SessionStore {
  constructor(private readonly pool: PostgresPool) {}

  async create(input: {
    userId: string;
    organisationId: string;
    ttlMs: number;
    address?: string;
    userAgent?: string;
  }): Promise<CreatedSession> {
    const sessionId = `ses_${randomBase62(20)}`;
    const token = secretToken();
    const csrfToken = secretToken();
    const expiresAt = new Date(Date.now() + input.ttlMs);
    await this.pool.query(
      `INSERT INTO sessions (id, token_hash, csrf_hash, user_id, organisation_id, expires_at, address, user_agent)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        sessionId,
        sha256Hex(token),
        sha256Hex(csrfToken),
        input.userId,
        input.organisationId,
        expiresAt,
        input.address ?? null,
        input.userAgent?.slice(0, 512) ?? null,
      ],
    );
    await this.pool.query(
      `INSERT INTO audit_log (organisation_id, actor, action, target, details) VALUES ($1, $2, 'session.created', $3, $4::jsonb)`,
      [input.organisationId, `user:${input.userId}`, sessionId, JSON.stringify({ address: input.address })],
    );
    return { sessionId, token, csrfToken, expiresAt };
  }

  /** The live session a token names: not revoked, not expired, its user enabled and still a member. */
  async find(token: string): Promise<SessionCaller | undefined> {
    const { rows } = await this.pool.query<{
      id: string;
      user_id: string;
      email: string;
      organisation_id: string;
      role: string;
      csrf_hash: string;
      expires_at: Date;
    }>(
      `SELECT s.id, s.user_id, u.email, s.organisation_id, m.role, s.csrf_hash, s.expires_at
       FROM sessions s
       JOIN users u ON u.id = s.user_id AND u.disabled_at IS NULL
       JOIN memberships m ON m.user_id = s.user_id AND m.organisation_id = s.organisation_id
       WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now()`,
      [sha256Hex(token)],
    );
    const row = rows[0];
    if (!row || !isRole(row.role)) return undefined;
    return {
      sessionId: row.id,
      userId: row.user_id,
      email: row.email,
      organisationId: row.organisation_id,
      role: row.role,
      csrfHash: row.csrf_hash,
      expiresAt: row.expires_at,
    };
  }

  /** Ends a session at once for every API process (they all read PostgreSQL). Twice is harmless. */
  async revoke(sessionId: string, actor: string): Promise<void> {
    const { rows } = await this.pool.query<{ organisation_id: string }>(
      'UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING organisation_id',
      [sessionId],
    );
    if (rows[0]) {
      await this.pool.query(
        `INSERT INTO audit_log (organisation_id, actor, action, target) VALUES ($1, $2, 'session.revoked', $3)`,
        [rows[0].organisation_id, actor, sessionId],
      );
    }
  }

  /** A user's live sessions (not revoked, not expired), newest first. */
  async listForUser(userId: string): Promise<UserSession[]> {
    const { rows } = await this.pool.query<{
      id: string;
      created_at: Date;
      last_seen_at: Date;
      expires_at: Date;
      address: string | null;
      user_agent: string | null;
    }>(
      `SELECT id, created_at, last_seen_at, expires_at, address, user_agent FROM sessions
       WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now() ORDER BY created_at DESC, id`,
      [userId],
    );
    return rows.map((r) => ({
      sessionId: r.id,
      createdAt: r.created_at,
      lastSeenAt: r.last_seen_at,
      expiresAt: r.expires_at,
      ...(r.address ? { address: r.address } : {}),
      ...(r.user_agent ? { userAgent: r.user_agent } : {}),
    }));
  }

  /** Revokes one of the user's own live sessions; false when they have no such session. */
  async revokeOwn(userId: string, sessionId: string): Promise<boolean> {
    const { rows } = await this.pool.query<{ organisation_id: string }>(
      `UPDATE sessions SET revoked_at = now()
       WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > now() RETURNING organisation_id`,
      [sessionId, userId],
    );
    if (!rows[0]) return false;
    await recordAudit(this.pool, {
      organisationId: rows[0].organisation_id,
      actor: `user:${userId}`,
      action: 'session.revoked',
      target: sessionId,
    });
    return true;
  }

  /** The organisation a user signs in to: their oldest membership. */
  async membershipOf(userId: string): Promise<{ organisationId: string; role: Role } | undefined> {
    const { rows } = await this.pool.query<{ organisation_id: string; role: string }>(
      'SELECT organisation_id, role FROM memberships WHERE user_id = $1 ORDER BY created_at, organisation_id LIMIT 1',
      [userId],
    );
    const row = rows[0];
    return row && isRole(row.role) ? { organisationId: row.organisation_id, role: row.role } : undefined;
  }
}
