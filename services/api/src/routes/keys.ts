import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Redis } from 'ioredis';
import { ApiError } from '@warden/shared/http/errors';
import {
  KeyStore,
  parseGracePeriod,
  PostgresKeys,
  usageDay,
  type KeyListing as StoredListing,
} from '@warden/shared/keys/index';
import type { PostgresPool } from '@warden/shared/postgres/client';
import { actorOf, type Caller } from '../caller';
import {
  CreatedKey,
  CreateKeyBody,
  errorResponses,
  KeyListing,
  KeyParams,
  KeyUsage,
  KeyUsageQuery,
  ProjectHeader,
  RevokedKey,
  RotateKeyBody,
  security,
} from '../schemas';
import { Type } from '@sinclair/typebox';

export interface KeysRoutesOptions {
  pool: PostgresPool;
  redis: Redis;
  redisPrefix: string;
}

const listing = (k: StoredListing) => ({
  keyId: k.keyId,
  projectId: k.accountId,
  scopes: k.scopes,
  hint: k.hint,
  status: k.status,
  createdAt: k.createdAt,
  usage: k.usage,
  ...(k.name ? { name: k.name } : {}),
  ...(k.createdBy ? { createdBy: k.createdBy } : {}),
  ...(k.expiresAt ? { expiresAt: k.expiresAt } : {}),
  ...(k.revokedAt ? { revokedAt: k.revokedAt } : {}),
  ...(k.replacedBy ? { replacedBy: k.replacedBy } : {}),
});

/** Who may hand out the `admin` scope: an admin key, or an owner or admin of the organisation. */
const mayGrantAdmin = (caller: Caller) =>
  caller.kind === 'key' ? caller.scopes.includes('admin') : ['owner', 'admin'].includes(caller.session.role);

/**
 * API keys of the request's project, through the KeyStore every other writer uses (PostgreSQL first,
 * then the Redis cache and the change channel, so ingest sees a revocation within seconds). The
 * secret is in the create and rotate answers only. A key id of another project is not found.
 */
