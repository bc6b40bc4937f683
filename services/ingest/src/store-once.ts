import { requestFingerprint } from '@warden/shared/idempotency/index';
import { isWardenInteractionId } from '@warden/shared/schemas/interaction-id';
import { ApiError } from './errors';
import type { Caller, Guards, IdempotencyClaim } from './guards';
import type { EncodedEnvelope, EnvelopePublisher } from './publish';
import { publishOrUnavailable } from './store';

export interface Admitted {
  envelope: EncodedEnvelope;
  /** The record as the client sent it (absent for events): its `interactionId`, if any, is the client's. */
  record?: unknown;
  /** How the client names the record's interactionId in errors, e.g. `interactions[3].interactionId`. */
  field?: string;
}

/**
 * What became of each record: stored now, stored by an earlier request (the same record under the
 * same client interactionId: answered as stored, nothing written), or refused.
 */
export type StoreOutcome = 'stored' | 'replayed' | ApiError;

/** The answer kept for a record's id: a replay is rebuilt from the record itself, so only the claim matters. */
const recordAnswer = { status: 200, body: null };

interface IdClaim {
  /** Positions of the records carrying this id in the call (more than one: a batch repeats it). */
  items: number[];
  id: string;
  fingerprint: string;
  token?: string;
}

/**
 * Stores records in Kafka, each client-supplied interactionId at most once per account: the id is an
 * idempotency key for its record (24 h, the Idempotency-Key protocol in the `record` scope). The same
 * record again under the same id is answered as stored without a second write; the same id with
 * another record — which would replace the first row and hide its findings — and any id Warden
 * assigned (recognisable, see interaction-id.ts) are refused with 409. Records without their own
 * id pay nothing for this: no fingerprint, no Redis round trip.
 */
export async function storeOnce(
  guards: Guards,
  publisher: EnvelopePublisher,
  caller: Caller,
  admitted: readonly Admitted[],
): Promise<StoreOutcome[]> {
  const outcomes: StoreOutcome[] = admitted.map(() => 'stored');
  const claims = new Map<string, IdClaim>();
  admitted.forEach((item, index) => {
    const id = (item.record as { interactionId?: unknown } | undefined)?.interactionId;
    if (typeof id !== 'string') return;
    if (isWardenInteractionId(id)) {
      outcomes[index] = conflict(
        item,
        `interactionId "${id}" was assigned by Warden to a stored interaction and cannot be sent again; omit interactionId to store a new record, or send an Idempotency-Key to retry a request safely.`,
      );
      return;
    }
    const fingerprint = requestFingerprint(JSON.stringify(item.record));
    const claim = claims.get(id);
    if (!claim) claims.set(id, { items: [index], id, fingerprint });
    else if (claim.fingerprint === fingerprint) claim.items.push(index);
    else outcomes[index] = reused(item, id);
  });

  const claimed =
    claims.size > 0 ? await claimIds(guards, caller, [...claims.values()], admitted, outcomes) : [];
  const envelopes = admitted.filter((_, i) => outcomes[i] === 'stored').map((item) => item.envelope);
  try {
    if (envelopes.length > 0) await publishOrUnavailable(publisher, envelopes);
  } catch (err) {
    await abandon(guards, caller, claimed);
    throw err;
  }
  // Stored: the claims become the ids' records. Guards log and count their own failures here.
  await Promise.all(
    claimed.map((c) =>
      guards
        .completeIdempotency(caller, c.id, c.token!, recordAnswer, c.fingerprint, 'record')
        .catch(() => undefined),
    ),
  );
  return outcomes;
}

/** Claims every id at once (one pipelined round trip) and settles the records whose id was taken. */
async function claimIds(
  guards: Guards,
  caller: Caller,
  claims: IdClaim[],
  admitted: readonly Admitted[],
  outcomes: StoreOutcome[],
): Promise<IdClaim[]> {
  const settled = await Promise.allSettled(
    claims.map((c) => guards.claimIdempotency(caller, c.id, c.fingerprint, 'record')),
  );
  const claimed = claims.filter((c, k) => {
    const result = settled[k]!;
    if (result.status === 'rejected' || result.value.state !== 'claimed') return false;
    c.token = result.value.token;
    return true;
  });
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) {
    await abandon(guards, caller, claimed);
    throw failed.reason;
  }
  claims.forEach((c, k) => {
    const claim = (settled[k] as PromiseFulfilledResult<IdempotencyClaim>).value;
    c.items.forEach((index, nth) => {
      const outcome = outcomeOf(claim, nth, admitted[index]!, c.id);
      if (outcome) outcomes[index] = outcome;
    });
  });
  return claimed;
}

/** The outcome of the `nth` record carrying an id, when not simply "store it". */
function outcomeOf(
  claim: IdempotencyClaim,
  nth: number,
  item: Admitted,
  id: string,
): StoreOutcome | undefined {
  switch (claim.state) {
    case 'claimed':
      // A batch that carries the same record twice stores it once.
      return nth > 0 ? 'replayed' : undefined;
    case 'replay':
      return 'replayed';
    case 'mismatch':
      return reused(item, id);
    case 'in_progress':
      return conflict(item, `A record with interactionId "${id}" is being stored right now; retry shortly.`, {
        'retry-after': '1',
      });
  }
}

const abandon = (guards: Guards, caller: Caller, claimed: IdClaim[]) =>
  Promise.all(
    claimed.map((c) => guards.abandonIdempotency(caller, c.id, c.token!, 'record').catch(() => undefined)),
  );

const reused = (item: Admitted, id: string) =>
  conflict(
    item,
    `interactionId "${id}" was already used for a different record in the last 24 h; send a new id, or none (Warden assigns one).`,
  );

function conflict(item: Admitted, message: string, headers?: Record<string, string>): ApiError {
  return new ApiError(
    'IDEMPOTENCY_CONFLICT',
    message,
    {
      field: item.field ?? 'interactionId',
      expected: 'an interactionId not used for another record',
      received: 'an interactionId already taken',
    },
    headers,
  );
}
