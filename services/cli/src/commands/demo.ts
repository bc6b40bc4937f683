import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadStackConfig } from '@warden/shared/config';
import { hashKey } from '@warden/shared/keys/index';
import { withKeyStore } from './keys';

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
