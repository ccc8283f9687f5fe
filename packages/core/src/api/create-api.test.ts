import { describe, expect, it } from 'vitest';
import { ApiError, INTERNAL_ERROR_MESSAGE } from '../errors.js';
import { encodeCursor } from '../pagination/cursor.js';
import { v1Routes } from '../routes/index.js';
import type { Store } from '../store.js';
import { storeWith } from '../test-support/stores.js';
import { createExplorerApi } from './create-api.js';
import { refuseRequest } from './refusals.js';

/** A store whose every method fails the given way. */
function failingStore(make: () => unknown): Store {
  return new Proxy({} as Store, {
    get: (_t, prop) =>
      prop === 'tip'
        ? async () => ({ height: 10, hash: 'ab'.repeat(32), txHeight: 10, time: 1 })
        : async () => {
            throw make();
          },
  });
}

const dbDown = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
    name: 'DatabaseError',
    unavailable: true,
  });
const dbTimeout = () =>
  Object.assign(new Error('canceling statement due to statement timeout'), {
    name: 'DatabaseError',
    timedOut: true,
  });
const bug = () =>
  new TypeError("Cannot read properties of undefined (reading 'x') at secret.ts:12 SELECT * FROM keys");

describe('error mapping', () => {
  it.each([
    ['database down', dbDown, 503, /database is unavailable/],
    ['statement timeout', dbTimeout, 503, /took too long/],
    ['unexpected bug', bug, 500, new RegExp(INTERNAL_ERROR_MESSAGE.replace(/[()]/g, '\\$&'))],
  ] as const)('%s → %i envelope with a safe message', async (_name, make, status, message) => {
    const logged: unknown[] = [];
    const api = createExplorerApi({
      store: failingStore(make),
      routes: v1Routes,
      onError: (e, info) => logged.push([e, info]),
    });
    const res = await api.handle(new Request('http://x/v1/blocks/5'));
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body).toMatchObject({
      ok: false,
      error: expect.stringMatching(message),
      meta: { indexedTip: 10 },
    });
    expect(JSON.stringify(body)).not.toMatch(/secret|SELECT|ECONNREFUSED|stack/);
    if (status === 503) expect(res.headers.get('retry-after')).toBe('5');
    expect(logged).toHaveLength(1);
    expect((logged[0] as [unknown, { requestId: string }])[1].requestId).toBe(body.meta.requestId);
  });

  it('reports a degraded database in /v1/status instead of failing', async () => {
    const api = createExplorerApi({ store: failingStore(dbDown), routes: v1Routes });
    const res = await api.handle(new Request('http://x/v1/status'));
    expect(res.status).toBe(200);
    const { status } = await res.json();
    expect(status.healthy).toBe(false);
    expect(status.degraded).toEqual(['database', 'node', 'indexer']);
    expect(status.database).toMatchObject({
      ok: false,
      error: expect.stringMatching(/database unreachable/),
    });
  });

  it('refuses a key when no key store is configured, and two different keys', async () => {
    const api = createExplorerApi({ store: failingStore(dbDown), routes: v1Routes });
    const a = await api.handle(new Request('http://x/v1/api/me', { headers: { 'x-api-key': 'k1' } }));
    expect(a.status).toBe(401);
    const b = await api.handle(
      new Request('http://x/v1/api/me', { headers: { 'x-api-key': 'k1', authorization: 'Bearer k2' } }),
    );
    expect(b.status).toBe(400);
    expect((await b.json()).error).toMatch(/two different API keys/);
    const anon = await api.handle(new Request('http://x/v1/api/me'));
    expect((await anon.json()).identity).toEqual({ type: 'anonymous' });
  });
});

