import { parseTierLimits } from '@explorer/core';
import { defaultRpcPort, type MarketConfig, MarketConfigError, marketConfigFromEnv } from '@explorer/indexer';
import { LOG_LEVELS, type LogLevel } from './logger.js';

/** Everything the server and the indexer are configured with. */
export interface ServerConfig {
  port: number;
  host: string;
  /** PostgreSQL URL; null → embedded PGlite in `dataDir`. */
  databaseUrl: string | null;
  /** PostgreSQL URL the API reads from (a replica); null → `databaseUrl`. */
  databaseReadUrl: string | null;
  dataDir: string;
  /** The chain node's JSON-RPC URL (pearld or a Bitcoin Core fork); null → the built-in devnet. */
  nodeRpcUrl: string | null;
  /** The node's chain family; null → detected from the node's genesis block. */
  chain: 'pearl' | 'bitcoin' | null;
  /** The node's network (mainnet, testnet, testnet2, regtest…); null → detected. */
  chainNetwork: string | null;
  /** PEM file of the certificate to trust for an https:// node (pearld's rpc.cert). */
  nodeRpcCert: string | null;
  /** Base URL the OpenAPI document names; null → http://HOST:PORT once the port is known. */
  publicBaseUrl: string | null;
  poolsFile: string | null;
  labelsFile: string | null;
  logLevel: LogLevel;
  dbPoolSize: number;
  dbStatementTimeoutMs: number;
  dbConnectTimeoutMs: number;
  dbPreparedStatements: boolean;
  indexerPollMs: number;
  /** How often the mempool watcher beside the indexer reads the node's mempool. */
  mempoolPollMs: number;
  /** Null: 100, and no limit on regtest and simnet. */
  maxReorgDepth: number | null;
  finalityDepth: number;
  cacheEntries: number;
  /** Approximate memory budget of the response cache, in MiB (0 turns it off). */
  responseCacheMb: number;
  corsOrigin: string;
  trustProxy: boolean;
  devnetSeed: string;
  devnetBlocks: number;
  devnetTxPerBlock: number;
  devnetIntervalMs: number;
  /** A file of given blocks the built-in devnet replays instead of generating a chain; null: it generates. */
  devnetReplayFile: string | null;
  /** Count requests per bucket and answer 429 past the limit. */
  rateLimitEnabled: boolean;
  rateLimitWindowSeconds: number;
  /** Requests per window of one anonymous client (IPv4 address or IPv6 /64). */
  rateLimitAnon: number;
  /** Requests per window of a key whose tier has no limit of its own. */
  rateLimitKey: number;
  /** Requests per window by key tier. */
  rateLimitTiers: Record<string, number>;
  /** Redis shared by all replicas for rate-limit buckets; null → per-process memory. */
  redisUrl: string | null;
  /** Milliseconds a rate-limit call waits for Redis before falling back to memory. */
  redisCommandTimeoutMs: number;
  /** Prefix of the rate-limit keys in Redis. */
  rateLimitPrefix: string;
  /** Redis pub/sub channel live events are shared on. */
  eventsChannel: string;
  /** Events the log keeps for resuming clients. */
  eventsRetain: number;
  /** Open event streams / sockets per anonymous client address. */
  eventsMaxStreamsAnon: number;
  /** Open event streams / sockets per API key. */
  eventsMaxStreamsKey: number;
  /** KiB queued for one event subscriber before it is dropped as a slow consumer. */
  eventsMaxQueueKb: number;
  /** How long a verified API key is trusted before it is looked up again (bounds how late a revoke bites). */
  apiKeyCacheSeconds: number;
  /** Longest request target (path and query) in bytes; longer is 414. */
  maxUrlLength: number;
  /** Largest request head (request line and headers) in bytes; larger is 431. */
  maxHeaderSize: number;
  /** Run the indexer in this process (`start --no-index` turns it off). */
  index: boolean;
  /** Market-data settings (MARKET_*), read by the refresher that runs beside the indexer. */
  market: MarketConfig;
  /** How long a webhook receiver has to answer one delivery. */
  webhookTimeoutMs: number;
  /** Wait before a failed delivery's first retry; each further retry waits twice as long. */
  webhookRetryBaseMs: number;
  /** Longest wait between two attempts of a delivery. */
  webhookRetryMaxMs: number;
  /** Age after which a delivery that still fails is given up. */
  webhookMaxAgeHours: number;
  /** How long a claimed delivery is held before another attempt may take it (a crashed worker's). */
  webhookLeaseMs: number;
  /** Deliveries in flight at once. */
  webhookConcurrency: number;
}

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

