import type { Authenticator, Logger } from '@explorer/core';
import { createKeyAuthenticator } from '@explorer/core';
import { findApiKey, type Sql, touchApiKey } from '@explorer/db';
import type { ServerConfig } from './config/index.js';
import { connectRateLimitRedis, createRateLimiter, type ServerRateLimiter } from './rate-limit/index.js';

/** API-key verification and rate limiting, as the API and the app take them. */
export interface Access {
  authenticate: Authenticator;
  /** Null when RATE_LIMIT_ENABLED is false. */
  rateLimiter: ServerRateLimiter | null;
  close(): Promise<void>;
}

type AccessConfig = Pick<
  ServerConfig,
  | 'rateLimitEnabled'
  | 'rateLimitWindowSeconds'
  | 'rateLimitAnon'
  | 'rateLimitKey'
  | 'rateLimitTiers'
  | 'redisCommandTimeoutMs'
  | 'redisUrl'
  | 'rateLimitPrefix'
  | 'apiKeyCacheSeconds'
>;

/**
 * Builds key verification over the `api_keys` table and the rate limiter (Redis when REDIS_URL is set).
 * Startup waits up to 2 s for Redis but never fails on it: the in-memory fallback counts until it answers.
 * @example const access = await createAccess(config, sql, log)
 */
export async function createAccess(config: AccessConfig, sql: Sql, log: Logger): Promise<Access> {
  const authenticate = createKeyAuthenticator({
    lookup: async (id) => {
      const key = await findApiKey(sql, id);
      return key && { ...key, revoked: key.revokedAt !== null };
    },
    touch: (id) => touchApiKey(sql, id),
    cacheMs: config.apiKeyCacheSeconds * 1000,
  });
  if (!config.rateLimitEnabled) return { authenticate, rateLimiter: null, close: async () => {} };
  const redis = config.redisUrl
    ? connectRateLimitRedis(config.redisUrl, log, { commandTimeoutMs: config.redisCommandTimeoutMs })
    : null;
  // A Redis that is down at startup is an outage like any other: the limiter logs it on first use.
  if (redis) await redis.ready(2_000);
  const rateLimiter = createRateLimiter({
    policy: {
      windowSeconds: config.rateLimitWindowSeconds,
      anonymous: config.rateLimitAnon,
      key: config.rateLimitKey,
      tiers: config.rateLimitTiers,
    },
    redis,
    keyPrefix: config.rateLimitPrefix,
    log,
  });
  return { authenticate, rateLimiter, close: async () => redis?.close() };
}
