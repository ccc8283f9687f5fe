import { createDemoProvider } from './demo-provider.js';
import { createCoinGeckoProvider, type MarketProvider } from './provider.js';

/** The market-data settings of a deployment, read from the environment. */
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

/** A market setting that cannot be used; the message names the variable. */
export class MarketConfigError extends Error {
  override readonly name = 'MarketConfigError';
}

/** The market variables as `--help` and the documentation list them: name, default shown, what it does. */
export const MARKET_SETTINGS: readonly { env: string; shown: string; description: string }[] = [
  {
    env: 'MARKET_PROVIDER_URL',
    shown: 'none (demo: built-in demo prices)',
    description: 'base URL of a CoinGecko-style market-data API',
  },
  {
    env: 'MARKET_COIN_ID',
    shown: 'demo',
    description: "the provider's coin id; required with MARKET_PROVIDER_URL",
  },
  { env: 'MARKET_VS_CURRENCIES', shown: 'usd', description: 'comma-separated quote currencies' },
  { env: 'MARKET_API_KEY', shown: 'none', description: 'provider API key' },
  {
    env: 'MARKET_API_KEY_HEADER',
    shown: 'x-cg-demo-api-key',
    description: 'header the provider API key is sent in',
  },
  { env: 'MARKET_REFRESH_MS', shown: '60000', description: 'price refresh interval, 1000 to 86400000' },
  { env: 'MARKET_DEMO_SEED', shown: 'explorer-demo', description: 'seed of the demo provider' },
];

/**
 * Reads the market settings: `MARKET_PROVIDER_URL` (absent → none: demo prices for the demo only), `MARKET_COIN_ID` (required with a
 * URL), `MARKET_VS_CURRENCIES` (default `usd`), `MARKET_API_KEY`, `MARKET_API_KEY_HEADER` (default
 * `x-cg-demo-api-key`), `MARKET_REFRESH_MS` (default 60000, at least 1000), `MARKET_DEMO_SEED`.
 * @example const config = marketConfigFromEnv(process.env)
 */
export function marketConfigFromEnv(env: Record<string, string | undefined>): MarketConfig {
  const get = (name: string) => {
    const v = env[name]?.trim();
    return v ? v : undefined;
  };
  const url = get('MARKET_PROVIDER_URL') ?? null;
  if (url !== null) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new MarketConfigError('MARKET_PROVIDER_URL must be an http(s) URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new MarketConfigError('MARKET_PROVIDER_URL must be an http(s) URL');
  }
  const coinId = get('MARKET_COIN_ID') ?? (url === null ? 'demo' : undefined);
  if (coinId === undefined)
    throw new MarketConfigError(
      'MARKET_COIN_ID is required with MARKET_PROVIDER_URL (the provider’s coin id)',
    );
  if (!/^[a-z0-9][a-z0-9._-]{0,99}$/.test(coinId))
    throw new MarketConfigError('MARKET_COIN_ID must be a lowercase provider coin id, e.g. litecoin');
  const vsCurrencies = [
    ...new Set(
      (get('MARKET_VS_CURRENCIES') ?? 'usd')
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  if (vsCurrencies.length === 0 || vsCurrencies.some((c) => !/^[a-z]{2,10}$/.test(c)))
    throw new MarketConfigError(
      'MARKET_VS_CURRENCIES must be a comma-separated list of currency codes, e.g. usd,eur',
    );
  const refreshText = get('MARKET_REFRESH_MS') ?? '60000';
  const refreshMs = Number(refreshText);
  if (!/^\d+$/.test(refreshText) || refreshMs < 1000 || refreshMs > 86_400_000)
    throw new MarketConfigError('MARKET_REFRESH_MS must be an integer from 1000 to 86400000');
  const apiKeyHeader = get('MARKET_API_KEY_HEADER') ?? 'x-cg-demo-api-key';
  if (!/^[A-Za-z0-9-]{1,100}$/.test(apiKeyHeader))
    throw new MarketConfigError('MARKET_API_KEY_HEADER must be an HTTP header name');
  return {
    providerUrl: url,
    coinId,
    vsCurrencies,
    apiKey: get('MARKET_API_KEY') ?? null,
    apiKeyHeader,
    refreshMs,
    demoSeed: get('MARKET_DEMO_SEED') ?? 'explorer-demo',
  };
}

/**
 * The provider a configuration names: the CoinGecko-style adapter for a URL, else the demo provider (which the
 * server runs only for the demo, beside its built-in devnet).
 * @example const provider = createMarketProvider(marketConfigFromEnv(process.env))
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
