import pg from 'pg';
import { redactUrl } from '../config';

export type PostgresPool = pg.Pool;
export type PostgresClient = pg.PoolClient;

export interface PostgresOptions {
  url: string;
  /** Connections held at most (default 4: the control plane is light; ingest reads it on misses only). */
  max?: number;
  /** How long a query waits for a connection before failing (default 3 s), so a down server fails fast. */
  connectionTimeoutMs?: number;
}

/**
 * A node-postgres pool. An idle connection that breaks (server restart) emits 'error' on the pool;
 * without a listener that would end the process, so it is swallowed here and the next query
 * reconnects.
 */
export function createPostgres(options: PostgresOptions): PostgresPool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 4,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 3000,
    idleTimeoutMillis: 30_000,
  });
  pool.on('error', () => undefined);
  return pool;
}

/** The database a URL names (`warden` in postgres://…/warden). */
export function databaseOf(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!name) throw new Error(`${redactUrl(url)} names no database; add one, e.g. …:5432/warden.`);
  return name;
}

/** The same server's maintenance database (`postgres`), from which databases are created and dropped. */
export function maintenanceUrl(url: string): string {
  const u = new URL(url);
  u.pathname = '/postgres';
  return u.toString();
}

/** Creates the database the URL names when it does not exist yet (needs CREATEDB on the server). */
export async function ensureDatabase(url: string): Promise<'created' | 'exists'> {
  const name = databaseOf(url);
  const client = new pg.Client({ connectionString: maintenanceUrl(url), connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return 'exists';
    try {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
    } catch (err) {
      // Another process created it between the check and the CREATE.
      if ((err as { code?: string }).code === '42P04') return 'exists';
      throw err;
    }
    return 'created';
  } finally {
    await client.end();
  }
}

/** Drops a database (tests drop their own); connections still open to it are ended first. */
export async function dropDatabase(url: string): Promise<void> {
  const name = databaseOf(url);
  const client = new pg.Client({ connectionString: maintenanceUrl(url), connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** True when a server answers at the URL's host and port (any database; used by the local stack). */
export async function postgresHealthy(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: maintenanceUrl(url), connectionTimeoutMillis: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Runs `fn` in a transaction on one connection: COMMIT when it resolves, ROLLBACK when it throws. */
export async function inTransaction<T>(
  pool: PostgresPool,
  fn: (client: PostgresClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
