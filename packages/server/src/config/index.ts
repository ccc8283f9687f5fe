import { DEFAULT_EVENT_LIMITS, defaultApiConfig } from '@explorer/core';
import { DEFAULT_EVENT_RETENTION, PG_POOL_DEFAULTS } from '@explorer/db';
import {
  defaultRpcPort,
  INDEXER_DEFAULTS,
  MARKET_REFRESHER_DEFAULTS,
  type MarketConfig,
  MEMPOOL_WATCHER_DEFAULTS,
} from '@explorer/indexer';
import { z } from 'zod';
import { LOG_LEVELS } from '../logger.js';
import { RATE_LIMITER_DEFAULTS } from '../rate-limit/limiter.js';
import { REDIS_DEFAULTS } from '../redis.js';
import { WEBHOOK_WORKER_DEFAULTS } from '../webhooks/worker.js';
import {
  bool,
  int,
  matching,
  oneOf,
  pathPrefixOrOff,
  portOrOff,
  quote,
  text,
  tierLimits,
  url,
  type ValueKind,
  wordList,
} from './values.js';

const MIB = 1024 * 1024;
const HOUR_MS = 3_600_000;

/** Configuration that cannot be used; the message is the one line shown to the operator. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`config: ${variable} ${problem}`);
  }
}

/** One setting as people see it: --help, docs/configuration.md and .env.example are written from these. */
export interface Setting {
  /** Where the value lands in ServerConfig: `port`, `market.coinId`. */
  key: string;
  /** Environment variable; absent for a setting only a flag sets (`--no-index`). */
  env?: string;
  /** Long flag of the commands that take it, with its argument: `--port <n>`. */
  flag?: string;
  /** The value when nothing sets it; null when it is worked out later (`shown` says how). */
  default: unknown;
  /** The default in words (Markdown: `code` and [links](x.md)). */
  shown: string;
  /** What it accepts, e.g. "integer 0–65535" (Markdown; empty for any text). */
  values: string;
  /** One line for --help, .env.example and the documentation (Markdown). */
  description: string;
  /** More, for the documentation's table only (Markdown sentences). */
  details?: string;
}

/** What one `setting(…)` declares besides its kind. */
type SettingDeclaration<D> = Omit<Setting, 'key' | 'shown' | 'values' | 'default'> & {
  default: D;
  /** Required when the default is null or not plain text, a number or a list. */
  shown?: string;
};

/**
 * A default as written in a variable (`3000`, `usd`), or null when it cannot be (null, an object).
 * @example defaultText(['usd', 'eur']) // 'usd,eur'
 */
export function defaultText(value: unknown): string | null {
  if (Array.isArray(value)) return value.join(',');
  return ['string', 'number', 'boolean'].includes(typeof value) ? String(value) : null;
}

const declared = z.registry<Omit<Setting, 'key'>>();

/**
 * Declares one setting: its kind (what it accepts, its bounds) and how people see it. Everything else —
 * parsing, messages, --help, the documentation, .env.example, unknown-variable warnings — follows from it.
 * @example setting(int(0, 65_535), { env: 'PORT', flag: '--port <n>', default: 3000, description: 'HTTP port' })
 */
function setting<T, D extends T | null>(
  kind: ValueKind<T>,
  declaration: SettingDeclaration<D>,
): z.ZodType<[D] extends [null] ? T | null : T, string | undefined> {
  const { default: fallback, shown, ...rest } = declaration;
  const written = defaultText(fallback);
  if (shown === undefined && written === null)
    throw new Error(`${declaration.env ?? declaration.flag}: a default of ${fallback} needs \`shown\``);
  const schema = kind.nullable().default(fallback as never);
  schema.register(declared, {
    ...rest,
    default: fallback,
    shown: shown ?? `\`${written}\``,
    values: kind.description ?? '',
  });
  return schema as never;
}

const pgUrl = url(['postgres:', 'postgresql:']);
const httpUrl = url(['http:', 'https:']);

