import { inTransaction, type PostgresClient, type PostgresPool } from '../postgres/client';
import type { Tier, TierLimits } from './tiers';
import { isTier } from './tiers';
import { KeysError, SCOPES, type Account, type KeyRecord, type Scope } from './store';

export interface ProjectListing {
  projectId: string;
  name: string;
  tier: Tier;
  organisationId?: string;
  organisation?: string;
  limits?: Partial<TierLimits>;
  /** Free-form settings the dashboard keeps (present when any are set). */
  settings?: Record<string, unknown>;
  createdAt: string;
  /** Keys not revoked (expired ones included until they are). */
  activeKeys: number;
}

/** Who a change is recorded against in the audit log: `cli`, `user:<id>`, `key:<id>`. */
export type Actor = string;

interface ProjectRow {
  id: string;
  tier: string;
  limits: Partial<TierLimits> | null;
  created_at: Date;
  version: string;
}

interface KeyRow {
  id: string;
  project_id: string;
  hash: string;
  hint: string;
  name: string | null;
  scopes: string[];
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  replaced_by: string | null;
  version: string;
}

const PROJECT_COLUMNS = 'id, tier, limits, created_at, version';
const KEY_COLUMNS =
  'id, project_id, hash, hint, name, scopes, created_at, expires_at, revoked_at, replaced_by, version';

function accountFromRow(row: ProjectRow): Account {
  const account: Account = {
    accountId: row.id,
    tier: isTier(row.tier) ? row.tier : 'free',
    createdAt: row.created_at.getTime(),
    version: Number(row.version),
  };
  if (row.limits && Object.keys(row.limits).length > 0) account.limits = row.limits;
  return account;
}

function keyFromRow(row: KeyRow): KeyRecord {
  const record: KeyRecord = {
    keyId: row.id,
    accountId: row.project_id,
    hash: row.hash,
    scopes: row.scopes.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s)),
    createdAt: row.created_at.getTime(),
    hint: row.hint,
    version: Number(row.version),
  };
  if (row.name) record.name = row.name;
  if (row.expires_at) record.expiresAt = row.expires_at.getTime();
  if (row.revoked_at) record.revokedAt = row.revoked_at.getTime();
  if (row.replaced_by) record.replacedBy = row.replaced_by;
  return record;
}

const date = (ms: number | undefined) => (ms === undefined ? null : new Date(ms));

/** What a new project is made of (a project is the data plane's account). */
export interface NewProject {
  accountId: string;
  tier: Tier;
  name?: string;
  organisationId?: string;
  limits?: Partial<TierLimits>;
}

/**
 * Projects (the data plane's accounts) and API keys in PostgreSQL, the system of record. Every
 * write bumps the row's `version` and appends to the audit log in the same transaction; the
 * Redis cache and each ingest process keep whichever copy has the higher version.
 */
export class PostgresKeys {
  constructor(
    readonly pool: PostgresPool,
    private readonly actor: Actor = 'cli',
  ) {}

  async getProject(accountId: string): Promise<Account | undefined> {
    const { rows } = await this.pool.query<ProjectRow>(
      `SELECT ${PROJECT_COLUMNS} FROM projects WHERE id = $1`,
      [accountId],
    );
    return rows[0] && accountFromRow(rows[0]);
  }

  /** Creates the project (tier default free) or changes its tier/limits; what is not given is kept. */
  upsertProject(
    input: { accountId: string; tier?: Tier; limits?: Partial<TierLimits> },
    client?: PostgresClient,
  ): Promise<Account> {
    const run = async (c: PostgresClient) => {
      const { rows } = await c.query<ProjectRow>(
        `INSERT INTO projects (id, name, tier, limits) VALUES ($1, $1, COALESCE($2, 'free'), COALESCE($3::jsonb, '{}'::jsonb))
         ON CONFLICT (id) DO UPDATE SET tier = COALESCE($2, projects.tier), limits = COALESCE($3::jsonb, projects.limits),
           updated_at = now(), version = projects.version + 1
         RETURNING ${PROJECT_COLUMNS}`,
        [input.accountId, input.tier ?? null, input.limits ? JSON.stringify(input.limits) : null],
      );
      const account = accountFromRow(rows[0]!);
      if (input.tier !== undefined || input.limits || account.version === 1) {
        await this.audit(c, 'project.updated', account.accountId, account.accountId, {
          tier: account.tier,
          ...(input.limits ? { limits: input.limits } : {}),
          created: account.version === 1,
        });
      }
      return account;
    };
    return client ? run(client) : inTransaction(this.pool, run);
  }

