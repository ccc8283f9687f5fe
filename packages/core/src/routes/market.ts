import { z } from 'zod';
import { BadRequestError, NotConfiguredError, ServiceUnavailableError } from '../errors.js';
import { defineRoute } from '../route.js';
import { MarketAnalyticsSchema, MarketChartSchema, MarketSchema } from '../schemas/market.js';
import { MARKET_CHART_DAYS, type MarketChartDays, type MarketHealthRecord } from '../store-market.js';

/** Window served when `days` is absent. */
export const DEFAULT_CHART_DAYS: MarketChartDays = 7;

/** Staleness threshold used when the refresher never recorded one (3 × the default 60 s refresh). */
const DEFAULT_STALE_AFTER_MS = 180_000;
const DAYS_MESSAGE = `days must be one of ${MARKET_CHART_DAYS.join(', ')}`;

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));
const ageSeconds = (now: number, at: number) => Math.max(0, Math.floor((now - at) / 1000));

/** Seconds a client should wait before asking again: until the refresher's next attempt, within 1 s–1 h. */
function retryAfter(health: MarketHealthRecord, now: number): number {
  const next = health.nextAttemptAt;
  if (next === null || next <= now) return 5;
  return Math.min(3600, Math.max(1, Math.ceil((next - now) / 1000)));
}

/** The 503 of a cache that holds nothing yet. */
function nothingYet(what: string, health: MarketHealthRecord, now: number): ServiceUnavailableError {
  const why = health.lastError ? ` (last provider error: ${health.lastError.slice(0, 200)})` : '';
  return new ServiceUnavailableError(
    `no ${what} has been fetched from the market-data provider yet${why}; retry later`,
    retryAfter(health, now),
  );
}

/** What the market routes answer where the indexer runs beside a chain node with no market-data provider. */
export const MARKET_NOT_CONFIGURED =
  'no market-data provider is configured on this server: set MARKET_PROVIDER_URL (a CoinGecko-compatible API) and MARKET_COIN_ID where the indexer runs';

/** The 501 of a server with no market-data provider: waiting does not change it. */
function notConfigured(health: MarketHealthRecord): NotConfiguredError | null {
  return health.configured === false ? new NotConfiguredError(MARKET_NOT_CONFIGURED) : null;
}

const chartQuery = z.object({
  days: z
    .enum(['1', '7', '30', '90', '365'], { error: DAYS_MESSAGE })
    .transform((d) => Number(d) as MarketChartDays)
    .optional()
    .describe(`Window in days: ${MARKET_CHART_DAYS.join(', ')} (default ${DEFAULT_CHART_DAYS}).`)
    // Parsed from the query text; documented as the integer it means.
    .meta({ type: 'integer', enum: [...MARKET_CHART_DAYS], default: DEFAULT_CHART_DAYS }),
  vsCurrency: z
    .string()
    .regex(/^[A-Za-z]{2,10}$/, 'vsCurrency must be a currency code of 2 to 10 letters, e.g. usd')
    .transform((s) => s.toLowerCase())
    .optional()
    .describe('Currency of the prices; one of the configured vs-currencies (default: the first).')
    .meta({ examples: ['usd'] }),
});

