import { randomBase62 } from '../keys/format';
import { KeysError } from '../keys/store';
import { inTransaction, type PostgresPool } from '../postgres/client';
import { recordAudit } from './audit';
import { checkedPasswordHash, checkEmail, insertUser, isRole, type Role } from './directory';
import { secretToken, sha256Hex } from './sessions';

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 86_400_000;

export interface Invitation {
  invitationId: string;
  email: string;
  role: Role;
  invitedBy?: string;
  createdAt: Date;
  expiresAt: Date;
  status: 'pending' | 'accepted' | 'revoked' | 'expired';
}

interface InvitationRow {
  id: string;
  email: string;
  role: string;
  invited_by: string | null;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = 'id, email, role, invited_by, created_at, expires_at, accepted_at, revoked_at';

function invitationFromRow(row: InvitationRow): Invitation {
  const status = row.accepted_at
    ? 'accepted'
    : row.revoked_at
      ? 'revoked'
      : row.expires_at.getTime() <= Date.now()
        ? 'expired'
        : 'pending';
  return {
    invitationId: row.id,
    email: row.email,
    role: isRole(row.role) ? row.role : 'viewer',
    ...(row.invited_by ? { invitedBy: row.invited_by } : {}),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    status,
  };
}

/**
 * Invitations to an organisation. The token is shown once, in the answer that creates it (as the
 * link `/invite/<token>`); only its SHA-256 is stored. Accepting creates the user and the membership
 * in one transaction that also marks the invitation accepted, so a link works once only.
 */
export class Invitations {
  constructor(private readonly pool: PostgresPool) {}

  async create(input: {
    organisationId: string;
    email: string;
    role: Role;
    invitedBy: string;
  }): Promise<{ invitation: Invitation; token: string }> {
    const email = checkEmail(input.email);
    const token = `inv_${secretToken()}`;
    return inTransaction(this.pool, async (c) => {
      const member = await c.query(
        `SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id
         WHERE m.organisation_id = $1 AND lower(u.email) = lower($2)`,
        [input.organisationId, email],
      );
      if (member.rowCount) {
        throw new KeysError('CONFLICT', `${email} is a member of this organisation already.`);
      }
      const { rows } = await c.query<InvitationRow>(
        `INSERT INTO invitations (id, organisation_id, email, role, token_hash, invited_by, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
        [
          `inv_${randomBase62(16)}`,
          input.organisationId,
          email,
          input.role,
          sha256Hex(token),
          input.invitedBy,
          new Date(Date.now() + INVITATION_TTL_MS),
        ],
      );
      const invitation = invitationFromRow(rows[0]!);
      await recordAudit(c, {
        organisationId: input.organisationId,
        actor: `user:${input.invitedBy}`,
        action: 'invitation.created',
        target: invitation.invitationId,
        details: { email, role: input.role },
      });
      return { invitation, token };
    });
  }

  /** The organisation's invitations, newest first. */
  async list(organisationId: string): Promise<Invitation[]> {
    const { rows } = await this.pool.query<InvitationRow>(
      `SELECT ${COLUMNS} FROM invitations WHERE organisation_id = $1 ORDER BY created_at DESC, id`,
      [organisationId],
    );
    return rows.map(invitationFromRow);
  }

  /** Revokes a pending invitation of the organisation; false when it has none by that id. */
  async revoke(organisationId: string, invitationId: string, actor: string): Promise<boolean> {
    return inTransaction(this.pool, async (c) => {
      const { rowCount } = await c.query(
        `UPDATE invitations SET revoked_at = COALESCE(revoked_at, now())
         WHERE organisation_id = $1 AND id = $2 AND accepted_at IS NULL`,
        [organisationId, invitationId],
      );
      if (!rowCount) return false;
      await recordAudit(c, { organisationId, actor, action: 'invitation.revoked', target: invitationId });
      return true;
    });
  }

  /**
   * Spends the token: creates the user with the invited email and role in the organisation.
   * Undefined when the token is unknown, used, revoked or expired (one answer for each).
   */
  async accept(
    token: string,
    input: { password: string; name?: string },
  ): Promise<{ userId: string; email: string; organisationId: string; role: Role } | undefined> {
    const passwordHash = await checkedPasswordHash(input.password);
    return inTransaction(this.pool, async (c) => {
      const { rows } = await c.query<{ id: string; organisation_id: string; email: string; role: string }>(
        `UPDATE invitations SET accepted_at = now()
         WHERE token_hash = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
         RETURNING id, organisation_id, email, role`,
        [sha256Hex(token)],
      );
      const invited = rows[0];
      if (!invited || !isRole(invited.role)) return undefined;
      const userId = await insertUser(c, {
        email: invited.email,
        passwordHash,
        ...(input.name ? { name: input.name } : {}),
      });
      await c.query('INSERT INTO memberships (organisation_id, user_id, role) VALUES ($1, $2, $3)', [
        invited.organisation_id,
        userId,
        invited.role,
      ]);
      await recordAudit(c, {
        organisationId: invited.organisation_id,
        actor: `user:${userId}`,
        action: 'invitation.accepted',
        target: invited.id,
        details: { email: invited.email, role: invited.role },
      });
      return { userId, email: invited.email, organisationId: invited.organisation_id, role: invited.role };
    });
  }
}
