import type { Logger } from '@explorer/core';
import { createSqlStore, type Sql } from '@explorer/db';
import { createNodeClient, type Indexer, type NodeClientOptions } from '@explorer/indexer';
import type { ServerConfig } from '../config/index.js';
import { openConfigured } from '../database/open.js';
import { createLogger } from '../logger.js';
import { createMetrics, type Metrics, serveMetrics } from '../metrics/index.js';
import { SERVER_VERSION } from '../version.js';
import { serveApi, serverProtocols } from './api.js';
import { type DemoChain, startDemo } from './demo.js';
import { createEventFanout } from './event-fanout.js';
import { bindHttp } from './http-listener.js';
import { withLocalIndexer } from './local-indexer.js';
import { readNodeFiles } from './node-files.js';
import { lockDataDir, usesDataDir } from './preflight.js';
import { createShutdown, type Shutdown } from './shutdown.js';
import { startWriters } from './writers.js';

export { dataDirProblem, preflight, usesDataDir } from './preflight.js';

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

/**
 * Builds and starts everything the configuration asks for: database (migrated), devnet when no node is
 * configured, indexer, API and HTTP server. What it opened is closed by close(), or at once when a step fails.
 * @example const rt = await createRuntime(loadConfig()); console.log(rt.url); await rt.close()
 */
export async function createRuntime(config: ServerConfig, opts: RuntimeOptions = {}): Promise<Runtime> {
  const log = opts.log ?? createLogger({ level: config.logLevel });
  const shutdown = createShutdown(log);
  try {
    // What the node's clients need from files is read first: a missing certificate or cookie stops the start
    // before anything is opened.
    const nodeFiles = readNodeFiles(config, log);
    // Before anything is generated, indexed or written: the data dir is this process's alone, and the port
    // is ours. A second start on the same data dir, or a port in use, is refused at once.
    if (usesDataDir(config)) {
      const lock = lockDataDir(config, opts.command ?? 'explorer-server');
      shutdown.add(() => lock.release());
    }
    const listener =
      (opts.http ?? true)
        ? await bindHttp(config, log, opts.drainMs ?? 10_000, serverProtocols(config))
        : null;
    if (listener) shutdown.http(listener.close);
    const { metrics, metricsUrl } = await startMetrics(config, log, shutdown);
    const { sql, readSql } = await openDatabases(config, metrics, shutdown);
    const demo = await startDemo(config, log, shutdown);
    const nodeUrl = config.nodeRpcUrl ?? demo?.chain.url ?? null;
    // How every client of this process reaches the node: the URL, the certificate to trust, the cookie.
    const node: NodeClientOptions | null = nodeUrl ? { url: nodeUrl, ...nodeFiles } : null;
    const indexes = config.index && node !== null;
    const events = createEventFanout(config, log, shutdown, indexes);
    const indexer = indexes
      ? await startWriters({
          ...{ config, log, shutdown, sql, metrics, node, demo, events },
          onFatal: opts.onFatal,
          progress: opts.progress,
        })
      : null;
    const summary = summaryOf(config, demo, nodeUrl, indexer);
    if (!listener) {
      // The indexer's state, the mempool and the outbox as the database holds them (the indexer's own state
      // while the database cannot be read).
      metrics?.watch({ store: withLocalIndexer(createSqlStore(sql), indexer) });
      return { url: null, summary, metricsUrl, close: shutdown.closeAll };
    }
    await serveApi({ config, log, shutdown, listener, sql, readSql, indexer, node, metrics, events });
    const { address, port } = listener.info;
    const host = address.includes(':') ? `[${address}]` : address;
    return { url: `http://${host}:${port}`, summary, metricsUrl, close: shutdown.closeAll };
  } catch (err) {
    await shutdown.closeAll();
    throw err;
  }
}

/** Metrics are served on a listener of their own; one that cannot bind only costs the metrics (logged). */
async function startMetrics(
  config: ServerConfig,
  log: Logger,
  shutdown: Shutdown,
): Promise<{ metrics: Metrics | null; metricsUrl: string | null }> {
  if (config.metricsPort === null) return { metrics: null, metricsUrl: null };
  const created = createMetrics({ version: SERVER_VERSION });
  const listener = await serveMetrics(
    created.registry,
    { host: config.metricsHost, port: config.metricsPort },
    log,
  );
  // Nothing reports to metrics nobody can read.
  if (!listener) return { metrics: null, metricsUrl: null };
  shutdown.beforeHttp(() => listener.close());
  return { metrics: created, metricsUrl: listener.url };
}

/** The primary (migrated), and the replica the API reads from when one is configured. */
async function openDatabases(
  config: ServerConfig,
  metrics: Metrics | null,
  shutdown: Shutdown,
): Promise<{ sql: Sql; readSql: Sql }> {
  const sql = await openConfigured(config, 'api', { onQuery: metrics?.onQuery });
  shutdown.add(() => sql.close());
  metrics?.watchPool('primary', sql);
  metrics?.watch({ sql });
  if (!config.databaseReadUrl) return { sql, readSql: sql };
  const replica = await openConfigured(config, 'replica', { onQuery: metrics?.onQuery });
  shutdown.add(() => replica.close());
  metrics?.watchPool('replica', replica);
  return { sql, readSql: replica };
}

/** A human summary of the backing pieces, e.g. `PGlite at ./.explorer, devnet node`. */
function summaryOf(
  config: ServerConfig,
  demo: DemoChain | null,
  nodeUrl: string | null,
  indexer: Indexer | null,
) {
  const node = demo
    ? 'devnet node'
    : nodeUrl
      ? `node at ${createNodeClient({ url: nodeUrl }).displayUrl}`
      : 'no node';
  return [
    config.databaseUrl ? 'PostgreSQL' : `PGlite at ${config.dataDir}`,
    node,
    ...(indexer ? [] : ['no indexer']),
  ].join(', ');
}
