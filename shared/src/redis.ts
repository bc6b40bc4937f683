import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from './logger';

/**
 * The Redis connection of a service on the request path: commands fail fast while Redis is away
 * (no offline queue, one retry), so callers fall back (cached keys, local limits) instead of
 * waiting, and a stalled Redis gives up after 1 s. Connect it with `.connect()` when the service is
 * ready to log "not reachable yet" rather than fail.
 */
export function serviceRedis(url: string, log: Logger, extra: RedisOptions = {}): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    commandTimeout: 1000,
    lazyConnect: true,
    ...extra,
  });
  redis.on('error', (err) => log.warn({ err: err.message }, 'Redis error'));
  return redis;
}
