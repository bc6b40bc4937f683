import { randomBase62 } from '../keys/format';
import { KeysError } from '../keys/store';
import { inTransaction, type PostgresClient, type PostgresPool } from '../postgres/client';
import { recordAudit } from './audit';
import { hashPassword, passwordProblem, verifyPassword } from './passwords';
import { secretToken, sha256Hex } from './sessions';

export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export interface Organisation {
  organisationId: string;
  name: string;
}

export interface CreatedUser {
  userId: string;
  email: string;
  organisationId: string;
  organisation: string;
  role: Role;
  /** True when this call created the organisation (the first user of a fresh install). */
  organisationCreated: boolean;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const uniqueViolation = (err: unknown, constraint: string) =>
  (err as { code?: string; constraint?: string }).code === '23505' &&
  (err as { constraint?: string }).constraint === constraint;

/** Refuses what is not an email address; the trimmed address otherwise. */
export function checkEmail(raw: string): string {
  const email = raw.trim();
  if (email.length > 254 || !EMAIL.test(email)) {
    throw new KeysError('INVALID_ARGUMENT', `"${raw}" is not an email address.`);
  }
  return email;
}

/** Hashes an acceptable password; refuses a short or unbounded one with the rule it breaks. */
export async function checkedPasswordHash(password: string): Promise<string> {
  const problem = passwordProblem(password);
  if (problem) throw new KeysError('INVALID_ARGUMENT', problem);
  return hashPassword(password);
}

/** Inserts a user row on the caller's connection; a taken email is a CONFLICT. */
export async function insertUser(
  c: PostgresClient,
  input: { email: string; passwordHash: string; name?: string },
): Promise<string> {
  const userId = `usr_${randomBase62(16)}`;
  try {
    await c.query('INSERT INTO users (id, email, password_hash, name) VALUES ($1, $2, $3, $4)', [
      userId,
      input.email,
      input.passwordHash,
      input.name ?? null,
    ]);
  } catch (err) {
    if (uniqueViolation(err, 'users_email')) {
      throw new KeysError(
        'CONFLICT',
        `A user with the email ${input.email} exists already; sign in instead, or reset the password.`,
      );
    }
    throw err;
  }
  return userId;
}

/**
 * Sets a user's password hash and revokes their sessions (all but `keepSessionId`), so whoever held
 * the old password loses access with it; audited as `action`. On the caller's transaction.
 */
async function replacePassword(
  c: PostgresClient,
  input: {
    userId: string;
    organisationId: string | null;
    passwordHash: string;
    keepSessionId?: string;
    action: string;
  },
): Promise<void> {
  await c.query('UPDATE users SET password_hash = $2 WHERE id = $1', [input.userId, input.passwordHash]);
  const revoked = await c.query(
    `UPDATE sessions SET revoked_at = now()
     WHERE user_id = $1 AND ($2::text IS NULL OR id <> $2) AND revoked_at IS NULL`,
    [input.userId, input.keepSessionId ?? null],
  );
  await recordAudit(c, {
    organisationId: input.organisationId,
    actor: `user:${input.userId}`,
    action: input.action,
    target: input.userId,
    details: { sessionsRevoked: revoked.rowCount ?? 0 },
  });
}

/** An organisation by id or (case-insensitive) name, on the caller's connection. */
export async function findOrganisation(
  client: PostgresClient | PostgresPool,
  idOrName: string,
): Promise<Organisation | undefined> {
  const { rows } = await client.query<{ id: string; name: string }>(
    'SELECT id, name FROM organisations WHERE id = $1 OR lower(name) = lower($1) ORDER BY id = $1 DESC LIMIT 1',
    [idOrName],
  );
  return rows[0] && { organisationId: rows[0].id, name: rows[0].name };
}

/**
 * People and organisations in PostgreSQL. Passwords are kept only as argon2id hashes (passwords.ts);
 * each change appends to the audit log in its transaction.
 */
export class UserDirectory {
  constructor(
    private readonly pool: PostgresPool,
    private readonly actor = 'cli',
  ) {}

  /**
   * Creates a user with a role in an organisation, creating the organisation when none has that
   * name or id: then the user must be its owner (an organisation always starts with one).
   */
  async createUser(input: {
    email: string;
    password: string;
    organisation: string;
    role: Role;
    /** Refuse to join an organisation that exists (self-service sign-up creates a new one). */
    newOrganisation?: boolean;
    /** Only as the first user of a fresh install: two racing sign-ups cannot both become it. */
    firstUserOnly?: boolean;
  }): Promise<CreatedUser> {
    const email = checkEmail(input.email);
    if (!isRole(input.role)) {
      throw new KeysError(
        'INVALID_ARGUMENT',
        `Unknown role "${String(input.role)}". Use one of: ${ROLES.join(', ')}.`,
      );
    }
    const organisationName = input.organisation.trim();
    if (!organisationName || organisationName.length > 200) {
      throw new KeysError('INVALID_ARGUMENT', 'An organisation name needs 1–200 characters.');
    }
    // Hashing takes tens of milliseconds of CPU: done before the transaction holds any lock.
    const passwordHash = await checkedPasswordHash(input.password);

    return inTransaction(this.pool, async (c) => {
      if (input.firstUserOnly) {
        // Serialises first sign-ups: the loser of a race sees the winner's user once it holds the lock.
        await c.query(`SELECT pg_advisory_xact_lock(hashtext('warden:first-user'))`);
        const { rows } = await c.query('SELECT 1 FROM users LIMIT 1');
        if (rows.length > 0) {
          throw new KeysError(
            'CONFLICT',
            'Someone else signed up as the first user just now; ask them for an invitation.',
          );
        }
      }
      let organisation = await findOrganisation(c, organisationName);
      if (organisation && input.newOrganisation) {
        throw new KeysError(
          'CONFLICT',
          `An organisation named "${organisationName}" exists already; choose another name, or ask its owner for an invitation.`,
        );
      }
      const organisationCreated = !organisation;
      if (!organisation) {
        if (input.role !== 'owner') {
          throw new KeysError(
            'INVALID_ARGUMENT',
            `No organisation "${organisationName}" exists; its first user creates it and must be its owner (--role owner).`,
          );
        }
        organisation = { organisationId: `org_${randomBase62(16)}`, name: organisationName };
        await c.query('INSERT INTO organisations (id, name) VALUES ($1, $2)', [
          organisation.organisationId,
          organisation.name,
        ]);
      }
      const userId = await insertUser(c, { email, passwordHash });
      await c.query('INSERT INTO memberships (organisation_id, user_id, role) VALUES ($1, $2, $3)', [
        organisation.organisationId,
        userId,
        input.role,
      ]);
      await c.query(
        `INSERT INTO audit_log (organisation_id, actor, action, target, details) VALUES ($1, $2, 'user.created', $3, $4::jsonb)`,
        [
          organisation.organisationId,
          this.actor,
          userId,
          JSON.stringify({ email, role: input.role, organisationCreated }),
        ],
      );
      return {
        userId,
        email,
        organisationId: organisation.organisationId,
        organisation: organisation.name,
        role: input.role,
        organisationCreated,
      };
    });
  }