  /** A new project (refused when the id is taken), optionally in an organisation. */
  createProject(input: NewProject): Promise<Account> {
    return inTransaction(this.pool, async (c) => {
      const { rows } = await c.query<ProjectRow>(
        `INSERT INTO projects (id, organisation_id, name, tier, limits) VALUES ($1, $2, $3, $4, $5::jsonb)
         ON CONFLICT (id) DO NOTHING RETURNING ${PROJECT_COLUMNS}`,
        [
          input.accountId,
          input.organisationId ?? null,
          input.name ?? input.accountId,
          input.tier,
          JSON.stringify(input.limits ?? {}),
        ],
      );
      if (!rows[0]) {
        throw new KeysError('CONFLICT', `A project with the id "${input.accountId}" exists already.`);
      }
      const account = accountFromRow(rows[0]);
      await this.audit(c, 'project.created', account.accountId, account.accountId, {
        tier: account.tier,
        name: input.name ?? input.accountId,
      });
      return account;
    });
  }

  /** Projects with their organisation and number of keys, optionally of one organisation. */
  async listProjects(organisationId?: string): Promise<ProjectListing[]> {
    const { rows } = await this.pool.query<{
      id: string;
      name: string;
      tier: string;
      limits: Partial<TierLimits>;
      settings: Record<string, unknown>;
      organisation_id: string | null;
      organisation: string | null;
      created_at: Date;
      keys: string;
    }>(
      `SELECT p.id, p.name, p.tier, p.limits, p.settings, p.organisation_id, o.name AS organisation, p.created_at,
              (SELECT count(*) FROM api_keys k WHERE k.project_id = p.id AND k.revoked_at IS NULL) AS keys
       FROM projects p LEFT JOIN organisations o ON o.id = p.organisation_id
       WHERE $1::text IS NULL OR p.organisation_id = $1 ORDER BY p.created_at, p.id`,
      [organisationId ?? null],
    );
    return rows.map((row) => {
      const listing: ProjectListing = {
        projectId: row.id,
        name: row.name,
        tier: isTier(row.tier) ? row.tier : 'free',
        createdAt: row.created_at.toISOString(),
        activeKeys: Number(row.keys),
      };
      if (row.organisation_id) listing.organisationId = row.organisation_id;
      if (row.organisation) listing.organisation = row.organisation;
      if (Object.keys(row.limits).length > 0) listing.limits = row.limits;
      if (Object.keys(row.settings).length > 0) listing.settings = row.settings;
      return listing;
    });
  }

  /** The project (created or moved to the tier) and the new key, in one transaction. */
  createKey(
    record: KeyRecord,
    project: { tier?: Tier; limits?: Partial<TierLimits> },
  ): Promise<{ record: KeyRecord; account: Account }> {
    return inTransaction(this.pool, async (c) => {
      const account = await this.upsertProject({ accountId: record.accountId, ...project }, c);
      const stored = await this.insertKey(c, record);
      await this.audit(c, 'key.created', record.accountId, record.keyId, { scopes: record.scopes });
      return { record: stored, account };
    });
  }

