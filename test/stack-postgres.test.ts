import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { startPostgres, stopProcess, waitForPostgres } from '@warden/cli';
import { postgresHealthy } from '@warden/shared/postgres/client';
import { freePort } from './support/processes';

/**
 * The local stack's own PostgreSQL, for machines where none answers on 5432: Debian's server as a
 * plain process (as the `postgres` user when run as root), data under the stack directory.
 */
describe('stack: a PostgreSQL of its own', () => {
  it('initialises, starts, creates the warden database, and stops', async () => {
    const port = await freePort();
    // Under /tmp (world-traversable) so the postgres user can reach it when the tests run as root.
    const dir = join(tmpdir(), `warden-pg-${randomBytes(4).toString('hex')}`);
    const lines: string[] = [];
    const url = `postgres://postgres@127.0.0.1:${port}/warden`;
    const pid = startPostgres(port, (line) => lines.push(line), dir);
    try {
      await waitForPostgres(url);
      expect(lines.some((l) => l.startsWith('initdb'))).toBe(true);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query<{ db: string; user: string }>(
        'SELECT current_database() AS db, current_user AS user',
      );
      // Never listening beyond this machine.
      const { rows: listen } = await client.query('SHOW listen_addresses');
      await client.end();
      expect(rows).toEqual([{ db: 'warden', user: 'postgres' }]);
      expect(listen).toEqual([{ listen_addresses: '127.0.0.1' }]);
    } finally {
      expect(await stopProcess(pid)).toMatch(/stopped|killed/);
      rmSync(dir, { recursive: true, force: true });
    }
    expect(await postgresHealthy(url)).toBe(false);
  }, 120_000);
});
