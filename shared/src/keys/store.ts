import type { ChainableCommander, Redis } from 'ioredis';
import ms from 'ms';
import { generateApiKey, hashKey, keyHint, randomBase62 } from './format';
import type { NewProject, PostgresKeys } from './postgres';
import { isTier, resolveLimits, type Tier, type TierLimits } from './tiers';

/**
 * Accounts (projects) and API key records. With `source` (PostgreSQL, what every deployment runs)
 * each change is written there first and then put whole into Redis, which is only a cache: a
 * record missing from Redis (after a restart or FLUSHALL) is read from PostgreSQL and cached again
 * on its first lookup. Without `source` Redis is the only store (tests of the data plane that need
 * no control plane). Only the SHA-256 of a key is stored; the key itself is returned once, by
 * `createKey`/`rotateKey`. Every change bumps the record's `version` and is announced on the
 * changes channel so each `KeyAuthenticator` can refresh its cache within milliseconds (see
 * authenticator.ts).
 *
 * Layout (P = prefix, default `warden:`):
 *   P key:<keyId>           HASH  keyId accountId hash scopes createdAt [expiresAt] [revokedAt] [name] hint [replacedBy] version
 *   P keyhash:<sha256>      STRING keyId (the lookup index)
 *   P key:<keyId>:usage     HASH  d:<YYYY-MM-DD> → requests, total, lastUsedAt (see usage.ts)
 *   P account:<accountId>   HASH  accountId tier createdAt [limits JSON] version
 *   P account:<accountId>:keys SET keyIds
 *   P keys                  SET   every keyId (full refresh, list all)
 *   P keys:changes          pub/sub channel, JSON KeyChange messages
 */

export const SCOPES = ['ingest', 'analytics:read', 'keys:manage', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];
export const DEFAULT_SCOPES: readonly Scope[] = ['ingest'];

export interface Account {
  accountId: string;
  tier: Tier;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Per-account overrides of the tier's defaults (enterprise, negotiated plans). */
  limits?: Partial<TierLimits>;
  version: number;
}

export interface KeyRecord {
  keyId: string;
  accountId: string;
  /** SHA-256 hex of the key; never leaves the library (listings omit it). */
  hash: string;
  scopes: Scope[];
  /** Epoch milliseconds, as are expiresAt and revokedAt. */
  createdAt: number;
  expiresAt?: number;
  revokedAt?: number;
  name?: string;
  /** `wdn_live_…abcd`: enough to tell keys apart in a listing. */
  hint: string;
  /** Set on a rotated key: the keyId that replaces it. */
  replacedBy?: string;
  version: number;
}

export interface CreatedKey {
  keyId: string;
  /** The only time the key is available in clear. */
  key: string;
  accountId: string;
  tier: Tier;
  scopes: Scope[];
}

export interface RotatedKey extends CreatedKey {
  replacesKeyId: string;
  /** ISO time after which the replaced key fails as expired. */
  previousKeyExpiresAt: string;
}

export type KeyStatus = 'active' | 'expiring' | 'expired' | 'revoked';

export interface KeyListing {
  keyId: string;
  accountId: string;
  tier: Tier | 'unknown';
  scopes: Scope[];
  name?: string;
  hint: string;
  status: KeyStatus;
  createdAt: string;
  /** The email of the user who created it (keys made by the CLI or another key have none). */
  createdBy?: string;
  expiresAt?: string;
  revokedAt?: string;
  replacedBy?: string;
  usage: { today: number; total: number; lastUsedAt?: string };
}

/** Messages on the changes channel: reload one key, or one account (tier or limits changed). */
export type KeyChange = { kind: 'key'; keyId: string; hash: string } | { kind: 'account'; accountId: string };

export class KeysError extends Error {
  constructor(
    readonly code: 'NOT_FOUND' | 'INVALID_ARGUMENT' | 'CONFLICT',
    message: string,
  ) {
    super(message);
    this.name = 'KeysError';
  }
}

