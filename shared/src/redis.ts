import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from './logger';

/**
 * How long a service waits on one Redis command: the connection's commandTimeout and the rate
 * limiter's wait on a slow Redis (shared/src/ratelimit/limiter.ts) are this one setting, so the two
 * never race to decide whether Redis is slow or gone.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 1000;

/**
 * The Redis connection of a service on the request path: commands fail fast while Redis is away
 * (no offline queue, one retry), so callers fall back (cached keys, local limits) instead of
 * waiting, and a stalled Redis gives up after REDIS_COMMAND_TIMEOUT_MS. Connect it with `.connect()` when the service is
 * ready to log "not reachable yet" rather than fail.
 */
export function serviceRedis(url: string, log: Logger, extra: RedisOptions = {}): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    lazyConnect: true,
    ...extra,
  });
  redis.on('error', (err) => log.warn({ err: err.message }, 'Redis error'));
  return redis;
}
