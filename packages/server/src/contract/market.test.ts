import { type ChainFixture, createChainFixture } from '@explorer/chain-fixture';
import { createExplorerClient, ExplorerApiError } from '@explorer/client';
import { createExplorerApi, type ExplorerApi, MARKET_NOT_CONFIGURED, v1Routes } from '@explorer/core';
import { createSqlStore, recordMarketNotConfigured } from '@explorer/db';
import {
  createCoinGeckoProvider,
  createDemoProvider,
  createMarketRefresher,
  type MarketRefresher,
} from '@explorer/indexer';
import {
  apiGetter,
  contractReader,
  createResponseValidator,
  type FakeMarketProvider,
  type ResponseValidator,
  startFakeMarketProvider,
  waitFor,
} from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const COIN = 'testcoin';
const INTERVAL = 60_000;
const STALE_AFTER = 3 * INTERVAL;
const START = Date.parse('2025-03-01T12:00:00Z');

describe('market data through the API (pglite)', () => {
  let f: ChainFixture;
  let fake: FakeMarketProvider;
  let api: ExplorerApi;
  let validator: ResponseValidator;
  let refresher: MarketRefresher;
  let now = START;
  const errors: unknown[] = [];

  /** GETs a path through the API and checks the body against the served OpenAPI document. */
  const get = (operationId: string, path: string) =>
    contractReader(apiGetter(api), validator).answer(path, operationId);

  const market = () => get('getMarket', '/v1/market');
  const analytics = async () => (await get('getMarketAnalytics', '/v1/analytics/market')).body.market;

  /** A refresher over the fake provider whose calls time out after `timeoutMs`. */
  const refresherWith = (timeoutMs: number) =>
    createMarketRefresher({
      sql: f.db.sql,
      provider: createCoinGeckoProvider({
        baseUrl: fake.url,
        coin: COIN,
        apiKey: 'demo-key',
        timeoutMs,
        retries: 1,
        backoffMs: 10,
      }),
      vsCurrencies: ['usd', 'eur'],
      intervalMs: INTERVAL,
      clock: () => now,
    });

  beforeAll(async () => {
    f = await createChainFixture('pglite');
    fake = await startFakeMarketProvider(COIN);
    api = createExplorerApi({
      store: createSqlStore(f.db.sql),
      routes: v1Routes,
      node: null,
      config: { publicBaseUrl: 'http://127.0.0.1:3000', tipCacheMs: 0 },
      clock: () => now,
      // 503 is the documented answer while the cache is empty; anything else 5xx is a bug.
      onError: (err) => {
        if ((err as { status?: number }).status !== 503) errors.push(err);
      },
    });
    const doc = await api.handle(new Request('http://127.0.0.1/v1/openapi.json'));
    validator = createResponseValidator(await doc.json());
    // Generous: on a loaded machine a fast answer must never count as a timeout. The slow-provider case
    // below has a refresher of its own with a short timeout.
    refresher = refresherWith(2_000);
  });

  afterAll(async () => {
    await refresher?.stop();
    await fake?.close();
    await f?.close();
    expect(errors).toEqual([]);
  });

  it('the OpenAPI document lists the three market operations under their tags', () => {
    expect(validator.pathOf('getMarket')).toBe('/v1/market');
    expect(validator.pathOf('getMarketChart')).toBe('/v1/market/chart');
    expect(validator.pathOf('getMarketAnalytics')).toBe('/v1/analytics/market');
  });

  it('answers 503 with Retry-After while nothing is stored; analytics still answers', async () => {
    const r = await market();
    expect(r.status).toBe(503);
    expect(r.body.ok).toBe(false);
    expect(r.body.error).toMatch(/no market data has been fetched/);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const chart = await get('getMarketChart', '/v1/market/chart');
    expect(chart.status).toBe(503);
    const a = await analytics();
    expect(a).toMatchObject({
      provider: null,
      snapshots: { count: 0, oldest: null, newest: null },
      lastSuccessAt: null,
      lastError: null,
      providerReachable: null,
      consecutiveFailures: 0,
      stale: null,
    });
  });

  it('refuses days outside 1, 7, 30, 90, 365 with 400 naming them', async () => {
    for (const days of ['2', '0', '14', 'abc', '7.0']) {
      const r = await get('getMarketChart', `/v1/market/chart?days=${days}`);
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('days must be one of 1, 7, 30, 90, 365');
    }
  });

  let goodAt = 0;
  let firstPrice = 0;

  it('after a good refresh serves prices, a market cap from the supply, and stale: false', async () => {
    const result = await refresher.refreshOnce();
    expect(result).toMatchObject({ ok: true, error: null, snapshots: 2, charts: 10, consecutiveFailures: 0 });
    expect(result.nextAttemptAt).toBe(now + INTERVAL);
    goodAt = now;
    firstPrice = fake.usdPrice;

    const price = fake.requests.find((r) => r.path.endsWith('/simple/price'))!;
    expect(price.query).toEqual({
      ids: COIN,
      vs_currencies: 'usd,eur',
      include_24hr_change: 'true',
      include_24hr_vol: 'true',
      include_market_cap: 'true',
      include_last_updated_at: 'true',
    });
    expect(price.headers['x-cg-demo-api-key']).toBe('demo-key');

    const supply = (await get('getSupplyAnalytics', '/v1/analytics/supply')).body.supply;
    expect(BigInt(supply.circulating)).toBeGreaterThan(0n);
    const r = await market();
    expect(r.status).toBe(200);
    const m = r.body.market;
    expect(m).toMatchObject({
      coin: COIN,
      provider: 'coingecko',
      demo: false,
      lastUpdated: new Date(now).toISOString(),
      ageSeconds: 0,
      stale: false,
      staleAfterSeconds: STALE_AFTER / 1000,
      supply: { height: supply.height, blockHash: supply.blockHash, circulating: supply.circulating },
    });
    expect(m.quotes.map((q: any) => q.vsCurrency)).toEqual(['usd', 'eur']);
    const [usd, eur] = m.quotes;
    expect(usd).toEqual({
      vsCurrency: 'usd',
      price: fake.priceIn('usd'),
      change24h: -1.25,
      volume24h: fake.priceIn('usd') * 1_000_000,
      providerMarketCap: fake.priceIn('usd') * 21_000_000,
      marketCap: (fake.priceIn('usd') * Number(supply.circulating)) / 1e8,
      providerUpdatedAt: new Date(fake.now).toISOString(),
      fetchedAt: new Date(now).toISOString(),
    });
    expect(eur.price).toBe(fake.priceIn('eur'));
    expect(eur.change24h).toBeNull();
    expect(eur.marketCap).toBe((fake.priceIn('eur') * Number(supply.circulating)) / 1e8);
  });

  it('serves the cached chart: 7 days and usd by default, any allowed window and vs-currency', async () => {
    const r = await get('getMarketChart', '/v1/market/chart');
    expect(r.status).toBe(200);
    expect(r.body.chart).toMatchObject({
      coin: COIN,
      vsCurrency: 'usd',
      days: 7,
      stale: false,
      ageSeconds: 0,
    });
    expect(r.body.chart.points).toHaveLength(fake.chartPoints(7));
    expect(r.body.chart.points.at(-1)).toEqual({
      time: Math.floor(fake.now / 1000),
      price: fake.priceIn('usd') * (1 + (fake.chartPoints(7) - 1) / 1000),
    });
    for (const days of [1, 7, 30, 90, 365]) {
      const c = await get('getMarketChart', `/v1/market/chart?days=${days}&vsCurrency=EUR`);
      expect(c.status).toBe(200);
      expect(c.body.chart).toMatchObject({ vsCurrency: 'eur', days });
      expect(c.body.chart.points).toHaveLength(fake.chartPoints(days));
      const times = c.body.chart.points.map((p: any) => p.time);
      expect(times).toEqual([...times].sort((a, b) => a - b));
    }
    const jpy = await get('getMarketChart', '/v1/market/chart?vsCurrency=jpy');
    expect(jpy.status).toBe(400);
    expect(jpy.body.error).toBe('vsCurrency must be one of usd, eur');
  });

  it('reports a healthy cache', async () => {
    const a = await analytics();
    expect(a).toMatchObject({
      provider: 'coingecko',
      coin: COIN,
      demo: false,
      vsCurrencies: ['usd', 'eur'],
      refreshIntervalMs: INTERVAL,
      staleAfterSeconds: STALE_AFTER / 1000,
      stale: false,
      snapshots: { count: 2, oldest: new Date(now).toISOString(), newest: new Date(now).toISOString() },
      lastAttemptAt: new Date(now).toISOString(),
      lastSuccessAt: new Date(now).toISOString(),
      lastError: null,
      providerReachable: true,
      consecutiveFailures: 0,
      nextAttemptAt: new Date(now + INTERVAL).toISOString(),
    });
    expect(a.charts).toHaveLength(10);
  });

  /** A refresher over the same database whose provider gives up after 250 ms (the fake's slow mode takes 2 s). */
  const impatient = () => refresherWith(250);

  const failures: {
    name: string;
    arrange(): void | Promise<void>;
    error: RegExp;
    requests?: number;
    /** The refresher to run (default: the shared one). */
    refresher?: () => MarketRefresher;
  }[] = [
    {
      name: 'slow (beyond the timeout)',
      arrange: () => fake.setMode('slow'),
      error: /no answer within 250 ms/,
      requests: 2,
      refresher: impatient,
    },
    { name: 'HTTP 500', arrange: () => fake.setMode('500'), error: /HTTP 500/, requests: 2 },
    { name: 'malformed JSON', arrange: () => fake.setMode('malformed'), error: /not JSON/, requests: 1 },
    { name: 'wrong shape', arrange: () => fake.setMode('shape'), error: /unexpected answer/, requests: 1 },
  ];

  failures.forEach((mode, i) => {
    it(`${mode.name}: keeps the last data, marks it stale, records the error and backs off`, async () => {
      now += 10 * 60_000;
      fake.usdPrice = firstPrice * 2;
      await mode.arrange();
      const before = fake.requests.length;
      const result = await (mode.refresher?.() ?? refresher).refreshOnce();
      expect(result.ok).toBe(false);
      expect(result.error).toMatch(mode.error);
      // After a client-side timeout the fake may record the last request a moment later.
      await expect.poll(() => fake.requests.length - before).toBe(mode.requests);
      // Backoff doubles from one refresh interval with each consecutive failure.
      expect(result.consecutiveFailures).toBe(i + 1);
      expect(result.nextAttemptAt - now).toBe(INTERVAL * 2 ** i);

      const r = await market();
      expect(r.status).toBe(200);
      expect(r.body.market.stale).toBe(true);
      expect(r.body.market.ageSeconds).toBe((now - goodAt) / 1000);
      expect(r.body.market.lastUpdated).toBe(new Date(goodAt).toISOString());
      expect(r.body.market.quotes[0].price).toBe(firstPrice);

      const a = await analytics();
      expect(a.lastError).toEqual({ at: new Date(now).toISOString(), message: result.error });
      expect(a).toMatchObject({
        providerReachable: false,
        consecutiveFailures: i + 1,
        stale: true,
        lastSuccessAt: new Date(goodAt).toISOString(),
        nextAttemptAt: new Date(result.nextAttemptAt).toISOString(),
        snapshots: { count: 2 },
      });
    });
  });

  it('provider down (connection refused): the same', async () => {
    now += 10 * 60_000;
    const down = createMarketRefresher({
      sql: f.db.sql,
      provider: createCoinGeckoProvider({
        // Port 2 on loopback: nothing listens there, and unlike a just-freed ephemeral port nothing
        // else can take it (port 1 would do too, but fetch refuses it as a blocked port before connecting).
        baseUrl: 'http://127.0.0.1:2/api/v3',
        coin: COIN,
        retries: 1,
        backoffMs: 10,
      }),
      vsCurrencies: ['usd', 'eur'],
      intervalMs: INTERVAL,
      clock: () => now,
    });
    const result = await down.refreshOnce();
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/unreachable/);
    expect(result.consecutiveFailures).toBe(failures.length + 1);
    const r = await market();
    expect(r.status).toBe(200);
    expect(r.body.market).toMatchObject({ stale: true, ageSeconds: (now - goodAt) / 1000 });
    expect((await analytics()).lastError.message).toBe(result.error);
  });

  it('429: waits at least Retry-After before the next attempt, without retrying inside the call', async () => {
    now += 10 * 60_000;
    fake.setMode('429');
    fake.retryAfter = '3000';
    let before = fake.requests.length;
    let result = await refresher.refreshOnce();
    expect(fake.requests.length - before).toBe(1);
    expect(result.error).toMatch(/rate limited \(HTTP 429\) \(Retry-After 3000 s\)/);
    // Longer than the backoff at this failure count (capped at 30 min): Retry-After wins.
    expect(result.nextAttemptAt - now).toBe(3_000_000);
    let a = await analytics();
    expect(a.nextAttemptAt).toBe(new Date(now + 3_000_000).toISOString());
    expect(a.lastError.message).toMatch(/429/);
    expect((await market()).body.market.stale).toBe(true);

    // A short Retry-After never shortens the backoff; an HTTP date works as well.
    now += 10 * 60_000;
    fake.retryAfter = new Date(Date.now() + 30_000).toUTCString();
    before = fake.requests.length;
    result = await refresher.refreshOnce();
    expect(fake.requests.length - before).toBe(1);
    expect(result.nextAttemptAt - now).toBe(30 * 60_000);

    // An absurd Retry-After is cut to one hour.
    now += 10 * 60_000;
    fake.retryAfter = '86400';
    result = await refresher.refreshOnce();
    expect(result.nextAttemptAt - now).toBe(3_600_000);
    a = await analytics();
    expect(a.consecutiveFailures).toBe(failures.length + 4);
  });

  it('a chart that fails after the prices: new prices are served, the old chart kept, the failure recorded', async () => {
    now += 7 * 3_600_000;
    fake.priceMode = 'normal';
    fake.chartMode = 'shape';
    fake.usdPrice = firstPrice * 3;
    const result = await refresher.refreshOnce();
    expect(result).toMatchObject({ ok: false, snapshots: 2, charts: 0 });
    expect(result.error).toMatch(/market_chart: unexpected answer/);
    const m = (await market()).body.market;
    expect(m).toMatchObject({ stale: false, ageSeconds: 0 });
    expect(m.quotes[0].price).toBe(firstPrice * 3);
    const chart = (await get('getMarketChart', '/v1/market/chart?days=1')).body.chart;
    expect(chart.fetchedAt).toBe(new Date(goodAt).toISOString());
    expect((await analytics()).snapshots.count).toBe(4);
  });

  it('recovers: fresh data, zero failures, the last error kept with its time, only due charts refetched', async () => {
    now += 60_000;
    fake.setMode('normal');
    const errorBefore = (await analytics()).lastError;
    const result = await refresher.refreshOnce();
    // 7 h after the first fetch: the 1-day (30 min) and 7/30/90-day (6 h) windows are due, 365 (24 h) is not.
    expect(result).toMatchObject({ ok: true, snapshots: 2, charts: 8, consecutiveFailures: 0 });
    const m = (await market()).body.market;
    expect(m).toMatchObject({ stale: false, ageSeconds: 0, lastUpdated: new Date(now).toISOString() });
    const a = await analytics();
    expect(a).toMatchObject({
      providerReachable: true,
      consecutiveFailures: 0,
      lastSuccessAt: new Date(now).toISOString(),
      lastError: errorBefore,
      snapshots: { count: 6, oldest: new Date(goodAt).toISOString(), newest: new Date(now).toISOString() },
    });
    const year = a.charts.find((c: any) => c.days === 365 && c.vsCurrency === 'usd');
    expect(year.fetchedAt).toBe(new Date(goodAt).toISOString());
  });

  it('charts turn stale after three of their renewal periods while the provider fails', async () => {
    now += 19 * 3_600_000;
    fake.setMode('500');
    await refresher.refreshOnce();
    const week = (await get('getMarketChart', '/v1/market/chart?days=7')).body.chart;
    expect(week).toMatchObject({ stale: true, ageSeconds: 19 * 3600 });
    const year = (await get('getMarketChart', '/v1/market/chart?days=365')).body.chart;
    // 365-day windows renew daily, so they are stale only after three days.
    expect(year.stale).toBe(false);
    expect((await market()).body.market.stale).toBe(true);
  });

  it('the demo provider: deterministic data marked demo; switching provider never mixes in the old data', async () => {
    now = Date.parse('2025-06-15T08:00:00Z');
    const demo = createMarketRefresher({
      sql: f.db.sql,
      provider: createDemoProvider({ seed: 'contract', clock: () => now }),
      vsCurrencies: ['usd'],
      intervalMs: INTERVAL,
      clock: () => now,
    });
    expect((await demo.refreshOnce()).ok).toBe(true);
    const m = (await market()).body.market;
    expect(m).toMatchObject({ provider: 'demo', coin: 'demo', demo: true, stale: false });
    expect(m.quotes).toHaveLength(1);
    const again = await createDemoProvider({ seed: 'contract', clock: () => now }).prices(['usd']);
    expect(m.quotes[0].price).toBe(again[0]!.price);
    const chart = (await get('getMarketChart', '/v1/market/chart?days=30')).body.chart;
    expect(chart).toMatchObject({ provider: 'demo', demo: true, days: 30 });
    expect(chart.points).toHaveLength(30 * 24 + 1);
    expect((await analytics()).demo).toBe(true);
  });
});

