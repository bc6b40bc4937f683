export {
  API_KEY_PREFIX,
  API_KEY_LENGTH,
  generateApiKey,
  isWellFormedKey,
  hashKey,
  keyHint,
  presentedKeyFromHeaders,
} from './format';
export {
  TIERS,
  TIER_PLANS,
  isTier,
  parseTier,
  hasApiAccess,
  resolveLimits,
  type Tier,
  type TierLimits,
} from './tiers';
export {
  KeyStore,
  KeysError,
  SCOPES,
  DEFAULT_SCOPES,
  parseScopes,
  parseGracePeriod,
  keysKeyspace,
  type Account,
  type CreateKeyInput,
  type CreatedKey,
  type RotatedKey,
  type KeyListing,
  type KeyRecord,
  type KeyStatus,
  type Scope,
  usageDay,
} from './store';
export {
  KeyAuthenticator,
  evaluateKey,
  type AuthResult,
  type AuthFailureReason,
  type KeyAuthenticatorOptions,
} from './authenticator';
export { KeyUsageRecorder, type KeyUsageRecorderOptions } from './usage';
export { PostgresKeys, type Actor, type ProjectListing } from './postgres';
