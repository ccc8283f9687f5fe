import { mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createExplorerApi, v1Routes } from '@explorer/core';
import { createSqlStore, openDatabase, type Sql } from '@explorer/db';
import {
  createIndexer,
  createMarketProvider,
  createMarketRefresher,
  createNodeClient,
  type Indexer,
  type Logger,
  loadDefinitions,
} from '@explorer/indexer';
import { serve } from '@hono/node-server';
import { createAccess } from './access.js';
import { createServerApp } from './app.js';
import { attachClientErrorHandler } from './client-errors.js';
import { ConfigError, publicBaseUrl, type ServerConfig } from './config.js';
import { type DevnetChain, reconcileWithDevnet, startDevnetChain } from './devnet-chain.js';
import { createLogger } from './logger.js';
import { createNodeAdapter, type NodeAdapter } from './node-adapter.js';

/** What a runtime serves; close() releases everything it opened. */
export interface Runtime {
  /** The HTTP address, or null when no HTTP server runs (`index`). */
  url: string | null;
  /** A human summary of the backing pieces, e.g. `PGlite at ./.explorer, devnet node`. */
  summary: string;
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
}

type Closer = () => Promise<void> | void;

function listen(
  server: ReturnType<typeof serve>,
  ready: Promise<AddressInfo>,
  what: string,
): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) =>
      reject(
        new Error(`cannot listen on ${what}: ${err.code === 'EADDRINUSE' ? 'address in use' : err.message}`),
      );
    server.once('error', onError);
    ready.then((info) => {
      server.off('error', onError);
      resolve(info);
    }, reject);
  });
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
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) {
      try {
        await close();
      } catch (err) {
        log.warn({ err }, 'error while shutting down');
      }
    }
  };

  try {
    if (!config.databaseUrl || !config.nodeRpcUrl) mkdirSync(config.dataDir, { recursive: true });
    const dbOptions = {
      poolSize: config.dbPoolSize,
      statementTimeoutMs: config.dbStatementTimeoutMs,
      connectionTimeoutMs: config.dbConnectTimeoutMs,
      applicationName: 'explorer-server',
      preparedStatements: config.dbPreparedStatements,
    };
    const sql: Sql = await openDatabase({
      ...dbOptions,
      url: config.databaseUrl ?? undefined,
      dataDir: config.dataDir,
    });
    closers.push(() => sql.close());
    let readSql = sql;
    if (config.databaseReadUrl) {
      const replica = await openDatabase({ ...dbOptions, url: config.databaseReadUrl, migrate: false });
      closers.push(() => replica.close());
      readSql = replica;
    }

    // An API-only process does not start a private devnet: its heights would not be the indexer's chain.
    let chain: DevnetChain | null = null;
    if (!config.nodeRpcUrl && config.index) {
      chain = await startDevnetChain(config);
      closers.push(() => chain?.close());
      log.info({ url: chain.url, height: chain.devnet.height() }, 'devnet started');
    }
    const nodeUrl = config.nodeRpcUrl ?? chain?.url ?? null;
    const tlsCa = config.nodeRpcCert ? readCertificate(config.nodeRpcCert) : undefined;

    let indexer: Indexer | null = null;
    if (config.index && nodeUrl) {
      const definitions = await loadDefinitions({
        poolsFile: config.poolsFile ?? chain?.poolsFile,
        labelsFile: config.labelsFile ?? chain?.labelsFile,
      });
      // The writer must not run under the API's statement timeout: an initial-sync batch can take longer.
      // PGlite is one embedded instance (and applies no timeout), so it is shared.
      let writeSql = sql;
      if (config.databaseUrl) {
        writeSql = await openDatabase({
          url: config.databaseUrl,
          // Two connections stay held by the writer locks (indexer, market refresher); the rest do the work.
          poolSize: 5,
          connectionTimeoutMs: config.dbConnectTimeoutMs,
          applicationName: 'explorer-indexer',
          preparedStatements: config.dbPreparedStatements,
          migrate: false,
        });
        closers.push(() => writeSql.close());
      }
      if (chain) await reconcileWithDevnet(writeSql, chain.devnet, log);
      const started = createIndexer({
        sql: writeSql,
        node: createNodeClient({ url: nodeUrl, tlsCa }),
        chain: { chain: config.chain, network: config.chainNetwork },
        definitions,
        log,
        pollIntervalMs: config.indexerPollMs,
        maxReorgDepth: config.maxReorgDepth,
      });
      await started.start();
      indexer = started;
      closers.push(() => started.stop());
      // Market data is refreshed beside the indexer, off the request path; API replicas only read it.
      const refresher = createMarketRefresher({
        sql: writeSql,
        provider: createMarketProvider(config.market),
        vsCurrencies: config.market.vsCurrencies,
        intervalMs: config.market.refreshMs,
        log,
      });
      await refresher.start();
      closers.push(() => refresher.stop());
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

    if (!http) {
      return { url: null, summary, close: closeAll };
    }

    const node: NodeAdapter | null = nodeUrl ? createNodeAdapter({ url: nodeUrl, tlsCa }) : null;
    if (node) closers.push(() => node.close());

    // The app needs the public URL, which needs the bound port (PORT=0): bind first, answer 503 until ready.
    let fetchApp: ((req: Request, env: unknown) => Response | Promise<Response>) | null = null;
    let resolveReady: (info: AddressInfo) => void = () => {};
    const ready = new Promise<AddressInfo>((r) => {
      resolveReady = r;
    });
    const server = serve(
      {
        fetch: (req, env) => (fetchApp ? fetchApp(req, env) : new Response('starting', { status: 503 })),
        port: config.port,
        hostname: config.host,
        serverOptions: { maxHeaderSize: config.maxHeaderSize },
      },
      (info) => resolveReady(info),
    );
    attachClientErrorHandler(server, log);
    // Slow clients cannot hold connections open: the head must arrive in 10 s, the request in 30 s.
    const httpServer = server as { headersTimeout?: number; requestTimeout?: number };
    httpServer.headersTimeout = 10_000;
    httpServer.requestTimeout = 30_000;
    const info = await listen(server, ready, `${config.host}:${config.port}`).catch((err) => {
      server.close();
      throw err;
    });
    closers.push(
      () =>
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
    );

    const baseUrl = publicBaseUrl(config, info.port);
    // Keys are read from the primary: a replica could still serve a key revoked a moment ago.
    const access = await createAccess(config, sql, log);
    closers.push(() => access.close());
    const api = createExplorerApi({
      store: createSqlStore(readSql),
      routes: v1Routes,
      node,
      config: {
        publicBaseUrl: baseUrl,
        finalityDepth: config.finalityDepth,
        cacheEntries: config.cacheEntries,
        responseCacheBytes: config.responseCacheMb * 1024 * 1024,
        corsOrigin: config.corsOrigin,
      },
      authenticate: access.authenticate,
      rateLimiter: access.rateLimiter ?? undefined,
      onError: (err, where) => log.error({ ...where, err }, 'request failed'),
    });
    const app = createServerApp({
      api,
      log,
      trustProxy: config.trustProxy,
      rateLimiter: access.rateLimiter,
      maxUrlLength: config.maxUrlLength,
    });
    fetchApp = (req, env) => app.fetch(req, env as never);

    const host = info.address.includes(':') ? `[${info.address}]` : info.address;
    return { url: `http://${host}:${info.port}`, summary, close: closeAll };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