describe('market data where no provider is configured beside a chain node (pglite)', () => {
  let f: ChainFixture;
  let api: ExplorerApi;
  let validator: ResponseValidator;
  const now = Date.now();

  const get = (operationId: string, path: string) =>
    contractReader(apiGetter(api), validator).answer(path, operationId);

  beforeAll(async () => {
    f = await createChainFixture('pglite');
    api = createExplorerApi({
      store: createSqlStore(f.db.sql),
      routes: v1Routes,
      node: null,
      config: { publicBaseUrl: 'http://127.0.0.1:3000', tipCacheMs: 0 },
    });
    validator = createResponseValidator(
      await (await api.handle(new Request('http://127.0.0.1/v1/openapi.json'))).json(),
    );
    // An earlier run of this database filled the cache from the demo provider (made-up prices)…
    const demo = createMarketRefresher({
      sql: f.db.sql,
      provider: createDemoProvider({ seed: 'earlier', clock: () => now }),
      vsCurrencies: ['usd'],
      clock: () => now,
    });
    expect((await demo.refreshOnce()).ok).toBe(true);
    expect((await get('getMarket', '/v1/market')).body.market.demo).toBe(true);
    // …and now the indexer runs beside a real node with no provider configured, as the server records it.
    expect(await recordMarketNotConfigured(f.db.sql)).toEqual({ removedDemoSnapshots: 1 });
  });

  afterAll(async () => {
    await f?.close();
  });

  it('/v1/market and /v1/market/chart answer 501 without Retry-After, naming the variable to set', async () => {
    for (const [operationId, path] of [
      ['getMarket', '/v1/market'],
      ['getMarketChart', '/v1/market/chart'],
      ['getMarketChart', '/v1/market/chart?days=30&vsCurrency=usd'],
    ] as const) {
      const r = await get(operationId, path);
      expect(r.status).toBe(501);
      expect(r.headers.get('retry-after')).toBeNull();
      expect(r.body).toMatchObject({ ok: false, error: MARKET_NOT_CONFIGURED, meta: expect.any(Object) });
      expect(r.body.error).toMatch(
        /no market-data provider is configured on this server.*MARKET_PROVIDER_URL/,
      );
    }
    // A bad window is still the caller's mistake first.
    expect((await get('getMarketChart', '/v1/market/chart?days=2')).status).toBe(400);
  });

  it('the earlier demo data is gone, never served; analytics says nothing is configured', async () => {
    const a = (await get('getMarketAnalytics', '/v1/analytics/market')).body.market;
    expect(a).toMatchObject({
      configured: false,
      provider: null,
      coin: null,
      demo: null,
      vsCurrencies: [],
      stale: null,
      snapshots: { count: 0, oldest: null, newest: null },
      charts: [],
      lastSuccessAt: null,
      lastError: null,
      providerReachable: null,
      consecutiveFailures: 0,
      nextAttemptAt: null,
    });
  });

  it('/v1/status reports no market and does not count it as degraded', async () => {
    const s = (await get('getStatus', '/v1/status')).body.status;
    expect(s.market).toBeNull();
    expect(s.degraded).not.toContain('market');
  });

  it('the SDK throws the message at once, without retrying the 501', async () => {
    let requests = 0;
    const client = createExplorerClient({
      baseUrl: 'http://127.0.0.1',
      fetch: async (input, init) => {
        requests++;
        return api.handle(new Request(input, init));
      },
    });
    const err = await client.market.get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExplorerApiError);
    expect(err).toMatchObject({
      status: 501,
      retryAfter: null,
      retryable: false,
      message: MARKET_NOT_CONFIGURED,
    });
    expect(requests).toBe(1);
  });

  it('a refresher started later (a provider configured) replaces the record at once', async () => {
    const fake = await startFakeMarketProvider(COIN);
    const refresher = createMarketRefresher({
      sql: f.db.sql,
      provider: createCoinGeckoProvider({ baseUrl: fake.url, coin: COIN }),
      vsCurrencies: ['usd'],
      intervalMs: INTERVAL,
      clock: () => now,
    });
    try {
      await refresher.start();
      const served = await waitFor('the configured provider’s data', async () => {
        const r = await get('getMarket', '/v1/market');
        return r.status === 200 ? r.body.market : null;
      });
      expect(served).toMatchObject({ provider: 'coingecko', coin: COIN, demo: false });
      expect((await get('getMarketAnalytics', '/v1/analytics/market')).body.market.configured).toBe(true);
    } finally {
      await refresher.stop();
      await fake.close();
    }
  });
});
