export { gcraStep, LocalGcra, type GcraDecision, type GcraLimits } from './gcra';
export { gcraAllow } from './redis-gcra';
export { AddressLimiter, addressBlock, defaultAddressLimits } from './addresses';
export {
  RateLimiter,
  RateLimitUnavailableError,
  scaleLimits,
  type RateLimitDecision,
  type RateLimiterOptions,
} from './limiter';
// WARDEN_RATE_SCALE is read by the config loader; offered here too, beside the limits it scales.
export { rateScaleFromEnv } from '../config';
export {
  rateLimitHeaders,
  rateLimitHeader,
  rateLimitPolicyHeader,
  retryAfterHeader,
  rateLimitWindowSeconds,
} from './headers';