export interface KeyStoreOptions {
  redis: Redis;
  /** Namespace for every Redis key and the changes channel. Default `warden:`. */
  prefix?: string;
  /** The system of record; Redis then only caches it. */
  source?: PostgresKeys;
}

export interface CreateKeyInput {
  accountId: string;
  /** Creates the account with this tier, or moves an existing account to it. Default: the account's
   *  current tier, else `free`. */
  tier?: Tier;
  scopes?: readonly Scope[];
  name?: string;
  /** Epoch ms after which the key fails as expired. */
  expiresAt?: number;
  /** Replaces the account's limit overrides. */
  limits?: Partial<TierLimits>;
}

export function keysKeyspace(prefix = 'warden:') {
  return {
    key: (keyId: string) => `${prefix}key:${keyId}`,
    keyByHash: (hash: string) => `${prefix}keyhash:${hash}`,
    usage: (keyId: string) => `${prefix}key:${keyId}:usage`,
    account: (accountId: string) => `${prefix}account:${accountId}`,
    accountKeys: (accountId: string) => `${prefix}account:${accountId}:keys`,
    allKeys: `${prefix}keys`,
    changes: `${prefix}keys:changes`,
  };
}
export type KeysKeyspace = ReturnType<typeof keysKeyspace>;

const ACCOUNT_ID = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$/;
const KEY_ID = /^key_[0-9A-Za-z]{20}$/;

export function assertAccountId(accountId: string): void {
  if (!ACCOUNT_ID.test(accountId)) {
    throw new KeysError(
      'INVALID_ARGUMENT',
      `Account id "${accountId}" is not valid: use 1–128 letters, digits, '.', '_', '@' or '-', starting with a letter or digit.`,
    );
  }
}

export function parseScopes(scopes: readonly string[] | string): Scope[] {
  const list = typeof scopes === 'string' ? scopes.split(',') : scopes;
  const out: Scope[] = [];
  for (const raw of list) {
    const scope = raw.trim();
    if (!scope) continue;
    if (!(SCOPES as readonly string[]).includes(scope)) {
      throw new KeysError('INVALID_ARGUMENT', `Unknown scope "${scope}". Use any of: ${SCOPES.join(', ')}.`);
    }
    if (!out.includes(scope as Scope)) out.push(scope as Scope);
  }
  if (out.length === 0) {
    throw new KeysError('INVALID_ARGUMENT', `A key needs at least one scope (${SCOPES.join(', ')}).`);
  }
  return out;
}

/**
 * A rotation grace period as the CLI takes it: `1500ms`, `30s`, `90m`, `24h`, `7d` (or plain ms),
 * read by `ms` (which also takes `2 days`, `1w`, …).
 */
export function parseGracePeriod(text: string): number {
  const trimmed = text.trim();
  const value = trimmed ? ms(trimmed as ms.StringValue) : undefined;
  // ms answers undefined for what it cannot read, and takes negative durations.
  if (value === undefined || !Number.isFinite(value) || value < 0) {
    throw new KeysError(
      'INVALID_ARGUMENT',
      `Grace period "${text}" is not a duration; use e.g. 30m, 24h or 7d.`,
    );
  }
  return Math.round(value);
}

const num = (value: string | undefined) => (value === undefined || value === '' ? undefined : Number(value));

export function accountFromHash(fields: Record<string, string>): Account | undefined {
  if (!fields.accountId || !isTier(fields.tier)) return undefined;
  const account: Account = {
    accountId: fields.accountId,
    tier: fields.tier,
    createdAt: num(fields.createdAt) ?? 0,
    version: num(fields.version) ?? 0,
  };
  if (fields.limits) account.limits = JSON.parse(fields.limits) as Partial<TierLimits>;
  return account;
}

