import type { PostgresPool } from '../postgres/client';

/** What people say about an agent (PostgreSQL `agents`); its activity lives in ClickHouse. */
export interface AgentProfile {
  agentId: string;
  name?: string;
  description?: string;
  canaries: string[];
  /** ISO; absent while the agent is active. */
  archivedAt?: string;
}

export interface AgentProfileChange {
  name?: string | null;
  description?: string | null;
  canaries?: string[];
  archived?: boolean;
}

interface AgentRow {
  agent_id: string;
  name: string | null;
  description: string | null;
  canaries: string[];
  archived_at: Date | null;
}

const profileOf = (r: AgentRow): AgentProfile => ({
  agentId: r.agent_id,
  canaries: r.canaries,
  ...(r.name !== null ? { name: r.name } : {}),
  ...(r.description !== null ? { description: r.description } : {}),
  ...(r.archived_at ? { archivedAt: r.archived_at.toISOString() } : {}),
});

/** The `agents` rows of one project at a time: every statement is bounded by project_id. */
export class AgentDirectory {
  constructor(private readonly pool: PostgresPool) {}

  async list(projectId: string, agentIds?: string[]): Promise<Map<string, AgentProfile>> {
    const { rows } = await this.pool.query<AgentRow>(
      `SELECT agent_id, name, description, canaries, archived_at FROM agents
       WHERE project_id = $1 ${agentIds ? 'AND agent_id = ANY($2::text[])' : ''} ORDER BY agent_id`,
      agentIds ? [projectId, agentIds] : [projectId],
    );
    return new Map(rows.map((r) => [r.agent_id, profileOf(r)]));
  }

  async get(projectId: string, agentId: string): Promise<AgentProfile | undefined> {
    return (await this.list(projectId, [agentId])).get(agentId);
  }

  /**
   * Creates the row or changes what is given (null clears name or description); `archived` sets or
   * clears archived_at, keeping the first archive time while it stays archived.
   */
  async update(projectId: string, agentId: string, change: AgentProfileChange): Promise<AgentProfile> {
    const has = (field: keyof AgentProfileChange) => change[field] !== undefined;
    const { rows } = await this.pool.query<AgentRow>(
      `INSERT INTO agents (project_id, agent_id, name, description, canaries, archived_at)
       VALUES ($1, $2, $3, $4, COALESCE($5::text[], '{}'), CASE WHEN $6::boolean THEN now() END)
       ON CONFLICT (project_id, agent_id) DO UPDATE SET
         name = CASE WHEN $7 THEN EXCLUDED.name ELSE agents.name END,
         description = CASE WHEN $8 THEN EXCLUDED.description ELSE agents.description END,
         canaries = CASE WHEN $9 THEN EXCLUDED.canaries ELSE agents.canaries END,
         archived_at = CASE WHEN $6::boolean IS NULL THEN agents.archived_at
                            WHEN $6::boolean THEN COALESCE(agents.archived_at, now()) END,
         updated_at = now()
       RETURNING agent_id, name, description, canaries, archived_at`,
      [
        projectId,
        agentId,
        change.name ?? null,
        change.description ?? null,
        change.canaries ?? null,
        change.archived ?? null,
        has('name'),
        has('description'),
        has('canaries'),
      ],
    );
    const row = rows[0];
    if (!row) throw new Error(`agents: no row returned for ${agentId}`);
    return profileOf(row);
  }
}