describe('/v1/status names every part that is down', () => {
  it('reports a Redis outage of the rate limiter and a failing market provider', async () => {
    const healthy: Record<string, unknown> = {
      tip: { height: 10, hash: 'ab'.repeat(32), txHeight: 10, time: 1 },
      indexerState: {
        state: 'synced',
        error: null,
        tipHeight: 10,
        tipHash: 'ab'.repeat(32),
        txTipHeight: 10,
        nodeHeight: 10,
        reorgs: 0,
        lastReorgDepth: null,
        lastReorgAt: null,
        updatedAt: new Date(0).toISOString(),
      },
      marketHealth: {
        provider: 'coingecko',
        lastAttemptOk: false,
        lastSuccessAt: 1_000,
        lastError: 'timeout after 10000 ms',
        consecutiveFailures: 3,
      },
    };
    const store = new Proxy({} as Store, {
      get: (_t, prop) => async () => healthy[String(prop)],
    });
    const api = createExplorerApi({
      store,
      routes: v1Routes,
      node: {
        lastHeight: () => 10,
        probe: async () => ({ reachable: true, height: 10, latencyMs: 1, error: null }),
        call: async <T>() => 0 as T,
      },
      rateLimiter: {
        consume: async () => ({
          allowed: true,
          bucket: 'anon:x',
          limit: 10,
          remaining: 9,
          reset: 1,
          windowSeconds: 60,
        }),
        health: () => ({ store: 'redis', ok: false, error: 'Redis unavailable; counting in process memory' }),
      },
    });
    const { status } = await (await api.handle(new Request('http://x/v1/status'))).json();
    expect(status.degraded).toEqual(['redis', 'market']);
    expect(status.rateLimit).toEqual({
      store: 'redis',
      ok: false,
      error: expect.stringMatching(/Redis unavailable/),
    });
    expect(status.market).toMatchObject({
      provider: 'coingecko',
      ok: false,
      lastError: 'timeout after 10000 ms',
    });
  });
});

describe('/v1/status says in one word whether the explorer is ready', () => {
  const statusOf = async (indexer: Record<string, unknown>, nodeHeight: number) => {
    const values: Record<string, unknown> = {
      tip: { height: 10, hash: 'ab'.repeat(32), txHeight: 10, time: 1 },
      indexerState: {
        error: null,
        tipHeight: 10,
        tipHash: 'ab'.repeat(32),
        txTipHeight: 10,
        nodeHeight,
        reorgs: 0,
        lastReorgDepth: null,
        lastReorgAt: null,
        updatedAt: new Date(0).toISOString(),
        progress: null,
        ...indexer,
      },
    };
    const api = createExplorerApi({
      store: new Proxy({} as Store, { get: (_t, prop) => async () => values[String(prop)] ?? null }),
      routes: v1Routes,
      node: {
        lastHeight: () => nodeHeight,
        probe: async () => ({ reachable: true, height: nodeHeight, latencyMs: 1, error: null }),
        call: async <T>() => 0 as T,
      },
    });
    const { status } = await (await api.handle(new Request('http://x/v1/status'))).json();
    return { state: status.state, healthy: status.healthy };
  };

  it('healthy at the tip, syncing while it catches up (healthy all the same), degraded when anything is', async () => {
    expect(await statusOf({ state: 'synced' }, 10)).toEqual({ state: 'healthy', healthy: true });
    const progress = { height: 10, nodeHeight: 5_000, percent: 0.2, etaSeconds: 600 };
    expect(await statusOf({ state: 'syncing', progress }, 5_000)).toEqual({
      state: 'syncing',
      healthy: true,
    });
    expect(await statusOf({ state: 'syncing' }, 5_000)).toEqual({ state: 'syncing', healthy: true });
    // The block the indexer is writing while it follows the tip is no sync worth saying.
    expect(await statusOf({ state: 'syncing' }, 11)).toEqual({ state: 'healthy', healthy: true });
    expect(await statusOf({ state: 'disk-full', error: 'no space' }, 5_000)).toEqual({
      state: 'degraded',
      healthy: false,
    });
  });
});

