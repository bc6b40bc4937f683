import { describe, expect, it } from 'vitest';
import { dialectFor } from './dialect';
import { migrations, type MigrationContext } from './migrations/index';

const ctx = (
  version: string,
  cluster?: string,
  columns: Record<string, string[]> = {},
): MigrationContext => ({
  db: 'w',
  cluster,
  dialect: dialectFor(version),
  retentionDays: 30,
  columnsOf: async (table) => new Set(columns[table] ?? []),
});

const statements = async (c: MigrationContext) =>
  (await Promise.all(migrations.map((m) => m.statements(c)))).flat();

describe('migrations on a cluster (CLICKHOUSE_CLUSTER)', () => {
  it('run every statement ON CLUSTER', async () => {
    for (const sql of await statements(ctx('18.16.1', 'prod'))) expect(sql).toMatch(/ ON CLUSTER prod\b/);
  });

  it('store each table replicated under its shard, and name a Distributed table after it', async () => {
    const all = (await statements(ctx('18.16.1', 'prod'))).join('\n');
    for (const table of [
      'interactions',
      'events',
      'detections',
      'analyses',
      'agents',
      'agent_hourly',
      'detection_hourly',
      'rollup_versions',
      'hourly_summaries',
    ]) {
      expect(all).toContain(`CREATE TABLE IF NOT EXISTS w.${table}_local ON CLUSTER prod`);
      expect(all).toMatch(
        new RegExp(
          `ENGINE = Replicated(Replacing|Aggregating|Summing)MergeTree\\('/clickhouse/tables/\\{shard\\}/w/${table}_local', '\\{replica\\}'`,
        ),
      );
      expect(all).toMatch(
        new RegExp(
          `CREATE TABLE IF NOT EXISTS w\\.${table} ON CLUSTER prod AS w\\.${table}_local\\s+ENGINE = Distributed\\(prod, w, ${table}_local, cityHash64\\(`,
        ),
      );
    }
    // The version column stays the ReplacingMergeTree's after the replication arguments.
    expect(all).toContain(
      `ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/w/interactions_local', '{replica}', received_ms)`,
    );
  });

  it('shard an interaction, its analyses and its findings alike (joined per shard)', async () => {
    const all = (await statements(ctx('18.16.1', 'prod'))).join('\n');
    for (const table of ['interactions', 'detections', 'analyses'])
      expect(all).toContain(`Distributed(prod, w, ${table}_local, cityHash64(account_id, interaction_id))`);
  });

  it('feed materialized views from stored rows into replicated targets, never through Distributed tables', async () => {
    const views = (await statements(ctx('24.8.1', 'prod'))).filter((s) => s.includes('MATERIALIZED VIEW'));
    expect(views).toHaveLength(6);
    for (const view of views) {
      expect(view).toMatch(/ TO w\.\w+_local AS/);
      expect(view).toMatch(/FROM w\.\w+_local\b/);
    }
  });

  it('keep the version gates: no TTL or LowCardinality on 18.16, both on 24.x', async () => {
    const old = (await statements(ctx('18.16.1', 'prod'))).join('\n');
    const now = (await statements(ctx('24.8.1', 'prod'))).join('\n');
    expect(old).not.toMatch(/TTL|LowCardinality/);
    expect(now).toMatch(/TTL received_at \+ INTERVAL 30 DAY/);
    expect(now).toMatch(/LowCardinality\(String\)/);
  });

  it('add the tool columns to the stored table and recreate the Distributed one only when it lacks them', async () => {
    const tools = migrations.find((m) => m.name === 'interaction_tools')!;
    const fresh = await tools.statements(ctx('18.16.1', 'prod'));
    expect(fresh).toEqual([
      'ALTER TABLE w.interactions_local ON CLUSTER prod ADD COLUMN tool_failed Array(UInt8) AFTER tool_failures',
      'ALTER TABLE w.interactions_local ON CLUSTER prod ADD COLUMN tool_ms Array(UInt32) AFTER tool_failed',
      'DROP TABLE IF EXISTS w.interactions ON CLUSTER prod',
      expect.stringMatching(
        /^CREATE TABLE IF NOT EXISTS w\.interactions ON CLUSTER prod AS w\.interactions_local/,
      ),
    ]);
    const done = ['tool_failed', 'tool_ms'];
    expect(
      await tools.statements(ctx('18.16.1', 'prod', { interactions_local: done, interactions: done })),
    ).toEqual([]);
  });

  it('leave a single server as it was: no replication, no Distributed table, no ON CLUSTER', async () => {
    const all = (await statements(ctx('18.16.1'))).join('\n');
    expect(all).not.toMatch(/Replicated|Distributed|ON CLUSTER|_local/);
    expect(all).toContain('CREATE TABLE IF NOT EXISTS w.interactions (');
    expect(all).toContain('ENGINE = ReplacingMergeTree(received_ms)');
    expect(all).toContain('CREATE MATERIALIZED VIEW IF NOT EXISTS w.agent_hourly_mv TO w.agent_hourly AS');
  });
});