export const keysRoutes: FastifyPluginAsyncTypebox<KeysRoutesOptions> = async (app, opts) => {
  const storeFor = (caller: Caller) =>
    new KeyStore({
      redis: opts.redis,
      prefix: opts.redisPrefix,
      source: new PostgresKeys(opts.pool, actorOf(caller)),
    });

  /** The key, when it belongs to the request's project; 404 otherwise, whoever owns it. */
  const ownKey = async (store: KeyStore, keyId: string, projectId: string) => {
    const record = await store.getKey(keyId);
    if (!record || record.accountId !== projectId)
      throw new ApiError('NOT_FOUND', `No key ${keyId} in this project.`);
    return record;
  };

  app.get(
    '/keys',
    {
      config: { permission: 'keys:read' },
      schema: {
        tags: ['keys'],
        summary: "The project's API keys with their usage (never the secret).",
        security,
        headers: ProjectHeader,
        response: {
          200: Type.Object({ keys: Type.Array(KeyListing) }),
          ...errorResponses([401, 403, 404, 500, 503]),
        },
      },
    },
    async (req) => ({ keys: (await storeFor(req.principal).listKeys(req.projectId)).map(listing) }),
  );

  app.post(
    '/keys',
    {
      config: { permission: 'keys:manage' },
      schema: {
        tags: ['keys'],
        summary: 'Creates a key in the project; the answer is the only time its secret is shown.',
        security,
        headers: ProjectHeader,
        body: CreateKeyBody,
        response: { 201: CreatedKey, ...errorResponses([400, 401, 403, 404, 415, 500, 503]) },
      },
    },
    async (req, reply) => {
      const scopes = req.body.scopes ?? ['ingest'];
      if (scopes.includes('admin') && !mayGrantAdmin(req.principal)) {
        throw new ApiError(
          'INSUFFICIENT_PERMISSIONS',
          'Only an owner, an admin or an admin key may create admin keys.',
        );
      }
      let expiresAt: number | undefined;
      if (req.body.expiresAt !== undefined) {
        expiresAt = Date.parse(req.body.expiresAt);
        if (!Number.isFinite(expiresAt) || expiresAt <= Date.now()) {
          throw new ApiError('INVALID_REQUEST', 'expiresAt must be an ISO date-time in the future.', {
            field: 'expiresAt',
            expected: 'future ISO date-time',
            received: 'string',
          });
        }
      }
      const created = await storeFor(req.principal).createKey({
        accountId: req.projectId,
        scopes,
        ...(req.body.name ? { name: req.body.name } : {}),
        ...(expiresAt !== undefined ? { expiresAt } : {}),
      });
      return reply.code(201).send({
        keyId: created.keyId,
        key: created.key,
        projectId: created.accountId,
        scopes: created.scopes,
      });
    },
  );

  app.post(
    '/keys/:keyId/rotate',
    {
      config: { permission: 'keys:manage' },
      schema: {
        tags: ['keys'],
        summary:
          'Replaces a key: the new secret is in this answer only; the old key works until the grace period ends.',
        security,
        headers: ProjectHeader,
        params: KeyParams,
        body: Type.Optional(RotateKeyBody),
        response: { 201: CreatedKey, ...errorResponses([400, 401, 403, 404, 409, 415, 500, 503]) },
      },
    },
    async (req, reply) => {
      const store = storeFor(req.principal);
      await ownKey(store, req.params.keyId, req.projectId);
      const rotated = await store.rotateKey(
        req.params.keyId,
        parseGracePeriod(req.body?.gracePeriod ?? '24h'),
      );
      return reply.code(201).send({
        keyId: rotated.keyId,
        key: rotated.key,
        projectId: rotated.accountId,
        scopes: rotated.scopes,
        replacesKeyId: rotated.replacesKeyId,
        previousKeyExpiresAt: rotated.previousKeyExpiresAt,
      });
    },
  );

  app.delete(
    '/keys/:keyId',
    {
      config: { permission: 'keys:manage' },
      schema: {
        tags: ['keys'],
        summary: 'Revokes a key on every ingest process within seconds. Revoking twice is harmless.',
        security,
        headers: ProjectHeader,
        params: KeyParams,
        response: { 200: RevokedKey, ...errorResponses([401, 403, 404, 500, 503]) },
      },
    },
    async (req) => {
      const store = storeFor(req.principal);
      await ownKey(store, req.params.keyId, req.projectId);
      const revoked = await store.revokeKey(req.params.keyId);
      return {
        keyId: revoked.keyId,
        status: 'revoked' as const,
        revokedAt: new Date(revoked.revokedAt ?? Date.now()).toISOString(),
      };
    },
  );

  app.get(
    '/keys/:keyId/usage',
    {
      config: { permission: 'keys:read' },
      schema: {
        tags: ['keys'],
        summary: 'Requests made with the key per UTC day, the last `days` days up to today.',
        security,
        headers: ProjectHeader,
        params: KeyParams,
        querystring: KeyUsageQuery,
        response: { 200: KeyUsage, ...errorResponses([400, 401, 403, 404, 500, 503]) },
      },
    },
    async (req) => {
      const days = req.query.days === undefined ? 30 : Number(req.query.days);
      if (!(days >= 1 && days <= 366)) {
        throw new ApiError('INVALID_REQUEST', 'days must be between 1 and 366.', { field: 'days' });
      }
      const store = storeFor(req.principal);
      await ownKey(store, req.params.keyId, req.projectId);
      const to = usageDay();
      const from = usageDay(Date.parse(to) - (days - 1) * 86_400_000);
      const perDay = await new PostgresKeys(opts.pool).usageByDay(req.params.keyId, from, to);
      return {
        keyId: req.params.keyId,
        from,
        to,
        total: perDay.reduce((n, d) => n + d.requests, 0),
        days: perDay,
      };
    },
  );
};
