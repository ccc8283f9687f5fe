import type { Identity, Logger, RateLimiter, RateLimitState } from '@explorer/core';
import { bucketFor, type RateLimitPolicy, resetAt, silentLogger } from '@explorer/core';
import {
  type IRateLimiterOptions,
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { RedisLink as RateLimitRedis } from '../redis.js';

/** What the server's limiter is built from. */
export interface RateLimiterOptions {
  policy: RateLimitPolicy;
  /** Shared store; absent → counts in this process's memory. */
  redis?: RateLimitRedis | null;
  /** Prefix of every Redis key (default `explorer:rl`); give test runs their own. */
  keyPrefix?: string;
  log?: Logger;
  /** Milliseconds since the epoch (must match the API's clock for Reset and Retry-After). */
  clock?: () => number;
}

/** The API's RateLimiter plus what operators and tests look at. */
export interface ServerRateLimiter extends RateLimiter {
  readonly store: 'memory' | 'redis';
  /** True while Redis fails and the in-process fallback counts. */
  readonly degraded: boolean;
}

// Counts its uses, so the limiter can tell an outage (Redis failed, this answered) from normal work.
class FallbackLimiter extends RateLimiterMemory {
  constructor(
    opts: IRateLimiterOptions,
    private readonly onUse: () => void,
  ) {
    super(opts);
  }

  override consume(key: string | number, points?: number, options?: Record<string, unknown>) {
    this.onUse();
    return super.consume(key, points, options);
  }
}

/** The limiter's defaults (the server's `RATE_LIMIT_PREFIX` default too). */
export const RATE_LIMITER_DEFAULTS = { keyPrefix: 'explorer:rl' } as const;

/**
 * The rate limiter: one fixed-window bucket per key (limit by tier) and per anonymous client group
 * (IPv4 address, IPv6 /64). With Redis, every replica shares each bucket; when Redis fails, each process
 * counts in memory (rate-limiter-flexible's insurance limiter) and says so once per outage in the log.
 * @example const limiter = createRateLimiter({ policy, redis: connectRateLimitRedis(url, log), log })
 */
export function createRateLimiter(opts: RateLimiterOptions): ServerRateLimiter {
  const { policy } = opts;
  const log = opts.log ?? silentLogger;
  const clock = opts.clock ?? Date.now;
  const keyPrefix = opts.keyPrefix ?? RATE_LIMITER_DEFAULTS.keyPrefix;
  const redis = opts.redis ?? null;
  const limiters = new Map<number, RateLimiterAbstract>();
  let fallbackUses = 0;
  let degraded = false;
  let failedOpen = false;

  const onFallback = () => {
    fallbackUses++;
    if (degraded) return;
    degraded = true;
    log.warn(
      { store: 'redis', error: redis?.lastError() ?? redis?.client.status ?? null },
      'rate-limit store unavailable; counting in process memory until it is back',
    );
  };

  function limiterFor(points: number): RateLimiterAbstract {
    let limiter = limiters.get(points);
    if (!limiter) {
      const base = { points, duration: policy.windowSeconds, keyPrefix };
      limiter = redis
        ? new RateLimiterRedis({
            ...base,
            storeClient: redis.client,
            rejectIfRedisNotReady: true,
            insuranceLimiter: new FallbackLimiter(base, onFallback),
          })
        : new RateLimiterMemory(base);
      limiters.set(points, limiter);
    }
    return limiter;
  }

  return {
    store: redis ? 'redis' : 'memory',
    get degraded() {
      return degraded;
    },
    health: () => ({
      store: redis ? 'redis' : 'memory',
      ok: !degraded && !failedOpen,
      error: degraded
        ? `Redis unavailable (${redis?.lastError() ?? 'no answer'}); counting in process memory`
        : null,
    }),
    async consume(identity: Identity, clientAddress: string | null, points = 1) {
      const bucket = bucketFor(policy, identity, clientAddress);
      const usesBefore = fallbackUses;
      let res: RateLimiterRes;
      let allowed = true;
      try {
        res = await limiterFor(bucket.limit).consume(bucket.name, points);
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) {
          // Neither store answered: serve rather than fail every request, and say so once.
          if (!failedOpen) log.error({ err }, 'rate limiter failed; requests are not limited meanwhile');
          failedOpen = true;
          const now = clock();
          return {
            allowed: true,
            bucket: bucket.name,
            limit: bucket.limit,
            remaining: bucket.limit,
            reset: resetAt(now, policy.windowSeconds * 1000),
            windowSeconds: policy.windowSeconds,
          };
        }
        res = err;
        allowed = false;
      }
      failedOpen = false;
      if (degraded && redis && fallbackUses === usesBefore) {
        degraded = false;
        log.info({ store: 'redis' }, 'rate-limit store is back; buckets are shared again');
      }
      const state: RateLimitState & { allowed: boolean } = {
        allowed,
        bucket: bucket.name,
        limit: bucket.limit,
        remaining: Math.max(0, res.remainingPoints),
        reset: resetAt(clock(), res.msBeforeNext),
        windowSeconds: policy.windowSeconds,
      };
      return state;
    },
  };
}
