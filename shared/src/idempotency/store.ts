import { createHash, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { deflateRaw, inflateRaw } from 'node:zlib';
import type { Redis } from 'ioredis';

/**
 * `Idempotency-Key` support: a retry within 24 h gets the first answer and writes nothing new.
 *
 * Layout (P = prefix; `iid` instead of `idem` for client interaction ids, see `space`):
 * P idem:<accountId>:<sha256(idempotency key)> STRING, either
 *   `c|<token>|<claimedAt>|<fingerprint>`    the claim (short lease)
 *   `d|<fingerprint>|j<answer JSON>`         a finished answer (24 h), small ones as they are,
 *   `d|<fingerprint>|z<deflated answer JSON>` larger ones compressed (a batch's answer shrinks ~20×);
 * and P idem-budget:<accountId> the bytes of answers the account stored in the current 24 h.
 *
 * The claim is a lease (default 60 s), not 24 h: a process that dies mid-request must not block
 * the key for a day; once the lease lapses a retry may claim it. Completing or abandoning checks
 * the claim token, so a request whose lease lapsed cannot overwrite or release a newer claim.
 *
 * Storage is bounded twice, so idempotent requests cannot fill Redis:
 * - per answer: a stored answer is at most `maxAnswerBytes` (64 KiB). An answer larger than that
 *   once compressed is stored as its `summary` (what a retry needs: for a batch, the status and
 *   counts without per-item results), or as its status alone;
 * - per account: answers count against the account's byte budget for 24 h (the one round trip that
 *   stores the answer adds its size); beyond the budget answers are still stored, but kept for
 *   `overBudgetTtlMs` (10 min, where most retries happen) instead of 24 h.
 */

export interface IdempotentAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /**
   * The body kept instead of `body` when the stored answer would exceed the per-answer cap: what a
   * retry needs to know (e.g. a batch's counts). Never stored when `body` fits.
   */
  summary?: unknown;
}

export type IdempotencyBegin =
  /** This request owns the key: process it, then `complete` (or `abandon` on failure). */
  | { state: 'claimed'; token: string }
  /** A previous request finished: answer with this, write nothing. */
  | { state: 'replay'; answer: IdempotentAnswer }
  /** The same key is being processed right now (answer 409, or wait and `begin` again). */
  | { state: 'in_progress'; claimedAt: number }
  /** The key was first used for a different request body (answer 409). */
  | { state: 'mismatch' };

export interface IdempotencyStoreOptions {
  redis: Redis;
  prefix?: string;
  /** How long a finished answer is replayed. Default 24 h. */
  answerTtlMs?: number;
  /** How long a claim holds before a retry may take over. Default 60 s; keep it above the longest request. */
  claimTtlMs?: number;
  /** Largest stored answer (after compression), in bytes. Default 64 KiB. */
  maxAnswerBytes?: number;
  /** How long answers are kept once the account is over its budget. Default 10 min. */
  overBudgetTtlMs?: number;
  /**
   * The keyspace, so that what the keys name stays apart: `idem` (default) for Idempotency-Key
   * headers, `iid` for client-supplied interaction ids. Both count against one account budget.
   */
  space?: string;
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

// KEYS[1] key; ARGV: claim, claim ttl ms. Returns nil when claimed, else the stored value.
const BEGIN_LUA = `
local current = redis.call('GET', KEYS[1])
if current then return current end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false
`;

// KEYS[1] key, KEYS[2] the account's budget counter; ARGV: the claim's prefix `c|<token>|`, the
// answer (or '' to release), answer ttl ms, budget bytes (-1: none), budget window ms, ttl ms over
// budget. 0 when the claim is not ours, 1 when settled, 2 when stored for the short ttl.
const SETTLE_LUA = `
local current = redis.call('GET', KEYS[1])
if current then
  if string.sub(current, 1, #ARGV[1]) ~= ARGV[1] then return 0 end
elseif ARGV[2] == '' then
  return 0
end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
  return 1
end
local size = #KEYS[1] + #ARGV[2]
local used = redis.call('INCRBY', KEYS[2], size)
if used == size then redis.call('PEXPIRE', KEYS[2], ARGV[5]) end
local budget = tonumber(ARGV[4])
if budget >= 0 and used > budget then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[6])
  return 2
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
`;

/** Answers below this are stored as JSON: compressing them saves little and costs a thread hop. */
const compressFrom = 1024;
const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

type Script = (...args: (string | number | Buffer)[]) => Promise<unknown>;

export class IdempotencyStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly answerTtlMs: number;
  private readonly claimTtlMs: number;
  private readonly maxAnswerBytes: number;
  private readonly overBudgetTtlMs: number;
  private readonly space: string;

  constructor(options: IdempotencyStoreOptions) {
    this.redis = options.redis;
    this.prefix = options.prefix ?? 'warden:';
    this.answerTtlMs = options.answerTtlMs ?? 24 * 60 * 60 * 1000;
    this.claimTtlMs = options.claimTtlMs ?? 60_000;
    this.maxAnswerBytes = options.maxAnswerBytes ?? 64 * 1024;
    this.overBudgetTtlMs = options.overBudgetTtlMs ?? 10 * 60 * 1000;
    this.space = options.space ?? 'idem';
    const commands = this.redis as unknown as Record<string, unknown>;
    if (typeof commands.wardenIdemBegin !== 'function') {
      this.redis.defineCommand('wardenIdemBegin', { numberOfKeys: 1, lua: BEGIN_LUA });
    }
    if (typeof commands.wardenIdemSettle !== 'function') {
      this.redis.defineCommand('wardenIdemSettle', { numberOfKeys: 2, lua: SETTLE_LUA });
    }
  }