  /** The stored argon2id hash of a user's password, by email (case-insensitive); for sign-in. */
  async passwordHashOf(email: string): Promise<{ userId: string; passwordHash: string } | undefined> {
    const { rows } = await this.pool.query<{ id: string; password_hash: string | null }>(
      'SELECT id, password_hash FROM users WHERE lower(email) = lower($1) AND disabled_at IS NULL',
      [email.trim()],
    );
    const row = rows[0];
    return row?.password_hash ? { userId: row.id, passwordHash: row.password_hash } : undefined;
  }

  /** True when no user exists yet: a fresh install, whose first user may always sign up. */
  async isEmpty(): Promise<boolean> {
    const { rows } = await this.pool.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM users) AS any');
    return !rows[0]?.any;
  }

  /**
   * Changes a user's password when `current` is right (false otherwise) and revokes every other
   * session of theirs, so a thief's session ends with the change; `keepSessionId` stays signed in.
   */
  async changePassword(input: {
    userId: string;
    organisationId: string;
    current: string;
    next: string;
    keepSessionId: string;
  }): Promise<boolean> {
    const { rows } = await this.pool.query<{ password_hash: string | null }>(
      'SELECT password_hash FROM users WHERE id = $1 AND disabled_at IS NULL',
      [input.userId],
    );
    const stored = rows[0]?.password_hash;
    if (!stored || !(await verifyPassword(stored, input.current))) return false;
    const passwordHash = await checkedPasswordHash(input.next);
    await inTransaction(this.pool, (c) =>
      replacePassword(c, {
        userId: input.userId,
        organisationId: input.organisationId,
        passwordHash,
        keepSessionId: input.keepSessionId,
        action: 'user.password_changed',
      }),
    );
    return true;
  }

  /**
   * A one-time password reset token for the user with this email (there is no mail server: the CLI
   * prints it). Only its hash is stored; it lasts `ttlMs` (default an hour) and earlier unused
   * tokens of the user stop working.
   */
  async createResetToken(email: string, ttlMs = 3_600_000): Promise<{ token: string; expiresAt: Date }> {
    const { rows } = await this.pool.query<{ id: string; organisation_id: string | null }>(
      `SELECT u.id, (SELECT organisation_id FROM memberships m WHERE m.user_id = u.id
                     ORDER BY created_at, organisation_id LIMIT 1) AS organisation_id
       FROM users u WHERE lower(u.email) = lower($1) AND u.disabled_at IS NULL`,
      [email.trim()],
    );
    const user = rows[0];
    if (!user) throw new KeysError('NOT_FOUND', `No user has the email ${email.trim()}.`);
    const token = `rst_${secretToken()}`;
    const expiresAt = new Date(Date.now() + ttlMs);
    await inTransaction(this.pool, async (c) => {
      await c.query('UPDATE password_resets SET used_at = now() WHERE user_id = $1 AND used_at IS NULL', [
        user.id,
      ]);
      await c.query(
        `INSERT INTO password_resets (id, user_id, token_hash, created_by, expires_at) VALUES ($1, $2, $3, $4, $5)`,
        [`pwr_${randomBase62(16)}`, user.id, sha256Hex(token), this.actor, expiresAt],
      );
      await recordAudit(c, {
        organisationId: user.organisation_id,
        actor: this.actor,
        action: 'user.password_reset_requested',
        target: user.id,
      });
    });
    return { token, expiresAt };
  }

  /**
   * Spends a reset token: sets the new password and revokes every session of the user. False when
   * the token is unknown, used or expired (the same answer for each, so none can be told apart).
   */
  async resetPassword(token: string, password: string): Promise<boolean> {
    const passwordHash = await checkedPasswordHash(password);
    return inTransaction(this.pool, async (c) => {
      const { rows } = await c.query<{ user_id: string; organisation_id: string | null }>(
        `UPDATE password_resets r SET used_at = now()
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
         RETURNING user_id, (SELECT organisation_id FROM memberships m WHERE m.user_id = r.user_id
                             ORDER BY created_at, organisation_id LIMIT 1) AS organisation_id`,
        [sha256Hex(token)],
      );
      const spent = rows[0];
      if (!spent) return false;
      await replacePassword(c, {
        userId: spent.user_id,
        organisationId: spent.organisation_id,
        passwordHash,
        action: 'user.password_reset',
      });
      return true;
    });
  }
}