type Parser<T> = (raw: string, name: string) => T;

/** One setting: its environment variable, optional CLI flag, default and meaning (also used for --help and docs). */
export interface Setting<K extends keyof ServerConfig = keyof ServerConfig> {
  key: K;
  env: string;
  /** Long flag of `start`/`index`, e.g. `--port <n>`. */
  flag?: string;
  /** Default as shown to people. */
  shown: string;
  description: string;
  parse: Parser<ServerConfig[K]>;
  fallback: ServerConfig[K];
}

const quote = (raw: string) => JSON.stringify(raw.length > 80 ? `${raw.slice(0, 80)}…` : raw);

const int =
  (min: number, max: number): Parser<number> =>
  (raw, name) => {
    const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
      throw new ConfigError(name, `must be an integer ${range} (got ${quote(raw)})`);
    }
    return n;
  };

const text: Parser<string> = (raw, name) => {
  const v = raw.trim();
  if (v === '') throw new ConfigError(name, 'must not be empty');
  return v;
};

const bool: Parser<boolean> = (raw, name) => {
  const v = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(name, `must be true or false (got ${quote(raw)})`);
};

// URLs may carry passwords: a rejected one is described, never echoed.
const url =
  (protocols: string[], what: string): Parser<string> =>
  (raw, name) => {
    let u: URL;
    try {
      u = new URL(raw.trim());
    } catch {
      throw new ConfigError(name, `must be ${what} (got a value that is not a URL)`);
    }
    if (!protocols.includes(u.protocol)) {
      throw new ConfigError(name, `must be ${what} (got a ${u.protocol.replace(/:$/, '')}: URL)`);
    }
    return raw.trim();
  };

const oneOf =
  <T extends string>(values: readonly T[]): Parser<T> =>
  (raw, name) => {
    const v = raw.trim().toLowerCase();
    if ((values as readonly string[]).includes(v)) return v as T;
    throw new ConfigError(name, `must be one of ${values.join(', ')} (got ${quote(raw)})`);
  };

const logLevel: Parser<LogLevel> = (raw, name) => {
  const v = raw.trim().toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(v)) return v as LogLevel;
  throw new ConfigError(name, `must be one of ${LOG_LEVELS.join(', ')} (got ${quote(raw)})`);
};

const nullable =
  <T>(p: Parser<T>): Parser<T | null> =>
  (raw, name) =>
    p(raw, name);

const tiers: Parser<Record<string, number>> = (raw, name) => {
  try {
    return parseTierLimits(raw);
  } catch (err) {
    throw new ConfigError(name, (err as Error).message);
  }
};

const MAX = Number.MAX_SAFE_INTEGER;
const pgUrl = nullable(url(['postgres:', 'postgresql:'], 'a postgres:// or postgresql:// URL'));
const httpUrl = nullable(url(['http:', 'https:'], 'an http:// or https:// URL'));
const redisUrl = nullable(url(['redis:', 'rediss:'], 'a redis:// or rediss:// URL'));

const s = <K extends keyof ServerConfig>(setting: Setting<K>): Setting => setting as unknown as Setting;

