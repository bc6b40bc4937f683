import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * `Idempotency-Key` support: a retry within 24 h gets the first answer and writes nothing new.
 *
 * Layout (P = prefix): P idem:<accountId>:<sha256(idempotency key)> STRING, JSON of either
 *   {"state":"in_progress","token","claimedAt","fingerprint"?}   (the claim, short lease)
 *   {"state":"done","answer":{status,body,headers?},"fingerprint"?} (24 h)
 *
 * The claim is a lease (default 60 s), not 24 h: a process that dies mid-request must not block
 * the key for a day; once the lease lapses a retry may claim it. Completing or abandoning checks
 * the claim token, so a request whose lease lapsed cannot overwrite or release a newer claim.
 */

export interface IdempotentAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type IdempotencyBegin =
  /** This request owns the key: process it, then `complete` (or `abandon` on failure). */
  | { state: 'claimed'; token: string }
  /** A previous request finished: answer with this, write nothing. */
  | { state: 'replay'; answer: IdempotentAnswer }
  /** The same key is being processed right now (answer 409, or wait and `begin` again). */
  | { state: 'in_progress'; claimedAt: number }
  /** The key was first used for a different request body (answer 422). */
  | { state: 'mismatch' };

export interface IdempotencyStoreOptions {
  redis: Redis;
  prefix?: string;
  /** How long a finished answer is replayed. Default 24 h. */
  answerTtlMs?: number;
  /** How long a claim holds before a retry may take over. Default 60 s; keep it above the longest request. */
  claimTtlMs?: number;
}

export class IdempotencyKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IdempotencyKeyError';
  }
}

const PRINTABLE_ASCII = /^[\x20-\x7e]{1,255}$/;

/** Returns the key when it is 1–255 printable ASCII characters, else throws a message fit for a 400. */
export function validateIdempotencyKey(key: string): string {
  if (!PRINTABLE_ASCII.test(key) || key.trim() === '') {
    throw new IdempotencyKeyError(
      'Idempotency-Key must be 1–255 printable ASCII characters (a UUID is a good choice).',
    );
  }
  return key;
}

/** A stable fingerprint of a request body, to notice a key reused for a different request. */
export function requestFingerprint(body: string | Buffer): string {
  return createHash('sha256').update(body).digest('hex');
}

// KEYS[1] key; ARGV: claim JSON, claim ttl ms. Returns nil when claimed, else the stored value.
const BEGIN_LUA = `
local current = redis.call('GET', KEYS[1])
if current then return current end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false
`;

// KEYS[1] key; ARGV: token, answer JSON (or '' to release), ttl ms. 1 when done, 0 when the claim is not ours.
const SETTLE_LUA = `
local current = redis.call('GET', KEYS[1])
if current then
  local ok, parsed = pcall(cjson.decode, current)
  if not ok or parsed.state ~= 'in_progress' or parsed.token ~= ARGV[1] then return 0 end
elseif ARGV[2] == '' then
  return 0
end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
end
return 1
`;

type StoredValue =
  | { state: 'in_progress'; token: string; claimedAt: number; fingerprint?: string }
  | { state: 'done'; answer: IdempotentAnswer; fingerprint?: string };

type Script = (key: string, ...args: (string | number)[]) => Promise<unknown>;

export class IdempotencyStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly answerTtlMs: number;
  private readonly claimTtlMs: number;

  constructor(options: IdempotencyStoreOptions) {
    this.redis = options.redis;
    this.prefix = options.prefix ?? 'warden:';
    this.answerTtlMs = options.answerTtlMs ?? 24 * 60 * 60 * 1000;
    this.claimTtlMs = options.claimTtlMs ?? 60_000;
    const commands = this.redis as unknown as Record<string, unknown>;
    if (typeof commands.wardenIdemBegin !== 'function') {
      this.redis.defineCommand('wardenIdemBegin', { numberOfKeys: 1, lua: BEGIN_LUA });
    }
    if (typeof commands.wardenIdemSettle !== 'function') {
      this.redis.defineCommand('wardenIdemSettle', { numberOfKeys: 1, lua: SETTLE_LUA });
    }
  }

  /**
   * Claims the key atomically, or tells why not. Pass `fingerprint` (see `requestFingerprint`) to
   * detect a key reused for a different request.
   */
  async begin(accountId: string, idempotencyKey: string, fingerprint?: string): Promise<IdempotencyBegin> {
    const key = this.redisKey(accountId, idempotencyKey);
    const token = randomUUID();
    const claim: StoredValue = { state: 'in_progress', token, claimedAt: Date.now() };
    if (fingerprint !== undefined) claim.fingerprint = fingerprint;
    const current = (await this.script('wardenIdemBegin')(key, JSON.stringify(claim), this.claimTtlMs)) as
      string | null;
    if (current === null) return { state: 'claimed', token };
    const stored = JSON.parse(current) as StoredValue;
    if (fingerprint !== undefined && stored.fingerprint !== undefined && stored.fingerprint !== fingerprint) {
      return { state: 'mismatch' };
    }
    if (stored.state === 'done') return { state: 'replay', answer: stored.answer };
    return { state: 'in_progress', claimedAt: stored.claimedAt };
  }

  /**
   * Stores the answer for replay (24 h). With the claim `token`, stores only if this request still
   * holds the claim (or it lapsed and nobody took it); returns whether it stored.
   */
  async complete(
    accountId: string,
    idempotencyKey: string,
    answer: IdempotentAnswer,
    token: string,
    fingerprint?: string,
  ): Promise<boolean> {
    const value: StoredValue = { state: 'done', answer };
    if (fingerprint !== undefined) value.fingerprint = fingerprint;
    const key = this.redisKey(accountId, idempotencyKey);
    return (await this.script('wardenIdemSettle')(key, token, JSON.stringify(value), this.answerTtlMs)) === 1;
  }

  /** Releases this request's claim (it failed, e.g. 503) so a retry can run; returns whether it released. */
  async abandon(accountId: string, idempotencyKey: string, token: string): Promise<boolean> {
    const key = this.redisKey(accountId, idempotencyKey);
    return (await this.script('wardenIdemSettle')(key, token, '', 0)) === 1;
  }

  private redisKey(accountId: string, idempotencyKey: string): string {
    validateIdempotencyKey(idempotencyKey);
    const digest = createHash('sha256').update(idempotencyKey).digest('hex');
    return `${this.prefix}idem:${accountId}:${digest}`;
  }

  private script(name: string): Script {
    return ((this.redis as unknown as Record<string, Script>)[name] as Script).bind(this.redis);
  }
}
