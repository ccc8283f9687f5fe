import { type FakeMarketProvider, startFakeMarketProvider } from '@explorer/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MarketProviderError, parseRetryAfter } from './errors.js';
import { createCoinGeckoProvider, type MarketProvider } from './provider.js';

describe('CoinGecko-style provider', () => {
  let fake: FakeMarketProvider;
  let provider: MarketProvider;

  beforeAll(async () => {
    fake = await startFakeMarketProvider('litecoin');
    provider = createCoinGeckoProvider({
      baseUrl: `${fake.url}/`,
      coin: 'litecoin',
      apiKey: 'secret',
      apiKeyHeader: 'X-CG-Pro-Api-Key',
      // Well under the fake's slow mode (2 s), and loose enough that a loaded machine does not
      // turn a normal answer into a timeout.
      timeoutMs: 1_000,
      retries: 2,
      backoffMs: 5,
    });
  });
  beforeEach(() => {
    fake.setMode('normal');
    fake.requests.length = 0;
  });
  afterAll(() => fake.close());

  const failure = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MarketProviderError);
    return err as MarketProviderError;
  };

  it('parses /simple/price into one quote per vs-currency, sending the key in the configured header', async () => {
    const quotes = await provider.prices(['usd', 'eur']);
    expect(quotes).toEqual([
      {
        vsCurrency: 'usd',
        price: 12.5,
        change24h: -1.25,
        volume24h: 12_500_000,
        marketCap: 12.5 * 21_000_000,
        providerUpdatedAt: fake.now,
      },
      {
        vsCurrency: 'eur',
        price: 12.5 * 0.9,
        change24h: null,
        volume24h: 12.5 * 0.9 * 1_000_000,
        marketCap: 12.5 * 0.9 * 21_000_000,
        providerUpdatedAt: fake.now,
      },
    ]);
    expect(fake.requests[0]!.path).toBe('/api/v3/simple/price');
    expect(fake.requests[0]!.headers['x-cg-pro-api-key']).toBe('secret');
  });

  it('parses /coins/{id}/market_chart, oldest first', async () => {
    const points = await provider.chart('usd', 30);
    expect(points).toHaveLength(fake.chartPoints(30));
    expect(points.at(-1)!.t).toBe(fake.now);
    expect(fake.requests[0]!.query).toEqual({ vs_currency: 'usd', days: '30' });
  });

  it('retries timeouts and 5xx a bounded number of times', async () => {
    fake.setMode('500');
    const err = await failure(provider.prices(['usd']));
    expect(err).toMatchObject({ kind: 'http', details: { status: 500 } });
    expect(fake.requests).toHaveLength(3);
    fake.requests.length = 0;
    fake.setMode('slow');
    expect((await failure(provider.chart('usd', 1))).kind).toBe('timeout');
    // The fake may record the last attempt a moment after the client timed out on it.
    await expect.poll(() => fake.requests.length).toBe(3);
  });

  it('does not retry a 429 and reports its Retry-After', async () => {
    fake.setMode('429');
    fake.retryAfter = '42';
    const err = await failure(provider.prices(['usd']));
    expect(err.kind).toBe('rate-limited');
    expect(err.retryAfterMs).toBe(42_000);
    expect(fake.requests).toHaveLength(1);
  });

  it('refuses malformed JSON and answers of another shape', async () => {
    fake.setMode('malformed');
    expect((await failure(provider.prices(['usd']))).kind).toBe('malformed');
    fake.setMode('shape');
    expect((await failure(provider.prices(['usd']))).kind).toBe('shape');
    expect((await failure(provider.chart('usd', 7))).kind).toBe('shape');
  });

  it('refuses an answer without the coin or without a requested currency', async () => {
    const other = createCoinGeckoProvider({ baseUrl: fake.url, coin: 'dogecoin', retries: 0 });
    expect((await failure(other.prices(['usd']))).message).toMatch(/no entry for coin dogecoin/);
    fake.requests.length = 0;
    const onlyUsd = createCoinGeckoProvider({
      baseUrl: fake.url,
      coin: 'litecoin',
      fetch: async (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        url.searchParams.set('vs_currencies', 'usd');
        return fetch(url, init);
      },
    });
    expect((await failure(onlyUsd.prices(['usd', 'eur']))).message).toMatch(/no eur price/);
  });

  it('reports an unreachable provider', async () => {
    const down = createCoinGeckoProvider({ baseUrl: 'http://127.0.0.1:1/api', coin: 'x', retries: 0 });
    expect((await failure(down.prices(['usd']))).kind).toBe('unreachable');
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
