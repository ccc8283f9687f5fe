import type { MarketConfig } from '@explorer/indexer';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { LogLevel } from '../logger.js';
import {
  ConfigError,
  type ConfigFlags,
  defaultText,
  loadConfig,
  publicBaseUrl,
  SETTINGS,
  type ServerConfig,
} from './index.js';

const fails = (env: Record<string, string>, flags = {}) => {
  try {
    loadConfig(env, flags);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: null,
      databaseReadUrl: null,
      dataDir: './.explorer',
      nodeRpcUrl: null,
      publicBaseUrl: null,
      poolsFile: null,
      labelsFile: null,
      logLevel: 'info',
      dbPoolSize: 10,
      dbStatementTimeoutMs: 5000,
      dbConnectTimeoutMs: 5000,
      indexerPollMs: 1000,
      mempoolPollMs: 2000,
      maxReorgDepth: null,
      finalityDepth: 100,
      cacheEntries: 10000,
      responseCacheMb: 32,
      corsOrigin: '*',
      trustProxy: false,
      devnetSeed: 'explorer',
      devnetBlocks: 300,
      devnetTxPerBlock: 8,
      devnetIntervalMs: 15000,
      devnetReplayFile: null,
      index: true,
    });
    expect(publicBaseUrl(c, 3000)).toBe('http://127.0.0.1:3000');
  });

  it('reads the environment, and flags win over it', () => {
    const env = {
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u:p@db:5432/explorer',
      DATABASE_READ_URL: 'postgresql://u:p@replica/explorer',
      NODE_RPC_URL: 'http://rpc:pw@node:9332/',
      PUBLIC_BASE_URL: 'https://api.example.org/',
      LOG_LEVEL: 'WARN',
      TRUST_PROXY: 'yes',
      CACHE_ENTRIES: '0',
      RESPONSE_CACHE_MB: '64',
      DEVNET_INTERVAL_MS: '0',
    };
    const c = loadConfig(env, { port: '9000', host: '::1', index: false });
    expect(c).toMatchObject({
      port: 9000,
      host: '::1',
      databaseUrl: env.DATABASE_URL,
      databaseReadUrl: env.DATABASE_READ_URL,
      nodeRpcUrl: env.NODE_RPC_URL,
      logLevel: 'warn',
      trustProxy: true,
      cacheEntries: 0,
      responseCacheMb: 64,
      devnetIntervalMs: 0,
      index: false,
    });
    expect(publicBaseUrl(c, 9000)).toBe('https://api.example.org');
    expect(publicBaseUrl({ ...c, publicBaseUrl: null }, 9000)).toBe('http://[::1]:9000');
  });

  it('selects the chain, and gives a node URL without a port its network’s default', () => {
    expect(loadConfig({})).toMatchObject({ chain: null, chainNetwork: null, nodeRpcCert: null });
    const pearl = loadConfig({ NODE_RPC_URL: 'https://u:p@127.0.0.1', CHAIN: 'pearl' });
    expect(pearl.nodeRpcUrl).toBe('https://u:p@127.0.0.1:44107/');
    const testnet2 = loadConfig({
      NODE_RPC_URL: 'https://127.0.0.1/',
      CHAIN: 'Pearl',
      CHAIN_NETWORK: 'testnet2',
    });
    expect(testnet2).toMatchObject({
      chain: 'pearl',
      chainNetwork: 'testnet2',
      nodeRpcUrl: 'https://127.0.0.1:44111/',
    });
    // A written port stays, the scheme's default one too.
    expect(loadConfig({ NODE_RPC_URL: 'https://127.0.0.1:443', CHAIN: 'pearl' }).nodeRpcUrl).toBe(
      'https://127.0.0.1:443',
    );
    expect(loadConfig({ NODE_RPC_URL: 'http://u:p@127.0.0.1:18443/' }).nodeRpcUrl).toBe(
      'http://u:p@127.0.0.1:18443/',
    );
    expect(fails({ NODE_RPC_URL: 'https://u:secret@127.0.0.1' })).toBe(
      'config: NODE_RPC_URL names no port: add one, or set CHAIN (and CHAIN_NETWORK) for its default',
    );
    expect(fails({ CHAIN: 'dogecoin' })).toBe('config: CHAIN must be one of pearl, bitcoin (got "dogecoin")');
    expect(fails({ NODE_RPC_URL: 'https://h', CHAIN: 'pearl', CHAIN_NETWORK: 'moon' })).toMatch(
      /NODE_RPC_URL names no port and pearl has no default for network "moon"/,
    );
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 3000, databaseUrl: null });
  });

  it.each([
    [{ PORT: 'abc' }, 'config: PORT must be an integer from 0 to 65535 (got "abc")'],
    [{ PORT: '70000' }, 'config: PORT must be an integer from 0 to 65535 (got "70000")'],
    [{ PORT: '-1' }, 'config: PORT must be an integer from 0 to 65535 (got "-1")'],
    [{ PORT: '3.5' }, 'config: PORT must be an integer from 0 to 65535 (got "3.5")'],
    [{ DB_POOL_SIZE: '0' }, 'config: DB_POOL_SIZE must be an integer from 1 to 1000 (got "0")'],
    [
      { DB_STATEMENT_TIMEOUT_MS: '5s' },
      'config: DB_STATEMENT_TIMEOUT_MS must be an integer of at least 1 (got "5s")',
    ],
    [
      { DB_CONNECT_TIMEOUT_MS: 'x' },
      'config: DB_CONNECT_TIMEOUT_MS must be an integer of at least 1 (got "x")',
    ],
    [{ INDEXER_POLL_MS: '1' }, 'config: INDEXER_POLL_MS must be an integer of at least 10 (got "1")'],
    [{ MAX_REORG_DEPTH: '0' }, 'config: MAX_REORG_DEPTH must be an integer of at least 1 (got "0")'],
    [{ FINALITY_DEPTH: 'ten' }, 'config: FINALITY_DEPTH must be an integer of at least 1 (got "ten")'],
    [{ CACHE_ENTRIES: '-5' }, 'config: CACHE_ENTRIES must be an integer of at least 0 (got "-5")'],
    [{ DEVNET_BLOCKS: '1e3' }, 'config: DEVNET_BLOCKS must be an integer from 0 to 100000 (got "1e3")'],
    [
      { DEVNET_TX_PER_BLOCK: '5000' },
      'config: DEVNET_TX_PER_BLOCK must be an integer from 0 to 1000 (got "5000")',
    ],
    [
      { DEVNET_INTERVAL_MS: 'soon' },
      'config: DEVNET_INTERVAL_MS must be an integer of at least 0 (got "soon")',
    ],
    [
      { LOG_LEVEL: 'verbose' },
      'config: LOG_LEVEL must be one of debug, info, warn, error, silent (got "verbose")',
    ],
    [{ TRUST_PROXY: 'maybe' }, 'config: TRUST_PROXY must be true or false (got "maybe")'],
    [{ HOST: '   ' }, 'config: HOST must not be empty'],
    [{ CORS_ORIGIN: ' ' }, 'config: CORS_ORIGIN must not be empty'],
    [
      { DATABASE_URL: 'mysql://db/x' },
      'config: DATABASE_URL must be a postgres:// or postgresql:// URL (got a mysql: URL)',
    ],
    [
      { DATABASE_URL: 'not a url' },
      'config: DATABASE_URL must be a postgres:// or postgresql:// URL (got a value that is not a URL)',
    ],
    [
      { NODE_RPC_URL: 'ftp://node' },
      'config: NODE_RPC_URL must be an http:// or https:// URL (got a ftp: URL)',
    ],
    [
      { PUBLIC_BASE_URL: 'example.org' },
      'config: PUBLIC_BASE_URL must be an http:// or https:// URL (got a value that is not a URL)',
    ],
    [
      { DATABASE_READ_URL: 'postgres://replica/x' },
      'config: DATABASE_READ_URL needs DATABASE_URL (the embedded database has no replicas)',
    ],
  ])('rejects %j with one clear line', (env, message) => {
    const got = fails(env);
    expect(got).toBe(message);
    expect(got).not.toContain('\n');
  });

  it('names the flag when the bad value came from a flag', () => {
    expect(fails({ PORT: '80' }, { port: 'x' })).toBe(
      'config: --port must be an integer from 0 to 65535 (got "x")',
    );
  });

  it('never echoes a rejected URL, which may hold a password', () => {
    expect(fails({ NODE_RPC_URL: 'user:secret@node:9332' })).not.toContain('secret');
  });
});

