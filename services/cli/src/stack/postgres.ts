import { redactUrl } from '@warden/shared/config';
import { ensureDatabase, postgresHealthy } from '@warden/shared/postgres/client';
import { waitUntil } from './process';

export { postgresHealthy };

/** Waits for the server, then creates the URL's database (`warden`) when it is missing. */
export async function waitForPostgres(url: string, timeoutMs = 20000): Promise<void> {
  await waitUntil(`PostgreSQL at ${redactUrl(url)}`, () => postgresHealthy(url), timeoutMs);
  await ensureDatabase(url);
}

/** What to do when no PostgreSQL answers: the stack does not start one of its own (yet). */
export function noPostgresError(url: string): Error {
  return new Error(
    `no PostgreSQL answers at ${redactUrl(url)}. Install and start one (Debian: \`apt-get install postgresql && service postgresql start\`, ` +
      'with local trust or a password in DATABASE_URL), or set DATABASE_URL to a server Warden may create its database on',
  );
}