/** The market-data settings (MARKET_*), read by the refresher that runs beside the indexer. */
const marketSettings = z
  .object({
    providerUrl: setting(httpUrl, {
      env: 'MARKET_PROVIDER_URL',
      default: null,
      shown: 'none (demo: built-in demo prices)',
      description:
        'base URL of a CoinGecko-compatible market-data API, e.g. `https://api.coingecko.com/api/v3`',
      details:
        'Unset beside a chain node (`NODE_RPC_URL`), the market endpoints answer that no provider is configured; unset in the demo, deterministic demo data marked `demo`. See [market](market.md)',
    }),
    coinId: setting(
      matching(/^[a-z0-9][a-z0-9._-]{0,99}$/, 'a lowercase provider coin id, e.g. litecoin', 'coin id'),
      {
        env: 'MARKET_COIN_ID',
        default: null,
        shown: '`demo`',
        description: 'the provider’s id of the coin; required with `MARKET_PROVIDER_URL`',
      },
    ),
    vsCurrencies: setting(wordList(/^[a-z]{2,10}$/, 'currency codes, e.g. usd,eur', 'currency codes'), {
      env: 'MARKET_VS_CURRENCIES',
      default: ['usd'],
      description: 'quote currencies; the first is the chart default',
    }),
    apiKey: setting(text, {
      env: 'MARKET_API_KEY',
      default: null,
      shown: 'none',
      description: 'provider API key, sent in `MARKET_API_KEY_HEADER`',
    }),
    apiKeyHeader: setting(matching(/^[A-Za-z0-9-]{1,100}$/, 'an HTTP header name', 'HTTP header name'), {
      env: 'MARKET_API_KEY_HEADER',
      default: 'x-cg-demo-api-key',
      description: 'header the provider API key is sent in; `x-cg-pro-api-key` for the paid API',
    }),
    refreshMs: setting(int(1000, 86_400_000), {
      env: 'MARKET_REFRESH_MS',
      default: MARKET_REFRESHER_DEFAULTS.intervalMs,
      description: 'price refresh interval in milliseconds',
      details: 'The refresher runs beside the indexer; see [market](market.md)',
    }),
    demoSeed: setting(text, {
      env: 'MARKET_DEMO_SEED',
      default: 'explorer-demo',
      description: 'seed of the demo provider',
    }),
  })
  .transform((m, ctx): MarketConfig => {
    if (m.coinId === null && m.providerUrl !== null) {
      ctx.issues.push({
        code: 'custom',
        path: ['coinId'],
        message: 'is required with MARKET_PROVIDER_URL (the provider’s coin id)',
        input: m,
      });
      return z.NEVER;
    }
    return { ...m, coinId: m.coinId ?? 'demo' };
  });

/**
 * Every setting, in the order --help and the documentation list them. To add one, add one entry here (the
 * steps are in docs/configuration.md, "Adding a setting").
 */
