export {
  API_KEY_LENGTH,
  API_KEY_PREFIX,
  generateApiKey,
  hashApiKey,
  hashesEqual,
  isApiKeyId,
  type NewApiKey,
  parseApiKey,
} from './api-key.js';
export {
  createKeyAuthenticator,
  type KeyAuthenticatorDeps,
  MALFORMED_KEY,
  type StoredApiKey,
  UNKNOWN_KEY,
} from './authenticator.js';
export { clientGroup } from './client-group.js';
export { ANONYMOUS, countRequest, type RateLimitCount, type RateLimiter } from './rate-limit.js';
export {
  type Bucket,
  bucketFor,
  defaultRateLimitPolicy,
  parseTierLimits,
  type RateLimitPolicy,
  resetAt,
  TIER_NAME,
  tierLimit,
} from './rate-limit-policy.js';
