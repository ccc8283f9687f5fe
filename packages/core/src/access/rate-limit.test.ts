import { describe, expect, it } from 'vitest';
import { RateLimitedError } from '../errors.js';
import { ANONYMOUS, countRequest, type RateLimiter } from './rate-limit.js';

/** A limiter with one bucket of `limit` points, resetting at Unix second 1,000. */
function limiter(limit: number) {
  const seen: unknown[] = [];
  let used = 0;
  const l: RateLimiter = {
    consume: async (identity, address) => {
      seen.push([identity, address]);
      used++;
      return {
        allowed: used <= limit,
        bucket: 'anon:x',
        limit,
        remaining: Math.max(0, limit - used),
        reset: 1_000,
        windowSeconds: 60,
      };
    },
  };
  return { l, seen };
}

describe('countRequest', () => {
  it('takes one point and reports the bucket as X-RateLimit-* headers', async () => {
    const { l, seen } = limiter(2);
    const counted = await countRequest(l, ANONYMOUS, '1.2.3.4', 990_000);
    expect(counted).toEqual({
      state: { bucket: 'anon:x', limit: 2, remaining: 1, reset: 1_000, windowSeconds: 60 },
      headers: { 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '1000' },
      limited: null,
    });
    expect(seen).toEqual([[{ type: 'anonymous' }, '1.2.3.4']]);
  });

  it('past the limit gives the 429 with Retry-After until the reset, at least 1 s', async () => {
    const { l } = limiter(0);
    const soon = await countRequest(l, ANONYMOUS, null, 990_000);
    expect(soon.limited).toBeInstanceOf(RateLimitedError);
    expect(soon.limited?.headers).toEqual({ 'retry-after': '10' });
    expect(soon.headers['x-ratelimit-remaining']).toBe('0');
    const late = await countRequest(l, ANONYMOUS, null, 1_000_500);
    expect(late.limited?.retryAfter).toBe(1);
  });
});
