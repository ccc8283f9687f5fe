import { readFileSync } from 'node:fs';
import type { Server as HttpServer } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { secp256k1Backend } from '@explorer/chain';
import {
  type ChainEvent,
  createExplorerApi,
  DEFAULT_EVENT_LIMITS,
  type Logger,
  type Store,
  v1Routes,
} from '@explorer/core';
import {
  createSqlStore,
  DatabaseError,
  type DirectoryLock,
  DirectoryLockedError,
  dataDirInUse,
  directoryLockHolder,
  lockDirectory,
  recordMarketNotConfigured,
  type Sql,
} from '@explorer/db';
import {
  createIndexer,
  createMarketProvider,
  createMarketRefresher,
  createMempoolWatcher,
  createNodeClient,
  findCookieFile,
  type Indexer,
  loadDefinitions,
  type NodeClientOptions,
  NodeCookieError,
  readCookie,
} from '@explorer/indexer';
import { serve } from '@hono/node-server';
import { createAccess } from './access.js';
import { createServerApp } from './app.js';
import { upgradeClientAddress } from './client-address.js';
import { attachClientErrorHandler } from './client-errors.js';
import { ConfigError, publicBaseUrl, type ServerConfig } from './config.js';
import { openConfigured } from './database/open.js';
import type { DevnetChain } from './devnet-chain.js';
import { createEventHub } from './events/hub.js';
import { attachWebSocket } from './events/websocket.js';
import { createLogger } from './logger.js';
import { createMetrics, type Metrics, serveMetrics } from './metrics/index.js';
import { createNodeAdapter, type NodeAdapter } from './node-adapter.js';
import { connectRedis, type RedisLink } from './redis.js';
import { requestIdOf, serverErrorBody } from './server-envelope.js';
import { observeAll, syncProgressWriter } from './sync-progress.js';
import { SERVER_VERSION } from './version.js';
import { createWalletPool, defaultWalletThreads } from './wallet-pool.js';
import { createWebhookWorker } from './webhooks/worker.js';

/** What a runtime serves; close() releases everything it opened. */
export interface Runtime {
  /** The HTTP address, or null when no HTTP server runs (`index`). */
  url: string | null;
  /** A human summary of the backing pieces, e.g. `PGlite at ./.explorer, devnet node`. */
  summary: string;
  /** Where Prometheus scrapes this process (`http://127.0.0.1:9464/metrics`); null when metrics are off or unbound. */
  metricsUrl: string | null;
  /** Stops accepting, lets in-flight requests finish (bounded), stops the indexer and devnet, closes the database. */
  close(): Promise<void>;
}

/** What to run besides the configuration. */
export interface RuntimeOptions {
  /** Serve HTTP (default true); `index` runs without it. */
  http?: boolean;
  /** Logger (default: JSON lines on stdout at config.logLevel). */
  log?: Logger;
  /** Longest wait for in-flight requests on close, in milliseconds (default 10,000). */
  drainMs?: number;
  /** What this process runs, named to a second process refused the data dir (default `explorer-server`). */
  command?: string;
  /**
   * Told when the indexer stopped for good after the start (a database holding another chain than the
   * node's): the process should close the runtime and exit. Without it the API goes on serving.
   */
  onFatal?: (err: Error) => void;
  /** Told the sync's progress as lines for a person (a terminal whose log hides it); see syncProgressWriter. */
  progress?: (line: string) => void;
}

type Closer = () => Promise<void> | void;

/** The indexer's batches on the embedded database: a few hundred transactions per write transaction. */
const EMBEDDED_SYNC_BATCH = { batchTxTarget: 100, maxBatchBlocks: 25 };

function listen(
  server: ReturnType<typeof serve>,
  ready: Promise<AddressInfo>,
  what: string,
): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => reject(new Error(listenProblem(what, err)));
    server.once('error', onError);
    ready.then((info) => {
      server.off('error', onError);
      resolve(info);
    }, reject);
  });
}