describe('chain-wide figures cached per indexed tip', () => {
  /** A store at a movable tip whose supply() counts its calls and can be made to fail. */
  function countingStore() {
    const state = { height: 10, hash: 'ab'.repeat(32), calls: 0, fail: false };
    const store = storeWith({
      tip: async () => ({ height: state.height, hash: state.hash, txHeight: state.height, time: 1 }),
      supply: async () => {
        state.calls++;
        if (state.fail) throw new Error('boom');
        return {
          height: state.height,
          blockHash: state.hash,
          emitted: 100 * state.height,
          fees: 0,
          unspendable: { total: 0, opReturn: 0, burnAddresses: 0 },
          circulating: 100 * state.height,
          formula: 'test',
        };
      },
    });
    return { state, store };
  }

  it('reads once per tip, again when the tip moves or a second passed, and never keeps a failure', async () => {
    const { state, store } = countingStore();
    let now = 1_000_000;
    const api = createExplorerApi({ store, routes: v1Routes, clock: () => now, config: { tipCacheMs: 0 } });
    const get = async () => (await api.handle(new Request('http://x/v1/analytics/supply'))).json();

    const [a, b] = await Promise.all([get(), get()]);
    expect(state.calls).toBe(1);
    expect([a.meta.cached, b.meta.cached].sort()).toEqual([false, true]);
    expect(b.supply).toEqual(a.supply);

    state.height = 11;
    state.hash = 'cd'.repeat(32);
    const moved = await get();
    expect(state.calls).toBe(2);
    expect(moved.supply.height).toBe(11);
    expect(moved.meta.cached).toBe(false);

    now += 1_000;
    await get();
    expect(state.calls).toBe(3);

    state.fail = true;
    now += 1_000;
    expect((await api.handle(new Request('http://x/v1/analytics/supply'))).status).toBe(500);
    state.fail = false;
    expect((await get()).supply.height).toBe(11);
    expect(state.calls).toBe(5);
  });

  it('is off when the cache is disabled', async () => {
    const { state, store } = countingStore();
    const api = createExplorerApi({ store, routes: v1Routes, config: { cacheEntries: 0 } });
    await api.handle(new Request('http://x/v1/analytics/supply'));
    await api.handle(new Request('http://x/v1/analytics/supply'));
    expect(state.calls).toBe(2);
  });
});

describe("a cursor's reorg guard", () => {
  it('looks up the hash of a final block once, and of a recent block once per tip', async () => {
    const calls: number[] = [];
    const hash = (h: number) => h.toString(16).padStart(64, '0');
    let top = 500;
    const store = storeWith({
      tip: async () => ({ height: top, hash: hash(top), txHeight: top, time: 1 }),
      blockHashAt: async (h: number) => {
        calls.push(h);
        return hash(h);
      },
      listAddressTxs: async () => [],
    });
    // The guard is what is measured here: the same page asked again must not come from the response cache.
    const api = createExplorerApi({ store, routes: v1Routes, config: { responseCacheMs: 0, tipCacheMs: 0 } });
    const address = 'dvt1qdguxwg8pspqfzfrweecd45ja8jys09n9dpxccg';
    const page = async (height: number) => {
      const cursor = encodeCursor(`address-txs:${address}`, [height, 0, hash(height).slice(0, 16)]);
      const res = await api.handle(new Request(`http://x/v1/addresses/${address}/txs?cursor=${cursor}`));
      expect(res.status).toBe(200);
      return res.json();
    };
    const first = await page(10);
    await page(10);
    await page(10);
    expect(calls.filter((h) => h === 10)).toHaveLength(1);
    expect(first.meta.cached).toBe(false);
    await page(495);
    await page(495);
    expect(calls.filter((h) => h === 495)).toHaveLength(1);
    // A new tip could have replaced it: looked up again.
    top = 501;
    await page(495);
    expect(calls.filter((h) => h === 495)).toHaveLength(2);
    expect(calls.filter((h) => h === 10)).toHaveLength(1);
  });
});

