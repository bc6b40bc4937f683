import { randomBase62 } from '../keys/format';
import type { PostgresPool } from '../postgres/client';
import type { Severity } from '../schemas/detection';

/** An alert rule as the API shows it. */
export interface AlertRuleListing {
  id: string;
  name: string;
  minSeverity: Severity;
  threatTypes: string[];
  agents: string[];
  windowSeconds: number;
  enabled: boolean;
  createdAt: string;
}

export interface AlertRuleInput {
  name?: string;
  minSeverity?: Severity;
  threatTypes?: string[];
  agents?: string[];
  windowSeconds?: number;
  enabled?: boolean;
}

interface RuleRow {
  id: string;
  name: string;
  min_severity: Severity;
  threat_types: string[];
  agents: string[];
  window_seconds: number;
  enabled: boolean;
  created_at: Date;
}

const COLUMNS = 'id, name, min_severity, threat_types, agents, window_seconds, enabled, created_at';

const listingOf = (r: RuleRow): AlertRuleListing => ({
  id: r.id,
  name: r.name,
  minSeverity: r.min_severity,
  threatTypes: r.threat_types,
  agents: r.agents,
  windowSeconds: r.window_seconds,
  enabled: r.enabled,
  createdAt: r.created_at.toISOString(),
});

export async function listRules(pool: PostgresPool, projectId: string): Promise<AlertRuleListing[]> {
  const { rows } = await pool.query<RuleRow>(
    `SELECT ${COLUMNS} FROM alert_rules WHERE project_id = $1 ORDER BY created_at`,
    [projectId],
  );
  return rows.map(listingOf);
}

export async function createRule(
  pool: PostgresPool,
  projectId: string,
  input: AlertRuleInput,
): Promise<AlertRuleListing> {
  const { rows } = await pool.query<RuleRow>(
    `INSERT INTO alert_rules (id, project_id, name, min_severity, threat_types, agents, window_seconds, enabled)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
    [
      `rul_${randomBase62(16)}`,
      projectId,
      input.name ?? 'alert rule',
      input.minSeverity ?? 'high',
      input.threatTypes ?? [],
      input.agents ?? [],
      input.windowSeconds ?? 600,
      input.enabled ?? true,
    ],
  );
  return listingOf(rows[0]!);
}

export async function updateRule(
  pool: PostgresPool,
  projectId: string,
  id: string,
  input: AlertRuleInput,
): Promise<AlertRuleListing | undefined> {
  const { rows } = await pool.query<RuleRow>(
    `UPDATE alert_rules SET name = COALESCE($3, name), min_severity = COALESCE($4, min_severity),
       threat_types = COALESCE($5, threat_types), agents = COALESCE($6, agents),
       window_seconds = COALESCE($7, window_seconds), enabled = COALESCE($8, enabled), updated_at = now()
     WHERE project_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [
      projectId,
      id,
      input.name ?? null,
      input.minSeverity ?? null,
      input.threatTypes ?? null,
      input.agents ?? null,
      input.windowSeconds ?? null,
      input.enabled ?? null,
    ],
  );
  return rows[0] && listingOf(rows[0]);
}

export async function deleteRule(pool: PostgresPool, projectId: string, id: string): Promise<boolean> {
  const { rowCount } = await pool.query('DELETE FROM alert_rules WHERE project_id = $1 AND id = $2', [
    projectId,
    id,
  ]);
  return (rowCount ?? 0) > 0;
}