/** The one line a failed bind is reported with. */
function listenProblem(what: string, err: NodeJS.ErrnoException): string {
  return err.code === 'EADDRINUSE'
    ? `cannot listen on ${what}: address in use; stop what holds it, or choose another --port (PORT)`
    : `cannot listen on ${what}: ${err.message}`;
}

/** The one line a data dir held by another process is reported with: the server's flag and variable. */
export function dataDirProblem(err: DirectoryLockedError): string {
  return dataDirInUse(err, '--data-dir (EXPLORER_DATA_DIR)');
}

/**
 * True when this configuration keeps files in the data dir: the embedded database, or the built-in devnet
 * (started only by a process that indexes; an API-only process on PostgreSQL writes nothing there).
 */
export const usesDataDir = (config: ServerConfig) =>
  !config.databaseUrl || (!config.nodeRpcUrl && config.index);

/**
 * What would stop a start at once, found without starting anything: the data dir held by another live
 * process, or the port in use. Null when neither.
 * @example const problem = await preflight(config); if (problem) console.error(problem)
 */
export async function preflight(config: ServerConfig, opts: { http?: boolean } = {}): Promise<string | null> {
  if (usesDataDir(config)) {
    const holder = directoryLockHolder(config.dataDir);
    if (holder) return dataDirProblem(new DirectoryLockedError(config.dataDir, holder));
  }
  if (opts.http === false) return null;
  const probe = createNetServer();
  return new Promise((resolve) => {
    probe.once('error', (err: NodeJS.ErrnoException) =>
      resolve(listenProblem(`${config.host}:${config.port}`, err)),
    );
    probe.listen({ port: config.port, host: config.host, exclusive: true }, () =>
      probe.close(() => resolve(null)),
    );
  });
}

/** The bound HTTP server: it answers 503 until serve() hands it the app. */
interface HttpListener {
  info: AddressInfo;
  /** The Node server (WebSocket upgrades attach to it). */
  server: HttpServer;
  serve(fetch: (req: Request, env: unknown) => Response | Promise<Response>): void;
  /** Stops accepting and lets in-flight requests finish, at most drainMs. */
  close(): Promise<void>;
}

/**
 * Binds the port before anything else starts, so a port in use is reported at once; until the app is ready,
 * requests get a 503 envelope with Retry-After.
 */
async function bindHttp(config: ServerConfig, log: Logger, drainMs: number): Promise<HttpListener> {
  let fetchApp: ((req: Request, env: unknown) => Response | Promise<Response>) | null = null;
  let resolveReady: (info: AddressInfo) => void = () => {};
  const ready = new Promise<AddressInfo>((r) => {
    resolveReady = r;
  });
  const starting = (req: Request) => {
    const requestId = requestIdOf(req.headers);
    return new Response(serverErrorBody(requestId, 'the explorer is starting; retry shortly'), {
      status: 503,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'retry-after': '1',
        'x-request-id': requestId,
        'cache-control': 'no-store',
      },
    });
  };
  const server = serve(
    {
      fetch: (req, env) => (fetchApp ? fetchApp(req, env) : starting(req)),
      port: config.port,
      hostname: config.host,
      serverOptions: { maxHeaderSize: config.maxHeaderSize },
    },
    (info) => resolveReady(info),
  );
  attachClientErrorHandler(server, log, () => fetchApp);
  // Slow clients cannot hold connections open: the head must arrive in 10 s, the request in 30 s.
  const httpServer = server as { headersTimeout?: number; requestTimeout?: number };
  httpServer.headersTimeout = 10_000;
  httpServer.requestTimeout = 30_000;
  const info = await listen(server, ready, `${config.host}:${config.port}`).catch((err) => {
    server.close();
    throw err;
  });
  return {
    info,
    server: server as HttpServer,
    serve(fetch) {
      fetchApp = fetch;
    },
    close: () =>
      new Promise<void>((resolve) => {
        // Idle keep-alive sockets would hold close() open; busy ones get drainMs to finish.
        const force = setTimeout(() => {
          log.warn({ drainMs }, 'in-flight requests did not finish in time; closing their connections');
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        }, drainMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        (server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      }),
  };
}

/**
 * The store the API reads, told about an indexer running in this process: while the database cannot be read,
 * /v1/status reports that indexer's own state (database-unreachable or disk-full, its tip) instead of nothing.
 */
function withLocalIndexer(store: Store, indexer: Indexer | null): Store {
  if (!indexer) return store;
  return {
    ...store,
    indexerState: () =>
      store.indexerState().then(
        (stored) => {
          // A full disk keeps the indexer from recording why it stopped: this process's indexer says it.
          const s = indexer.status();
          if (!stored || s.state !== 'disk-full') return stored;
          return { ...stored, state: s.state, error: s.error, progress: null };
        },
        (err) => {
          // Only a database that cannot be reached, or one whose full disk ends new connections: a bad
          // statement stays the error it is.
          if (!(err instanceof DatabaseError && (err.unavailable || err.diskFull))) throw err;
          const s = indexer.status();
          return {
            state: s.state,
            error: s.error,
            tipHeight: s.tipHeight,
            tipHash: s.tipHash,
            txTipHeight: s.tipHeight,
            nodeHeight: s.nodeHeight,
            reorgs: s.reorgs,
            lastReorgDepth: null,
            lastReorgAt: null,
            updatedAt: new Date().toISOString(),
            chain: s.chain,
            progress: s.state === 'syncing' ? s.progress : null,
          };
        },
      ),
  };
}

/** The node's TLS certificate, read once at start; an unreadable file stops the start with one line. */
function readCertificate(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new ConfigError(
      'NODE_RPC_CERT',
      `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): ${path}`,
    );
  }
}