  /**
   * Claims the key atomically, or tells why not. Pass `fingerprint` (see `requestFingerprint`) to
   * detect a key reused for a different request.
   */
  async begin(accountId: string, idempotencyKey: string, fingerprint = ''): Promise<IdempotencyBegin> {
    const key = this.redisKey(accountId, idempotencyKey);
    const token = randomUUID();
    const claim = `c|${token}|${Date.now()}|${fingerprint}`;
    // The Buffer variant: a stored answer may be compressed bytes.
    const current = (await this.script('wardenIdemBeginBuffer')(
      key,
      claim,
      this.claimTtlMs,
    )) as Buffer | null;
    if (current === null) return { state: 'claimed', token };
    const stored = await decodeStored(current);
    if (fingerprint !== '' && stored.fingerprint !== '' && stored.fingerprint !== fingerprint) {
      return { state: 'mismatch' };
    }
    if (stored.state === 'done') return { state: 'replay', answer: stored.answer };
    return { state: 'in_progress', claimedAt: stored.claimedAt };
  }

  /**
   * Stores the answer for replay (24 h, or briefly beyond the account's `budgetBytes`). Stores only
   * if this request still holds the claim `token` (or it lapsed and nobody took it); returns whether
   * it stored.
   */
  async complete(
    accountId: string,
    idempotencyKey: string,
    answer: IdempotentAnswer,
    token: string,
    fingerprint = '',
    budgetBytes?: number,
  ): Promise<boolean> {
    const key = this.redisKey(accountId, idempotencyKey);
    const value = Buffer.concat([Buffer.from(`d|${fingerprint}|`), await this.encodeAnswer(answer)]);
    const settled = await this.script('wardenIdemSettle')(
      key,
      this.budgetKey(accountId),
      `c|${token}|`,
      value,
      this.answerTtlMs,
      budgetBytes === undefined || !Number.isFinite(budgetBytes) ? -1 : Math.floor(budgetBytes),
      this.answerTtlMs,
      this.overBudgetTtlMs,
    );
    return settled !== 0;
  }

  /** Releases this request's claim (it failed, e.g. 503) so a retry can run; returns whether it released. */
  async abandon(accountId: string, idempotencyKey: string, token: string): Promise<boolean> {
    const key = this.redisKey(accountId, idempotencyKey);
    const settled = await this.script('wardenIdemSettle')(
      key,
      this.budgetKey(accountId),
      `c|${token}|`,
      '',
      0,
      -1,
      0,
      0,
    );
    return settled === 1;
  }

  /** The answer as stored: JSON, compressed from 1 KiB, its summary (or status) beyond the cap. */
  private async encodeAnswer(answer: IdempotentAnswer): Promise<Buffer> {
    const { summary, ...full } = answer;
    const fallbacks: IdempotentAnswer[] = [
      { ...full, body: summary },
      { status: answer.status, body: undefined, ...(answer.headers ? { headers: answer.headers } : {}) },
    ];
    if (summary === undefined) fallbacks.shift();
    let encoded = await encodeJson(full);
    for (const fallback of fallbacks) {
      if (encoded.length <= this.maxAnswerBytes) break;
      encoded = await encodeJson(fallback);
    }
    return encoded;
  }

  private redisKey(accountId: string, idempotencyKey: string): string {
    validateIdempotencyKey(idempotencyKey);
    const digest = createHash('sha256').update(idempotencyKey).digest('hex');
    return `${this.prefix}${this.space}:${accountId}:${digest}`;
  }

  private budgetKey(accountId: string): string {
    return `${this.prefix}idem-budget:${accountId}`;
  }

  private script(name: string): Script {
    return ((this.redis as unknown as Record<string, Script>)[name] as Script).bind(this.redis);
  }
}

async function encodeJson(answer: IdempotentAnswer): Promise<Buffer> {
  const json = JSON.stringify(answer);
  if (json.length < compressFrom) return Buffer.from(`j${json}`);
  return Buffer.concat([Buffer.from('z'), await deflate(json)]);
}

type StoredValue =
  | { state: 'in_progress'; claimedAt: number; fingerprint: string }
  | { state: 'done'; answer: IdempotentAnswer; fingerprint: string };

const bar = '|'.charCodeAt(0);

async function decodeStored(value: Buffer): Promise<StoredValue> {
  if (value[0] === '{'.charCodeAt(0)) {
    // Written as JSON by versions before the compact form; gone 24 h after an upgrade.
    const legacy = JSON.parse(value.toString()) as StoredValue;
    return { ...legacy, fingerprint: legacy.fingerprint ?? '' };
  }
  if (value[0] === 'c'.charCodeAt(0)) {
    const [, , claimedAt = '0', fingerprint = ''] = value.toString().split('|');
    return { state: 'in_progress', claimedAt: Number(claimedAt), fingerprint };
  }
  const end = value.indexOf(bar, 2);
  const fingerprint = value.subarray(2, end).toString();
  const payload = value.subarray(end + 2);
  const json =
    value[end + 1] === 'z'.charCodeAt(0) ? (await inflate(payload)).toString() : payload.toString();
  return { state: 'done', answer: JSON.parse(json) as IdempotentAnswer, fingerprint };
}
