import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { requestFingerprint, validateIdempotencyKey } from '@warden/shared/idempotency/index';
import { ApiError } from '../errors';
import type { Guards, StoredAnswer } from '../guards';

declare module 'fastify' {
  interface FastifyReply {
    /**
     * Sends the answer of `handle`, run at most once per Idempotency-Key: a retry within 24 h gets
     * the stored first answer (with `idempotent-replayed: true`) and stores nothing new.
     */
    idempotent(handle: () => Promise<StoredAnswer>): Promise<FastifyReply>;
  }
}

export interface IdempotencyOptions {
  guards: Guards;
}

/**
 * The Idempotency-Key protocol: claim the key for this request's fingerprint, then replay a stored
 * answer, refuse a key in use or reused with another body (409), or run the handler and store its
 * answer (or abandon the claim when it throws). Without the header the handler just runs.
 */
export const idempotencyPlugin = fp<IdempotencyOptions>(
  async (app, { guards }) => {
    app.decorateReply('idempotent', async function (this: FastifyReply, handle: () => Promise<StoredAnswer>) {
      const req = this.request;
      const header = req.headers['idempotency-key'];
      const key = typeof header === 'string' ? header.trim() : undefined;
      if (key === undefined) return send(this, await handle());
      try {
        validateIdempotencyKey(key);
      } catch (err) {
        throw new ApiError('INVALID_REQUEST', (err as Error).message, {
          field: 'Idempotency-Key',
          expected: '1-255 printable ASCII characters',
          received: `${key.length} characters`,
        });
      }
      const caller = req.caller;
      const fingerprint = requestFingerprint(`${req.url}\u0000${JSON.stringify(req.body)}`);
      const claim = await guards.claimIdempotency(caller, key, fingerprint);
      if (claim.state === 'replay') return send(this.header('idempotent-replayed', 'true'), claim.answer);
      if (claim.state === 'in_progress') {
        throw new ApiError(
          'IDEMPOTENCY_CONFLICT',
          'A request with this Idempotency-Key is still being processed; retry shortly.',
          undefined,
          { 'retry-after': '1' },
        );
      }
      if (claim.state === 'mismatch') {
        throw new ApiError(
          'IDEMPOTENCY_CONFLICT',
          'This Idempotency-Key was already used with a different request body; use a new key.',
        );
      }
      let answer: StoredAnswer;
      try {
        answer = await handle();
      } catch (err) {
        await guards.abandonIdempotency(caller, key, claim.token).catch(() => undefined);
        throw err;
      }
      // The records are stored: whatever happens to the bookkeeping, the client gets this answer.
      await guards
        .completeIdempotency(caller, key, claim.token, answer, fingerprint)
        .catch((err: unknown) => req.log.error({ err, reqId: req.id }, 'idempotent answer not stored'));
      return send(this, answer);
    });
  },
  { name: 'warden-idempotency', dependencies: ['warden-auth'], decorators: { request: ['caller'] } },
);

function send(reply: FastifyReply, answer: StoredAnswer): FastifyReply {
  if (answer.headers) reply.headers(answer.headers);
  return reply.code(answer.status).send(answer.body);
}
