import { describe, expect, it } from 'vitest';
import { dialectFor } from '../dialect';
import { migrations, type MigrationContext } from './index';

const ctx = (version: string, columns: string[] = []): MigrationContext => ({
  db: 'w',
  dialect: dialectFor(version),
  retentionDays: 30,
  columnsOf: async () => new Set(columns),
});

describe('migrations', () => {
  it('are numbered 1..n without gaps', () => {
    expect(migrations.map((m) => m.id)).toEqual(migrations.map((_, i) => i + 1));
  });

  it('use TTL and LowCardinality only where the server has them', async () => {
    const old = (await Promise.all(migrations.map((m) => m.statements(ctx('18.16.1'))))).flat().join('\n');
    const now = (await Promise.all(migrations.map((m) => m.statements(ctx('24.8.1'))))).flat().join('\n');
    expect(old).not.toMatch(/TTL|LowCardinality|DateTime64|Map\(/);
    expect(now).toMatch(/TTL hour \+ INTERVAL 30 DAY/);
    expect(now).toMatch(/LowCardinality\(String\)/);
  });

  it('add the tool columns only when missing (18.16 has no ADD COLUMN IF NOT EXISTS)', async () => {
    const tools = migrations.find((m) => m.name === 'interaction_tools');
    expect(await tools?.statements(ctx('18.16.1'))).toHaveLength(2);
    expect(await tools?.statements(ctx('18.16.1', ['tool_failed', 'tool_ms']))).toEqual([]);
  });

  it('create every table and view with IF NOT EXISTS', async () => {
    const all = (await Promise.all(migrations.map((m) => m.statements(ctx('18.16.1'))))).flat();
    for (const sql of all.filter((s) => s.startsWith('CREATE')))
      expect(sql).toMatch(/^CREATE (TABLE|MATERIALIZED VIEW) IF NOT EXISTS/);
  });
});