export function keyRecordFromHash(fields: Record<string, string>): KeyRecord | undefined {
  if (!fields.keyId || !fields.accountId || !fields.hash) return undefined;
  const record: KeyRecord = {
    keyId: fields.keyId,
    accountId: fields.accountId,
    hash: fields.hash,
    scopes: (fields.scopes ?? '')
      .split(',')
      .filter((s): s is Scope => (SCOPES as readonly string[]).includes(s)),
    createdAt: num(fields.createdAt) ?? 0,
    hint: fields.hint ?? '',
    version: num(fields.version) ?? 0,
  };
  const expiresAt = num(fields.expiresAt);
  const revokedAt = num(fields.revokedAt);
  if (expiresAt !== undefined) record.expiresAt = expiresAt;
  if (revokedAt !== undefined) record.revokedAt = revokedAt;
  if (fields.name) record.name = fields.name;
  if (fields.replacedBy) record.replacedBy = fields.replacedBy;
  return record;
}

export function keyStatus(record: KeyRecord, now = Date.now()): KeyStatus {
  if (record.revokedAt !== undefined) return 'revoked';
  if (record.expiresAt !== undefined) return record.expiresAt <= now ? 'expired' : 'expiring';
  return 'active';
}

/** UTC day, the granularity of usage counters. */
export function usageDay(now = Date.now()): string {
  return new Date(now).toISOString().slice(0, 10);
}

const iso = (ms: number) => new Date(ms).toISOString();

export class KeyStore {
  readonly redis: Redis;
  readonly keyspace: KeysKeyspace;
  readonly source: PostgresKeys | undefined;

  constructor(options: KeyStoreOptions) {
    this.redis = options.redis;
    this.keyspace = keysKeyspace(options.prefix);
    this.source = options.source;
  }

  /** The account as cached in Redis, else (with a source) as stored in PostgreSQL, cached again. */
  async getAccount(accountId: string): Promise<Account | undefined> {
    const cached = accountFromHash(await this.redis.hgetall(this.keyspace.account(accountId)));
    if (cached || !this.source) return cached;
    const account = await this.source.getProject(accountId);
    if (account) await this.cacheAccount(account);
    return account;
  }

  /** Creates the account or changes its tier/limits; announces the change to every authenticator. */
  async setAccount(input: { accountId: string; tier: Tier; limits?: Partial<TierLimits> }): Promise<Account> {
    assertAccountId(input.accountId);
    if (input.limits) resolveLimits(input.tier, input.limits);
    if (this.source) {
      const account = await this.source.upsertProject(input);
      await this.cacheAccount(account);
      await this.announce({ kind: 'account', accountId: account.accountId });
      return account;
    }
    const key = this.keyspace.account(input.accountId);
    const tx = this.redis.multi();
    this.queueAccountUpsert(tx, input.accountId, input.tier, input.limits);
    tx.hgetall(key);
    const results = await exec(tx);
    await this.announce({ kind: 'account', accountId: input.accountId });
    return accountFromHash(results.at(-1) as Record<string, string>) as Account;
  }

  /** A new project in PostgreSQL (refused when the id is taken), cached and announced like any account. */
  async createProject(input: NewProject): Promise<Account> {
    if (!this.source) throw new Error('Projects are created in PostgreSQL: give the KeyStore its source.');
    assertAccountId(input.accountId);
    if (input.limits) resolveLimits(input.tier, input.limits);
    const account = await this.source.createProject(input);
    await this.cacheAccount(account);
    await this.announce({ kind: 'account', accountId: account.accountId });
    return account;
  }

