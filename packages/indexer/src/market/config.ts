import { createDemoProvider } from './demo-provider.js';
import { createCoinGeckoProvider, type MarketProvider } from './provider.js';

/** The market-data settings of a deployment (the server reads them from its MARKET_* variables). */
export interface MarketConfig {
  /**
   * Base URL of a CoinGecko-compatible API; null means none: the built-in demo provider for the demo (no chain
   * node configured), and no market data beside a chain node.
   */
  providerUrl: string | null;
  /** The provider's coin id (`demo` for the demo provider). */
  coinId: string;
  /** Lowercase currency codes, first = chart default. */
  vsCurrencies: string[];
  apiKey: string | null;
  /** Header the key is sent in. */
  apiKeyHeader: string;
  /** Milliseconds between price refreshes. */
  refreshMs: number;
  /** Seed of the demo provider. */
  demoSeed: string;
}

/**
 * The provider a configuration names: the CoinGecko-style adapter for a URL, else the demo provider (which the
 * server runs only for the demo, beside its built-in devnet).
 * @example const provider = createMarketProvider(serverConfig.market)
 */
export function createMarketProvider(
  config: MarketConfig,
  opts: { clock?: () => number; timeoutMs?: number; fetch?: typeof fetch } = {},
): MarketProvider {
  if (config.providerUrl === null) {
    return createDemoProvider({
      seed: config.demoSeed,
      coin: config.coinId,
      ...(opts.clock ? { clock: opts.clock } : {}),
    });
  }
  return createCoinGeckoProvider({
    baseUrl: config.providerUrl,
    coin: config.coinId,
    apiKey: config.apiKey,
    apiKeyHeader: config.apiKeyHeader,
    ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
}