/**
 * The node's cookie file (NODE_RPC_COOKIE: the file, or a data dir to find it in), read once now so that a
 * missing or unreadable one stops the start with one line; where it was found is logged, never its content.
 */
function nodeCookieFile(config: ServerConfig, log: Logger): string {
  const named = config.nodeRpcCookie as string;
  try {
    const { file, dataDir } = findCookieFile(named, config.chainNetwork);
    readCookie(file);
    if (dataDir) log.info({ cookieFile: file, dataDir }, 'node cookie found in the data dir');
    else log.info({ cookieFile: file }, 'node cookie');
    return file;
  } catch (err) {
    if (err instanceof NodeCookieError) throw new ConfigError('NODE_RPC_COOKIE', err.problem);
    throw err;
  }
}

/**
 * Builds and starts everything the configuration asks for: database (migrated), devnet when no node is
 * configured, indexer, API and HTTP server.
 * @example const rt = await createRuntime(loadConfig()); console.log(rt.url); await rt.close()
 */
export async function createRuntime(config: ServerConfig, opts: RuntimeOptions = {}): Promise<Runtime> {
  const log = opts.log ?? createLogger({ level: config.logLevel });
  const http = opts.http ?? true;
  const drainMs = opts.drainMs ?? 10_000;
  // Closed in reverse order of opening, so a failure halfway leaves nothing running.
  const closers: Closer[] = [];
  // The HTTP server is bound first but closed first too: requests drain while the database is still open.
  let listener: HttpListener | null = null;
  // Live subscribers (event streams, sockets) never finish on their own: they are told and ended first.
  const beforeHttp: Closer[] = [];
  const closeAll = async () => {
    const stopHttp = listener ? [...beforeHttp.splice(0), listener.close] : beforeHttp.splice(0);
    listener = null;
    for (const close of [...stopHttp, ...closers.splice(0).reverse()]) {
      try {
        await close();
      } catch (err) {
        log.warn({ err }, 'error while shutting down');
      }
    }
  };

  try {
    // What the node's clients need from files is read first: a missing certificate or cookie stops the start
    // before anything is opened.
    const tlsCa = config.nodeRpcCert ? readCertificate(config.nodeRpcCert) : undefined;
    const cookieFile = config.nodeRpcCookie ? nodeCookieFile(config, log) : undefined;
    // Before anything is generated, indexed or written: the data dir is this process's alone, and the port
    // is ours. A second start on the same data dir, or a port in use, is refused at once.
    if (usesDataDir(config)) {
      let lock: DirectoryLock;
      try {
        lock = lockDirectory(config.dataDir, opts.command ?? 'explorer-server');
      } catch (err) {
        throw err instanceof DirectoryLockedError ? new Error(dataDirProblem(err)) : err;
      }
      closers.push(() => lock.release());
    }
    listener = http ? await bindHttp(config, log, drainMs) : null;
    // Metrics are served on a listener of their own; one that cannot bind only costs the metrics (logged).
    const created = config.metricsPort === null ? null : createMetrics({ version: SERVER_VERSION });
    const metricsListener = created
      ? await serveMetrics(created.registry, { host: config.metricsHost, port: config.metricsPort! }, log)
      : null;
    // Nothing reports to metrics nobody can read.
    const metrics: Metrics | null = metricsListener ? created : null;
    if (metricsListener) beforeHttp.push(() => metricsListener.close());
    const metricsUrl = metricsListener?.url ?? null;
    const sql: Sql = await openConfigured(config, 'api', { onQuery: metrics?.onQuery });
    closers.push(() => sql.close());
    metrics?.watchPool('primary', sql);
    metrics?.watch({ sql });
    let readSql = sql;
    if (config.databaseReadUrl) {
      const replica = await openConfigured(config, 'replica', { onQuery: metrics?.onQuery });
      closers.push(() => replica.close());
      metrics?.watchPool('replica', replica);
      readSql = replica;
    }

    // An API-only process does not start a private devnet: its heights would not be the indexer's chain.
    let chain: DevnetChain | null = null;
    // The simulated chain is loaded only for the demo: a deployment with a node never loads its code.
    const demo = !config.nodeRpcUrl && config.index ? await import('./devnet-chain.js') : null;
    if (demo) {
      chain = await demo.startDevnetChain(config);
      closers.push(() => chain?.close());
      log.info({ url: chain.url, height: chain.devnet.height() }, 'devnet started');
    }
    const nodeUrl = config.nodeRpcUrl ?? chain?.url ?? null;
    // How every client of this process reaches the node: the URL, the certificate to trust, the cookie.
    const nodeOptions: NodeClientOptions | null = nodeUrl ? { url: nodeUrl, tlsCa, cookieFile } : null;

    // What this process's writers (indexer, mempool watcher) committed to the event log goes to every listener
    // (the API's event hub, Redis for the other replicas, the webhook worker), in id order.
    const eventListeners: ((events: ChainEvent[]) => void)[] = [];
    if (config.redisUrl && config.index && nodeUrl) {
      const publisher = connectRedis(config.redisUrl, log, {
        commandTimeoutMs: config.redisCommandTimeoutMs,
        name: 'events publisher',
      });
      closers.push(() => publisher.close());
      // Replicas that miss a message (Redis down, a reconnect) read it from the log: nothing to retry here.
      eventListeners.push((events) => {
        publisher.client.publish(config.eventsChannel, JSON.stringify(events)).catch(() => {});
      });
    }
    const publishEvents = (events: ChainEvent[]) => {
      for (const listener of eventListeners) listener(events);
    };

    let indexer: Indexer | null = null;
    if (config.index && nodeOptions) {
      const definitions = await loadDefinitions({
        poolsFile: config.poolsFile ?? chain?.poolsFile,
        labelsFile: config.labelsFile ?? chain?.labelsFile,
      });
      // The writer must not run under the API's statement timeout: an initial-sync batch can take longer.
      // PGlite is one embedded instance (and applies no timeout), so it is shared.
      let writeSql = sql;
      if (config.databaseUrl) {
        writeSql = await openConfigured(config, 'writer', { onQuery: metrics?.onQuery });
        closers.push(() => writeSql.close());
        metrics?.watchPool('writer', writeSql);
      }
      const nodeClient = createNodeClient(nodeOptions);
      const started = createIndexer({
        sql: writeSql,
        node: nodeClient,
        chain: { chain: config.chain, network: config.chainNetwork },
        definitions,
        log,
        pollIntervalMs: config.indexerPollMs,
        maxReorgDepth: config.maxReorgDepth,
        // The embedded database runs in this process and serves one transaction at a time: short write
        // transactions let the API's reads (and a Ctrl-C) in between them while a sync runs.
        ...(writeSql.driver === 'pglite' ? EMBEDDED_SYNC_BATCH : {}),
        events: { onEvents: publishEvents, retain: config.eventsRetain },
        observe: observeAll(metrics?.indexer, opts.progress && syncProgressWriter(opts.progress)),
      });
      // The demo's node runs in this process, so its chain is checked now, before its index is reconciled.
      if (demo && chain) {
        await started.verifyChain();
        await demo.reconcileWithDevnet(writeSql, chain.devnet, log, { retain: config.eventsRetain });
      }
      await started.start();
      indexer = started;
      closers.push(() => started.stop());
      // Everything else that writes (mempool rows, market data, webhook attempts) starts once the indexer knows
      // that the database holds the node's chain: a database of another chain is left as it was found.
      const writers: (() => Promise<void> | void)[] = [];
      let closing = false;
      started.chainVerified().then(
        async () => {
          for (const begin of writers) {
            if (closing) return;
            try {
              await begin();
            } catch (err) {
              log.error({ err: (err as Error).message }, 'a writer beside the indexer failed to start');
            }
          }
        },
        (err: Error) => opts.onFatal?.(err),
      );
      // The mempool's writer runs beside the chain's: one process records mempool events and fee estimates.
      const watcher = createMempoolWatcher({
        sql: writeSql,
        node: nodeClient,
        chain: { chain: config.chain, network: config.chainNetwork },
        log,
        pollMs: config.mempoolPollMs,
        onEvents: publishEvents,
      });
      writers.push(() => watcher.start());
      closers.push(() => watcher.stop());
      // Market data is refreshed beside the indexer, off the request path; API replicas only read it. The
      // made-up prices of the demo provider belong to the demo alone: beside a real node, market data needs a
      // provider, and without one the API says so.
      if (config.market.providerUrl !== null || demo) {
        const refresher = createMarketRefresher({
          sql: writeSql,
          provider: createMarketProvider(config.market),
          vsCurrencies: config.market.vsCurrencies,
          intervalMs: config.market.refreshMs,
          log,
        });
        writers.push(() => refresher.start());
        closers.push(() => refresher.stop());
      } else {
        writers.push(async () => {
          const { removedDemoSnapshots } = await recordMarketNotConfigured(writeSql);
          log.info(
            { removedDemoSnapshots },
            'no market-data provider configured (MARKET_PROVIDER_URL): /v1/market answers that none is configured',
          );
        });
      }
      // Closers run last first: no writer starts once the writers are being stopped.
      closers.push(() => {
        closing = true;
      });
    }

    // Webhooks are delivered by the process that writes their outbox (beside the indexer), woken by its commits.
    if (indexer) {
      const webhooks = createWebhookWorker({
        sql,
        log,
        timeoutMs: config.webhookTimeoutMs,
        retryBaseMs: config.webhookRetryBaseMs,
        retryMaxMs: config.webhookRetryMaxMs,
        maxAgeMs: config.webhookMaxAgeHours * 3_600_000,
        leaseMs: config.webhookLeaseMs,
        concurrency: config.webhookConcurrency,
        onAttempt: metrics ? (outcome) => metrics.webhookAttempt(outcome) : undefined,
      });
      eventListeners.push(() => webhooks.wake());
      const verified = indexer.chainVerified();
      let closing = false;
      verified.then(
        () => {
          if (!closing) webhooks.start();
        },
        () => {},
      );
      closers.push(() => {
        closing = true;
        return webhooks.stop();
      });
    }

    const summary = [
      config.databaseUrl ? 'PostgreSQL' : `PGlite at ${config.dataDir}`,
      chain
        ? 'devnet node'
        : nodeUrl
          ? `node at ${createNodeClient({ url: nodeUrl }).displayUrl}`
          : 'no node',
      ...(indexer ? [] : ['no indexer']),
    ].join(', ');

    if (!listener) {
      // The indexer's state, the mempool and the outbox as the database holds them (the indexer's own state
      // while the database cannot be read).
      metrics?.watch({ store: withLocalIndexer(createSqlStore(sql), indexer) });
      return { url: null, summary, metricsUrl, close: closeAll };
    }

    const node: NodeAdapter | null = nodeOptions ? createNodeAdapter(nodeOptions) : null;
    if (node) closers.push(() => node.close());

    // The live event feed of this process's subscribers: its own indexer's events, Redis, the log.
    let subscriber: RedisLink | null = null;
    if (config.redisUrl) {
      subscriber = connectRedis(config.redisUrl, log, {
        commandTimeoutMs: config.redisCommandTimeoutMs,
        name: 'events subscriber',
      });
      const link = subscriber;
      closers.push(() => link.close());
    }
    const hub = createEventHub({
      sql,
      log,
      local: indexer !== null,
      redis: subscriber
        ? { client: subscriber.client, channel: config.eventsChannel, lastError: subscriber.lastError }
        : null,
      observe: metrics?.events,
    });
    await hub.start();
    eventListeners.push((events) => hub.receive(events));
    beforeHttp.push(() => hub.close());

    const baseUrl = publicBaseUrl(config, listener.info.port);
    // Keys are read from the primary: a replica could still serve a key revoked a moment ago.
    const access = await createAccess(config, sql, log);
    closers.push(() => access.close());
    const rateLimiter =
      access.rateLimiter && metrics
        ? metrics.countRefusals(access.rateLimiter, config.rateLimitTiers)
        : access.rateLimiter;
    const eventLimits = {
      ...DEFAULT_EVENT_LIMITS,
      maxConnections: { anonymous: config.eventsMaxStreamsAnon, key: config.eventsMaxStreamsKey },
      maxQueueBytes: config.eventsMaxQueueKb * 1024,
    };
    const store = withLocalIndexer(createSqlStore(readSql), indexer);
    const wallets = createWalletPool(config.walletThreads ?? defaultWalletThreads());
    closers.push(() => wallets.close());
    log.info({ threads: wallets.threads, secp256k1: secp256k1Backend() }, 'wallet key derivation ready');
    const api = createExplorerApi({
      store,
      routes: v1Routes,
      node,
      config: {
        publicBaseUrl: baseUrl,
        finalityDepth: config.finalityDepth,
        cacheEntries: config.cacheEntries,
        responseCacheBytes: config.responseCacheMb * 1024 * 1024,
        corsOrigin: config.corsOrigin,
        events: eventLimits,
      },
      events: hub,
      authenticate: access.authenticate,
      rateLimiter: rateLimiter ?? undefined,
      walletDeriver: wallets.derive,
      onError: (err, where) => log.error({ ...where, err }, 'request failed'),
    });
    const app = createServerApp({
      api,
      log,
      // Only a configured public address: the bound one (0.0.0.0, say) is no address for a client.
      publicBaseUrl: config.publicBaseUrl ? baseUrl : undefined,
      trustProxy: config.trustProxy,
      rateLimiter,
      maxUrlLength: config.maxUrlLength,
      metrics,
    });
    metrics?.watch({ store, api, events: hub });
    listener.serve((req, env) => app.fetch(req, env as never));
    const sockets = attachWebSocket(listener.server, {
      admit: api.admitEvents,
      clientAddress: (req) => upgradeClientAddress(req, { trustProxy: config.trustProxy }),
      log,
      maxQueueBytes: eventLimits.maxQueueBytes,
      keepAliveMs: eventLimits.keepAliveMs,
    });
    beforeHttp.push(() => sockets.close());

    const host = listener.info.address.includes(':') ? `[${listener.info.address}]` : listener.info.address;
    return { url: `http://${host}:${listener.info.port}`, summary, metricsUrl, close: closeAll };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