  async createKey(input: CreateKeyInput): Promise<CreatedKey> {
    assertAccountId(input.accountId);
    if (input.tier !== undefined && !isTier(input.tier)) {
      throw new KeysError('INVALID_ARGUMENT', `Unknown tier "${String(input.tier)}".`);
    }
    const scopes = parseScopes(input.scopes ?? DEFAULT_SCOPES);
    if (input.limits) resolveLimits(input.tier ?? 'enterprise', input.limits);

    const key = generateApiKey();
    const record: KeyRecord = {
      keyId: newKeyId(),
      accountId: input.accountId,
      hash: hashKey(key),
      scopes,
      createdAt: Date.now(),
      hint: keyHint(key),
      version: 1,
    };
    if (input.name) record.name = input.name;
    if (input.expiresAt !== undefined) record.expiresAt = input.expiresAt;

    if (this.source) {
      const stored = await this.source.createKey(record, {
        ...(input.tier !== undefined ? { tier: input.tier } : {}),
        ...(input.limits ? { limits: input.limits } : {}),
      });
      await this.cacheAccount(stored.account);
      await this.cacheKey(stored.record);
      if (input.tier !== undefined || input.limits)
        await this.announce({ kind: 'account', accountId: stored.account.accountId });
      await this.announce({ kind: 'key', keyId: record.keyId, hash: record.hash });
      return { keyId: record.keyId, key, accountId: record.accountId, tier: stored.account.tier, scopes };
    }

    const tx = this.redis.multi();
    this.queueAccountUpsert(tx, input.accountId, input.tier, input.limits);
    this.queueKeyWrite(tx, record);
    tx.hgetall(this.keyspace.account(input.accountId));
    const results = await exec(tx);
    const account = accountFromHash(results.at(-1) as Record<string, string>);
    if (!account) throw new Error(`Account ${input.accountId} was not stored; check Redis and retry.`);

    if (input.tier !== undefined || input.limits)
      await this.announce({ kind: 'account', accountId: account.accountId });
    await this.announce({ kind: 'key', keyId: record.keyId, hash: record.hash });
    return { keyId: record.keyId, key, accountId: account.accountId, tier: account.tier, scopes };
  }

  /** The key's record: from PostgreSQL when it is the store, else from Redis. */
  async getKey(keyId: string): Promise<KeyRecord | undefined> {
    if (!KEY_ID.test(keyId)) return undefined;
    if (this.source) return this.source.getKey(keyId);
    return this.cachedKey(keyId);
  }

  private async cachedKey(keyId: string): Promise<KeyRecord | undefined> {
    return keyRecordFromHash(await this.redis.hgetall(this.keyspace.key(keyId)));
  }

  /**
   * The record and account behind a key hash, or undefined when no key has that hash: from Redis,
   * else (with a source) from PostgreSQL, put back into Redis for the next process that asks.
   */
  async findByHash(hash: string): Promise<{ record: KeyRecord; account: Account | undefined } | undefined> {
    let cached: { record: KeyRecord; account: Account | undefined } | undefined;
    try {
      const keyId = await this.redis.get(this.keyspace.keyByHash(hash));
      cached = keyId ? await this.loadWithAccount(keyId) : undefined;
    } catch (error) {
      // Redis failing is no reason to refuse a key the record holds: ask PostgreSQL, cache nothing.
      if (!this.source) throw error;
      return this.source.findByHash(hash);
    }
    if (cached || !this.source) return cached;
    const found = await this.source.findByHash(hash);
    if (found) {
      // Best effort: the answer stands whether or not Redis takes the copy.
      await Promise.all([
        found.account ? this.cacheAccount(found.account) : undefined,
        this.cacheKey(found.record),
      ]).catch(() => undefined);
    }
    return found;
  }

  /** A key and its account as cached in Redis, else (with a source) from PostgreSQL. */
  async loadWithAccount(
    keyId: string,
  ): Promise<{ record: KeyRecord; account: Account | undefined } | undefined> {
    let record = KEY_ID.test(keyId) ? await this.cachedKey(keyId) : undefined;
    if (!record && this.source) {
      record = await this.source.getKey(keyId);
      if (record) await this.cacheKey(record);
    }
    if (!record) return undefined;
    return { record, account: await this.getAccount(record.accountId) };
  }

