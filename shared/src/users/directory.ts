import { randomBase62 } from '../keys/format';
import { KeysError } from '../keys/store';
import { inTransaction, type PostgresClient, type PostgresPool } from '../postgres/client';
import { hashPassword, passwordProblem } from './passwords';

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
  }): Promise<CreatedUser> {
    const email = input.email.trim();
    if (email.length > 254 || !EMAIL.test(email)) {
      throw new KeysError('INVALID_ARGUMENT', `"${input.email}" is not an email address.`);
    }
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
    const problem = passwordProblem(input.password);
    if (problem) throw new KeysError('INVALID_ARGUMENT', problem);
    // Hashing takes tens of milliseconds of CPU: done before the transaction holds any lock.
    const passwordHash = await hashPassword(input.password);

    return inTransaction(this.pool, async (c) => {
      let organisation = await findOrganisation(c, organisationName);
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
      const userId = `usr_${randomBase62(16)}`;
      try {
        await c.query('INSERT INTO users (id, email, password_hash) VALUES ($1, $2, $3)', [
          userId,
          email,
          passwordHash,
        ]);
      } catch (err) {
        if (uniqueViolation(err, 'users_email')) {
          throw new KeysError('CONFLICT', `A user with the email ${email} exists already.`);
        }
        throw err;
      }
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
}