const settings = z.object({
  port: setting(int(0, 65_535), {
    env: 'PORT',
    flag: '--port <n>',
    default: 3000,
    description: 'HTTP port; `0` picks a free one',
  }),
  host: setting(text, {
    env: 'HOST',
    flag: '--host <address>',
    default: '127.0.0.1',
    description: 'address to listen on; `0.0.0.0` for every interface',
  }),
  databaseUrl: setting(pgUrl, {
    env: 'DATABASE_URL',
    default: null,
    shown: 'embedded PGlite',
    description: 'PostgreSQL connection URL',
  }),
  databaseReadUrl: setting(pgUrl, {
    env: 'DATABASE_READ_URL',
    default: null,
    shown: '`DATABASE_URL`',
    description: 'PostgreSQL URL the API reads from, such as a replica; needs `DATABASE_URL`',
  }),
  dataDir: setting(text, {
    env: 'EXPLORER_DATA_DIR',
    flag: '--data-dir <dir>',
    default: './.explorer',
    description: 'embedded database (`<dir>/pgdata`) and devnet files (`<dir>/devnet`)',
  }),
  nodeRpcUrl: setting(httpUrl, {
    env: 'NODE_RPC_URL',
    default: null,
    shown: 'built-in devnet',
    description:
      'JSON-RPC URL of the chain node (pearld, or Bitcoin Core or a fork); credentials in the URL, or from `NODE_RPC_COOKIE`',
    details:
      'Written `https://user:password@host:port/`. Without a port, the network’s default when `CHAIN` is set ' +
      '(pearld mainnet 44107; see [chains](chains.md))',
  }),
  chain: setting(oneOf(['pearl', 'bitcoin'] as const), {
    env: 'CHAIN',
    default: null,
    shown: 'detected',
    description: 'the node’s chain family: `pearl` (pearld) or `bitcoin` (Bitcoin Core and its forks)',
    details: 'Unset, it is told from the node’s genesis block ([chains](chains.md#choosing-the-profile))',
  }),
  chainNetwork: setting(text, {
    env: 'CHAIN_NETWORK',
    default: null,
    shown: 'detected',
    description:
      'the node’s network: `mainnet`, `testnet`, `testnet2`, `regtest`, `simnet` or `signet` (Pearl); `main`, `test`, `testnet4`, `signet` or `regtest` (Bitcoin Core’s names)',
    details:
      '`mainnet` and `testnet` are read as `main` and `test` on the bitcoin profile. It must agree with a known genesis block',
  }),
  nodeRpcCert: setting(text, {
    env: 'NODE_RPC_CERT',
    default: null,
    shown: 'system CAs',
    description: 'PEM file of the certificate to trust for an `https://` node, e.g. `~/.pearld/rpc.cert`',
  }),
  nodeRpcCookie: setting(text, {
    env: 'NODE_RPC_COOKIE',
    default: null,
    shown: 'none',
    description:
      'Bitcoin Core’s or litecoind’s cookie file (`__cookie__:<hex>`), or the node’s data dir, where the network’s `.cookie` is found; instead of credentials in `NODE_RPC_URL`',
    details:
      '`CHAIN_NETWORK` picks the data dir’s folder; unset, the data dir must hold exactly one cookie. Read at the start, and again whenever the node answers 401, since the node writes a new cookie at every start. Refused beside credentials in `NODE_RPC_URL`, and without `NODE_RPC_URL`; see [chains](chains.md#pointing-the-explorer-at-bitcoin-core-or-litecoind)',
  }),
  publicBaseUrl: setting(httpUrl, {
    env: 'PUBLIC_BASE_URL',
    default: null,
    shown: '`http://HOST:PORT`',
    description: 'base URL the OpenAPI document names as its server; set it behind a proxy',
  }),
  poolsFile: setting(text, {
    env: 'POOLS_FILE',
    default: null,
    shown: 'the ones stored with the index (demo: the devnet’s `pools.json`)',
    description: 'JSON file of mining pool definitions',
    details:
      'Loaded into the database and kept there: a restart without it keeps the stored ones (and says so); a changed file is reloaded and blocks reattributed',
  }),
  labelsFile: setting(text, {
    env: 'LABELS_FILE',
    default: null,
    shown: 'the ones stored with the index (demo: the devnet’s `labels.json`)',
    description: 'JSON file of known address labels',
    details: 'Kept with the index like `POOLS_FILE`',
  }),
  logLevel: setting(oneOf(LOG_LEVELS), {
    env: 'LOG_LEVEL',
    flag: '--log-level <level>',
    default: 'info',
    description: 'lowest level of the log lines written',
  }),
  dbPoolSize: setting(int(1, 1000), {
    env: 'DB_POOL_SIZE',
    default: PG_POOL_DEFAULTS.max,
    description: 'PostgreSQL connections per pool',
  }),
  dbStatementTimeoutMs: setting(int(1), {
    env: 'DB_STATEMENT_TIMEOUT_MS',
    default: 5000,
    description: 'per-statement timeout on PostgreSQL, in milliseconds',
  }),
  dbConnectTimeoutMs: setting(int(1), {
    env: 'DB_CONNECT_TIMEOUT_MS',
    default: PG_POOL_DEFAULTS.connectionTimeoutMs,
    description: 'connection timeout on PostgreSQL, in milliseconds',
  }),
  dbPreparedStatements: setting(bool, {
    env: 'DB_PREPARED_STATEMENTS',
    default: true,
    description:
      'run statements as named prepared statements, parsed and planned once per connection; turn it off ' +
      'behind a pooler that cannot keep them (PgBouncer before 1.21 in transaction mode)',
  }),
  indexerPollMs: setting(int(10), {
    env: 'INDEXER_POLL_MS',
    default: INDEXER_DEFAULTS.pollIntervalMs,
    description: 'how often the synced indexer asks the node for a new tip, in milliseconds',
  }),
  mempoolPollMs: setting(int(100), {
    env: 'MEMPOOL_POLL_MS',
    default: MEMPOOL_WATCHER_DEFAULTS.pollMs,
    description: 'how often the process running the indexer reads the node’s mempool, in milliseconds',
    details:
      'The mempool feeds `mempool` and unconfirmed `address` events, and the fee estimates every replica ' +
      'serves ([fees](fees.md))',
  }),
  maxReorgDepth: setting(int(1), {
    env: 'MAX_REORG_DEPTH',
    default: null,
    shown: '`100` (none on regtest, simnet)',
    description:
      'deepest reorganisation rolled back automatically; a deeper one stops the indexer and keeps the data',
    details:
      'Unset, regtest and simnet have no limit: their nodes start their chains anew (pearld deletes its ' +
      'regtest database at every start)',
  }),
  finalityDepth: setting(int(1), {
    env: 'FINALITY_DEPTH',
    default: defaultApiConfig.finalityDepth,
    description: 'confirmations after which responses are treated as immutable and cached',
  }),
  cacheEntries: setting(int(0), {
    env: 'CACHE_ENTRIES',
    default: defaultApiConfig.cacheEntries,
    description:
      'entries of the in-process cache of immutable responses; `0` turns it off, and with it every ' +
      'in-process cache',
  }),
  responseCacheMb: setting(int(0, 65_536), {
    env: 'RESPONSE_CACHE_MB',
    default: defaultApiConfig.responseCacheBytes / MIB,
    description: 'approximate memory in MiB for chain-derived responses; `0` turns it off',
    details:
      'Each response is shared for up to a second by the requests for the same URL at the same indexed tip; ' +
      'see [decisions](decisions.md#response-cache)',
  }),
  walletThreads: setting(int(0, 256), {
    env: 'WALLET_THREADS',
    default: null,
    shown: 'one fewer than the cores, at least 1',
    description:
      'worker threads that derive wallet addresses (`/v1/wallet?key=…`); `0` derives in the request thread',
    details:
      'Each thread queues up to 64 derivations (a window of up to 100 addresses each); past that a wallet request that needs one is answered 503 ' +
      'with `Retry-After: 1`. See [operations](operations.md#wallet-key-derivation)',
  }),
  esploraPrefix: setting(pathPrefixOrOff, {
    env: 'ESPLORA_PREFIX',
    default: '/api',
    description: "where Esplora's REST API is served (`/api/tx/{txid}`…); `off` turns it off",
    details:
      'For wallets and libraries written for Esplora or mempool.space (BDK, LDK, mempool.js); see [Esplora](esplora.md)',
  }),
  broadcastEnabled: setting(bool, {
    env: 'BROADCAST_ENABLED',
    default: false,
    description: "forward the adapters' broadcasts (Esplora's `POST /tx`) to the node's `sendrawtransaction`",
    details: 'Off, the explorer is read-only and a broadcast is refused with a 405 saying so',
  }),
  corsOrigin: setting(text, {
    env: 'CORS_ORIGIN',
    default: '*',
    description: 'value of `Access-Control-Allow-Origin`',
  }),
  trustProxy: setting(bool, {
    env: 'TRUST_PROXY',
    flag: '--trust-proxy',
    default: false,
    description: 'take the client address from `X-Forwarded-For`',
  }),
  devnetSeed: setting(text, {
    env: 'DEVNET_SEED',
    default: 'explorer',
    description: 'seed of the built-in devnet; same seed, same chain',
  }),
  devnetBlocks: setting(int(0, 100_000), {
    env: 'DEVNET_BLOCKS',
    default: 300,
    description: 'blocks of history the devnet starts with',
  }),
  devnetTxPerBlock: setting(int(0, 1000), {
    env: 'DEVNET_TX_PER_BLOCK',
    default: 8,
    description: 'average transactions per devnet block',
  }),
  devnetIntervalMs: setting(int(0), {
    env: 'DEVNET_INTERVAL_MS',
    default: 15_000,
    description: 'a new devnet block every this many milliseconds; `0` stops live mining',
  }),
  devnetReplayFile: setting(text, {
    env: 'DEVNET_REPLAY_FILE',
    default: null,
    shown: 'none',
    description:
      'a file of given blocks (`{"blocks": [hex…]}`) the devnet replays instead of generating a chain',
    details:
      'From genesis, one more block every `DEVNET_INTERVAL_MS` (all at once with `0`), reorganisations ' +
      'included, e.g. a real pearld’s; see [devnet](devnet.md#replaying-given-blocks)',
  }),
  rateLimitEnabled: setting(bool, {
    env: 'RATE_LIMIT_ENABLED',
    default: true,
    description: 'count requests per bucket and answer 429 past the limit',
  }),
  rateLimitWindowSeconds: setting(int(1, 86_400), {
    env: 'RATE_LIMIT_WINDOW_SECONDS',
    default: 60,
    description: 'length of a rate-limit window in seconds',
  }),
  rateLimitAnon: setting(int(1, 1_000_000_000), {
    env: 'RATE_LIMIT_ANON',
    default: 120,
    description: 'requests per window of one anonymous client: an IPv4 address or an IPv6 /64',
  }),
  rateLimitKey: setting(int(1, 1_000_000_000), {
    env: 'RATE_LIMIT_KEY',
    default: 1200,
    description: 'requests per window of an API key whose tier has no limit of its own',
  }),
  rateLimitTiers: setting(tierLimits, {
    env: 'RATE_LIMIT_TIERS',
    default: {},
    shown: 'none',
    description: 'requests per window by key tier, e.g. `pro:6000,partner:20000`',
  }),
  redisUrl: setting(url(['redis:', 'rediss:']), {
    env: 'REDIS_URL',
    default: null,
    shown: 'none (per-process memory)',
    description: 'Redis shared by every process for rate-limit buckets and live events',
    details:
      'Rate limits then hold across processes, and live events reach every API replica through it ' +
      '([events](events.md)). Without it each process counts in memory, and API replicas read new events ' +
      'from the database every second',
  }),
  redisCommandTimeoutMs: setting(int(50, 60_000), {
    env: 'REDIS_COMMAND_TIMEOUT_MS',
    default: REDIS_DEFAULTS.commandTimeoutMs,
    description:
      'how long a rate-limit call waits for Redis before the in-memory fallback counts instead, in milliseconds',
  }),
  rateLimitPrefix: setting(text, {
    env: 'RATE_LIMIT_PREFIX',
    default: RATE_LIMITER_DEFAULTS.keyPrefix,
    description: 'prefix of the rate-limit keys in Redis',
    details: 'Give each deployment sharing a Redis its own',
  }),
  eventsChannel: setting(text, {
    env: 'EVENTS_CHANNEL',
    default: 'explorer:events',
    description: 'Redis pub/sub channel live events are shared on',
    details: 'Give each database its own',
  }),
  eventsRetain: setting(int(100, 10_000_000), {
    env: 'EVENTS_RETAIN',
    default: DEFAULT_EVENT_RETENTION,
    description: 'events the log keeps, for clients resuming with `Last-Event-ID`',
    details: 'See [live events](events.md)',
  }),
  eventsMaxStreamsAnon: setting(int(0, 100_000), {
    env: 'EVENTS_MAX_STREAMS_ANON',
    default: DEFAULT_EVENT_LIMITS.maxConnections.anonymous,
    description: 'open event streams and sockets per anonymous client address, per process',
  }),
  eventsMaxStreamsKey: setting(int(0, 1_000_000), {
    env: 'EVENTS_MAX_STREAMS_KEY',
    default: DEFAULT_EVENT_LIMITS.maxConnections.key,
    description: 'open event streams and sockets per API key, per process',
  }),
  eventsMaxQueueKb: setting(int(16, 1_048_576), {
    env: 'EVENTS_MAX_QUEUE_KB',
    default: DEFAULT_EVENT_LIMITS.maxQueueBytes / 1024,
    description: 'KiB of events queued for one subscriber before it is dropped as a slow consumer',
  }),
  apiKeyCacheSeconds: setting(int(0, 3600), {
    env: 'API_KEY_CACHE_SECONDS',
    default: 30,
    description: 'how long a verified API key is trusted before it is looked up again, in seconds',
    details: 'A revoke takes effect within this time',
  }),
  maxUrlLength: setting(int(256, 65_536), {
    env: 'MAX_URL_LENGTH',
    default: 14_336,
    description: 'longest request path and query in bytes; longer gets 414',
    details:
      'The default fits 200 addresses of 64 characters (commas percent-encoded) in one many-address request and keeps the request line with the usual headers under `MAX_HEADER_SIZE`',
  }),
  maxHeaderSize: setting(int(1024, 1_048_576), {
    env: 'MAX_HEADER_SIZE',
    default: 16_384,
    description: 'largest request line and headers in bytes; larger gets 431',
  }),
  webhookTimeoutMs: setting(int(100, 300_000), {
    env: 'WEBHOOK_TIMEOUT_MS',
    default: WEBHOOK_WORKER_DEFAULTS.timeoutMs,
    description: 'how long a webhook receiver has to answer a delivery with a 2xx, in milliseconds',
    details: 'See [webhooks](webhooks.md)',
  }),
  webhookRetryBaseMs: setting(int(1, 86_400_000), {
    env: 'WEBHOOK_RETRY_BASE_MS',
    default: WEBHOOK_WORKER_DEFAULTS.retryBaseMs,
    description:
      'wait before a failed delivery’s first retry, in milliseconds; each further retry waits twice as long',
  }),
  webhookRetryMaxMs: setting(int(1, 86_400_000), {
    env: 'WEBHOOK_RETRY_MAX_MS',
    default: WEBHOOK_WORKER_DEFAULTS.retryMaxMs,
    description: 'longest wait between two attempts of a delivery, in milliseconds',
  }),
  webhookMaxAgeHours: setting(int(1, 720), {
    env: 'WEBHOOK_MAX_AGE_HOURS',
    default: WEBHOOK_WORKER_DEFAULTS.maxAgeMs / HOUR_MS,
    description: 'age in hours after which a delivery that still fails is marked failed',
  }),
  webhookLeaseMs: setting(int(1, 86_400_000), {
    env: 'WEBHOOK_LEASE_MS',
    default: WEBHOOK_WORKER_DEFAULTS.leaseMs,
    description:
      'how long a delivery in flight is held, in milliseconds; one cut short by a crash is attempted again ' +
      'after it. More than `WEBHOOK_TIMEOUT_MS`',
  }),
  webhookConcurrency: setting(int(1, 256), {
    env: 'WEBHOOK_CONCURRENCY',
    default: WEBHOOK_WORKER_DEFAULTS.concurrency,
    description: 'webhook deliveries in flight at once',
  }),
  metricsPort: setting(portOrOff, {
    env: 'METRICS_PORT',
    default: 9464,
    description:
      'port of the Prometheus `/metrics` listener, apart from the API’s; `0` picks a free one, `off` turns metrics off',
    details:
      'The log names the port. One that cannot be bound is logged once and costs only the metrics; two ' +
      'processes on one host need a port each. See [operations](operations.md#metrics)',
  }),
  metricsHost: setting(text, {
    env: 'METRICS_HOST',
    default: '127.0.0.1',
    description: 'address the `/metrics` listener binds to',
    details:
      'A private interface (or `0.0.0.0` inside a container) for a Prometheus on another host, never a ' +
      'public one',
  }),
  index: setting(bool, {
    flag: '--no-index',
    default: true,
    shown: 'indexer on',
    description:
      '`start` only: serve without running the indexer; another process runs `explorer-server index`',
  }),
  market: marketSettings,
});