/** Every setting, in the order --help and the documentation list them. */
export const SETTINGS: readonly Setting[] = [
  s({
    key: 'port',
    env: 'PORT',
    flag: '--port <n>',
    shown: '3000',
    description: 'HTTP port (0 picks a free one)',
    parse: int(0, 65535),
    fallback: 3000,
  }),
  s({
    key: 'host',
    env: 'HOST',
    flag: '--host <address>',
    shown: '127.0.0.1',
    description: 'address to listen on',
    parse: text,
    fallback: '127.0.0.1',
  }),
  s({
    key: 'databaseUrl',
    env: 'DATABASE_URL',
    shown: 'embedded PGlite',
    description: 'PostgreSQL connection URL',
    parse: pgUrl,
    fallback: null,
  }),
  s({
    key: 'databaseReadUrl',
    env: 'DATABASE_READ_URL',
    shown: 'DATABASE_URL',
    description: 'PostgreSQL URL the API reads from (a replica)',
    parse: pgUrl,
    fallback: null,
  }),
  s({
    key: 'dataDir',
    env: 'EXPLORER_DATA_DIR',
    flag: '--data-dir <dir>',
    shown: './.explorer',
    description: 'embedded database and devnet files',
    parse: text,
    fallback: './.explorer',
  }),
  s({
    key: 'nodeRpcUrl',
    env: 'NODE_RPC_URL',
    shown: 'built-in devnet',
    description: 'chain node JSON-RPC URL (credentials in the URL)',
    parse: httpUrl,
    fallback: null,
  }),
  s({
    key: 'chain',
    env: 'CHAIN',
    shown: 'detected',
    description: 'the node’s chain family: pearl (pearld) or bitcoin (Bitcoin Core and its forks)',
    parse: nullable(oneOf(['pearl', 'bitcoin'] as const)),
    fallback: null,
  }),
  s({
    key: 'chainNetwork',
    env: 'CHAIN_NETWORK',
    shown: 'detected',
    description: 'the node’s network: mainnet, testnet, testnet2, regtest, simnet or signet (Pearl)',
    parse: nullable(text),
    fallback: null,
  }),
  s({
    key: 'nodeRpcCert',
    env: 'NODE_RPC_CERT',
    shown: 'system CAs',
    description: 'certificate (PEM) to trust for an https:// node, e.g. ~/.pearld/rpc.cert',
    parse: nullable(text),
    fallback: null,
  }),
  s({
    key: 'publicBaseUrl',
    env: 'PUBLIC_BASE_URL',
    shown: 'http://HOST:PORT',
    description: 'base URL the OpenAPI document names',
    parse: httpUrl,
    fallback: null,
  }),
  s({
    key: 'poolsFile',
    env: 'POOLS_FILE',
    shown: "stored ones (demo: devnet's pools.json)",
    description: 'mining pool definitions (JSON)',
    parse: nullable(text),
    fallback: null,
  }),
  s({
    key: 'labelsFile',
    env: 'LABELS_FILE',
    shown: "stored ones (demo: devnet's labels.json)",
    description: 'known address labels (JSON)',
    parse: nullable(text),
    fallback: null,
  }),
  s({
    key: 'logLevel',
    env: 'LOG_LEVEL',
    flag: '--log-level <level>',
    shown: 'info',
    description: LOG_LEVELS.join('|'),
    parse: logLevel,
    fallback: 'info',
  }),
  s({
    key: 'dbPoolSize',
    env: 'DB_POOL_SIZE',
    shown: '10',
    description: 'PostgreSQL connections per pool',
    parse: int(1, 1000),
    fallback: 10,
  }),
  s({
    key: 'dbStatementTimeoutMs',
    env: 'DB_STATEMENT_TIMEOUT_MS',
    shown: '5000',
    description: 'per-statement timeout (PostgreSQL)',
    parse: int(1, MAX),
    fallback: 5000,
  }),
  s({
    key: 'dbConnectTimeoutMs',
    env: 'DB_CONNECT_TIMEOUT_MS',
    shown: '5000',
    description: 'connection timeout (PostgreSQL)',
    parse: int(1, MAX),
    fallback: 5000,
  }),
  s({
    key: 'dbPreparedStatements',
    env: 'DB_PREPARED_STATEMENTS',
    shown: 'true',
    description: 'parse and plan each statement once per connection (turn off behind PgBouncer < 1.21)',
    parse: bool,
    fallback: true,
  }),
  s({
    key: 'indexerPollMs',
    env: 'INDEXER_POLL_MS',
    shown: '1000',
    description: 'how often the synced indexer asks for a new tip',
    parse: int(10, MAX),
    fallback: 1000,
  }),
  s({
    key: 'mempoolPollMs',
    env: 'MEMPOOL_POLL_MS',
    shown: '2000',
    description: 'how often the indexer reads the node’s mempool (mempool events, fee estimates)',
    parse: int(100, MAX),
    fallback: 2000,
  }),
  s({
    key: 'maxReorgDepth',
    env: 'MAX_REORG_DEPTH',
    shown: '100 (none on regtest, simnet)',
    description: 'deepest reorg rolled back automatically',
    parse: int(1, MAX),
    fallback: null,
  }),
  s({
    key: 'finalityDepth',
    env: 'FINALITY_DEPTH',
    shown: '100',
    description: 'confirmations after which responses are immutable',
    parse: int(1, MAX),
    fallback: 100,
  }),
  s({
    key: 'cacheEntries',
    env: 'CACHE_ENTRIES',
    shown: '10000',
    description: 'in-process cache of immutable responses',
    parse: int(0, MAX),
    fallback: 10_000,
  }),
  s({
    key: 'responseCacheMb',
    env: 'RESPONSE_CACHE_MB',
    shown: '32',
    description: 'memory for chain-derived responses shared per URL and indexed tip (0 turns it off)',
    parse: int(0, 65_536),
    fallback: 32,
  }),
  s({
    key: 'corsOrigin',
    env: 'CORS_ORIGIN',
    shown: '*',
    description: 'Access-Control-Allow-Origin',
    parse: text,
    fallback: '*',
  }),
  s({
    key: 'trustProxy',
    env: 'TRUST_PROXY',
    flag: '--trust-proxy',
    shown: 'false',
    description: 'take the client address from X-Forwarded-For',
    parse: bool,
    fallback: false,
  }),
  s({
    key: 'devnetSeed',
    env: 'DEVNET_SEED',
    shown: 'explorer',
    description: 'seed of the built-in devnet chain',
    parse: text,
    fallback: 'explorer',
  }),
  s({
    key: 'devnetBlocks',
    env: 'DEVNET_BLOCKS',
    shown: '300',
    description: 'blocks the devnet starts with',
    parse: int(0, 100_000),
    fallback: 300,
  }),
  s({
    key: 'devnetTxPerBlock',
    env: 'DEVNET_TX_PER_BLOCK',
    shown: '8',
    description: 'average transactions per devnet block',
    parse: int(0, 1000),
    fallback: 8,
  }),
  s({
    key: 'devnetIntervalMs',
    env: 'DEVNET_INTERVAL_MS',
    shown: '15000',
    description: 'live block interval of the devnet (0 stops mining)',
    parse: int(0, MAX),
    fallback: 15_000,
  }),
  s({
    key: 'devnetReplayFile',
    env: 'DEVNET_REPLAY_FILE',
    shown: 'none',
    description: 'blocks the devnet replays instead of generating a chain ({"blocks": [hex…]})',
    parse: nullable(text),
    fallback: null,
  }),
  s({
    key: 'rateLimitEnabled',
    env: 'RATE_LIMIT_ENABLED',
    shown: 'true',
    description: 'count requests per bucket and answer 429 past the limit',
    parse: bool,
    fallback: true,
  }),
  s({
    key: 'rateLimitWindowSeconds',
    env: 'RATE_LIMIT_WINDOW_SECONDS',
    shown: '60',
    description: 'length of a rate-limit window in seconds',
    parse: int(1, 86_400),
    fallback: 60,
  }),
  s({
    key: 'rateLimitAnon',
    env: 'RATE_LIMIT_ANON',
    shown: '120',
    description: 'requests per window of one anonymous client (IPv4 address, IPv6 /64)',
    parse: int(1, 1_000_000_000),
    fallback: 120,
  }),
  s({
    key: 'rateLimitKey',
    env: 'RATE_LIMIT_KEY',
    shown: '1200',
    description: 'requests per window of an API key whose tier has no limit of its own',
    parse: int(1, 1_000_000_000),
    fallback: 1200,
  }),
  s({
    key: 'rateLimitTiers',
    env: 'RATE_LIMIT_TIERS',
    shown: 'none',
    description: 'requests per window by key tier, e.g. pro:6000,partner:20000',
    parse: tiers,
    fallback: {},
  }),
  s({
    key: 'redisUrl',
    env: 'REDIS_URL',
    shown: 'none (per-process memory)',
    description: 'Redis shared by all replicas for rate-limit buckets and live events',
    parse: redisUrl,
    fallback: null,
  }),
  s({
    key: 'redisCommandTimeoutMs',
    env: 'REDIS_COMMAND_TIMEOUT_MS',
    shown: '500',
    description: 'how long a rate-limit call may wait for Redis before the in-memory fallback counts instead',
    parse: int(50, 60_000),
    fallback: 500,
  }),
  s({
    key: 'rateLimitPrefix',
    env: 'RATE_LIMIT_PREFIX',
    shown: 'explorer:rl',
    description: 'prefix of the rate-limit keys in Redis',
    parse: text,
    fallback: 'explorer:rl',
  }),
  s({
    key: 'eventsChannel',
    env: 'EVENTS_CHANNEL',
    shown: 'explorer:events',
    description: 'Redis pub/sub channel live events are shared on (one per database)',
    parse: text,
    fallback: 'explorer:events',
  }),
  s({
    key: 'eventsRetain',
    env: 'EVENTS_RETAIN',
    shown: '10000',
    description: 'events the log keeps, for clients resuming with Last-Event-ID',
    parse: int(100, 10_000_000),
    fallback: 10_000,
  }),
  s({
    key: 'eventsMaxStreamsAnon',
    env: 'EVENTS_MAX_STREAMS_ANON',
    shown: '5',
    description: 'open event streams and sockets per anonymous client address (per process)',
    parse: int(0, 100_000),
    fallback: 5,
  }),
  s({
    key: 'eventsMaxStreamsKey',
    env: 'EVENTS_MAX_STREAMS_KEY',
    shown: '100',
    description: 'open event streams and sockets per API key (per process)',
    parse: int(0, 1_000_000),
    fallback: 100,
  }),
  s({
    key: 'eventsMaxQueueKb',
    env: 'EVENTS_MAX_QUEUE_KB',
    shown: '1024',
    description: 'KiB of events queued for one subscriber before it is dropped as a slow consumer',
    parse: int(16, 1_048_576),
    fallback: 1024,
  }),
  s({
    key: 'apiKeyCacheSeconds',
    env: 'API_KEY_CACHE_SECONDS',
    shown: '30',
    description: 'how long a verified API key is trusted before it is looked up again',
    parse: int(0, 3600),
    fallback: 30,
  }),
  s({
    key: 'maxUrlLength',
    env: 'MAX_URL_LENGTH',
    shown: '2048',
    description: 'longest request path and query in bytes (longer: 414)',
    parse: int(256, 65_536),
    fallback: 2048,
  }),
  s({
    key: 'maxHeaderSize',
    env: 'MAX_HEADER_SIZE',
    shown: '16384',
    description: 'largest request line and headers in bytes (larger: 431)',
    parse: int(1024, 1_048_576),
    fallback: 16_384,
  }),
  s({
    key: 'webhookTimeoutMs',
    env: 'WEBHOOK_TIMEOUT_MS',
    shown: '10000',
    description: 'how long a webhook receiver has to answer a delivery',
    parse: int(100, 300_000),
    fallback: 10_000,
  }),
  s({
    key: 'webhookRetryBaseMs',
    env: 'WEBHOOK_RETRY_BASE_MS',
    shown: '5000',
    description: 'wait before a failed webhook delivery is retried, doubling with each further attempt',
    parse: int(1, 86_400_000),
    fallback: 5_000,
  }),
  s({
    key: 'webhookRetryMaxMs',
    env: 'WEBHOOK_RETRY_MAX_MS',
    shown: '3600000',
    description: 'longest wait between two attempts of a webhook delivery',
    parse: int(1, 86_400_000),
    fallback: 3_600_000,
  }),
  s({
    key: 'webhookMaxAgeHours',
    env: 'WEBHOOK_MAX_AGE_HOURS',
    shown: '24',
    description: 'age after which a webhook delivery that still fails is marked failed',
    parse: int(1, 720),
    fallback: 24,
  }),
  s({
    key: 'webhookLeaseMs',
    env: 'WEBHOOK_LEASE_MS',
    shown: '60000',
    description:
      'how long a delivery in flight is held; one cut short by a crash is retried after it (more than WEBHOOK_TIMEOUT_MS)',
    parse: int(1, 86_400_000),
    fallback: 60_000,
  }),
  s({
    key: 'webhookConcurrency',
    env: 'WEBHOOK_CONCURRENCY',
    shown: '8',
    description: 'webhook deliveries in flight at once',
    parse: int(1, 256),
    fallback: 8,
  }),
];

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

