export { createRateLimiter, type RateLimiterOptions, type ServerRateLimiter } from './limiter.js';
export { connectRateLimitRedis, type RateLimitRedis } from './redis.js';
