import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { connectRedis as connectRateLimitRedis, type RedisLink as RateLimitRedis } from '../redis.js';
import { captureLog } from '../test-support/log-capture.js';
import { startTcpProxy, tcpReachable } from '../test-support/tcp-proxy.js';
import { createRateLimiter } from './limiter.js';

const policy = { windowSeconds: 60, anonymous: 3, key: 5, tiers: { pro: 7 } };
const anon = { type: 'anonymous' } as const;
const key = (tier: string, keyId = 'abcdefghij') => ({ type: 'key', keyId, name: 'n', tier }) as const;
const DOWN = 'rate-limit store unavailable; counting in process memory until it is back';
const BACK = 'rate-limit store is back; buckets are shared again';

describe('createRateLimiter (memory)', () => {
  it('counts per bucket and limit, with Unix-second resets', async () => {
    const now = 1_700_000_000_000;
    const limiter = createRateLimiter({ policy, clock: () => now });
    expect(limiter.store).toBe('memory');
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await limiter.consume(anon, '203.0.113.1'));
    expect(seen.map((s) => [s.allowed, s.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(seen[0]).toMatchObject({
      bucket: 'anon:203.0.113.1',
      limit: 3,
      windowSeconds: 60,
      reset: 1_700_000_060,
    });
    // Another address, a /64 neighbour, keys by tier: separate buckets.
    expect(await limiter.consume(anon, '203.0.113.2')).toMatchObject({ allowed: true, remaining: 2 });
    await limiter.consume(anon, '2001:db8::1');
    expect(await limiter.consume(anon, '2001:db8::ffff')).toMatchObject({ remaining: 1 });
    expect(await limiter.consume(key('default'), '203.0.113.1')).toMatchObject({
      allowed: true,
      bucket: 'key:abcdefghij',
      limit: 5,
      remaining: 4,
    });
    expect(await limiter.consume(key('pro', 'pppppppppp'), null)).toMatchObject({ limit: 7, remaining: 6 });
  });
});

describe('createRateLimiter (Redis unreachable)', () => {
  it('falls back to memory at once, logs the outage once, and never throws', async () => {
    const cap = captureLog('info');
    // Port 1 on loopback: nothing listens there, so connections are refused. The command timeout is far
    // above the bound below, so a fast answer can only come from the fallback, not from timing out.
    const redis = connectRateLimitRedis('redis://127.0.0.1:1', cap.log, { commandTimeoutMs: 10_000 });
    try {
      const limiter = createRateLimiter({ policy, redis, keyPrefix: `t:${randomUUID()}`, log: cap.log });
      const started = performance.now();
      const results = await Promise.all(
        Array.from({ length: 5 }, () => limiter.consume(anon, '198.51.100.1')),
      );
      expect(performance.now() - started).toBeLessThan(2_500);
      expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
      expect(limiter.degraded).toBe(true);
      expect(cap.messages(DOWN)).toHaveLength(1);
      expect(cap.messages(DOWN)[0]!.level).toBe('warn');
    } finally {
      await redis.close();
    }
  });
});

const redisUp = await tcpReachable('127.0.0.1', 6379);
if (!redisUp)
  console.log('[limiter.test] Redis at 127.0.0.1:6379 does not answer: outage/recovery test skipped');

describe.skipIf(!redisUp)(
  'createRateLimiter (Redis outage and recovery, needs Redis at 127.0.0.1:6379)',
  () => {
    const opened: RateLimitRedis[] = [];
    afterAll(async () => {
      for (const r of opened) await r.close();
    });

    it('shares counts while Redis answers, falls back during an outage, and shares again after', async () => {
      const cap = captureLog('info');
      const proxy = await startTcpProxy({ host: '127.0.0.1', port: 6379 });
      const redis = connectRateLimitRedis(`redis://127.0.0.1:${proxy.port}`, cap.log);
      opened.push(redis);
      expect(await redis.ready(2_000)).toBe(true);
      const big = { ...policy, anonymous: 1000 };
      const prefix = `explorer-test:${randomUUID()}`;
      const limiter = createRateLimiter({ policy: big, redis, keyPrefix: prefix, log: cap.log });
      expect((await limiter.consume(anon, '192.0.2.1')).remaining).toBe(999);
      await proxy.stop();
      for (let i = 0; i < 20; i++) {
        const r = await limiter.consume(anon, '192.0.2.1');
        expect(r.allowed).toBe(true);
      }
      expect(cap.messages(DOWN)).toHaveLength(1);
      await proxy.start();
      expect(await redis.ready(5_000)).toBe(true);
      // Redis still holds the one request counted before the outage.
      expect((await limiter.consume(anon, '192.0.2.1')).remaining).toBe(998);
      expect(cap.messages(BACK)).toHaveLength(1);
      expect(limiter.degraded).toBe(false);
      await proxy.stop();
    });
  },
);
