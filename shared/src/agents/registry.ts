import type { Redis } from 'ioredis';

/**
 * Which agentIds an account has reported, enforcing the tier's agent limit.
 *
 * Layout (P = prefix): P agents:<accountId> SET of agentIds; P agents:<accountId>:first and
 * P agents:<accountId>:last HASHes agentId → epoch ms; P agents:<accountId>:archived SET of agentIds
 * archived through the API. An archived agent is out of the counted set (its slot is free) and is
 * refused until it is unarchived, which takes a slot again.
 *
 * A new agent is admitted by one Lua script that checks membership, SCARD and SADDs atomically, so
 * parallel requests from many processes can never push an account past its limit. Agents this
 * process has seen admitted are remembered, so their later requests pay no round trip; their
 * last-seen time is written at most once per agent per `lastSeenEveryMs`, in the background, by the
 * same script: an agent archived meanwhile is forgotten then, so every process refuses it within
 * `lastSeenEveryMs` of the archive.
 */

export interface AgentAdmission {
  allowed: boolean;
  /** The agent was registered before this call. */
  known: boolean;
  /** Agents registered for the account (exact on a Redis answer; as of the last one on a local hit). */
  count: number;
  /** Refused because the agent is archived (it holds no slot until unarchived). */
  archived?: boolean;
}

export interface AgentRegistryOptions {
  redis: Redis;
  prefix?: string;
  /** Coalescing window for last-seen writes of a known agent. Default 10 s. */
  lastSeenEveryMs?: number;
  /** Bound on (account, agent) pairs remembered locally. Default 100,000. */
  localMaxAgents?: number;
  onError?: (error: unknown) => void;
}

export interface AgentSeen {
  agentId: string;
  firstSeen: string;
  lastSeen: string;
}

const ADMIT_LUA = `
local now = ARGV[3]
if redis.call('SISMEMBER', KEYS[4], ARGV[1]) == 1 then
  return {0, 2, redis.call('SCARD', KEYS[1])}
end
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then
  redis.call('HSET', KEYS[3], ARGV[1], now)
  return {1, 1, redis.call('SCARD', KEYS[1])}
end
local count = redis.call('SCARD', KEYS[1])
if count >= tonumber(ARGV[2]) then
  return {0, 0, count}
end
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('HSETNX', KEYS[2], ARGV[1], now)
redis.call('HSET', KEYS[3], ARGV[1], now)
return {1, 0, count + 1}
`;

// Takes the agent out of the counted set and marks it archived; answers the agents left counted.
const ARCHIVE_LUA = `
redis.call('SREM', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[2], ARGV[1])
return redis.call('SCARD', KEYS[1])
`;

// Gives an archived agent its slot back when one is free: {1, count} done (or was not archived),
// {0, count} the limit is reached.
const UNARCHIVE_LUA = `
local count = redis.call('SCARD', KEYS[1])
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 0 then
  return {1, count}
end
if count >= tonumber(ARGV[2]) then
  return {0, count}
end
redis.call('SREM', KEYS[2], ARGV[1])
redis.call('SADD', KEYS[1], ARGV[1])
return {1, count + 1}
`;

const COMMAND = 'wardenAgentAdmit';
const ARCHIVE = 'wardenAgentArchive';
const UNARCHIVE = 'wardenAgentUnarchive';
const DOWN = new Set(['reconnecting', 'close', 'end']);

/** Redis could not be asked about a new agent: answer 503 with Retry-After, not 403. */
export class AgentRegistryUnavailableError extends Error {
  constructor(cause: unknown) {
    super(
      `Agent registry unavailable (${cause instanceof Error ? cause.message : String(cause)}); retry shortly.`,
      { cause },
    );
    this.name = 'AgentRegistryUnavailableError';
  }
}
type AdmitCommand = (
  set: string,
  first: string,
  last: string,
  archived: string,
  agentId: string,
  limit: number,
  now: number,
) => Promise<unknown>;

type RedisScript = (...args: (string | number)[]) => Promise<unknown>;

export class AgentRegistry {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly lastSeenEveryMs: number;
  private readonly localMaxAgents: number;
  private readonly onError: (error: unknown) => void;
  /** `accountId\nagentId` → when last-seen was last written. */
  private readonly known = new Map<string, number>();
  private readonly counts = new Map<string, number>();

  constructor(options: AgentRegistryOptions) {
    this.redis = options.redis;
    this.prefix = options.prefix ?? 'warden:';
    this.lastSeenEveryMs = options.lastSeenEveryMs ?? 10_000;
    this.localMaxAgents = options.localMaxAgents ?? 100_000;
    this.onError = options.onError ?? (() => undefined);
    const commands = this.redis as unknown as Record<string, unknown>;
    if (typeof commands[COMMAND] !== 'function')
      this.redis.defineCommand(COMMAND, { numberOfKeys: 4, lua: ADMIT_LUA });
    if (typeof commands[ARCHIVE] !== 'function')
      this.redis.defineCommand(ARCHIVE, { numberOfKeys: 2, lua: ARCHIVE_LUA });
    if (typeof commands[UNARCHIVE] !== 'function')
      this.redis.defineCommand(UNARCHIVE, { numberOfKeys: 2, lua: UNARCHIVE_LUA });
  }