/**
 * NODE_RPC_URL with the network's default JSON-RPC port when it names none (pearld: 44107 mainnet, 44109
 * testnet, 44111 testnet2, 18334 regtest…); without CHAIN to say whose default, a port is required.
 */
function withDefaultPort(
  raw: string,
  chain: 'pearl' | 'bitcoin' | null,
  network: string | null,
): { url: string } | { problem: string } {
  const u = new URL(raw);
  // URL drops a port equal to the scheme's default (https://host:443): look at what was written.
  const authority = raw.split('//')[1]?.split('/')[0]?.split('@').pop() ?? '';
  if (u.port !== '' || /:\d+$/.test(authority)) return { url: raw };
  if (!chain) return { problem: 'names no port: add one, or set CHAIN (and CHAIN_NETWORK) for its default' };
  const port = defaultRpcPort(chain, network);
  if (port === undefined)
    return { problem: `names no port and ${chain} has no default for network ${quote(network ?? '')}` };
  u.port = String(port);
  return { url: u.toString() };
}

/** The whole configuration: every setting, then the checks that involve more than one. */
export const serverConfigSchema = settings.transform((c, ctx) => {
  const problem = (key: keyof typeof c, message: string) => {
    ctx.issues.push({ code: 'custom', path: [key], message, input: c });
    return z.NEVER;
  };
  if (c.databaseReadUrl && !c.databaseUrl)
    return problem('databaseReadUrl', 'needs DATABASE_URL (the embedded database has no replicas)');
  // A lease shorter than the timeout would let a second attempt start while the first still waits.
  if (c.webhookLeaseMs <= c.webhookTimeoutMs)
    return problem(
      'webhookLeaseMs',
      `must be more than WEBHOOK_TIMEOUT_MS (${c.webhookTimeoutMs}; got ${c.webhookLeaseMs})`,
    );
  if (c.nodeRpcCookie) {
    if (!c.nodeRpcUrl)
      return problem('nodeRpcCookie', 'needs NODE_RPC_URL (the built-in devnet takes no cookie)');
    const u = new URL(c.nodeRpcUrl);
    // Two sets of credentials: which one the node takes would be a guess, so neither is.
    if (u.username || u.password)
      return problem(
        'nodeRpcCookie',
        'cannot be used with credentials in NODE_RPC_URL: take user:password out of the URL, or unset NODE_RPC_COOKIE',
      );
  }
  if (c.nodeRpcUrl) {
    const node = withDefaultPort(c.nodeRpcUrl, c.chain, c.chainNetwork);
    if ('problem' in node) return problem('nodeRpcUrl', node.problem);
    return { ...c, nodeRpcUrl: node.url };
  }
  return c;
});

