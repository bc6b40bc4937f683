import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRows, JsonLines } from '@warden/sink';
import { createClickhouse } from '@warden/shared/clickhouse/client';
import { endpoints, queryRows, uniqueName } from './support/pipeline';

/** The sink's insert step against the real server: bad rows are isolated, the rest get in. */
describe('sink insert step', () => {
  const client = createClickhouse({ url: endpoints().clickhouseUrl });
  const db = uniqueName('warden_test_write');
  const hooks = { aborted: () => false, onRetry: async () => undefined };

  beforeAll(async () => {
    await client.command({ query: `CREATE DATABASE ${db}` });
    await client.command({
      query: `CREATE TABLE ${db}.t (id UInt32, n UInt8) ENGINE = MergeTree ORDER BY id`,
    });
  });
  afterAll(async () => {
    await client.command({ query: `DROP DATABASE IF EXISTS ${db}` });
    await client.close();
  });

  it('inserts every valid row and returns the ones ClickHouse cannot parse, with its reason', async () => {
    const rows = Array.from({ length: 40 }, (_, i) =>
      JSON.stringify({ id: i, n: i % 7 === 3 ? 'not a number' : i }),
    );
    const rejected = await insertRows(client, `${db}.t`, JsonLines.of(rows), hooks);
    const bad = rows.filter((r) => r.includes('not a number'));
    expect(rejected.map((r) => r.row).sort()).toEqual(bad.sort());
    expect(rejected[0]!.reason).toMatch(/ClickHouse rejected the row/);
    const [count] = await queryRows<{ n: number }>(client, `SELECT count() AS n FROM ${db}.t`);
    expect(Number(count?.n)).toBe(rows.length - bad.length);
  });

  it('retries (never drops) when the failure is not about the data: a missing table', async () => {
    let attempts = 0;
    const retrying = insertRows(client, `${db}.later`, JsonLines.of([JSON.stringify({ id: 1, n: 1 })]), {
      aborted: () => false,
      onRetry: async () => {
        attempts++;
        if (attempts === 2)
          await client.command({
            query: `CREATE TABLE ${db}.later (id UInt32, n UInt8) ENGINE = MergeTree ORDER BY id`,
          });
      },
    });
    expect(await retrying).toEqual([]);
    expect(attempts).toBeGreaterThanOrEqual(2);
    const [count] = await queryRows<{ n: number }>(client, `SELECT count() AS n FROM ${db}.later`);
    expect(Number(count?.n)).toBe(1);
  }, 30_000);
});
