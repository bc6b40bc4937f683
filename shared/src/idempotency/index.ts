export {
  IdempotencyStore,
  IdempotencyKeyError,
  validateIdempotencyKey,
  requestFingerprint,
  type IdempotencyBegin,
  type IdempotentAnswer,
  type IdempotencyStoreOptions,
} from './store';