  async getKey(keyId: string): Promise<KeyRecord | undefined> {
    const { rows } = await this.pool.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = $1`, [
      keyId,
    ]);
    return rows[0] && keyFromRow(rows[0]);
  }

  async findByHash(hash: string): Promise<{ record: KeyRecord; account: Account | undefined } | undefined> {
    const { rows } = await this.pool.query<KeyRow & { p_tier: string | null } & Record<string, unknown>>(
      `SELECT k.id, k.project_id, k.hash, k.hint, k.name, k.scopes, k.created_at, k.expires_at, k.revoked_at,
              k.replaced_by, k.version, p.tier AS p_tier, p.limits AS p_limits, p.created_at AS p_created_at,
              p.version AS p_version
       FROM api_keys k JOIN projects p ON p.id = k.project_id WHERE k.hash = $1`,
      [hash],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      record: keyFromRow(row),
      account: accountFromRow({
        id: row.project_id,
        tier: row.p_tier ?? 'free',
        limits: row.p_limits as Partial<TierLimits> | null,
        created_at: row.p_created_at as Date,
        version: row.p_version as string,
      }),
    };
  }

  /** Every key (optionally of one project) in creation order, with its project's tier. */
  async listKeys(
    accountId?: string,
  ): Promise<{ record: KeyRecord; tier: Tier | undefined; createdBy?: string }[]> {
    const { rows } = await this.pool.query<KeyRow & { tier: string; creator: string | null }>(
      `SELECT k.id, k.project_id, k.hash, k.hint, k.name, k.scopes, k.created_at, k.expires_at, k.revoked_at,
              k.replaced_by, k.version, p.tier, u.email AS creator
       FROM api_keys k JOIN projects p ON p.id = k.project_id LEFT JOIN users u ON u.id = k.created_by
       WHERE $1::text IS NULL OR k.project_id = $1 ORDER BY k.created_at, k.id`,
      [accountId ?? null],
    );
    return rows.map((row) => ({
      record: keyFromRow(row),
      tier: isTier(row.tier) ? row.tier : undefined,
      ...(row.creator ? { createdBy: row.creator } : {}),
    }));
  }

  /**
   * Adds request counts to each key's row for `day` (UTC, YYYY-MM-DD) and moves `last_used_at`
   * forward, in one statement. Keys PostgreSQL does not know (Redis-only, before `warden migrate`)
   * are skipped rather than failing the others.
   */
  async addUsage(counts: Map<string, { count: number; lastUsedAt: number }>, day: string): Promise<void> {
    if (counts.size === 0) return;
    const ids: string[] = [];
    const ns: number[] = [];
    const lastUsed: Date[] = [];
    for (const [keyId, { count, lastUsedAt }] of counts) {
      ids.push(keyId);
      ns.push(count);
      lastUsed.push(new Date(lastUsedAt));
    }
    await this.pool.query(
      `WITH u AS (
         SELECT u.key_id, u.n, u.last_used FROM unnest($1::text[], $2::bigint[], $3::timestamptz[]) AS u(key_id, n, last_used)
         WHERE EXISTS (SELECT 1 FROM api_keys k WHERE k.id = u.key_id)
       ), counted AS (
         INSERT INTO key_usage (key_id, day, requests) SELECT key_id, $4::date, n FROM u
         ON CONFLICT (key_id, day) DO UPDATE SET requests = key_usage.requests + EXCLUDED.requests
       )
       UPDATE api_keys k SET last_used_at = GREATEST(k.last_used_at, u.last_used) FROM u WHERE k.id = u.key_id`,
      [ids, ns, lastUsed, day],
    );
  }

  /** Usage of keys: requests on `day`, in total, and when last used. */
  async usageOf(
    keyIds: string[],
    day: string,
  ): Promise<Map<string, { today: number; total: number; lastUsedAt?: number }>> {
    const { rows } = await this.pool.query<{
      id: string;
      today: string;
      total: string;
      last_used_at: Date | null;
    }>(
      `SELECT k.id, k.last_used_at,
              COALESCE(SUM(u.requests) FILTER (WHERE u.day = $2::date), 0) AS today,
              COALESCE(SUM(u.requests), 0) AS total
       FROM api_keys k LEFT JOIN key_usage u ON u.key_id = k.id
       WHERE k.id = ANY($1::text[]) GROUP BY k.id`,
      [keyIds, day],
    );
    return new Map(
      rows.map((row) => [
        row.id,
        {
          today: Number(row.today),
          total: Number(row.total),
          ...(row.last_used_at ? { lastUsedAt: row.last_used_at.getTime() } : {}),
        },
      ]),
    );
  }

  /** Requests of one key per UTC day in [fromDay, toDay] (YYYY-MM-DD), every day listed, oldest first. */
  async usageByDay(
    keyId: string,
    fromDay: string,
    toDay: string,
  ): Promise<{ day: string; requests: number }[]> {
    const { rows } = await this.pool.query<{ day: string; requests: string }>(
      `SELECT to_char(d, 'YYYY-MM-DD') AS day, COALESCE(u.requests, 0) AS requests
       FROM generate_series($2::date, $3::date, interval '1 day') AS d
       LEFT JOIN key_usage u ON u.key_id = $1 AND u.day = d::date
       ORDER BY d`,
      [keyId, fromDay, toDay],
    );
    return rows.map((r) => ({ day: r.day, requests: Number(r.requests) }));
  }

  /** Every key and project: what an ingest process loads at start and every refresh interval. */
  async loadAll(): Promise<{ keys: KeyRecord[]; accounts: Account[] }> {
    const [keys, projects] = await Promise.all([
      this.pool.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys`),
      this.pool.query<ProjectRow>(`SELECT ${PROJECT_COLUMNS} FROM projects`),
    ]);
    return { keys: keys.rows.map(keyFromRow), accounts: projects.rows.map(accountFromRow) };
  }

  /** Sets revoked_at once (a second revocation changes nothing); undefined when there is no such key. */
  revokeKey(keyId: string): Promise<KeyRecord | undefined> {
    return inTransaction(this.pool, async (c) => {
      const { rows } = await c.query<KeyRow>(
        `UPDATE api_keys SET revoked_at = now(), version = version + 1
         WHERE id = $1 AND revoked_at IS NULL RETURNING ${KEY_COLUMNS}`,
        [keyId],
      );
      if (!rows[0]) {
        const current = await c.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = $1`, [keyId]);
        return current.rows[0] && keyFromRow(current.rows[0]);
      }
      const record = keyFromRow(rows[0]);
      await this.audit(c, 'key.revoked', record.accountId, keyId, {});
      return record;
    });
  }

  /**
   * Stores the replacement and ends the old key at `expiresAt`, after `check` approved the old key
   * as read under a row lock (so two rotations of one key cannot both succeed).
   */
  rotateKey(
    keyId: string,
    check: (old: KeyRecord) => { replacement: KeyRecord; expiresAt: number },
  ): Promise<{ old: KeyRecord; replacement: KeyRecord; tier: Tier } | undefined> {
    return inTransaction(this.pool, async (c) => {
      const locked = await c.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = $1 FOR UPDATE`, [
        keyId,
      ]);
      if (!locked.rows[0]) return undefined;
      const { replacement, expiresAt } = check(keyFromRow(locked.rows[0]));
      const stored = await this.insertKey(c, replacement);
      const { rows } = await c.query<KeyRow>(
        `UPDATE api_keys SET expires_at = $2, replaced_by = $3, version = version + 1 WHERE id = $1
         RETURNING ${KEY_COLUMNS}`,
        [keyId, new Date(expiresAt), stored.keyId],
      );
      const old = keyFromRow(rows[0]!);
      await this.audit(c, 'key.rotated', old.accountId, keyId, {
        replacedBy: stored.keyId,
        expiresAt: new Date(expiresAt).toISOString(),
      });
      const project = await c.query<{ tier: string }>('SELECT tier FROM projects WHERE id = $1', [
        old.accountId,
      ]);
      const tier = project.rows[0]?.tier;
      return { old, replacement: stored, tier: isTier(tier) ? tier : 'free' };
    });
  }

  /**
   * Carries records that exist only in the Redis cache (written before PostgreSQL was the store)
   * into PostgreSQL, keeping ids, hashes, times and versions; rows already present are left alone.
   * Returns how many keys and projects were added.
   */
  importRecords(records: {
    keys: KeyRecord[];
    accounts: Account[];
  }): Promise<{ keys: number; projects: number }> {
    return inTransaction(this.pool, async (c) => {
      let projects = 0;
      for (const account of records.accounts) {
        const result = await c.query(
          `INSERT INTO projects (id, name, tier, limits, created_at, version)
           VALUES ($1, $1, $2, $3::jsonb, $4, $5) ON CONFLICT (id) DO NOTHING`,
          [
            account.accountId,
            account.tier,
            JSON.stringify(account.limits ?? {}),
            new Date(account.createdAt || Date.now()),
            Math.max(1, account.version),
          ],
        );
        projects += result.rowCount ?? 0;
      }
      let keys = 0;
      const imported: KeyRecord[] = [];
      for (const record of records.keys) {
        // A key whose account hash was lost still belongs to a project: create it on the free tier.
        await c.query(
          `INSERT INTO projects (id, name, tier) VALUES ($1, $1, 'free') ON CONFLICT (id) DO NOTHING`,
          [record.accountId],
        );
        const stored = await this.insertKey(c, record, { ifAbsent: true });
        if (stored) {
          keys++;
          imported.push(record);
        }
      }
      // Second pass: a rotated key points at its replacement, which may have come later in the list.
      for (const record of imported) {
        if (!record.replacedBy) continue;
        await c.query(
          `UPDATE api_keys SET replaced_by = $2 WHERE id = $1 AND EXISTS (SELECT 1 FROM api_keys WHERE id = $2)`,
          [record.keyId, record.replacedBy],
        );
      }
      if (keys + projects > 0) await this.audit(c, 'keys.imported', null, null, { keys, projects });
      return { keys, projects };
    });
  }

  /** Creates a key's row (a new key, or with `ifAbsent` one carried over: an existing row wins). */
  private async insertKey(c: PostgresClient, record: KeyRecord): Promise<KeyRecord>;
  private async insertKey(
    c: PostgresClient,
    record: KeyRecord,
    opts: { ifAbsent: true },
  ): Promise<KeyRecord | undefined>;
  private async insertKey(
    c: PostgresClient,
    record: KeyRecord,
    opts?: { ifAbsent: true },
  ): Promise<KeyRecord | undefined> {
    const { rows } = await c.query<KeyRow>(
      `INSERT INTO api_keys (id, project_id, hash, hint, name, scopes, created_at, expires_at, revoked_at, version, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ${opts?.ifAbsent ? 'ON CONFLICT DO NOTHING' : ''}
       RETURNING ${KEY_COLUMNS}`,
      [
        record.keyId,
        record.accountId,
        record.hash,
        record.hint,
        record.name ?? null,
        record.scopes,
        new Date(record.createdAt || Date.now()),
        date(record.expiresAt),
        date(record.revokedAt),
        Math.max(1, record.version),
        // Who created it, when a signed-in user did (the actor `user:<id>`): the listing's creator.
        this.actor.startsWith('user:') ? this.actor.slice('user:'.length) : null,
      ],
    );
    return rows[0] && keyFromRow(rows[0]);
  }

  private async audit(
    c: PostgresClient,
    action: string,
    projectId: string | null,
    target: string | null,
    details: Record<string, unknown>,
  ): Promise<void> {
    await c.query(
      `INSERT INTO audit_log (organisation_id, project_id, actor, action, target, details)
       VALUES ((SELECT organisation_id FROM projects WHERE id = $1), $1, $2, $3, $4, $5::jsonb)`,
      [projectId, this.actor, action, target, JSON.stringify(details)],
    );
  }
}
