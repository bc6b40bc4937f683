import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '@warden/shared/postgres/migrate';
import { postgresMigrations } from '@warden/shared/postgres/migrations/index';
import { testPostgres, type TestPostgres } from './support/postgres';

describe('PostgreSQL migrations (the control plane)', () => {
  let db: TestPostgres;

  beforeAll(async () => {
    db = await testPostgres({ migrate: false });
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('apply once, in order, and a second run (or two at once) applies nothing', async () => {
    const first = await migratePostgres(db.pool);
    expect(first.applied.map((m) => m.id)).toEqual(postgresMigrations.map((m) => m.id));
    expect(first.alreadyApplied).toBe(0);
    const [again, concurrent] = await Promise.all([migratePostgres(db.pool), migratePostgres(db.pool)]);
    expect(again.applied).toEqual([]);
    expect(concurrent.applied).toEqual([]);
    expect(again.alreadyApplied).toBe(postgresMigrations.length);

    const { rows } = await db.pool.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
    );
    expect(rows.map((r) => r.table_name)).toEqual([
      'agents',
      'alert_interactions',
      'alert_rules',
      'alerts',
      'api_keys',
      'audit_log',
      'invitations',
      'key_usage',
      'memberships',
      'organisations',
      'password_resets',
      'projects',
      'schema_migrations',
      'sessions',
      'users',
      'webhook_attempts',
      'webhook_deliveries',
      'webhook_endpoints',
    ]);
  });

  it('refuses what the control plane must never hold: unknown roles and tiers, clear keys, keyless scopes', async () => {
    await db.pool.query(`INSERT INTO organisations (id, name) VALUES ('org_1', 'Acme')`);
    await db.pool.query(`INSERT INTO users (id, email) VALUES ('usr_1', 'a@acme.test')`);
    await expect(
      db.pool.query(
        `INSERT INTO memberships (organisation_id, user_id, role) VALUES ('org_1', 'usr_1', 'root')`,
      ),
    ).rejects.toThrow(/check constraint/);
    await db.pool.query(
      `INSERT INTO memberships (organisation_id, user_id, role) VALUES ('org_1', 'usr_1', 'viewer')`,
    );
    await expect(
      db.pool.query(`INSERT INTO users (id, email) VALUES ('usr_2', 'A@ACME.test')`),
    ).rejects.toThrow(/users_email/);

    await expect(
      db.pool.query(`INSERT INTO projects (id, name, tier) VALUES ('p', 'p', 'gold')`),
    ).rejects.toThrow(/check constraint/);
    await db.pool.query(
      `INSERT INTO projects (id, organisation_id, name, tier) VALUES ('acme', 'org_1', 'acme', 'free')`,
    );
    const key = (hash: string, scopes: string) =>
      db.pool.query(
        `INSERT INTO api_keys (id, project_id, hash, hint, scopes) VALUES ($1, 'acme', $2, 'wdn_live_…abcd', $3::text[])`,
        [`key_${hash.slice(0, 8)}`, hash, scopes],
      );
    // A key in clear (or anything but a SHA-256 hex) is refused by the schema itself.
    await expect(key('wdn_live_0123456789abcdef0123456789abcdef', '{ingest}')).rejects.toThrow(
      /check constraint/,
    );
    await expect(key('a'.repeat(64), '{}')).rejects.toThrow(/check constraint/);
    await key('a'.repeat(64), '{ingest}');
    await expect(key('a'.repeat(64), '{ingest}')).rejects.toThrow(/api_keys_hash_key|duplicate key/);
  });
});
