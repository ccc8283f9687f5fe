import { describe, expect, it } from 'vitest';
import { SharedCache } from './shared-cache.js';

const settle = () => new Promise((r) => setTimeout(r, 0));

/** A load that settles when the test says so. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { load: () => promise, resolve, reject };
}

describe('SharedCache', () => {
  it('shares one load per key, in flight and settled, until the entry is ttl old', async () => {
    const cache = new SharedCache<string>({ maxEntries: 10, ttlMs: 1_000 });
    let loads = 0;
    const pending = deferred<string>();
    const load = () => {
      loads++;
      return pending.load();
    };
    const first = cache.load('k', 0, load);
    const second = cache.load('k', 10, load);
    expect(first.shared).toBe(false);
    expect(second).toEqual({ value: first.value, shared: true });
    pending.resolve('a');
    expect(cache.peek('k', 10)).toBeUndefined();
    expect(await second.value).toBe('a');
    expect(await cache.get('k', 999)).toBe('a');
    expect(cache.peek('k', 999)).toEqual({ value: 'a' });
    expect(cache.peek('k', 1_000)).toBeUndefined();
    expect(cache.get('k', 1_000)).toBeUndefined();
    // A request that started before an entry was made still shares it; a clock that jumped back further
    // than the ttl does not.
    await cache.load('k', 2_000, async () => 'b').value;
    expect(cache.get('k', 1_500)).toBeDefined();
    expect(cache.get('k', 900)).toBeUndefined();
    expect(loads).toBe(1);
  });

  it('never keeps a failure or a refused value, but shares them while in flight', async () => {
    const cache = new SharedCache<string>({ maxEntries: 10, ttlMs: 1_000 });
    const failed = deferred<string>();
    const failing = cache.load('k', 0, failed.load);
    const alsoFailing = cache.load('k', 0, async () => 'never');
    expect(alsoFailing.shared).toBe(true);
    failed.reject(new Error('boom'));
    await expect(alsoFailing.value).rejects.toThrow('boom');
    await expect(failing.value).rejects.toThrow('boom');
    expect(cache.get('k', 1)).toBeUndefined();

    const keep = (v: string) => v !== 'bad';
    expect(await cache.load('k', 1, async () => 'bad', { keep }).value).toBe('bad');
    expect(cache.get('k', 2)).toBeUndefined();
    expect(await cache.load('k', 2, async () => 'good', { keep }).value).toBe('good');
    expect(await cache.get('k', 3)).toBe('good');
  });

  it('lets one entry have its own ttl', async () => {
    const cache = new SharedCache<string>({ maxEntries: 10, ttlMs: 250 });
    await cache.load('short', 0, async () => 's').value;
    await cache.load('long', 0, async () => 'l', { ttlMs: 2_000 }).value;
    expect(cache.get('short', 300)).toBeUndefined();
    expect(await cache.get('long', 1_999)).toBe('l');
  });

  it('evicts the least recently used beyond its entry bound', async () => {
    const cache = new SharedCache<number>({ maxEntries: 3 });
    for (const [k, v] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const)
      cache.set(k, v, 0);
    expect(await cache.get('a', 0)).toBe(1);
    cache.set('d', 4, 0);
    expect(cache.get('b', 0)).toBeUndefined();
    expect(cache.size).toBe(3);
    // No ttl: kept whatever the clock says.
    expect(await cache.get('a', 1e12)).toBe(1);
  });

  it('holds to its byte budget, least recently used out first, and serves without keeping a value too large', async () => {
    const text = 'x'.repeat(200);
    // 465 bytes an entry: 8 fit in 4,000, and one over an eighth of it (500) is not kept.
    const cache = new SharedCache<string>({ maxBytes: 4_000, sizeOf: () => 465 });
    for (let i = 0; i < 10; i++) await cache.load(`k${i}`, 0, async () => text).value;
    expect(cache.size).toBe(8);
    expect(cache.held).toBe(8 * 465);
    expect(cache.get('k0', 1)).toBeUndefined();
    expect(cache.get('k1', 1)).toBeUndefined();
    // Touching k2 keeps it when the next entry pushes the least recently used (k3) out.
    expect(cache.get('k2', 1)).toBeDefined();
    await cache.load('kA', 1, async () => text).value;
    expect(cache.get('k2', 2)).toBeDefined();
    expect(cache.get('k3', 2)).toBeUndefined();

    const big = new SharedCache<string>({ maxBytes: 4_000, sizeOf: (v) => v.length });
    expect(await big.load('huge', 2, async () => 'y'.repeat(600)).value).toHaveLength(600);
    expect(big.get('huge', 3)).toBeUndefined();
    expect(big.held).toBe(0);
  });

  it('keeps an entry made after a slow load started when that load settles', async () => {
    const cache = new SharedCache<string>({ maxEntries: 10, ttlMs: 1_000 });
    const slow = deferred<string>();
    const pending = cache.load('slow', 0, slow.load);
    await cache.load('x', 500, async () => 'x').value;
    slow.resolve('s');
    await pending.value;
    await settle();
    expect(cache.get('x', 700)).toBeDefined();
    expect(cache.get('slow', 700)).toBeDefined();
  });

  it('drops expired entries as new loads start, whatever the bound', async () => {
    const cache = new SharedCache<string>({ maxEntries: 1_000, ttlMs: 100 });
    for (let i = 0; i < 50; i++) await cache.load(`old${i}`, 0, async () => 'a').value;
    expect(cache.size).toBe(50);
    await cache.load('new', 500, async () => 'a').value;
    expect(cache.size).toBe(1);
  });

  it('keeps and shares nothing when a bound is zero', async () => {
    for (const cache of [
      new SharedCache<string>({ maxEntries: 0 }),
      new SharedCache<string>({ maxBytes: 0, sizeOf: () => 1 }),
    ]) {
      expect(cache.enabled).toBe(false);
      let loads = 0;
      const load = async () => String(++loads);
      const [a, b] = [cache.load('k', 0, load), cache.load('k', 0, load)];
      expect([await a.value, await b.value, b.shared]).toEqual(['1', '2', false]);
      cache.set('k', 'v', 0);
      expect(cache.get('k', 0)).toBeUndefined();
      expect(cache.size).toBe(0);
    }
  });
});
