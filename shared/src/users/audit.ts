import type { PostgresClient, PostgresPool } from '../postgres/client';

/** One security event in the audit log (sign-ins, invitations, role and password changes, keys). */
export interface AuditEntry {
  organisationId: string | null;
  projectId?: string;
  /** `user:<id>`, `key:<id>`, `cli`, or `anonymous` for a failed sign-in. */
  actor: string;
  action: string;
  target?: string;
  details?: Record<string, unknown>;
}

/** Appends an audit row on the caller's connection (inside its transaction when it has one). */
export async function recordAudit(client: PostgresClient | PostgresPool, entry: AuditEntry): Promise<void> {
  await client.query(
    `INSERT INTO audit_log (organisation_id, project_id, actor, action, target, details)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb)`,
    [
      entry.organisationId,
      entry.projectId ?? null,
      entry.actor,
      entry.action,
      entry.target ?? null,
      JSON.stringify(entry.details ?? {}),
    ],
  );
}
