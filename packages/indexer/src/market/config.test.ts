import { describe, expect, it } from 'vitest';
import { createMarketProvider, marketConfigFromEnv } from './config.js';

describe('marketConfigFromEnv', () => {
  it('defaults to the demo provider', () => {
    const c = marketConfigFromEnv({});
    expect(c).toEqual({
      providerUrl: null,
      coinId: 'demo',
      vsCurrencies: ['usd'],
      apiKey: null,
      apiKeyHeader: 'x-cg-demo-api-key',
      refreshMs: 60_000,
      demoSeed: 'explorer-demo',
    });
    expect(createMarketProvider(c)).toMatchObject({ name: 'demo', demo: true });
  });

  it('reads a real provider', () => {
    const c = marketConfigFromEnv({
      MARKET_PROVIDER_URL: 'https://api.coingecko.com/api/v3',
      MARKET_COIN_ID: 'litecoin',
      MARKET_VS_CURRENCIES: 'USD, eur,usd',
      MARKET_API_KEY: 'k',
      MARKET_REFRESH_MS: '300000',
    });
    expect(c).toMatchObject({
      coinId: 'litecoin',
      vsCurrencies: ['usd', 'eur'],
      apiKey: 'k',
      refreshMs: 300_000,
    });
    expect(createMarketProvider(c)).toMatchObject({ name: 'coingecko', coin: 'litecoin', demo: false });
  });

  it('names the variable that is wrong', () => {
    expect(() => marketConfigFromEnv({ MARKET_PROVIDER_URL: 'ftp://x' })).toThrow(/MARKET_PROVIDER_URL/);
    expect(() => marketConfigFromEnv({ MARKET_PROVIDER_URL: 'https://x' })).toThrow(/MARKET_COIN_ID/);
    expect(() => marketConfigFromEnv({ MARKET_VS_CURRENCIES: 'us$' })).toThrow(/MARKET_VS_CURRENCIES/);
    expect(() => marketConfigFromEnv({ MARKET_REFRESH_MS: '10' })).toThrow(/MARKET_REFRESH_MS/);
    expect(() => marketConfigFromEnv({ MARKET_REFRESH_MS: '1e5' })).toThrow(/MARKET_REFRESH_MS/);
  });
});
