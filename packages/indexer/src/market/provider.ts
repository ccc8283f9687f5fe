import type { MarketChartDays } from '@explorer/core';
import ky, { HTTPError, TimeoutError } from 'ky';
import { MarketProviderError, parseRetryAfter } from './errors.js';
import { ProviderMarketChartSchema, ProviderSimplePriceSchema } from './provider-schemas.js';

/** The price of the coin in one vs-currency, as a provider reports it. */
export interface PriceQuote {
  vsCurrency: string;
  price: number;
  /** Percent change over 24 h. */
  change24h: number | null;
  volume24h: number | null;
  marketCap: number | null;
  /** When the provider last updated the price, in milliseconds. */
  providerUpdatedAt: number | null;
}

/** One point of a price history: `t` in milliseconds since the epoch. */
export interface PricePoint {
  t: number;
  price: number;
}

/** A source of market data: a CoinGecko-compatible HTTP API, or the built-in demo. */
export interface MarketProvider {
  /** Short name stored with every snapshot (`coingecko`, `demo`). */
  readonly name: string;
  /** The provider's coin id. */
  readonly coin: string;
  /** True when the data is made up (the demo provider). */
  readonly demo: boolean;
  /** Current quotes, one per requested vs-currency, in the order asked. */
  prices(vsCurrencies: readonly string[], signal?: AbortSignal): Promise<PriceQuote[]>;
  /** Price history of the last `days` days, oldest first. */
  chart(vsCurrency: string, days: MarketChartDays, signal?: AbortSignal): Promise<PricePoint[]>;
}

/** Options of the CoinGecko-style HTTP adapter. */
export interface CoinGeckoProviderOptions {
  /** API base, e.g. `https://api.coingecko.com/api/v3` (paths `/simple/price` and `/coins/{id}/market_chart` below it). */
  baseUrl: string;
  /** The provider's coin id, e.g. `litecoin`. */
  coin: string;
  /** API key, sent in `apiKeyHeader` when set. */
  apiKey?: string | null;
  /** Header carrying the key (default `x-cg-demo-api-key`; `x-cg-pro-api-key` for the paid API). */
  apiKeyHeader?: string;
  /** Milliseconds one HTTP attempt may take (default 10,000). */
  timeoutMs?: number;
  /** Extra attempts after a timeout, a network error, 408, 500, 502 or 504 (default 2). 429 is never retried here. */
  retries?: number;
  /** Delay before the first extra attempt, doubled each time (default 500 ms). */
  backoffMs?: number;
  /** Name stored with the data (default `coingecko`). */
  name?: string;
  /** fetch to use (tests inject one). */
  fetch?: typeof fetch;
}

/** Turns whatever ky threw into a MarketProviderError naming the call. */
function toProviderError(err: unknown, label: string, timeoutMs: number): MarketProviderError {
  if (err instanceof MarketProviderError) return err;
  if (err instanceof HTTPError) {
    const status = err.response.status;
    const retryAfterMs = parseRetryAfter(err.response.headers.get('retry-after'), Date.now());
    const details = { status, cause: err, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
    if (status === 429) {
      const wait = retryAfterMs === undefined ? '' : ` (Retry-After ${Math.ceil(retryAfterMs / 1000)} s)`;
      return new MarketProviderError('rate-limited', `${label}: rate limited (HTTP 429)${wait}`, details);
    }
    return new MarketProviderError('http', `${label}: HTTP ${status}`, details);
  }
  if (err instanceof TimeoutError) {
    return new MarketProviderError('timeout', `${label}: no answer within ${timeoutMs} ms`, { cause: err });
  }
  if ((err as Error)?.name === 'AbortError') {
    return new MarketProviderError('aborted', `${label}: aborted`, { cause: err });
  }
  const reason = (err as Error)?.message ?? String(err);
  return new MarketProviderError('unreachable', `${label}: unreachable (${reason})`, { cause: err });
}

/**
 * A CoinGecko-compatible market-data provider over HTTP (ky): timeouts, bounded retries, and every answer
 * parsed with zod — an answer that does not parse is an error, never data.
 * @example const provider = createCoinGeckoProvider({ baseUrl: 'https://api.coingecko.com/api/v3', coin: 'litecoin', apiKey })
 */
export function createCoinGeckoProvider(opts: CoinGeckoProviderOptions): MarketProvider {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const name = opts.name ?? 'coingecko';
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const backoffMs = opts.backoffMs ?? 500;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.apiKey) headers[(opts.apiKeyHeader ?? 'x-cg-demo-api-key').toLowerCase()] = opts.apiKey;
  const client = ky.create({
    headers,
    timeout: timeoutMs,
    retry: {
      limit: Math.max(0, opts.retries ?? 2),
      methods: ['get'],
      statusCodes: [408, 500, 502, 504],
      afterStatusCodes: [],
      retryOnTimeout: true,
      delay: (attempt) => backoffMs * 2 ** (attempt - 1),
    },
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });

  async function getJson(
    path: string,
    query: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<unknown> {
    const url = new URL(`${base}${path}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const label = `${name} ${path}`;
    let text: string;
    try {
      text = await client.get(url, signal ? { signal } : {}).text();
    } catch (err) {
      throw toProviderError(err, label, timeoutMs);
    }
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new MarketProviderError('malformed', `${label}: the answer is not JSON`, { cause: err });
    }
  }

  const shapeError = (path: string, what: string) =>
    new MarketProviderError('shape', `${name} ${path}: unexpected answer (${what})`);

  return {
    name,
    coin: opts.coin,
    demo: false,
    async prices(vsCurrencies, signal) {
      const path = '/simple/price';
      const body = await getJson(
        path,
        {
          ids: opts.coin,
          vs_currencies: vsCurrencies.join(','),
          include_24hr_change: 'true',
          include_24hr_vol: 'true',
          include_market_cap: 'true',
          include_last_updated_at: 'true',
        },
        signal,
      );
      const parsed = ProviderSimplePriceSchema.safeParse(body);
      if (!parsed.success) throw shapeError(path, parsed.error.issues[0]?.message ?? 'invalid');
      const entry = parsed.data[opts.coin];
      if (!entry) throw shapeError(path, `no entry for coin ${opts.coin}`);
      const updated = entry.last_updated_at;
      return vsCurrencies.map((vs) => {
        const price = entry[vs];
        if (typeof price !== 'number' || price < 0) throw shapeError(path, `no ${vs} price`);
        return {
          vsCurrency: vs,
          price,
          change24h: entry[`${vs}_24h_change`] ?? null,
          volume24h: entry[`${vs}_24h_vol`] ?? null,
          marketCap: entry[`${vs}_market_cap`] ?? null,
          providerUpdatedAt: typeof updated === 'number' ? updated * 1000 : null,
        };
      });
    },
    async chart(vsCurrency, days, signal) {
      const path = `/coins/${encodeURIComponent(opts.coin)}/market_chart`;
      const body = await getJson(path, { vs_currency: vsCurrency, days: String(days) }, signal);
      const parsed = ProviderMarketChartSchema.safeParse(body);
      if (!parsed.success) throw shapeError(path, parsed.error.issues[0]?.message ?? 'invalid');
      if (parsed.data.prices.length === 0) throw shapeError(path, 'no price points');
      return parsed.data.prices.map(([t, price]) => ({ t, price })).sort((a, b) => a.t - b.t);
    },
  };
}
