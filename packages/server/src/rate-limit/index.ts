export { connectRedis as connectRateLimitRedis, type RedisLink as RateLimitRedis } from '../redis.js';
export { createRateLimiter, type RateLimiterOptions, type ServerRateLimiter } from './limiter.js';