/**
 * Reads the configuration from the environment and flags; throws ConfigError with a one-line message.
 * @example const config = loadConfig(process.env, { port: '8080' })
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  flags: ConfigFlags = {},
): ServerConfig {
  const out: Record<string, unknown> = { index: flags.index ?? true };
  for (const setting of SETTINGS) {
    const flagValue = (flags as Record<string, unknown>)[setting.key];
    const name = flagValue !== undefined && setting.flag ? setting.flag.split(' ')[0]! : setting.env;
    // An empty variable counts as unset: container tooling often exports VAR= for "no value".
    const raw =
      flagValue !== undefined ? String(flagValue) : env[setting.env] === '' ? undefined : env[setting.env];
    out[setting.key] = raw === undefined ? setting.fallback : setting.parse(raw, name);
  }
  const config = out as unknown as ServerConfig;
  try {
    config.market = marketConfigFromEnv(env);
  } catch (err) {
    if (!(err instanceof MarketConfigError)) throw err;
    const [variable = 'MARKET_*', ...problem] = err.message.split(' ');
    throw new ConfigError(variable, problem.join(' '));
  }
  if (config.databaseReadUrl && !config.databaseUrl) {
    throw new ConfigError('DATABASE_READ_URL', 'needs DATABASE_URL (the embedded database has no replicas)');
  }
  // A lease shorter than the timeout would let a second attempt start while the first still waits.
  if (config.webhookLeaseMs <= config.webhookTimeoutMs) {
    throw new ConfigError(
      'WEBHOOK_LEASE_MS',
      `must be more than WEBHOOK_TIMEOUT_MS (${config.webhookTimeoutMs}; got ${config.webhookLeaseMs})`,
    );
  }
  if (config.nodeRpcUrl) config.nodeRpcUrl = withDefaultPort(config);
  return config;
}

/**
 * NODE_RPC_URL with the network's default JSON-RPC port when it names none (pearld: 44107 mainnet, 44109
 * testnet, 44111 testnet2, 18334 regtest…); without CHAIN to say whose default, a port is required.
 */
function withDefaultPort(config: ServerConfig): string {
  const raw = config.nodeRpcUrl as string;
  const u = new URL(raw);
  // URL drops a port equal to the scheme's default (https://host:443): look at what was written.
  const authority = raw.split('//')[1]?.split('/')[0]?.split('@').pop() ?? '';
  if (u.port !== '' || /:\d+$/.test(authority)) return raw;
  if (!config.chain)
    throw new ConfigError(
      'NODE_RPC_URL',
      'names no port: add one, or set CHAIN (and CHAIN_NETWORK) for its default',
    );
  const port = defaultRpcPort(config.chain, config.chainNetwork);
  if (port === undefined)
    throw new ConfigError(
      'NODE_RPC_URL',
      `names no port and ${config.chain} has no default for network ${quote(config.chainNetwork ?? '')}`,
    );
  u.port = String(port);
  return u.toString();
}

/** The base URL the API announces: PUBLIC_BASE_URL, else http://HOST:PORT with the port actually bound. */
export function publicBaseUrl(config: ServerConfig, boundPort: number): string {
  if (config.publicBaseUrl) return config.publicBaseUrl.replace(/\/+$/, '');
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${boundPort}`;
}
