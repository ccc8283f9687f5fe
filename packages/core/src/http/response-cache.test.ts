import { describe, expect, it } from 'vitest';
import { type RenderedBody, ResponseCache } from './response-cache.js';

const body = (text: string): RenderedBody => ({ text, etag: `W/"${text.length}"`, immutable: false });
const settle = () => new Promise((r) => setTimeout(r, 0));

/** A load that settles when the test says so. */
function deferred() {
  let resolve!: (b: RenderedBody) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<RenderedBody>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { load: () => promise, resolve, reject };
}

describe('ResponseCache', () => {
  it('shares one load per key, in flight and done, until the entry is ttl old', async () => {
    const cache = new ResponseCache(1 << 20, 1_000);
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const load = async () => {
      loads++;
      await gate;
      return body('"a":1');
    };
    const first = cache.load('k', 0, load);
    const inFlight = cache.get('k', 10);
    expect(inFlight).toBe(first);
    release();
    expect((await first).text).toBe('"a":1');
    await settle();
    expect(await cache.get('k', 999)).toEqual(body('"a":1'));
    expect(cache.get('k', 1_000)).toBeUndefined();
    // A request that started before an entry was made still shares it; a clock that jumped back further
    // than the ttl does not.
    cache.load('k', 2_000, load);
    expect(cache.get('k', 1_500)).toBeDefined();
    expect(cache.get('k', 900)).toBeUndefined();
    expect(loads).toBe(2);
  });

  it('never keeps a failure, and a failure does not evict a newer entry', async () => {
    const cache = new ResponseCache(1 << 20, 1_000);
    const failed = deferred();
    const failing = cache.load('k', 0, failed.load);
    failing.catch(() => {});
    failed.reject(new Error('boom'));
    await expect(failing).rejects.toThrow('boom');
    await settle();
    expect(cache.get('k', 1)).toBeUndefined();
    expect(cache.size).toBe(0);

    const late = deferred();
    const old = cache.load('k', 0, late.load);
    old.catch(() => {});
    const newer = cache.load('k', 1, async () => body('"b":2'));
    await newer;
    late.reject(new Error('late'));
    await settle();
    expect(await cache.get('k', 2)).toEqual(body('"b":2'));
  });

  it('holds to its byte budget, least recently used out first, and serves without keeping a body too large', async () => {
    // Each entry: 200 characters of text, a 2-character key, a 7-character ETag and 256 of bookkeeping.
    const text = 'x'.repeat(200);
    const cache = new ResponseCache(4_000, 60_000);
    for (let i = 0; i < 10; i++) await cache.load(`k${i}`, 0, async () => body(text));
    await settle();
    expect(cache.size).toBe(8);
    expect(cache.bytes).toBe(8 * 465);
    expect(cache.get('k0', 1)).toBeUndefined();
    expect(cache.get('k1', 1)).toBeUndefined();
    // Touching k2 keeps it when the next entry pushes the least recently used (k3) out.
    expect(cache.get('k2', 1)).toBeDefined();
    await cache.load('kA', 1, async () => body(text));
    await settle();
    expect(cache.get('k2', 2)).toBeDefined();
    expect(cache.get('k3', 2)).toBeUndefined();
    expect(cache.bytes).toBe(8 * 465);

    const huge = await cache.load('huge', 2, async () => body('y'.repeat(600)));
    expect(huge.text).toHaveLength(600);
    await settle();
    expect(cache.get('huge', 3)).toBeUndefined();
    expect(cache.bytes).toBe(8 * 465);
  });

  it('keeps an entry made after a slow load started when that load settles', async () => {
    const cache = new ResponseCache(1 << 20, 1_000);
    const pending = deferred();
    const slow = cache.load('slow', 0, pending.load);
    await cache.load('x', 500, async () => body('"x":1'));
    cache.get('slow', 600);
    pending.resolve(body('"s":1'));
    await slow;
    await settle();
    expect(cache.get('x', 700)).toBeDefined();
  });

  it('drops expired entries as new ones come in, whatever the budget', async () => {
    const cache = new ResponseCache(1 << 20, 100);
    for (let i = 0; i < 50; i++) await cache.load(`old${i}`, 0, async () => body('"a":1'));
    await settle();
    expect(cache.size).toBe(50);
    await cache.load('new', 500, async () => body('"a":1'));
    await settle();
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBeGreaterThan(0);
  });

  it('keeps nothing when its budget or ttl is zero', async () => {
    for (const cache of [new ResponseCache(0, 1_000), new ResponseCache(1 << 20, 0)]) {
      expect(cache.enabled).toBe(false);
      await cache.load('k', 0, async () => body('"a":1'));
      await settle();
      expect(cache.get('k', 0)).toBeUndefined();
      expect(cache.size).toBe(0);
    }
  });
});