  /** Every key record and account in the Redis cache (SSCAN in pages; the full reload of the cache). */
  async cachedRecords(batchSize = 500): Promise<{ keys: KeyRecord[]; accounts: Account[] }> {
    const keys: KeyRecord[] = [];
    const accountIds = new Set<string>();
    let cursor = '0';
    do {
      const [next, ids] = await this.redis.sscan(this.keyspace.allKeys, cursor, 'COUNT', batchSize);
      cursor = next;
      if (ids.length === 0) continue;
      const pipeline = this.redis.pipeline();
      for (const id of ids) pipeline.hgetall(this.keyspace.key(id));
      for (const fields of await exec(pipeline)) {
        const record = keyRecordFromHash(fields as Record<string, string>);
        if (!record) continue;
        keys.push(record);
        accountIds.add(record.accountId);
      }
    } while (cursor !== '0');
    const accounts: Account[] = [];
    const ids = [...accountIds];
    for (let i = 0; i < ids.length; i += batchSize) {
      const pipeline = this.redis.pipeline();
      for (const id of ids.slice(i, i + batchSize)) pipeline.hgetall(this.keyspace.account(id));
      for (const fields of await exec(pipeline)) {
        const account = accountFromHash(fields as Record<string, string>);
        if (account) accounts.push(account);
      }
    }
    return { keys, accounts };
  }

  /**
   * Carries keys and accounts that exist only in the Redis cache (written before PostgreSQL was
   * the store) into the source; what PostgreSQL already holds is left as it is. `warden migrate` runs it.
   */
  async importCachedRecords(): Promise<{ keys: number; projects: number }> {
    if (!this.source) throw new Error('KeyStore has no source (PostgreSQL) to import into.');
    return this.source.importRecords(await this.cachedRecords());
  }

  /** Key records in creation order, with usage; never the key or its hash. */
  async listKeys(accountId?: string): Promise<KeyListing[]> {
    if (accountId !== undefined) assertAccountId(accountId);
    const rows = this.source ? await this.source.listKeys(accountId) : await this.cachedListing(accountId);
    if (rows.length === 0) return [];
    const usages = await this.usageOf(rows.map((r) => r.record.keyId));

    const now = Date.now();
    return rows
      .map((row, i) => ({ ...row, usage: usages[i]! }))
      .sort((a, b) => a.record.createdAt - b.record.createdAt || a.record.keyId.localeCompare(b.record.keyId))
      .map(({ record, usage, tier, createdBy }) => {
        const listing: KeyListing = {
          keyId: record.keyId,
          accountId: record.accountId,
          tier: isTier(tier) ? tier : 'unknown',
          scopes: record.scopes,
          hint: record.hint,
          status: keyStatus(record, now),
          createdAt: iso(record.createdAt),
          usage: { today: usage.today, total: usage.total },
        };
        if (record.name) listing.name = record.name;
        if (createdBy) listing.createdBy = createdBy;
        if (record.expiresAt !== undefined) listing.expiresAt = iso(record.expiresAt);
        if (record.revokedAt !== undefined) listing.revokedAt = iso(record.revokedAt);
        if (record.replacedBy) listing.replacedBy = record.replacedBy;
        if (usage.lastUsedAt !== undefined) listing.usage.lastUsedAt = iso(usage.lastUsedAt);
        return listing;
      });
  }

  /** Usage per key, in order: from PostgreSQL when it is the store (see usage.ts), else Redis. */
  private async usageOf(keyIds: string[]): Promise<{ today: number; total: number; lastUsedAt?: number }[]> {
    if (this.source) {
      const byId = await this.source.usageOf(keyIds, usageDay());
      return keyIds.map((id) => byId.get(id) ?? { today: 0, total: 0 });
    }
    const today = `d:${usageDay()}`;
    const pipeline = this.redis.pipeline();
    for (const id of keyIds) pipeline.hmget(this.keyspace.usage(id), today, 'total', 'lastUsedAt');
    return ((await exec(pipeline)) as (string | null)[][]).map(([day, total, lastUsedAt]) => ({
      today: Number(day ?? 0),
      total: Number(total ?? 0),
      ...(lastUsedAt ? { lastUsedAt: Number(lastUsedAt) } : {}),
    }));
  }