  /**
   * Admits `agentId` for the account: known agents always pass (even if the limit was lowered); a new
   * one passes only while fewer than `agentLimit` are registered. A refused agent is not remembered,
   * so raising the limit takes effect on its next request. Rejects when Redis cannot be reached and
   * the agent is not known locally (the route answers 503).
   */
  async admit(accountId: string, agentId: string, agentLimit: number): Promise<AgentAdmission> {
    if (agentId === '') throw new RangeError('agentId must not be empty.');
    if (!(agentLimit >= 0)) throw new RangeError(`agentLimit must be ≥ 0 (got ${agentLimit}).`);
    // Unlimited plans may pass Infinity, which does not survive the trip to Lua.
    const limit = Number.isFinite(agentLimit) ? agentLimit : Number.MAX_SAFE_INTEGER;
    const localKey = `${accountId}\n${agentId}`;
    const now = Date.now();
    const lastWritten = this.known.get(localKey);
    if (lastWritten !== undefined) {
      if (now - lastWritten >= this.lastSeenEveryMs) {
        this.known.set(localKey, now);
        // Re-admitting writes last-seen and notices an archive: then the next request asks Redis.
        this.run(accountId, agentId, limit, now).then((reply) => {
          if (reply[0] !== 1) this.known.delete(localKey);
        }, this.onError);
      }
      return { allowed: true, known: true, count: this.counts.get(accountId) ?? 1 };
    }

    let reply: [number, number, number];
    try {
      // A connection known to be down would only queue or fail: fail at once.
      if (DOWN.has(this.redis.status)) throw new Error(`Redis connection is ${this.redis.status}`);
      reply = await this.run(accountId, agentId, limit, now);
    } catch (error) {
      throw new AgentRegistryUnavailableError(error);
    }
    const [allowed, known, count] = reply;
    this.counts.set(accountId, count);
    if (allowed === 1) this.remember(localKey, now);
    return {
      allowed: allowed === 1,
      known: known === 1,
      count,
      ...(known === 2 ? { archived: true } : {}),
    };
  }

  private async run(
    accountId: string,
    agentId: string,
    limit: number,
    now: number,
  ): Promise<[number, number, number]> {
    const keys = this.keys(accountId);
    const admit = (this.redis as unknown as Record<string, AdmitCommand>)[COMMAND] as AdmitCommand;
    return (await admit.call(
      this.redis,
      keys.set,
      keys.first,
      keys.last,
      keys.archived,
      agentId,
      limit,
      now,
    )) as [number, number, number];
  }

  /**
   * Archives the agent: its slot is free at once; ingest processes refuse its data within
   * `lastSeenEveryMs`. Answers how many agents still count against the limit.
   */
  async archive(accountId: string, agentId: string): Promise<number> {
    const keys = this.keys(accountId);
    const command = (this.redis as unknown as Record<string, RedisScript>)[ARCHIVE] as RedisScript;
    return Number(await command.call(this.redis, keys.set, keys.archived, agentId));
  }

  /**
   * Gives an archived agent a slot again, if the limit leaves one; `false` when it does not (archive
   * another agent or raise the tier first). An agent that is not archived is left as it is.
   */
  async unarchive(
    accountId: string,
    agentId: string,
    agentLimit: number,
  ): Promise<{ ok: boolean; count: number }> {
    const keys = this.keys(accountId);
    const limit = Number.isFinite(agentLimit) ? agentLimit : Number.MAX_SAFE_INTEGER;
    const command = (this.redis as unknown as Record<string, RedisScript>)[UNARCHIVE] as RedisScript;
    const [ok, count] = (await command.call(this.redis, keys.set, keys.archived, agentId, limit)) as [
      number,
      number,
    ];
    return { ok: ok === 1, count };
  }

  /** How many agents count against the account's agent limit now (archived ones do not). */
  async counted(accountId: string): Promise<number> {
    return this.redis.scard(this.keys(accountId).set);
  }

  /** Registered agents with first/last seen, for dashboards and tests. */
  async list(accountId: string): Promise<AgentSeen[]> {
    const keys = this.keys(accountId);
    const [ids, first, last] = await Promise.all([
      this.redis.smembers(keys.set),
      this.redis.hgetall(keys.first),
      this.redis.hgetall(keys.last),
    ]);
    return ids.sort().map((agentId) => ({
      agentId,
      firstSeen: new Date(Number(first[agentId] ?? 0)).toISOString(),
      lastSeen: new Date(Number(last[agentId] ?? first[agentId] ?? 0)).toISOString(),
    }));
  }

  /** Forget local knowledge (e.g. after an agent was deleted from the registry). */
  forgetLocal(accountId?: string): void {
    if (accountId === undefined) {
      this.known.clear();
      this.counts.clear();
      return;
    }
    for (const key of this.known.keys()) if (key.startsWith(`${accountId}\n`)) this.known.delete(key);
    this.counts.delete(accountId);
  }

  private remember(localKey: string, now: number): void {
    if (this.known.size >= this.localMaxAgents) {
      const oldest = this.known.keys().next();
      if (!oldest.done) this.known.delete(oldest.value);
    }
    this.known.set(localKey, now);
  }

  private keys(accountId: string) {
    const base = `${this.prefix}agents:${accountId}`;
    return { set: base, first: `${base}:first`, last: `${base}:last`, archived: `${base}:archived` };
  }
}
