import { describe, expect, it } from 'vitest';
import { evaluateKey } from './authenticator';
import type { Account, KeyRecord } from './store';
import { resolveLimits } from './tiers';

const record: KeyRecord = {
  keyId: 'key_aaaaaaaaaaaaaaaaaaaa',
  accountId: 'acme',
  hash: 'h',
  scopes: ['ingest'],
  createdAt: 0,
  hint: 'wdn_live_…abcd',
  version: 1,
};
const account: Account = { accountId: 'acme', tier: 'professional', createdAt: 0, version: 1 };

describe('evaluateKey', () => {
  it('accepts an active key with the tier limits', () => {
    expect(evaluateKey(record, account, 1000)).toMatchObject({
      ok: true,
      accountId: 'acme',
      tier: 'professional',
      scopes: ['ingest'],
      limits: { ratePerMinute: 1000, burst: 2000, agentLimit: 25 },
    });
  });

  it('names each failure', () => {
    expect(evaluateKey({ ...record, revokedAt: 5 }, account, 10)).toMatchObject({
      ok: false,
      reason: 'revoked',
    });
    expect(evaluateKey({ ...record, expiresAt: 10 }, account, 10)).toMatchObject({
      ok: false,
      reason: 'expired',
    });
    expect(evaluateKey({ ...record, expiresAt: 11 }, account, 10)).toMatchObject({ ok: true });
    expect(evaluateKey(record, { ...account, tier: 'starter' }, 10)).toMatchObject({
      ok: false,
      reason: 'no_api_access',
      message: expect.stringContaining('no API access'),
    });
    expect(evaluateKey(record, undefined, 10)).toMatchObject({ ok: false, reason: 'unknown' });
  });

  it('applies per-account overrides', () => {
    const enterprise = { ...account, tier: 'enterprise' as const, limits: { ratePerMinute: 50_000 } };
    expect(evaluateKey(record, enterprise)).toMatchObject({
      limits: { ratePerMinute: 50_000, burst: 40_000 },
    });
    expect(() => resolveLimits('free', { burst: -1 })).toThrow(/positive/);
  });
});
