import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadEndpoints, loadStackConfig } from '@warden/shared/config';
import { hashKey, KeysError } from '@warden/shared/keys/index';
import { UserDirectory, type CreatedUser } from '@warden/shared/users/index';
import { connectPostgres, withKeyStore } from './keys';

/**
 * The local demo account's key, kept in `.stack/demo-key` (git-ignored, this machine only) so
 * `npm start` prints the same key each time; recreated when the key store no longer knows it.
 */
export async function demoKey(): Promise<string> {
  const { dir } = loadStackConfig();
  const file = resolve(dir, 'demo-key');
  return withKeyStore(async (store) => {
    const saved = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
    const known = saved ? await store.findByHash(hashKey(saved)) : undefined;
    if (saved && known && !known.record.revokedAt) return saved;
    const created = await store.createKey({
      accountId: 'demo',
      tier: 'professional',
      scopes: ['ingest', 'analytics:read'],
      name: 'npm start demo',
    });
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, created.key + '\n', { mode: 0o600 });
    return created.key;
  });
}

/** The local first sign-in `npm start` creates on a fresh install. */
export const FIRST_OWNER_EMAIL = 'owner@warden.local';

/**
 * On a fresh install (no user yet), the first owner: organisation `Demo`, which takes the demo
 * project, so the dashboard shows what the demo key sends. Its password is returned to be printed
 * once; a later start finds a user and creates nothing (`npx warden users reset-password` recovers
 * a lost one). Undefined when users exist.
 */
export async function firstOwner(): Promise<{ email: string; password: string } | undefined> {
  const pool = await connectPostgres(loadEndpoints().databaseUrl);
  try {
    const { rows } = await pool.query('SELECT 1 FROM users LIMIT 1');
    if (rows.length > 0) return undefined;
    const password = randomBytes(12).toString('base64url');
    let created: CreatedUser;
    try {
      created = await new UserDirectory(pool, 'cli').createUser({
        email: FIRST_OWNER_EMAIL,
        password,
        organisation: 'Demo',
        role: 'owner',
        firstUserOnly: true,
      });
    } catch (err) {
      // Someone signed up first meanwhile: theirs is the first sign-in.
      if (err instanceof KeysError && err.code === 'CONFLICT') return undefined;
      throw err;
    }
    await pool.query('UPDATE projects SET organisation_id = $1 WHERE id = $2 AND organisation_id IS NULL', [
      created.organisationId,
      'demo',
    ]);
    return { email: FIRST_OWNER_EMAIL, password };
  } finally {
    await pool.end();
  }
}
