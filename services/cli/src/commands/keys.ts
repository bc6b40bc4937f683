import type { Command } from 'commander';
import { Redis } from 'ioredis';
import { loadEndpoints, redactUrl } from '@warden/shared/config';
import { createPostgres, type PostgresPool } from '@warden/shared/postgres/client';
import {
  KeyStore,
  PostgresKeys,
  parseGracePeriod,
  parseScopes,
  parseTier,
  type CreatedKey,
  type KeyListing,
} from '@warden/shared/keys/index';
import { formatTable } from '../table';

/** A connected Redis client for one CLI command, or an error saying how to get one. */
export async function connectRedis(redisUrl: string): Promise<Redis> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 3000 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    throw new Error(
      `cannot reach Redis at ${redactUrl(redisUrl)} (${(err as Error).message}). Start the stack with \`npx warden stack up\` or set REDIS_URL.`,
      { cause: err },
    );
  }
  return redis;
}

/** A pool on a migrated control-plane database for one CLI command, or an error saying how to get one. */
export async function connectPostgres(databaseUrl: string): Promise<PostgresPool> {
  const pool = createPostgres({ url: databaseUrl, max: 2 });
  try {
    await pool.query('SELECT 1 FROM api_keys LIMIT 0');
  } catch (err) {
    await pool.end();
    throw new Error(
      `cannot use PostgreSQL at ${redactUrl(databaseUrl)} (${(err as Error).message}). Run \`npx warden migrate\` (after \`npx warden stack up\`), or set DATABASE_URL.`,
      { cause: err },
    );
  }
  return pool;
}

/**
 * The key store as the CLI uses it: PostgreSQL (DATABASE_URL) is written first and is the record,
 * Redis (REDIS_URL) is the cache every ingest process reads and the channel that announces changes.
 */
export async function withKeyStore<T>(fn: (store: KeyStore, source: PostgresKeys) => Promise<T>): Promise<T> {
  const { redisUrl, databaseUrl } = loadEndpoints();
  const redis = await connectRedis(redisUrl);
  let pool: PostgresPool;
  try {
    pool = await connectPostgres(databaseUrl);
  } catch (err) {
    redis.disconnect();
    throw err;
  }
  try {
    const source = new PostgresKeys(pool, 'cli');
    return await fn(new KeyStore({ redis, source }), source);
  } finally {
    redis.disconnect();
    await pool.end();
  }
}

/** Creates an API key; the clear key is returned once and never stored. */
export function createApiKey(input: {
  accountId: string;
  tier: string;
  scopes?: string;
  name?: string;
}): Promise<CreatedKey> {
  return withKeyStore((store) =>
    store.createKey({
      accountId: input.accountId,
      tier: parseTier(input.tier),
      scopes: parseScopes(input.scopes ?? 'ingest'),
      ...(input.name ? { name: input.name } : {}),
    }),
  );
}

function printKeys(keys: KeyListing[]): void {
  if (keys.length === 0) {
    console.log('no keys');
    return;
  }
  const rows = keys.map((k) => [
    k.keyId,
    k.accountId,
    k.tier,
    k.status,
    k.scopes.join(','),
    k.hint,
    String(k.usage.today),
    String(k.usage.total),
    k.usage.lastUsedAt ?? '-',
    k.expiresAt ?? '-',
  ]);
  const header = [
    'keyId',
    'account',
    'tier',
    'status',
    'scopes',
    'key',
    'today',
    'total',
    'last used',
    'expires',
  ];
  console.log(formatTable(header, rows));
}

export function registerKeysCommands(program: Command): void {
  const keys = program
    .command('keys')
    .description('API keys: create, list, revoke, rotate (hashes stored in PostgreSQL, cached in Redis)');
  keys
    .command('create')
    .description(
      'create a key for an account (the account is created or moved to the tier); prints the key once',
    )
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--tier <tier>', 'starter | free | professional | business | enterprise')
    .option('--scopes <list>', 'comma-separated: ingest, analytics:read, keys:manage', 'ingest')
    .option('--name <name>', 'a label shown by `keys list`')
    .option('--json', 'print {"keyId","key","accountId","tier","scopes"}')
    .action(
      async (opts: { account: string; tier: string; scopes: string; name?: string; json?: boolean }) => {
        const created = await createApiKey({
          accountId: opts.account,
          tier: opts.tier,
          scopes: opts.scopes,
          name: opts.name,
        });
        if (opts.json) {
          console.log(JSON.stringify(created));
          return;
        }
        console.log(created.key);
        process.stderr.write(
          `created ${created.keyId} for account ${created.accountId} (${created.tier}, scopes ${created.scopes.join(',')}). ` +
            'Store the key now: it is not shown again.\n',
        );
      },
    );
  keys
    .command('list')
    .description('list keys with status and usage (never the key itself)')
    .option('--account <id>', 'only this account')
    .option('--json', 'print JSON')
    .action(async (opts: { account?: string; json?: boolean }) => {
      const list = await withKeyStore((store) => store.listKeys(opts.account));
      if (opts.json) console.log(JSON.stringify(list, null, 2));
      else printKeys(list);
    });
  keys
    .command('revoke <keyId>')
    .description('revoke a key; every ingest process refuses it within seconds')
    .action(async (keyId: string) => {
      await withKeyStore((store) => store.revokeKey(keyId));
      process.stderr.write(`revoked ${keyId}\n`);
    });
  keys
    .command('rotate <keyId>')
    .description('issue a replacement key; the old one keeps working for the grace period')
    .option('--grace <duration>', 'how long the old key stays valid (e.g. 1h, 24h, 7d)', '24h')
    .option('--json', 'print JSON')
    .action(async (keyId: string, opts: { grace: string; json?: boolean }) => {
      const rotated = await withKeyStore((store) => store.rotateKey(keyId, parseGracePeriod(opts.grace)));
      if (opts.json) {
        console.log(JSON.stringify(rotated));
        return;
      }
      console.log(rotated.key);
      process.stderr.write(
        `rotated ${keyId} → ${rotated.keyId}; the old key expires at ${rotated.previousKeyExpiresAt}\n`,
      );
    });
}
