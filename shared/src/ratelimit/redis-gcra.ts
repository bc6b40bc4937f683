import type { Redis } from 'ioredis';
import { assertGcraInput, emissionIntervalMs, type GcraDecision, type GcraLimits } from './gcra';

/**
 * gcra.ts's `gcraStep` in Lua, so read-decide-write is one atomic round trip (EVALSHA via ioredis
 * `defineCommand`, which falls back to EVAL when the script is not cached). The clock is Redis's
 * TIME, so every ingest process judges by the same clock. Fractions travel as strings because Redis
 * truncates Lua numbers to integers in replies.
 */
const GCRA_LUA = `
if redis.replicate_commands then redis.replicate_commands() end
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local prepaid = tonumber(ARGV[4])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local tat = tonumber(redis.call('GET', KEYS[1]))
if not tat or tat < now then tat = now end
local before = tat - interval * prepaid
if before < now then before = now end
local allow_at = before + interval * (prepaid + cost) - tolerance
if now < allow_at then
  if prepaid > 0 then
    local ttl = math.ceil(before - now)
    if ttl > 0 then
      redis.call('SET', KEYS[1], string.format('%.3f', before), 'PX', ttl)
    else
      redis.call('DEL', KEYS[1])
    end
  end
  local remaining = math.floor((now - (before - tolerance)) / interval)
  if remaining < 0 then remaining = 0 end
  return {0, remaining, string.format('%.3f', before - now), string.format('%.3f', allow_at - now)}
end
local new_tat = tat + interval * cost
local ttl = math.ceil(new_tat - now)
if ttl > 0 then
  redis.call('SET', KEYS[1], string.format('%.3f', new_tat), 'PX', ttl)
end
local remaining = math.floor((now - (new_tat - tolerance)) / interval)
if remaining < 0 then remaining = 0 end
return {1, remaining, string.format('%.3f', new_tat - now), '0'}
`;

const COMMAND = 'wardenGcra';
type GcraCommand = (
  key: string,
  interval: string,
  tolerance: string,
  cost: number,
  prepaid: number,
) => Promise<unknown>;

function gcraCommand(redis: Redis): GcraCommand {
  const commands = redis as unknown as Record<string, GcraCommand | undefined>;
  if (typeof commands[COMMAND] !== 'function') {
    redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: GCRA_LUA });
  }
  return (commands[COMMAND] as GcraCommand).bind(redis);
}

/**
 * One GCRA decision for `key` (a full Redis key, prefix included) in one round trip; `prepaid` as in
 * gcraStep (the request's units charged before, refunded when the whole request does not fit).
 */
export async function gcraAllow(
  redis: Redis,
  key: string,
  limits: GcraLimits,
  cost = 1,
  prepaid = 0,
): Promise<GcraDecision> {
  assertGcraInput(limits, cost, prepaid);
  const interval = emissionIntervalMs(limits);
  const reply = await gcraCommand(redis)(
    key,
    String(interval),
    String(interval * limits.burst),
    cost,
    prepaid,
  );
  if (!Array.isArray(reply) || reply.length !== 4) {
    throw new Error(`Unexpected reply from the GCRA script: ${JSON.stringify(reply)}`);
  }
  const [allowed, remaining, reset, retryAfter] = reply as [number, number, string, string];
  return {
    allowed: allowed === 1,
    remaining: Number(remaining),
    resetSeconds: Number(reset) / 1000,
    retryAfterSeconds: Number(retryAfter) / 1000,
  };
}