/** Market routes: answered from the cache the market refresher fills; never call the provider. */
export const marketRoutes = [
  defineRoute({
    id: 'getMarket',
    path: '/v1/market',
    notConfigured: true,
    tag: 'Market',
    summary: 'Cached market data enriched with the service’s supply',
    description:
      'Price, 24 h change, volume and the provider’s market cap per configured vs-currency, plus the service’s own market cap (price × circulating supply). Served from the cache: when the provider fails, the last stored data is answered with `stale: true`. 503 with Retry-After until the first successful fetch. 501 when no market-data provider is configured on this server (beside a chain node, market data needs `MARKET_PROVIDER_URL`; only the built-in demo serves made-up prices, marked `demo: true`).',
    response: { market: MarketSchema },
    async handler(ctx) {
      const store = ctx.store;
      const { health, quotes, supply } = await ctx.live('market', async () => {
        const health = await store.marketHealth();
        if (health.provider === null || health.coin === null) return { health, quotes: [], supply: null };
        const [quotes, supply] = await Promise.all([
          store.latestMarketSnapshots(health.provider, health.coin, health.vsCurrencies),
          store.supply(),
        ]);
        return { health, quotes, supply };
      });
      const unconfigured = notConfigured(health);
      if (unconfigured) throw unconfigured;
      if (health.provider === null || health.coin === null || supply === null)
        throw nothingYet('market data', health, ctx.now);
      const first = quotes[0];
      if (!first) throw nothingYet('market data', health, ctx.now);
      const lastUpdated = Math.min(...quotes.map((q) => q.fetchedAt));
      const staleAfterMs = health.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
      const hasSupply = supply.height >= 0;
      return {
        body: {
          market: {
            coin: first.coin,
            provider: first.provider,
            demo: quotes.some((q) => q.demo),
            lastUpdated: iso(lastUpdated),
            ageSeconds: ageSeconds(ctx.now, lastUpdated),
            stale: ctx.now - lastUpdated > staleAfterMs,
            staleAfterSeconds: Math.floor(staleAfterMs / 1000),
            supply: { height: supply.height, blockHash: supply.blockHash, circulating: supply.circulating },
            quotes: quotes.map((q) => ({
              vsCurrency: q.vsCurrency,
              price: q.price,
              change24h: q.change24h,
              volume24h: q.volume24h,
              providerMarketCap: q.marketCap,
              marketCap: hasSupply ? (q.price * Number(supply.circulating)) / 1e8 : null,
              providerUpdatedAt: isoOrNull(q.providerUpdatedAt),
              fetchedAt: iso(q.fetchedAt),
            })),
          },
        },
      };
    },
  }),
  defineRoute({
    id: 'getMarketChart',
    path: '/v1/market/chart',
    notConfigured: true,
    tag: 'Market',
    summary: 'Cached price history',
    description: `Price history of one window (${MARKET_CHART_DAYS.join(', ')} days; default ${DEFAULT_CHART_DAYS}) in one configured vs-currency. Served from the cache with \`stale\` like /v1/market; 503 with Retry-After until the window was first fetched, and 501 when no market-data provider is configured on this server.`,
    query: chartQuery,
    response: { chart: MarketChartSchema },
    async handler(ctx) {
      const store = ctx.store;
      const health = await store.marketHealth();
      const unconfigured = notConfigured(health);
      if (unconfigured) throw unconfigured;
      const days = ctx.query.days ?? DEFAULT_CHART_DAYS;
      const wanted = ctx.query.vsCurrency;
      if (wanted !== undefined && health.vsCurrencies.length > 0 && !health.vsCurrencies.includes(wanted)) {
        throw new BadRequestError(`vsCurrency must be one of ${health.vsCurrencies.join(', ')}`);
      }
      const vsCurrency = wanted ?? health.vsCurrencies[0];
      if (health.provider === null || health.coin === null || vsCurrency === undefined)
        throw nothingYet('price history', health, ctx.now);
      const chart = await store.marketChart(health.provider, health.coin, vsCurrency, days);
      if (!chart) throw nothingYet(`${days}-day ${vsCurrency} price history`, health, ctx.now);
      return {
        body: {
          chart: {
            coin: chart.coin,
            provider: chart.provider,
            demo: chart.demo,
            vsCurrency: chart.vsCurrency,
            days: chart.days,
            fetchedAt: iso(chart.fetchedAt),
            ageSeconds: ageSeconds(ctx.now, chart.fetchedAt),
            stale: ctx.now - chart.fetchedAt > chart.staleAfterMs,
            staleAfterSeconds: Math.floor(chart.staleAfterMs / 1000),
            points: chart.points.map((p) => ({ time: Math.floor(p.t / 1000), price: p.price })),
          },
        },
      };
    },
  }),
  defineRoute({
    id: 'getMarketAnalytics',
    path: '/v1/analytics/market',
    tag: 'Analytics',
    summary: 'Stored market snapshots and the health of the market-data cache',
    description:
      'Snapshot count and range, stored chart windows, last success, last error with its time, whether the provider answered the last attempt, refresh interval, consecutive failures and the next attempt. Answers 200 even before the first fetch, and where no market-data provider is configured (`configured: false`, `provider: null`).',
    response: { market: MarketAnalyticsSchema },
    async handler(ctx) {
      const store = ctx.store;
      const { health, stats, charts, latest } = await ctx.live('market-analytics', async () => {
        const health = await store.marketHealth();
        const configured = health.provider !== null && health.coin !== null;
        const [stats, charts, latest] = await Promise.all([
          store.marketSnapshotStats(),
          configured ? store.marketChartSummaries(health.provider!, health.coin!) : [],
          configured ? store.latestMarketSnapshots(health.provider!, health.coin!, health.vsCurrencies) : [],
        ]);
        return { health, stats, charts, latest };
      });
      const staleAfterMs = health.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
      const lastUpdated = latest.length > 0 ? Math.min(...latest.map((q) => q.fetchedAt)) : null;
      return {
        body: {
          market: {
            configured: health.configured,
            provider: health.provider,
            coin: health.coin,
            demo: health.demo,
            vsCurrencies: health.vsCurrencies,
            refreshIntervalMs: health.refreshIntervalMs,
            staleAfterSeconds: health.staleAfterMs === null ? null : Math.floor(health.staleAfterMs / 1000),
            stale: lastUpdated === null ? null : ctx.now - lastUpdated > staleAfterMs,
            snapshots: {
              count: stats.count,
              oldest: isoOrNull(stats.oldest),
              newest: isoOrNull(stats.newest),
            },
            charts: charts.map((c) => ({
              vsCurrency: c.vsCurrency,
              days: c.days,
              fetchedAt: iso(c.fetchedAt),
              ageSeconds: ageSeconds(ctx.now, c.fetchedAt),
              stale: ctx.now - c.fetchedAt > c.staleAfterMs,
              points: c.pointCount,
            })),
            lastAttemptAt: isoOrNull(health.lastAttemptAt),
            lastSuccessAt: isoOrNull(health.lastSuccessAt),
            lastError:
              health.lastErrorAt === null
                ? null
                : { at: iso(health.lastErrorAt), message: health.lastError ?? '' },
            providerReachable: health.lastAttemptOk,
            consecutiveFailures: health.consecutiveFailures,
            nextAttemptAt: isoOrNull(health.nextAttemptAt),
          },
        },
      };
    },
  }),
] as const;