describe('responses of chain-derived routes, shared per URL and indexed tip', () => {
  /** A store at a movable tip whose getBlock() counts its calls; blocks above `top` do not exist. */
  function blockStore() {
    const state = { height: 10, hash: 'ab'.repeat(32), top: 10, calls: 0, fail: false };
    const store = storeWith({
      tip: async () => ({ height: state.height, hash: state.hash, txHeight: state.height, time: 1 }),
      getBlock: async (ref: { height: number }) => {
        state.calls++;
        if (state.fail) throw new Error('boom');
        if (ref.height > state.top) return null;
        return { height: ref.height, hash: `${state.hash.slice(0, 62)}${ref.height}`, tipSeen: state.height };
      },
    });
    return { state, store };
  }

  it('renders once per URL and tip, for a second at most, and tells the client it was cached', async () => {
    const { state, store } = blockStore();
    let now = 1_000_000;
    const api = createExplorerApi({ store, routes: v1Routes, clock: () => now, config: { tipCacheMs: 0 } });
    const get = (path: string, init?: RequestInit) => api.handle(new Request(`http://x${path}`, init));

    const [a, b] = await Promise.all([get('/v1/blocks/5'), get('/v1/blocks/5')]);
    expect(state.calls).toBe(1);
    const [ja, jb] = [await a.json(), await b.json()];
    expect([ja.meta.cached, jb.meta.cached].sort()).toEqual([false, true]);
    expect(jb.block).toEqual(ja.block);
    expect(jb.block.confirmations).toBe(6);
    expect(b.headers.get('etag')).toBe(a.headers.get('etag'));
    // Each answer has its own request id, even when the body was shared.
    expect(jb.meta.requestId).not.toBe(ja.meta.requestId);

    // HEAD, a conditional request and the same URL again: all from the one rendering.
    expect((await get('/v1/blocks/5', { method: 'HEAD' })).status).toBe(200);
    const etag = a.headers.get('etag')!;
    expect((await get('/v1/blocks/5', { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect(state.calls).toBe(1);

    // Another URL is another body; a query string is part of the URL.
    await get('/v1/blocks/6');
    expect(state.calls).toBe(2);

    // A new tip: rendered again, with the confirmations of the new tip.
    state.height = 11;
    state.hash = 'cd'.repeat(32);
    const moved = await (await get('/v1/blocks/5')).json();
    expect(state.calls).toBe(3);
    expect(moved.meta.cached).toBe(false);
    expect(moved.block).toMatchObject({ tipSeen: 11, confirmations: 7 });

    // Same tip, a second later: rendered again (definitions may have changed without a new block).
    now += 1_000;
    await get('/v1/blocks/5');
    expect(state.calls).toBe(4);
  });

  it('keeps the bodies it rendered for an API key apart from anonymous ones', async () => {
    const api = createExplorerApi({
      store: blockStore().store,
      routes: v1Routes,
      clock: () => 1_000_000,
      config: { tipCacheMs: 0 },
      authenticate: async (key) => {
        if (key !== 'good-key') throw new Error('unexpected key');
        return { type: 'key', keyId: 'k1', name: 'wallet', tier: 'default' };
      },
    });
    /** Whether the response cache answered (the block itself may come from the final-data cache either way). */
    const responseCache = async (withKey: boolean) => {
      const told: { responseCache?: string }[] = [];
      const init = withKey ? { headers: { 'x-api-key': 'good-key' } } : {};
      const res = await api.handle(new Request('http://x/v1/blocks/5', init), {
        answered: (f) => told.push(f as { responseCache?: string }),
      });
      expect(res.status).toBe(200);
      return told[0]?.responseCache;
    };
    // The clock is pinned: only the caller's kind tells these apart.
    expect(await responseCache(true)).toBe('miss');
    expect(await responseCache(true)).toBe('hit');
    expect(await responseCache(false)).toBe('miss');
    expect(await responseCache(false)).toBe('hit');
    expect(await responseCache(true)).toBe('hit');
  });

  it('tells a host which route answered, by its template, and whether from a cache', async () => {
    const api = createExplorerApi({ store: blockStore().store, routes: v1Routes, clock: () => 1_000_000 });
    const facts = async (path: string, method = 'GET') => {
      const told: unknown[] = [];
      const res = await api.handle(new Request(`http://x${path}`, { method }), {
        answered: (f) => told.push(f),
      });
      expect(told).toHaveLength(1);
      return { status: res.status, ...(told[0] as object) };
    };
    const route = '/v1/blocks/{heightOrHash}';
    expect(await facts('/v1/blocks/5')).toEqual({ status: 200, route, cached: false, responseCache: 'miss' });
    // Answered from the kept body before routing: the route is still named.
    expect(await facts('/v1/blocks/5')).toEqual({ status: 200, route, cached: true, responseCache: 'hit' });
    expect(await facts('/v1/blocks/99')).toEqual({
      status: 404,
      route,
      cached: false,
      responseCache: 'miss',
    });
    expect(await facts('/v1/blocks/5', 'POST')).toEqual({
      status: 405,
      route,
      cached: false,
      responseCache: null,
    });
    expect(await facts('/no/such/thing?x=1')).toEqual({
      status: 404,
      route: null,
      cached: false,
      responseCache: null,
    });
  });

  it('serves a kept body as the bytes and ETag a fresh rendering gives, with this request’s meta', async () => {
    const now = 1_000_000;
    const cachedApi = createExplorerApi({ store: blockStore().store, routes: v1Routes, clock: () => now });
    const freshApi = createExplorerApi({
      store: blockStore().store,
      routes: v1Routes,
      clock: () => now,
      config: { responseCacheMs: 0 },
    });
    const get = (api: typeof cachedApi, path: string, id: string, init: RequestInit = {}) =>
      api.handle(
        new Request(`http://x${path}`, { ...init, headers: { 'x-request-id': id, ...init.headers } }),
      );

    await get(cachedApi, '/v1/blocks/5?', 'warm');
    const hit = await get(cachedApi, '/v1/blocks/5', 'req-hit');
    const fresh = await get(freshApi, '/v1/blocks/5', 'req-hit');
    const [hitText, freshText] = [await hit.text(), await fresh.text()];
    expect(JSON.parse(hitText).meta).toMatchObject({ requestId: 'req-hit', cached: true });
    expect(JSON.parse(freshText).meta.cached).toBe(false);
    expect(hitText).toBe(freshText.replace('"cached":false', '"cached":true'));
    expect(hit.headers.get('etag')).toBe(fresh.headers.get('etag'));
    expect(hit.headers.get('content-length')).toBe(String(Buffer.byteLength(hitText)));
    expect(hit.headers.get('x-request-id')).toBe('req-hit');

    // What the kept body was rendered for does not stand in for validating another URL or method.
    expect((await get(cachedApi, '/v1/blocks/5?bogus=1', 'b')).status).toBe(400);
    expect((await get(cachedApi, '/v1/blocks/5', 'p', { method: 'POST' })).status).toBe(405);
    expect((await get(cachedApi, '/v1/blocks/5', 'h', { method: 'HEAD' })).status).toBe(200);
  });

  it('shares a 404 per tip like a body, and never keeps a failure', async () => {
    const { state, store } = blockStore();
    const now = 1_000_000;
    const api = createExplorerApi({ store, routes: v1Routes, clock: () => now, config: { tipCacheMs: 0 } });
    const get = (path: string) => api.handle(new Request(`http://x${path}`));

    for (let i = 0; i < 3; i++) {
      const res = await get('/v1/blocks/12');
      expect(res.status).toBe(404);
      const body = await res.json();
      expect(body).toMatchObject({ ok: false, error: expect.stringMatching(/12/), meta: { indexedTip: 10 } });
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect(state.calls).toBe(1);
    // The block appears with the next tip.
    state.top = 12;
    state.height = 12;
    state.hash = 'ef'.repeat(32);
    expect((await get('/v1/blocks/12')).status).toBe(200);
    expect(state.calls).toBe(2);

    state.fail = true;
    expect((await get('/v1/blocks/3')).status).toBe(500);
    state.fail = false;
    expect((await get('/v1/blocks/3')).status).toBe(200);
    expect(state.calls).toBe(4);
  });

  it('leaves caller-, node- and clock-dependent routes alone, and is off with the cache', async () => {
    const { state, store } = blockStore();
    const routes = v1Routes.filter((r) => r.perTip);
    const ids = routes.map((r) => r.id);
    for (const id of [
      'getStatus',
      'getMe',
      'getMempool',
      'getMarket',
      'getNetworkAnalytics',
      'getOpenApiDocument',
    ])
      expect(ids).not.toContain(id);
    expect(ids).toEqual(
      expect.arrayContaining(['getBlock', 'listAddressTxs', 'search', 'getSupplyAnalytics']),
    );

    const off = createExplorerApi({ store, routes: v1Routes, config: { cacheEntries: 0 } });
    await off.handle(new Request('http://x/v1/blocks/5'));
    await off.handle(new Request('http://x/v1/blocks/5'));
    expect(state.calls).toBe(2);
  });
});

describe('live figures of /v1/status', () => {
  function statusStore(dbUp: { ok: boolean }) {
    const calls = { ping: 0, probe: 0 };
    const store = storeWith({
      tip: async () => ({ height: 10, hash: 'ab'.repeat(32), txHeight: 10, time: 1 }),
      ping: async () => {
        calls.ping++;
        if (!dbUp.ok) throw new Error('connect ECONNREFUSED');
      },
      indexerState: async () => null,
      marketHealth: async () => ({ provider: null }),
    });
    const node = {
      lastHeight: () => 10,
      probe: async () => {
        calls.probe++;
        return { reachable: true, height: 10, latencyMs: 1, error: null };
      },
      call: async <T>() => 0 as T,
    };
    return { calls, store, node };
  }

  it('checks once for the requests of a moment, and checks bad news again at once', async () => {
    const db = { ok: true };
    const { calls, store, node } = statusStore(db);
    const now = 1_000_000;
    const api = createExplorerApi({ store, node, routes: v1Routes, clock: () => now });
    const get = async () => (await api.handle(new Request('http://x/v1/status'))).json();

    const [a, b] = await Promise.all([get(), get()]);
    expect(calls).toEqual({ ping: 1, probe: 1 });
    expect(a.status.database.ok).toBe(true);
    expect([a.meta.cached, b.meta.cached].sort()).toEqual([false, true]);
    await get();
    expect(calls.ping).toBe(1);

    // Good news is reused for tipCacheMs (the clock is pinned here, so for good)…
    db.ok = false;
    expect((await get()).status.database.ok).toBe(true);
    expect(calls.ping).toBe(1);
    // …bad news never: after a failed check the recovery shows on the very next request.
    const fresh = createExplorerApi({ store, node, routes: v1Routes, clock: () => now });
    const down = await (await fresh.handle(new Request('http://x/v1/status'))).json();
    expect(down.status.degraded).toContain('database');
    db.ok = true;
    const up = await (await fresh.handle(new Request('http://x/v1/status'))).json();
    expect(up.status.database.ok).toBe(true);
    expect(calls.ping).toBe(3);
  });
});

describe('meta on every answer', () => {
  const tip = { height: 10, hash: 'ab'.repeat(32), txHeight: 10, time: 1 };
  const node = (height: number | null) => ({
    lastHeight: () => height,
    probe: async () => ({ reachable: false, height: null, latencyMs: null, error: 'down' }),
    call: async <T>(): Promise<T> => {
      throw new Error('down');
    },
  });
  const meta = async (api: ReturnType<typeof createExplorerApi>, path: string) =>
    ((await (await api.handle(new Request(`http://x${path}`))).json()) as { meta: Record<string, unknown> })
      .meta;

  it('gives nodeHeight as an integer: the node’s last height, else the indexed tip, else -1', async () => {
    const store = storeWith({ tip: async () => tip });
    for (const path of ['/v1/api/me', '/v1/blocks/abc']) {
      expect(await meta(createExplorerApi({ store, routes: v1Routes, node: node(12) }), path)).toMatchObject({
        indexedTip: 10,
        nodeHeight: 12,
      });
      // The node never answered since start (or none is configured): it had at least the indexed blocks.
      expect(
        await meta(createExplorerApi({ store, routes: v1Routes, node: node(null) }), path),
      ).toMatchObject({
        indexedTip: 10,
        nodeHeight: 10,
      });
      expect(await meta(createExplorerApi({ store, routes: v1Routes }), path)).toMatchObject({
        nodeHeight: 10,
      });
    }
    const noDatabase = storeWith({});
    expect(
      await meta(createExplorerApi({ store: noDatabase, routes: v1Routes }), '/v1/api/me'),
    ).toMatchObject({
      indexedTip: -1,
      nodeHeight: -1,
    });
  });

  it('answers a request its host refused with that error, after counting it, with meta and rate-limit headers', async () => {
    const consumed: unknown[] = [];
    const api = createExplorerApi({
      store: storeWith({ tip: async () => tip }),
      routes: v1Routes,
      node: node(11),
      rateLimiter: {
        consume: async (identity, address) => {
          consumed.push([identity, address]);
          return {
            allowed: true,
            bucket: 'anon:1.2.3.4',
            limit: 5,
            remaining: 4,
            reset: 99,
            windowSeconds: 60,
          };
        },
      },
    });
    const request = refuseRequest(
      new Request('http://x/v1/blocks?limit=0', { headers: { 'x-request-id': 'refused-1' } }),
      new ApiError(431, 'the request headers are too large'),
    );
    const res = await api.handle(request, { clientAddress: '1.2.3.4' });
    expect(res.status).toBe(431);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('4');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({
      ok: false,
      error: 'the request headers are too large',
      meta: { requestId: 'refused-1', indexedTip: 10, nodeHeight: 11, servedAt: expect.any(String) },
    });
    expect(consumed).toEqual([[{ type: 'anonymous' }, '1.2.3.4']]);
    // An unmarked request to the same URL is answered as usual.
    expect((await api.handle(new Request('http://x/v1/blocks?limit=0'))).status).toBe(400);
  });
});