describe('loadConfig: access and bounds', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({})).toMatchObject({
      rateLimitEnabled: true,
      rateLimitWindowSeconds: 60,
      rateLimitAnon: 120,
      rateLimitKey: 1200,
      rateLimitTiers: {},
      redisUrl: null,
      rateLimitPrefix: 'explorer:rl',
      apiKeyCacheSeconds: 30,
      maxUrlLength: 14_336,
      maxHeaderSize: 16384,
    });
  });

  it('reads tiers and Redis, and refuses bad values with one line that never echoes a URL', () => {
    const c = loadConfig({
      RATE_LIMIT_TIERS: 'pro:6000, partner:20000',
      REDIS_URL: 'redis://:secret@cache:6379/0',
      RATE_LIMIT_ENABLED: 'off',
    });
    expect(c.rateLimitTiers).toEqual({ pro: 6000, partner: 20000 });
    expect(c.redisUrl).toBe('redis://:secret@cache:6379/0');
    expect(c.rateLimitEnabled).toBe(false);
    expect(fails({ RATE_LIMIT_TIERS: 'pro=5' })).toBe(
      'config: RATE_LIMIT_TIERS has an entry that is not <tier>:<requests> (got "pro=5")',
    );
    expect(fails({ REDIS_URL: 'http://:secret@cache' })).toBe(
      'config: REDIS_URL must be a redis:// or rediss:// URL (got a http: URL)',
    );
    expect(fails({ RATE_LIMIT_ANON: '0' })).toMatch(/^config: RATE_LIMIT_ANON must be an integer from 1/);
    expect(fails({ MAX_URL_LENGTH: '10' })).toMatch(/^config: MAX_URL_LENGTH must be an integer from 256/);
  });
});