  private async cachedListing(
    accountId?: string,
  ): Promise<{ record: KeyRecord; tier: Tier | undefined; createdBy?: string }[]> {
    const ids = await this.redis.smembers(
      accountId === undefined ? this.keyspace.allKeys : this.keyspace.accountKeys(accountId),
    );
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hgetall(this.keyspace.key(id));
    const records = (await exec(pipeline))
      .map((fields) => keyRecordFromHash(fields as Record<string, string>))
      .filter((r): r is KeyRecord => r !== undefined);
    const accountIds = [...new Set(records.map((r) => r.accountId))];
    const accountPipeline = this.redis.pipeline();
    for (const id of accountIds) accountPipeline.hget(this.keyspace.account(id), 'tier');
    const tierReplies = await exec(accountPipeline);
    const tierOf = new Map(accountIds.map((id, i) => [id, tierReplies[i]]));
    return records.map((record) => {
      const tier = tierOf.get(record.accountId);
      return { record, tier: isTier(tier) ? tier : undefined };
    });
  }

  /** Revokes at once on every process (pub/sub). Revoking twice is harmless. */
  async revokeKey(keyId: string): Promise<KeyRecord> {
    if (this.source) {
      const revoked = KEY_ID.test(keyId) ? await this.source.revokeKey(keyId) : undefined;
      if (!revoked) throw notFound(keyId);
      await this.cacheKey(revoked);
      await this.announce({ kind: 'key', keyId, hash: revoked.hash });
      return revoked;
    }
    const record = await this.requireKey(keyId);
    if (record.revokedAt !== undefined) return record;
    const revokedAt = Date.now();
    const tx = this.redis.multi();
    tx.hset(this.keyspace.key(keyId), 'revokedAt', revokedAt);
    tx.hincrby(this.keyspace.key(keyId), 'version', 1);
    await exec(tx);
    await this.announce({ kind: 'key', keyId, hash: record.hash });
    return { ...record, revokedAt, version: record.version + 1 };
  }

  /**
   * A new key with the same account, scopes and name; the old one keeps working until now + graceMs
   * and then fails as expired (graceMs 0 = at once). The new key is returned once.
   */
  async rotateKey(keyId: string, graceMs: number): Promise<RotatedKey> {
    if (!Number.isFinite(graceMs) || graceMs < 0) {
      throw new KeysError(
        'INVALID_ARGUMENT',
        `Grace period must be ≥ 0 ms (got ${graceMs}); e.g. 24h = 86400000.`,
      );
    }
    const key = generateApiKey();
    /** Approves the old key and makes its replacement (under PostgreSQL's row lock when it is the store). */
    const replace = (old: KeyRecord) => {
      const now = Date.now();
      if (old.revokedAt !== undefined) {
        throw new KeysError('CONFLICT', `Key ${keyId} is revoked; create a new key instead of rotating it.`);
      }
      if (old.expiresAt !== undefined && old.expiresAt <= now) {
        throw new KeysError('CONFLICT', `Key ${keyId} has expired; create a new key instead of rotating it.`);
      }
      const replacement: KeyRecord = {
        keyId: newKeyId(),
        accountId: old.accountId,
        hash: hashKey(key),
        scopes: old.scopes,
        createdAt: now,
        hint: keyHint(key),
        version: 1,
      };
      if (old.name) replacement.name = old.name;
      return { replacement, expiresAt: Math.min(old.expiresAt ?? Infinity, now + graceMs) };
    };

    if (this.source) {
      const rotated = KEY_ID.test(keyId) ? await this.source.rotateKey(keyId, replace) : undefined;
      if (!rotated) throw notFound(keyId);
      await this.cacheKey(rotated.replacement);
      await this.cacheKey(rotated.old);
      await this.announce({ kind: 'key', keyId, hash: rotated.old.hash });
      await this.announce({ kind: 'key', keyId: rotated.replacement.keyId, hash: rotated.replacement.hash });
      return {
        keyId: rotated.replacement.keyId,
        key,
        accountId: rotated.replacement.accountId,
        tier: rotated.tier,
        scopes: rotated.replacement.scopes,
        replacesKeyId: keyId,
        previousKeyExpiresAt: iso(rotated.old.expiresAt!),
      };
    }

    const old = await this.requireKey(keyId);
    const { replacement: record, expiresAt } = replace(old);

    const tx = this.redis.multi();
    this.queueKeyWrite(tx, record);
    tx.hset(this.keyspace.key(keyId), 'expiresAt', expiresAt, 'replacedBy', record.keyId);
    tx.hincrby(this.keyspace.key(keyId), 'version', 1);
    tx.hget(this.keyspace.account(old.accountId), 'tier');
    const results = await exec(tx);
    await this.announce({ kind: 'key', keyId, hash: old.hash });
    await this.announce({ kind: 'key', keyId: record.keyId, hash: record.hash });
    const tier = results.at(-1);
    return {
      keyId: record.keyId,
      key,
      accountId: record.accountId,
      tier: isTier(tier) ? tier : 'free',
      scopes: record.scopes,
      replacesKeyId: keyId,
      previousKeyExpiresAt: iso(expiresAt),
    };
  }

