import type { GcraDecision, GcraLimits } from './gcra';

/**
 * Response headers of the IETF draft "RateLimit header fields for HTTP"
 * (draft-ietf-httpapi-ratelimit-headers), plus Retry-After on 429 (clients give it precedence).
 *
 * Reading chosen for GCRA: the quota `q` is the burst, because `r` (remaining) can climb to the
 * burst and must never exceed q; the window `w` is the time an exhausted allowance takes to refill
 * to q, burst × 60 / ratePerMinute seconds (free tier: q=200, w=120). `t` is the seconds until the
 * allowance is full again. So `r` and `t` describe the same bucket the policy announces, and a
 * client pacing at q/w gets exactly the sustained rate.
 */

const POLICY_NAME = /^[A-Za-z0-9_-]+$/;

export function rateLimitWindowSeconds(limits: GcraLimits): number {
  return Math.max(1, Math.ceil((limits.burst * 60) / limits.ratePerMinute));
}

export function rateLimitPolicyHeader(limits: GcraLimits, policy = 'default'): string {
  if (!POLICY_NAME.test(policy))
    throw new RangeError(`Policy name "${policy}" must be letters, digits, '_' or '-'.`);
  return `"${policy}";q=${Math.floor(limits.burst)};w=${rateLimitWindowSeconds(limits)}`;
}

export function rateLimitHeader(decision: GcraDecision, policy = 'default'): string {
  if (!POLICY_NAME.test(policy))
    throw new RangeError(`Policy name "${policy}" must be letters, digits, '_' or '-'.`);
  return `"${policy}";r=${Math.max(0, Math.floor(decision.remaining))};t=${Math.max(0, Math.ceil(decision.resetSeconds))}`;
}

/** Whole seconds, at least 1, so a client never retries at once into the same refusal. */
export function retryAfterHeader(decision: GcraDecision): string {
  return String(Math.max(1, Math.ceil(decision.retryAfterSeconds)));
}

/** All headers for a decision: RateLimit-Policy and RateLimit always, Retry-After when refused. */
export function rateLimitHeaders(
  decision: GcraDecision,
  limits: GcraLimits,
  policy = 'default',
): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Policy': rateLimitPolicyHeader(limits, policy),
    RateLimit: rateLimitHeader(decision, policy),
  };
  if (!decision.allowed) headers['Retry-After'] = retryAfterHeader(decision);
  return headers;
}