describe('metrics settings', () => {
  it('listen on 127.0.0.1:9464 by default; METRICS_PORT=off turns them off, 0 picks a free port', () => {
    expect(loadConfig({})).toMatchObject({ metricsPort: 9464, metricsHost: '127.0.0.1' });
    expect(loadConfig({ METRICS_PORT: 'off' }).metricsPort).toBeNull();
    expect(loadConfig({ METRICS_PORT: ' OFF ' }).metricsPort).toBeNull();
    expect(loadConfig({ METRICS_PORT: '0', METRICS_HOST: '0.0.0.0' })).toMatchObject({
      metricsPort: 0,
      metricsHost: '0.0.0.0',
    });
    expect(fails({ METRICS_PORT: 'no' })).toBe(
      'config: METRICS_PORT must be off or a port from 0 to 65535 (got "no")',
    );
    expect(fails({ METRICS_PORT: '65536' })).toBe(
      'config: METRICS_PORT must be off or a port from 0 to 65535 (got "65536")',
    );
    expect(fails({ METRICS_HOST: ' ' })).toBe('config: METRICS_HOST must not be empty');
  });
});

describe('webhook settings', () => {
  it('have the documented defaults, read the environment, and keep the lease longer than the timeout', () => {
    expect(loadConfig({})).toMatchObject({
      webhookTimeoutMs: 10_000,
      webhookRetryBaseMs: 5_000,
      webhookRetryMaxMs: 3_600_000,
      webhookMaxAgeHours: 24,
      webhookLeaseMs: 60_000,
      webhookConcurrency: 8,
    });
    expect(
      loadConfig({ WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_LEASE_MS: '3000', WEBHOOK_MAX_AGE_HOURS: '72' }),
    ).toMatchObject({ webhookTimeoutMs: 2000, webhookLeaseMs: 3000, webhookMaxAgeHours: 72 });
    expect(fails({ WEBHOOK_LEASE_MS: '10000' })).toBe(
      'config: WEBHOOK_LEASE_MS must be more than WEBHOOK_TIMEOUT_MS (10000; got 10000)',
    );
    expect(fails({ WEBHOOK_MAX_AGE_HOURS: '0' })).toBe(
      'config: WEBHOOK_MAX_AGE_HOURS must be an integer from 1 to 720 (got "0")',
    );
    expect(fails({ WEBHOOK_CONCURRENCY: 'many' })).toBe(
      'config: WEBHOOK_CONCURRENCY must be an integer from 1 to 256 (got "many")',
    );
  });
});

