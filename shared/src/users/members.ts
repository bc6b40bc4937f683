import { KeysError } from '../keys/store';
import { inTransaction, type PostgresClient, type PostgresPool } from '../postgres/client';
import { recordAudit } from './audit';
import { isRole, type Role } from './directory';

export interface Member {
  userId: string;
  email: string;
  name?: string;
  role: Role;
  joinedAt: Date;
}

const notMember = (userId: string) =>
  new KeysError('NOT_FOUND', `No member ${JSON.stringify(userId.slice(0, 128))} in your organisation.`);

/**
 * The people of one organisation. Every change locks the organisation's owner rows first, so two
 * concurrent demotions cannot leave it without an owner.
 */
export class Members {
  constructor(private readonly pool: PostgresPool) {}

  async list(organisationId: string, client: PostgresClient | PostgresPool = this.pool): Promise<Member[]> {
    const { rows } = await client.query<{
      user_id: string;
      email: string;
      name: string | null;
      role: string;
      created_at: Date;
    }>(
      `SELECT m.user_id, u.email, u.name, m.role, m.created_at FROM memberships m
       JOIN users u ON u.id = m.user_id WHERE m.organisation_id = $1 ORDER BY m.created_at, m.user_id`,
      [organisationId],
    );
    return rows.map((r) => ({
      userId: r.user_id,
      email: r.email,
      ...(r.name ? { name: r.name } : {}),
      role: isRole(r.role) ? r.role : 'viewer',
      joinedAt: r.created_at,
    }));
  }

  /** The member's current role, or NOT_FOUND for anyone outside the organisation. */
  async roleOf(organisationId: string, userId: string): Promise<Role> {
    return this.lockedRole(this.pool, organisationId, userId);
  }

  /** Changes a member's role; refuses to demote the last owner. */
  async setRole(organisationId: string, userId: string, role: Role, actor: string): Promise<Member> {
    return inTransaction(this.pool, async (c) => {
      const previous = await this.lockedRole(c, organisationId, userId);
      if (previous === 'owner' && role !== 'owner') await this.assertAnotherOwner(c, organisationId);
      await c.query('UPDATE memberships SET role = $3 WHERE organisation_id = $1 AND user_id = $2', [
        organisationId,
        userId,
        role,
      ]);
      await recordAudit(c, {
        organisationId,
        actor,
        action: 'member.role_changed',
        target: userId,
        details: { from: previous, to: role },
      });
      const member = (await this.list(organisationId, c)).find((m) => m.userId === userId);
      if (!member) throw notMember(userId);
      return member;
    });
  }

  /** Removes a member (their sessions in the organisation end at once); never the last owner. */
  async remove(organisationId: string, userId: string, actor: string): Promise<void> {
    await inTransaction(this.pool, async (c) => {
      const previous = await this.lockedRole(c, organisationId, userId);
      if (previous === 'owner') await this.assertAnotherOwner(c, organisationId);
      await c.query('DELETE FROM memberships WHERE organisation_id = $1 AND user_id = $2', [
        organisationId,
        userId,
      ]);
      await c.query(
        'UPDATE sessions SET revoked_at = now() WHERE organisation_id = $1 AND user_id = $2 AND revoked_at IS NULL',
        [organisationId, userId],
      );
      await recordAudit(c, {
        organisationId,
        actor,
        action: 'member.removed',
        target: userId,
        details: { role: previous },
      });
    });
  }

  private async lockedRole(
    c: PostgresClient | PostgresPool,
    organisationId: string,
    userId: string,
  ): Promise<Role> {
    // Every owner row of the organisation and the member's own row, locked in one order.
    const { rows } = await c.query<{ user_id: string; role: string }>(
      `SELECT user_id, role FROM memberships WHERE organisation_id = $1 AND (role = 'owner' OR user_id = $2)
       ORDER BY user_id FOR UPDATE`,
      [organisationId, userId],
    );
    const role = rows.find((r) => r.user_id === userId)?.role;
    if (!isRole(role)) throw notMember(userId);
    return role;
  }

  private async assertAnotherOwner(c: PostgresClient, organisationId: string): Promise<void> {
    const { rows } = await c.query<{ owners: string }>(
      `SELECT count(*) AS owners FROM memberships WHERE organisation_id = $1 AND role = 'owner'`,
      [organisationId],
    );
    if (Number(rows[0]?.owners ?? 0) <= 1) {
      throw new KeysError(
        'CONFLICT',
        'This is the last owner of the organisation; make another member owner first.',
      );
    }
  }
}
