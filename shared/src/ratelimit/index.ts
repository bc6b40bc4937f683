export { gcraStep, LocalGcra, type GcraDecision, type GcraLimits } from './gcra';
export { gcraAllow } from './redis-gcra';
export {
  RateLimiter,
  rateScaleFromEnv,
  scaleLimits,
  type RateLimitDecision,
  type RateLimiterOptions,
} from './limiter';
export {
  rateLimitHeaders,
  rateLimitHeader,
  rateLimitPolicyHeader,
  retryAfterHeader,
  rateLimitWindowSeconds,
} from './headers';
