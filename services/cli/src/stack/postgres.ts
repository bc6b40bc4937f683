import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadStackConfig, redactUrl } from '@warden/shared/config';
import { ensureDatabase, postgresHealthy } from '@warden/shared/postgres/client';
import { ensureExecutable, MissingPrerequisiteError } from './prerequisites';
import { spawnDetached, waitUntil } from './process';

export { postgresHealthy };

/** Waits for the server, then creates the URL's database (`warden`) when it is missing. */
export async function waitForPostgres(url: string, timeoutMs = 30000): Promise<void> {
  await waitUntil(`PostgreSQL at ${redactUrl(url)}`, () => postgresHealthy(url), timeoutMs);
  await ensureDatabase(url);
}

/** Debian keeps the server's programs under /usr/lib/postgresql/<major>/bin, off the PATH: the newest. */
function serverBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((v) => existsSync(resolve(root, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] && resolve(root, majors[0], 'bin');
}

/** uid and gid of a system user, from `id` (no native passwd lookup in Node). */
function userIds(name: string): { uid: number; gid: number } | undefined {
  const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * Debian's PostgreSQL as a plain process with its data in `.stack/postgres` (trust on 127.0.0.1
 * only, like the other local servers). The server refuses to run as root, so as root it runs as the
 * `postgres` user the package creates, which then owns the data directory.
 */
export function startPostgres(port: number, progress: (line: string) => void, dir?: string): number {
  let bin = serverBin();
  if (!bin) {
    ensureExecutable('PostgreSQL server (postgresql)', ['pg_ctlcluster'], 'postgresql', progress);
    bin = serverBin();
  }
  if (!bin) throw new MissingPrerequisiteError('PostgreSQL server', 'sudo apt-get install -y postgresql');
  const dataDir = dir ?? resolve(loadStackConfig().dir, 'postgres');
  const asRoot = process.getuid?.() === 0;
  const ids = asRoot ? userIds('postgres') : undefined;
  if (asRoot && !ids) {
    throw new MissingPrerequisiteError(
      'a `postgres` user to run PostgreSQL as (it refuses root)',
      'sudo apt-get install -y postgresql',
    );
  }
  mkdirSync(dataDir, { recursive: true });
  if (ids) chownSync(dataDir, ids.uid, ids.gid);
  const data = resolve(dataDir, 'data');
  if (!existsSync(resolve(data, 'PG_VERSION'))) {
    progress(`initdb ${data}…`);
    const init = spawnSync(
      resolve(bin, 'initdb'),
      ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-instructions'],
      { encoding: 'utf8', ...(ids ?? {}) },
    );
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr.trim() || init.stdout.trim()}`);
  }
  return spawnDetached(
    resolve(bin, 'postgres'),
    [
      '-D',
      data,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${dataDir}`,
    ],
    { logFile: resolve(dataDir, 'server.log'), ...(ids ?? {}) },
  );
}
