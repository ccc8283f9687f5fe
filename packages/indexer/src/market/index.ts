export { createMarketProvider, type MarketConfig } from './config.js';
export { createDemoProvider, type DemoProviderOptions } from './demo-provider.js';
export { MarketProviderError, type MarketProviderErrorKind, parseRetryAfter } from './errors.js';
export {
  type CoinGeckoProviderOptions,
  createCoinGeckoProvider,
  type MarketProvider,
  type PricePoint,
  type PriceQuote,
} from './provider.js';
export {
  ALL_CHART_DAYS,
  createMarketRefresher,
  DEFAULT_CHART_REFRESH_MS,
  MARKET_REFRESHER_DEFAULTS,
  type MarketRefresher,
  type MarketRefresherOptions,
  type MarketRefreshResult,
} from './refresher.js';
