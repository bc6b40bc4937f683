import type { Redis } from 'ioredis';
import { KeyStore, PostgresKeys } from '@warden/shared/keys/index';
import type { PostgresPool } from '@warden/shared/postgres/client';

export interface KeyStoreDeps {
  pool: PostgresPool;
  redis: Redis;
  redisPrefix: string;
}

/**
 * The KeyStore every API change to projects and keys goes through (PostgreSQL first, then the Redis
 * cache and the change channel), with its audit rows recorded against `actor`.
 */
export const keyStoreFor = (deps: KeyStoreDeps, actor: string): KeyStore =>
  new KeyStore({ redis: deps.redis, prefix: deps.redisPrefix, source: new PostgresKeys(deps.pool, actor) });
