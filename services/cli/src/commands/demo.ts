import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { loadEndpoints, loadStackConfig } from '@warden/shared/config';
import { hashKey, KeyStore } from '@warden/shared/keys/index';

/**
 * The local demo account's key, kept in `.stack/demo-key` (git-ignored, this machine only) so
 * `npm start` prints the same key each time; recreated when Redis no longer knows it.
 */
export async function demoKey(): Promise<string> {
  const { dir } = loadStackConfig();
  const file = resolve(dir, 'demo-key');
  const redis = new Redis(loadEndpoints().redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const store = new KeyStore({ redis });
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
  } finally {
    redis.disconnect();
  }
}
