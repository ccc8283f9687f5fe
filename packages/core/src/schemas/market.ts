import { z } from 'zod';
import { Amount, Count, Hash64, TipHeight, UnixTime } from './common.js';

const IsoTime = z.string().describe('ISO 8601 time, UTC.');
const Seconds = Count;

/** The price of the coin in one vs-currency, with the service's own market cap. */
export const MarketQuoteSchema = z
  .object({
    vsCurrency: z.string().describe('Lowercase currency code, e.g. usd.'),
    price: z.number().describe('Price of one coin in vsCurrency.'),
    change24h: z.number().nullable().describe('Price change over 24 h in percent (provider figure).'),
    volume24h: z.number().nullable().describe('Traded volume over 24 h in vsCurrency (provider figure).'),
    providerMarketCap: z.number().nullable().describe('Market cap as the provider reports it.'),
    marketCap: z
      .number()
      .nullable()
      .describe(
        'The service’s own market cap: price × supply.circulating ÷ 10^8; null before the first block is indexed.',
      ),
    providerUpdatedAt: IsoTime.nullable().describe('When the provider last updated the price.'),
    fetchedAt: IsoTime.describe('When the service fetched this price.'),
  })
  .meta({ id: 'MarketQuote' });

/** Cached market data enriched with the chain's circulating supply. */
export const MarketSchema = z
  .object({
    coin: z.string().describe('The provider’s coin id.'),
    provider: z.string().describe('Where the prices come from (`coingecko`, or `demo` for built-in data).'),
    demo: z.boolean().describe('True when the figures are the built-in demo provider’s, not real prices.'),
    lastUpdated: IsoTime.describe('Fetch time of the oldest quote shown.'),
    ageSeconds: Seconds.describe('Seconds since lastUpdated.'),
    stale: z.boolean().describe('True when ageSeconds exceeds staleAfterSeconds (the provider is failing).'),
    staleAfterSeconds: Seconds.describe('Age past which data counts as stale (a multiple of the refresh).'),
    supply: z
      .object({
        height: TipHeight.describe(
          'Indexed height the circulating supply was read at (-1 before any block).',
        ),
        blockHash: Hash64.nullable(),
        circulating: Amount.describe(
          'Circulating supply in base units (1 coin = 10^8), as /v1/analytics/supply.',
        ),
      })
      .describe('The supply figure marketCap is computed from.'),
    quotes: z.array(MarketQuoteSchema).describe('One quote per configured vs-currency.'),
  })
  .meta({ id: 'Market' });

/** Cached market data. */
export type Market = z.infer<typeof MarketSchema>;

/** Cached price history of one window. */
export const MarketChartSchema = z
  .object({
    coin: z.string(),
    provider: z.string(),
    demo: z.boolean(),
    vsCurrency: z.string(),
    days: Count.describe('Window: 1, 7, 30, 90 or 365 days.').meta({ examples: [7] }),
    fetchedAt: IsoTime,
    ageSeconds: Seconds,
    stale: z.boolean(),
    staleAfterSeconds: Seconds,
    points: z
      .array(z.object({ time: UnixTime.describe('Unix time in seconds.'), price: z.number() }))
      .describe('Oldest first. About 5-minute points for 1 day, hourly up to 90 days, daily for 365.'),
  })
  .meta({ id: 'MarketChart' });

/** A cached chart window. */
export type MarketChart = z.infer<typeof MarketChartSchema>;

/** Health of the market-data cache. */
export const MarketAnalyticsSchema = z
  .object({
    configured: z
      .boolean()
      .nullable()
      .describe(
        'Whether a market-data provider is configured: false where the indexer runs beside a chain node without MARKET_PROVIDER_URL (/v1/market and /v1/market/chart then answer 501 saying so, and every other field is null or empty); true once a refresher started with its provider; null before either.',
      ),
    provider: z
      .string()
      .nullable()
      .describe('Configured provider; null before the refresher first ran, and when none is configured.'),
    coin: z.string().nullable(),
    demo: z.boolean().nullable(),
    vsCurrencies: z.array(z.string()),
    refreshIntervalMs: Count.nullable(),
    staleAfterSeconds: Seconds.nullable(),
    stale: z
      .boolean()
      .nullable()
      .describe('Whether /v1/market would answer stale; null when nothing is stored.'),
    snapshots: z.object({
      count: Count,
      oldest: IsoTime.nullable(),
      newest: IsoTime.nullable(),
    }),
    charts: z
      .array(
        z.object({
          vsCurrency: z.string(),
          days: Count.meta({ examples: [7] }),
          fetchedAt: IsoTime,
          ageSeconds: Seconds,
          stale: z.boolean(),
          points: Count,
        }),
      )
      .describe('Stored chart windows of the configured provider and coin.'),
    lastAttemptAt: IsoTime.nullable(),
    lastSuccessAt: IsoTime.nullable(),
    lastError: z
      .object({ at: IsoTime, message: z.string() })
      .nullable()
      .describe('The most recent failure (kept after later successes).'),
    providerReachable: z
      .boolean()
      .nullable()
      .describe('Whether the last attempt succeeded; null before the first attempt.'),
    consecutiveFailures: Count,
    nextAttemptAt: IsoTime.nullable().describe(
      'When the refresher tries next (later after failures and 429s).',
    ),
  })
  .meta({ id: 'MarketAnalytics' });

/** Market cache health. */
export type MarketAnalytics = z.infer<typeof MarketAnalyticsSchema>;
