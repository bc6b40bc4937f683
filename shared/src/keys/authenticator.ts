import type { Redis } from 'ioredis';
import { hashKey, isWellFormedKey } from './format';
import type { PostgresKeys } from './postgres';
import { KeyStore, type Account, type KeyChange, type KeyRecord, type Scope } from './store';
import { hasApiAccess, resolveLimits, type Tier, type TierLimits } from './tiers';

export type AuthFailureReason =
  | 'missing'
  | 'malformed'
  | 'unknown'
  | 'revoked'
  | 'expired'
  | 'no_api_access'
  /** The key is not cached and Redis could not be asked: answer 503, not 401. */
  | 'unavailable';

export type AuthResult =
  | {
      ok: true;
      keyId: string;
      accountId: string;
      tier: Tier;
      scopes: Scope[];
      /** The account's effective limits (tier defaults plus overrides). */
      limits: TierLimits;
    }
  | { ok: false; reason: AuthFailureReason; message: string; keyId?: string };

export interface KeyAuthenticatorOptions {
  /** Commands (lookups, refresh). A second connection is duplicated from it for pub/sub. */
  redis: Redis;
  prefix?: string;
  /**
   * The system of record. With it, a key missing from Redis is looked up here (and cached again),
   * and the full reload reads here, falling back to Redis while PostgreSQL is down.
   */
  source?: PostgresKeys;
  /** Safety-net full reload, in case a change message was lost. Default 30 s. */
  refreshIntervalMs?: number;
  /** How long "no such key" is remembered. Create messages clear it early. Default 5 s. */
  negativeTtlMs?: number;
  /** Bound on remembered unknown hashes (oldest dropped first). Default 10,000. */
  negativeMaxEntries?: number;
  /** SSCAN page size for the full reload. Default 500. */
  refreshBatchSize?: number;
  onError?: (error: unknown, during: string) => void;
}

const MESSAGES: Record<AuthFailureReason, string> = {
  missing: "API key missing: send it as 'Authorization: Bearer <key>' or 'x-api-key: <key>'.",
  malformed:
    'API key malformed: Warden keys look like wdn_live_… (47 characters); check it was copied whole.',
  unknown: 'API key not recognised: check the key, or create one in Settings → API Keys.',
  revoked: 'API key revoked: create a new key in Settings → API Keys.',
  expired: 'API key expired: it was rotated or reached its expiry; use the replacement key.',
  no_api_access:
    "The account's tier (starter) has no API access: upgrade to free or a higher tier to use the API.",
  unavailable: 'API keys cannot be checked right now (key store unreachable); retry shortly.',
};

const DOWN = new Set(['reconnecting', 'close', 'end']);

export function authFailure(reason: AuthFailureReason, keyId?: string): AuthResult {
  return keyId === undefined
    ? { ok: false, reason, message: MESSAGES[reason] }
    : { ok: false, reason, message: MESSAGES[reason], keyId };
}

/** The decision for a key record at time `now` (pure; the cache calls it on every request). */
export function evaluateKey(record: KeyRecord, account: Account | undefined, now = Date.now()): AuthResult {
  if (!account) return authFailure('unknown', record.keyId);
  if (record.revokedAt !== undefined) return authFailure('revoked', record.keyId);
  if (record.expiresAt !== undefined && record.expiresAt <= now) return authFailure('expired', record.keyId);
  if (!hasApiAccess(account.tier)) return authFailure('no_api_access', record.keyId);
  return {
    ok: true,
    keyId: record.keyId,
    accountId: account.accountId,
    tier: account.tier,
    scopes: record.scopes,
    limits: resolveLimits(account.tier, account.limits),
  };
}

/**
 * Authentication on the hot path without a Redis round trip per request. Every key record and
 * account is held in process (hash → record, accountId → account):
 * - `start()` subscribes to the changes channel, then loads everything;
 * - each change message (create, revoke, rotate, tier change) reloads that one record, so a
 *   revocation reaches every process within milliseconds (well inside the 5 s promise);
 * - a full reload every 30 s and after every subscriber reconnect covers lost messages;
 * - versions on records keep a slow full reload from overwriting a newer change;
 * - a key not in the cache costs one lookup (concurrent misses for the same key share it): Redis,
 *   then PostgreSQL when Redis does not have it (lost in a restart or FLUSHALL); a miss is
 *   remembered briefly in a bounded negative cache, so garbage keys cannot hammer either store;
 * - with PostgreSQL as the source, the full reload reads it (so a process started after Redis lost
 *   its keys knows them all); while PostgreSQL is down it reads Redis, and nothing held is dropped.
 * Expiry is evaluated per request against the record, so a rotated key stops at its grace end
 * without any message.
 */