/** Everything the server and the indexer are configured with (the output of `serverConfigSchema`). */
export type ServerConfig = z.output<typeof serverConfigSchema>;

function describe(shape: z.ZodRawShape, prefix = ''): Setting[] {
  return Object.entries(shape).flatMap(([name, schema]) => {
    const key = `${prefix}${name}`;
    const group = schema instanceof z.ZodPipe ? schema.in : schema;
    if (group instanceof z.ZodObject) return describe(group.shape, `${key}.`);
    const meta = declared.get(schema);
    if (!meta) throw new Error(`config: ${key} is not declared with setting()`);
    return [{ key, ...meta }];
  });
}

/** Every setting, in the order --help and the documentation list them. */
export const SETTINGS: readonly Setting[] = describe(settings.shape);

/** Values given on the command line; they win over the environment. */
export interface ConfigFlags {
  port?: string | number;
  host?: string;
  dataDir?: string;
  logLevel?: string;
  trustProxy?: boolean;
  /** commander's `--no-index` sets this to false. */
  index?: boolean;
}

/** The flag as messages name it: `--port`. */
export const flagName = (s: Setting): string => s.flag?.split(' ')[0] ?? '';

/**
 * Reads the configuration from the environment and flags; throws ConfigError with a one-line message.
 * @example const config = loadConfig(process.env, { port: '8080' })
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  flags: ConfigFlags = {},
): ServerConfig {
  const input: Record<string, unknown> = {};
  /** What set each setting, as the message names it: the flag, else the variable. */
  const source = new Map<string, string>();
  for (const s of SETTINGS) {
    const flagValue = s.flag ? (flags as Record<string, unknown>)[s.key] : undefined;
    // An empty variable counts as unset: container tooling often exports VAR= for "no value".
    const envValue = s.env && env[s.env] !== '' ? env[s.env] : undefined;
    const raw = flagValue !== undefined ? String(flagValue) : envValue;
    source.set(s.key, flagValue !== undefined || !s.env ? flagName(s) : s.env);
    const path = s.key.split('.');
    let at = input;
    for (const part of path.slice(0, -1)) {
      at[part] ??= {};
      at = at[part] as Record<string, unknown>;
    }
    if (raw !== undefined) at[path.at(-1)!] = raw;
  }
  const parsed = serverConfigSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const key = issue.path.join('.');
  throw new ConfigError(source.get(key) ?? key, issue.message);
}

/** The base URL the API announces: PUBLIC_BASE_URL, else http://HOST:PORT with the port actually bound. */
export function publicBaseUrl(config: ServerConfig, boundPort: number): string {
  if (config.publicBaseUrl) return config.publicBaseUrl.replace(/\/+$/, '');
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${boundPort}`;
}
