import { randomBytes } from 'node:crypto';
import { loadEndpoints } from '@warden/shared/config';
import {
  createPostgres,
  dropDatabase,
  ensureDatabase,
  type PostgresPool,
} from '@warden/shared/postgres/client';
import { migratePostgres } from '@warden/shared/postgres/migrate';

export interface TestPostgres {
  /** postgres://…/warden_test_<random>: the suite's own database. */
  url: string;
  pool: PostgresPool;
  drop(): Promise<void>;
}

/**
 * A throw-away database on the PostgreSQL the global setup found, with every migration applied
 * (unless `migrate: false`); `drop()` ends the pool and drops it. Suites never touch `warden`.
 */
export async function testPostgres(opts: { migrate?: boolean } = {}): Promise<TestPostgres> {
  const url = new URL(loadEndpoints(process.env).databaseUrl);
  url.pathname = `/warden_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const databaseUrl = url.toString();
  await ensureDatabase(databaseUrl);
  const pool = createPostgres({ url: databaseUrl });
  if (opts.migrate !== false) await migratePostgres(pool);
  return {
    url: databaseUrl,
    pool,
    drop: async () => {
      await pool.end();
      await dropDatabase(databaseUrl);
    },
  };
}