export class KeyAuthenticator {
  private readonly store: KeyStore;
  private readonly redis: Redis;
  private subscriber: Redis | undefined;
  private readonly keys = new Map<string, KeyRecord>();
  private readonly accounts = new Map<string, Account>();
  private readonly negative = new Map<string, number>();
  private readonly inflight = new Map<string, Promise<void>>();
  private readonly refreshIntervalMs: number;
  private readonly negativeTtlMs: number;
  private readonly negativeMaxEntries: number;
  private readonly refreshBatchSize: number;
  private readonly onError: (error: unknown, during: string) => void;
  private timer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | undefined;
  private readonly counters = { hits: 0, misses: 0, lookups: 0, refreshes: 0, changes: 0 };

  constructor(options: KeyAuthenticatorOptions) {
    this.redis = options.redis;
    this.store = new KeyStore({ redis: options.redis, prefix: options.prefix, source: options.source });
    this.refreshIntervalMs = options.refreshIntervalMs ?? 30_000;
    this.negativeTtlMs = options.negativeTtlMs ?? 5_000;
    this.negativeMaxEntries = options.negativeMaxEntries ?? 10_000;
    this.refreshBatchSize = options.refreshBatchSize ?? 500;
    this.onError = options.onError ?? (() => undefined);
  }