  private async requireKey(keyId: string): Promise<KeyRecord> {
    const record = await this.getKey(keyId);
    if (!record) throw notFound(keyId);
    return record;
  }

  /** Puts a record from PostgreSQL whole into the Redis cache (replacing what was there). */
  async cacheKey(record: KeyRecord): Promise<void> {
    const tx = this.redis.multi();
    tx.del(this.keyspace.key(record.keyId));
    this.queueKeyWrite(tx, record);
    await exec(tx);
  }

  async cacheAccount(account: Account): Promise<void> {
    const key = this.keyspace.account(account.accountId);
    const fields: Record<string, string | number> = {
      accountId: account.accountId,
      tier: account.tier,
      createdAt: account.createdAt,
      version: account.version,
    };
    if (account.limits) fields.limits = JSON.stringify(account.limits);
    const tx = this.redis.multi();
    tx.del(key);
    tx.hset(key, fields);
    await exec(tx);
  }

  private queueAccountUpsert(
    tx: ChainableCommander,
    accountId: string,
    tier: Tier | undefined,
    limits: Partial<TierLimits> | undefined,
  ): void {
    const key = this.keyspace.account(accountId);
    tx.hsetnx(key, 'accountId', accountId);
    tx.hsetnx(key, 'createdAt', Date.now());
    if (tier === undefined) tx.hsetnx(key, 'tier', 'free');
    else tx.hset(key, 'tier', tier);
    if (limits) tx.hset(key, 'limits', JSON.stringify(limits));
    tx.hincrby(key, 'version', 1);
  }

  private queueKeyWrite(tx: ChainableCommander, record: KeyRecord): void {
    const fields: Record<string, string | number> = {
      keyId: record.keyId,
      accountId: record.accountId,
      hash: record.hash,
      scopes: record.scopes.join(','),
      createdAt: record.createdAt,
      hint: record.hint,
      version: record.version,
    };
    if (record.name) fields.name = record.name;
    if (record.expiresAt !== undefined) fields.expiresAt = record.expiresAt;
    if (record.revokedAt !== undefined) fields.revokedAt = record.revokedAt;
    if (record.replacedBy) fields.replacedBy = record.replacedBy;
    tx.hset(this.keyspace.key(record.keyId), fields);
    tx.set(this.keyspace.keyByHash(record.hash), record.keyId);
    tx.sadd(this.keyspace.accountKeys(record.accountId), record.keyId);
    tx.sadd(this.keyspace.allKeys, record.keyId);
  }

  private async announce(change: KeyChange): Promise<void> {
    await this.redis.publish(this.keyspace.changes, JSON.stringify(change));
  }
}

function notFound(keyId: string): KeysError {
  return new KeysError('NOT_FOUND', `No API key with id "${keyId}". List keys with \`warden keys list\`.`);
}

function newKeyId(): string {
  return `key_${randomBase62(20)}`;
}

/** Runs a MULTI or pipeline and unwraps replies, throwing the first command error. */
async function exec(batch: ChainableCommander): Promise<unknown[]> {
  const results = await batch.exec();
  if (!results) throw new Error('Redis aborted the transaction; retry the operation.');
  return results.map(([error, value]) => {
    if (error) throw error;
    return value;
  });
}