describe('market settings', () => {
  it('default to the demo provider', () => {
    expect(loadConfig({}).market).toEqual({
      providerUrl: null,
      coinId: 'demo',
      vsCurrencies: ['usd'],
      apiKey: null,
      apiKeyHeader: 'x-cg-demo-api-key',
      refreshMs: 60_000,
      demoSeed: 'explorer-demo',
    });
  });

  it('read a real provider', () => {
    const { market } = loadConfig({
      MARKET_PROVIDER_URL: 'https://api.coingecko.com/api/v3',
      MARKET_COIN_ID: 'litecoin',
      MARKET_VS_CURRENCIES: 'USD, eur,usd',
      MARKET_API_KEY: 'k',
      MARKET_API_KEY_HEADER: 'x-cg-pro-api-key',
      MARKET_REFRESH_MS: '300000',
    });
    expect(market).toEqual({
      providerUrl: 'https://api.coingecko.com/api/v3',
      coinId: 'litecoin',
      vsCurrencies: ['usd', 'eur'],
      apiKey: 'k',
      apiKeyHeader: 'x-cg-pro-api-key',
      refreshMs: 300_000,
      demoSeed: 'explorer-demo',
    });
  });

  it.each([
    [
      { MARKET_PROVIDER_URL: 'ftp://x' },
      'config: MARKET_PROVIDER_URL must be an http:// or https:// URL (got a ftp: URL)',
    ],
    [
      { MARKET_PROVIDER_URL: 'https://x' },
      'config: MARKET_COIN_ID is required with MARKET_PROVIDER_URL (the provider’s coin id)',
    ],
    [
      { MARKET_COIN_ID: 'Lite Coin' },
      'config: MARKET_COIN_ID must be a lowercase provider coin id, e.g. litecoin (got "Lite Coin")',
    ],
    [
      { MARKET_VS_CURRENCIES: 'us$' },
      'config: MARKET_VS_CURRENCIES must be a comma-separated list of currency codes, e.g. usd,eur (got "us$")',
    ],
    [{ MARKET_VS_CURRENCIES: ' , ' }, /^config: MARKET_VS_CURRENCIES must be a comma-separated list/],
    [
      { MARKET_REFRESH_MS: '10' },
      'config: MARKET_REFRESH_MS must be an integer from 1000 to 86400000 (got "10")',
    ],
    [{ MARKET_REFRESH_MS: '1e5' }, /^config: MARKET_REFRESH_MS must be an integer/],
    [
      { MARKET_API_KEY_HEADER: 'x cg' },
      'config: MARKET_API_KEY_HEADER must be an HTTP header name (got "x cg")',
    ],
  ])('rejects %j naming the variable', (env, message) => {
    expect(fails(env)).toMatch(message);
  });
});

describe('the settings declaration', () => {
  it('gives ServerConfig its types', () => {
    expectTypeOf<ServerConfig['port']>().toEqualTypeOf<number>();
    expectTypeOf<ServerConfig['databaseUrl']>().toEqualTypeOf<string | null>();
    expectTypeOf<ServerConfig['chain']>().toEqualTypeOf<'pearl' | 'bitcoin' | null>();
    expectTypeOf<ServerConfig['logLevel']>().toEqualTypeOf<LogLevel>();
    expectTypeOf<ServerConfig['trustProxy']>().toEqualTypeOf<boolean>();
    expectTypeOf<ServerConfig['rateLimitTiers']>().toEqualTypeOf<Record<string, number>>();
    expectTypeOf<ServerConfig['maxReorgDepth']>().toEqualTypeOf<number | null>();
    expectTypeOf<ServerConfig['market']>().toEqualTypeOf<MarketConfig>();
  });

  it('names each variable, flag and key once', () => {
    const once = (values: (string | undefined)[]) => {
      const present = values.filter(Boolean);
      expect(new Set(present).size).toBe(present.length);
    };
    once(SETTINGS.map((s) => s.env));
    once(SETTINGS.map((s) => s.flag));
    once(SETTINGS.map((s) => s.key));
    for (const s of SETTINGS) {
      expect(s.env ?? s.flag, s.key).toBeTruthy();
      expect(s.description, s.key).toMatch(/^\S/);
      expect(s.shown, s.key).not.toMatch(/null|undefined|object/);
    }
  });

  it('declares defaults each setting accepts: written out, they give the same configuration', () => {
    const env: Record<string, string> = {};
    for (const s of SETTINGS) {
      const written = defaultText(s.default);
      if (s.env && written !== null) env[s.env] = written;
    }
    expect(Object.keys(env).length).toBeGreaterThan(40);
    expect(loadConfig(env)).toEqual(loadConfig({}));
  });

  it('reads the flags ConfigFlags names, each a setting with a flag', () => {
    const flagged = ['port', 'host', 'dataDir', 'logLevel', 'trustProxy', 'index'] as const;
    expectTypeOf<keyof ConfigFlags>().toEqualTypeOf<(typeof flagged)[number]>();
    expect(SETTINGS.filter((s) => s.flag).map((s) => s.key)).toEqual(flagged);
  });

  it('takes commander’s values of the flags: numbers, and true or false for switches', () => {
    expect(
      loadConfig({ TRUST_PROXY: 'false' }, { port: 8080, trustProxy: true, index: false }),
    ).toMatchObject({
      port: 8080,
      trustProxy: true,
      index: false,
    });
    expect(loadConfig({}).index).toBe(true);
  });
});
