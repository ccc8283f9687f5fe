import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { connectRedis as connectRateLimitRedis, type RedisLink as RateLimitRedis } from '../redis.js';
import { captureLog } from '../test-support/log-capture.js';
import { serveExplorer } from '../test-support/serve-app.js';
import { tcpReachable } from '../test-support/tcp-proxy.js';
import { createRateLimiter } from './limiter.js';

const redisUp = await tcpReachable('127.0.0.1', 6379);
if (!redisUp) console.log('[shared-redis.test] Redis at 127.0.0.1:6379 does not answer: test skipped');

describe.skipIf(!redisUp)('two servers sharing Redis (needs Redis at 127.0.0.1:6379)', () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('enforce one anonymous bucket together: 20 of 60 concurrent requests pass, 40 get 429', async () => {
    const { log } = captureLog('info');
    const keyPrefix = `explorer-test:${randomUUID()}`;
    const policy = { windowSeconds: 60, anonymous: 20, key: 100, tiers: {} };
    const servers: { url: string }[] = [];
    for (let i = 0; i < 2; i++) {
      // Separate connections and limiters, as two processes would have.
      // A generous timeout: on a loaded machine the in-memory fallback must not count instead of Redis.
      const redis: RateLimitRedis = connectRateLimitRedis('redis://127.0.0.1:6379', log, {
        commandTimeoutMs: 10_000,
      });
      closers.push(() => redis.close());
      expect(await redis.ready(10_000)).toBe(true);
      const rateLimiter = createRateLimiter({ policy, redis, keyPrefix, log });
      const s = await serveExplorer({ log, rateLimiter });
      closers.push(() => s.close());
      servers.push(s);
    }
    const responses = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const res = await fetch(`${servers[i % 2]!.url}/v1/api/me`);
        return { status: res.status, headers: res.headers, body: (await res.json()) as any, server: i % 2 };
      }),
    );
    const ok = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    expect(ok).toHaveLength(20);
    expect(limited).toHaveLength(40);
    // Each server got 30 requests against a shared limit of 20, so both must have refused some
    // (which server wins more of the 20 is the scheduler's choice, so the passes are not split-checked).
    expect(new Set(limited.map((r) => r.server)).size).toBe(2);
    // Each successful request saw a distinct remaining count: 19 down to 0, once each.
    const remaining = ok.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => b - a);
    expect(remaining).toEqual(Array.from({ length: 20 }, (_, i) => 19 - i));
    for (const r of ok) {
      expect(r.headers.get('x-ratelimit-limit')).toBe('20');
      expect(r.body.bucket).toMatchObject({ name: 'anon:127.0.0.1', limit: 20, windowSeconds: 60 });
      expect(r.body.bucket.remaining).toBe(Number(r.headers.get('x-ratelimit-remaining')));
    }
    const nowSec = Math.floor(Date.now() / 1000);
    const resets = new Set<number>();
    for (const r of limited) {
      expect(r.body).toMatchObject({
        ok: false,
        error: expect.stringMatching(/rate limit/),
        meta: expect.any(Object),
      });
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
      const retryAfter = Number(r.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(61);
      resets.add(Number(r.headers.get('x-ratelimit-reset')));
    }
    // Both processes derive Reset from the same Redis TTL: within a couple of seconds of each other
    // (rounding plus scheduling delay on a loaded machine).
    expect(Math.max(...resets) - Math.min(...resets)).toBeLessThanOrEqual(2);
    expect(Math.min(...resets)).toBeGreaterThan(nowSec);
  });
});
