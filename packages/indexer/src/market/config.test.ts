import { describe, expect, it } from 'vitest';
import { createMarketProvider, type MarketConfig } from './config.js';

const demo: MarketConfig = {
  providerUrl: null,
  coinId: 'demo',
  vsCurrencies: ['usd'],
  apiKey: null,
  apiKeyHeader: 'x-cg-demo-api-key',
  refreshMs: 60_000,
  demoSeed: 'explorer-demo',
};

describe('createMarketProvider', () => {
  it('gives the demo provider without a URL', () => {
    expect(createMarketProvider(demo)).toMatchObject({ name: 'demo', demo: true });
  });

  it('gives the CoinGecko-style provider for a URL', () => {
    const config = {
      ...demo,
      providerUrl: 'https://api.coingecko.com/api/v3',
      coinId: 'litecoin',
      apiKey: 'k',
    };
    expect(createMarketProvider(config)).toMatchObject({ name: 'coingecko', coin: 'litecoin', demo: false });
  });
});