  /** Subscribes first, then loads, so no change between the two is missed. */
  async start(): Promise<void> {
    if (this.subscriber) return;
    // The subscriber queues its SUBSCRIBE until connected, whatever the command connection's options.
    const subscriber = this.redis.duplicate({ enableOfflineQueue: true, lazyConnect: false });
    this.subscriber = subscriber;
    subscriber.on('error', (error: unknown) => this.onError(error, 'subscriber'));
    subscriber.on('message', (_channel: string, message: string) => this.onChange(message));
    let connected = false;
    subscriber.on('ready', () => {
      // After a reconnect, messages sent while we were away are lost: reload everything.
      if (connected) void this.refresh().catch((error: unknown) => this.onError(error, 'refresh'));
      connected = true;
    });
    await subscriber.subscribe(this.store.keyspace.changes);
    await this.refresh();
    this.timer = setInterval(() => {
      void this.refresh().catch((error: unknown) => this.onError(error, 'refresh'));
    }, this.refreshIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    if (subscriber) await subscriber.quit().catch(() => subscriber.disconnect());
  }

  /** SHA-256 of recently presented keys: a Map hit is cheaper than hashing on every request. */
  private readonly hashes = new Map<string, string>();

  /** The key's hash when it is well formed (a key hashed before was well-formed then), else undefined. */
  private hashOf(key: string): string | undefined {
    let hash = this.hashes.get(key);
    if (hash === undefined) {
      // Only a new key is checked (prefix, checksum) and hashed.
      if (!isWellFormedKey(key)) return undefined;
      if (this.hashes.size >= 10_000) this.hashes.clear();
      hash = hashKey(key);
      this.hashes.set(key, hash);
    }
    return hash;
  }

  /**
   * The answer for a key this process already holds (valid, revoked, expired, …), without touching
   * Redis; undefined when it would take a lookup, or the key is missing or malformed.
   */
  known(presentedKey: string | undefined | null): AuthResult | undefined {
    const hash = presentedKey ? this.hashOf(presentedKey) : undefined;
    const cached = hash === undefined ? undefined : this.cachedResult(hash);
    if (cached) this.counters.hits++;
    return cached;
  }

  async authenticate(presentedKey: string | undefined | null): Promise<AuthResult> {
    if (presentedKey === undefined || presentedKey === null || presentedKey.trim() === '') {
      return authFailure('missing');
    }
    const hash = this.hashOf(presentedKey);
    if (hash === undefined) return authFailure('malformed');
    const cached = this.cachedResult(hash);
    if (cached) {
      this.counters.hits++;
      return cached;
    }
    const until = this.negative.get(hash);
    if (until !== undefined) {
      if (until > Date.now()) return authFailure('unknown');
      this.negative.delete(hash);
    }
    this.counters.misses++;
    // A connection known to be down would queue or fail the lookup: ask PostgreSQL alone, or, without
    // it, answer at once instead.
    const redisDown = DOWN.has(this.redis.status);
    if (redisDown && !this.store.source) return authFailure('unavailable');
    try {
      await this.lookup(hash, redisDown);
    } catch (error) {
      this.onError(error, 'lookup');
      return authFailure('unavailable');
    }
    return this.cachedResult(hash) ?? authFailure('unknown');
  }

  /** Reloads every key and account (also runs on its own every refreshIntervalMs). */
  refresh(): Promise<void> {
    this.refreshing ??= this.loadAll().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  stats(): Readonly<typeof this.counters & { cachedKeys: number; negativeEntries: number }> {
    return { ...this.counters, cachedKeys: this.keys.size, negativeEntries: this.negative.size };
  }

  private cachedResult(hash: string): AuthResult | undefined {
    const record = this.keys.get(hash);
    if (!record) return undefined;
    return evaluateKey(record, this.accounts.get(record.accountId));
  }

  private lookup(hash: string, redisDown: boolean): Promise<void> {
    let pending = this.inflight.get(hash);
    if (!pending) {
      pending = (async () => {
        this.counters.lookups++;
        const found =
          redisDown && this.store.source
            ? await this.store.source.findByHash(hash)
            : await this.store.findByHash(hash);
        if (found) this.merge(found.record, found.account);
        else this.rememberUnknown(hash);
      })().finally(() => this.inflight.delete(hash));
      this.inflight.set(hash, pending);
    }
    return pending;
  }

  private rememberUnknown(hash: string): void {
    if (this.negative.size >= this.negativeMaxEntries) {
      const oldest = this.negative.keys().next();
      if (!oldest.done) this.negative.delete(oldest.value);
    }
    this.negative.set(hash, Date.now() + this.negativeTtlMs);
  }

  /** Keeps whichever copy is newer, so a full reload that read before a change cannot undo it. */
  private merge(record: KeyRecord | undefined, account: Account | undefined): void {
    if (record) {
      const current = this.keys.get(record.hash);
      if (!current || current.version <= record.version) this.keys.set(record.hash, record);
      this.negative.delete(record.hash);
    }
    if (account) {
      const current = this.accounts.get(account.accountId);
      if (!current || current.version <= account.version) this.accounts.set(account.accountId, account);
    }
  }

  private onChange(message: string): void {
    let change: KeyChange;
    try {
      change = JSON.parse(message) as KeyChange;
    } catch {
      return;
    }
    this.counters.changes++;
    if (change.kind === 'key') {
      this.negative.delete(change.hash);
      this.store.loadWithAccount(change.keyId).then(
        (found) => this.merge(found?.record, found?.account),
        (error: unknown) => {
          // Could not read the new state: forget the key so the next request asks Redis itself
          // rather than trusting a record that may have been revoked.
          this.keys.delete(change.hash);
          this.onError(error, 'change');
        },
      );
    } else if (change.kind === 'account') {
      this.store.getAccount(change.accountId).then(
        (account) => this.merge(undefined, account),
        (error: unknown) => {
          this.onError(error, 'change');
          for (const [hash, record] of this.keys)
            if (record.accountId === change.accountId) this.keys.delete(hash);
        },
      );
    }
  }

  /**
   * Merges every key and account: from PostgreSQL when it is the store (Redis may have lost
   * records), else, or while PostgreSQL is down, from the Redis cache. Never drops what is held, so
   * cached keys keep working through an outage of either.
   */
  private async loadAll(): Promise<void> {
    this.counters.refreshes++;
    let all: { keys: KeyRecord[]; accounts: Account[] } | undefined;
    if (this.store.source) {
      try {
        all = await this.store.source.loadAll();
      } catch (error) {
        this.onError(error, 'refresh from PostgreSQL');
      }
    }
    all ??= await this.store.cachedRecords(this.refreshBatchSize);
    for (const record of all.keys) this.merge(record, undefined);
    for (const account of all.accounts) this.merge(undefined, account);
  }
}
