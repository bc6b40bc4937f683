/**
 * Plans and their limits. Defaults follow the contract's table; enterprise has no fixed numbers, so
 * its defaults are a starting point that each enterprise account overrides. `starter` is the
 * dashboard-only plan: its keys authenticate to "no API access" (401).
 */

export const TIERS = ['starter', 'free', 'professional', 'business', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export interface TierLimits {
  /** Sustained requests per minute (GCRA emission rate). */
  ratePerMinute: number;
  /** Requests that may arrive at once on a rested account (GCRA burst). */
  burst: number;
  /** Distinct agentIds the account may report. */
  agentLimit: number;
}

export interface TierPlan {
  apiAccess: boolean;
  limits: TierLimits;
}

export const TIER_PLANS: Readonly<Record<Tier, Readonly<TierPlan>>> = {
  starter: { apiAccess: false, limits: { ratePerMinute: 0, burst: 0, agentLimit: 0 } },
  free: { apiAccess: true, limits: { ratePerMinute: 100, burst: 200, agentLimit: 3 } },
  professional: { apiAccess: true, limits: { ratePerMinute: 1_000, burst: 2_000, agentLimit: 25 } },
  business: { apiAccess: true, limits: { ratePerMinute: 5_000, burst: 10_000, agentLimit: 100 } },
  enterprise: { apiAccess: true, limits: { ratePerMinute: 20_000, burst: 40_000, agentLimit: 1_000 } },
};

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}

export function parseTier(value: string): Tier {
  const tier = value.trim().toLowerCase();
  if (!isTier(tier)) {
    throw new RangeError(`Unknown tier "${value}". Use one of: ${TIERS.join(', ')}.`);
  }
  return tier;
}

export function hasApiAccess(tier: Tier): boolean {
  return TIER_PLANS[tier].apiAccess;
}

/** The tier's defaults with the account's own overrides on top (any override must be a positive number). */
export function resolveLimits(tier: Tier, overrides?: Partial<TierLimits>): TierLimits {
  const limits = { ...TIER_PLANS[tier].limits };
  for (const name of ['ratePerMinute', 'burst', 'agentLimit'] as const) {
    const value = overrides?.[name];
    if (value === undefined) continue;
    if (!Number.isFinite(value) || value <= 0) {
      throw new RangeError(`Limit override ${name}=${value} must be a positive number.`);
    }
    limits[name] = value;
  }
  return limits;
}
