import type { Logger } from '@explorer/core';
import { recordMarketNotConfigured, type Sql } from '@explorer/db';
import {
  createIndexer,
  createMarketProvider,
  createMarketRefresher,
  createMempoolWatcher,
  createNodeClient,
  type Indexer,
  loadDefinitions,
  type NodeClientOptions,
} from '@explorer/indexer';
import type { ServerConfig } from '../config/index.js';
import { openConfigured } from '../database/open.js';
import type { Metrics } from '../metrics/index.js';
import { createWebhookWorker } from '../webhooks/worker.js';
import type { DemoChain } from './demo.js';
import type { EventFanout } from './event-fanout.js';
import type { Shutdown } from './shutdown.js';
import { observeAll, syncProgressWriter } from './sync-progress.js';

/** The indexer's batches on the embedded database: a few hundred transactions per write transaction. */
const EMBEDDED_SYNC_BATCH = { batchTxTarget: 100, maxBatchBlocks: 25 };

/** What the writers of this process are started with. */
export interface WritersContext {
  config: ServerConfig;
  log: Logger;
  shutdown: Shutdown;
  /** The API's pool (PGlite: the one instance, shared). */
  sql: Sql;
  metrics: Metrics | null;
  node: NodeClientOptions;
  /** The built-in devnet, when this process runs the demo. */
  demo: DemoChain | null;
  events: EventFanout;
  /** Told when the indexer stopped for good (a database of another chain). */
  onFatal?: (err: Error) => void;
  /** Told the sync's progress as lines for a person. */
  progress?: (line: string) => void;
}

/**
 * Starts everything that writes: the indexer first; once it has verified that the database holds the node's
 * chain, the mempool watcher, the market refresher (or the record that none is configured) and the webhook
 * worker. A database of another chain is left as it was found.
 * @returns the running indexer
 */
export async function startWriters(ctx: WritersContext): Promise<Indexer> {
  const { config, log, shutdown, metrics } = ctx;
  // The definitions files are read before anything is opened: a bad one stops the start with nothing to close.
  const definitions = await loadDefinitions({
    poolsFile: config.poolsFile ?? ctx.demo?.chain.poolsFile,
    labelsFile: config.labelsFile ?? ctx.demo?.chain.labelsFile,
  });
  const writeSql = await openWriter(ctx);
  const nodeClient = createNodeClient(ctx.node);
  const chain = { chain: config.chain, network: config.chainNetwork };
  const indexer = createIndexer({
    sql: writeSql,
    node: nodeClient,
    chain,
    definitions,
    log,
    pollIntervalMs: config.indexerPollMs,
    maxReorgDepth: config.maxReorgDepth,
    // The embedded database runs in this process and serves one transaction at a time: short write
    // transactions let the API's reads (and a Ctrl-C) in between them while a sync runs.
    ...(writeSql.driver === 'pglite' ? EMBEDDED_SYNC_BATCH : {}),
    events: { onEvents: ctx.events.publish, retain: config.eventsRetain },
    observe: observeAll(metrics?.indexer, ctx.progress && syncProgressWriter(ctx.progress)),
  });
  // The demo's node runs in this process, so its chain is checked now, before its index is reconciled.
  if (ctx.demo) {
    await indexer.verifyChain();
    await ctx.demo.reconcile(writeSql, { retain: config.eventsRetain });
  }
  await indexer.start();
  shutdown.add(() => indexer.stop());

  // The mempool's writer runs beside the chain's: one process records mempool events and fee estimates.
  const watcher = createMempoolWatcher({
    sql: writeSql,
    node: nodeClient,
    chain,
    log,
    pollMs: config.mempoolPollMs,
    onEvents: ctx.events.publish,
  });
  const writers: (() => Promise<void> | void)[] = [() => watcher.start()];
  shutdown.add(() => watcher.stop());
  writers.push(marketWriter(ctx, writeSql));
  startOnceVerified(ctx, indexer, writers);
  startWebhooks(ctx, indexer);
  return indexer;
}

/**
 * The writer's pool: on PostgreSQL one of its own, outside the API's statement timeout (an initial-sync batch
 * can take longer); PGlite is one embedded instance (and applies no timeout), so it is shared.
 */
async function openWriter({ config, sql, metrics, shutdown }: WritersContext): Promise<Sql> {
  if (!config.databaseUrl) return sql;
  const writeSql = await openConfigured(config, 'writer', { onQuery: metrics?.onQuery });
  shutdown.add(() => writeSql.close());
  metrics?.watchPool('writer', writeSql);
  return writeSql;
}

/**
 * Market data, refreshed beside the indexer, off the request path; API replicas only read it. The made-up
 * prices of the demo provider belong to the demo alone: beside a real node, market data needs a provider, and
 * without one the API says so.
 */
function marketWriter(
  { config, log, shutdown, demo }: WritersContext,
  writeSql: Sql,
): () => Promise<void> | void {
  if (config.market.providerUrl === null && !demo) {
    return async () => {
      const { removedDemoSnapshots } = await recordMarketNotConfigured(writeSql);
      log.info(
        { removedDemoSnapshots },
        'no market-data provider configured (MARKET_PROVIDER_URL): /v1/market answers that none is configured',
      );
    };
  }
  const refresher = createMarketRefresher({
    sql: writeSql,
    provider: createMarketProvider(config.market),
    vsCurrencies: config.market.vsCurrencies,
    intervalMs: config.market.refreshMs,
    log,
  });
  shutdown.add(() => refresher.stop());
  return () => refresher.start();
}

/**
 * Starts the writers beside the indexer, in order, once the indexer knows that the database holds the node's
 * chain; a database of another chain is fatal (onFatal). No writer starts once the runtime is closing.
 */
function startOnceVerified(
  { log, shutdown, onFatal }: WritersContext,
  indexer: Indexer,
  writers: (() => Promise<void> | void)[],
): void {
  let closing = false;
  indexer.chainVerified().then(
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
    (err: Error) => onFatal?.(err),
  );
  // Closers run last first: no writer starts once the writers are being stopped.
  shutdown.add(() => {
    closing = true;
  });
}

/** Webhooks are delivered by the process that writes their outbox (beside the indexer), woken by its commits. */
function startWebhooks(
  { config, log, shutdown, sql, metrics, events }: WritersContext,
  indexer: Indexer,
): void {
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
  events.listen(() => webhooks.wake());
  let closing = false;
  indexer.chainVerified().then(
    () => {
      if (!closing) webhooks.start();
    },
    () => {},
  );
  shutdown.add(() => {
    closing = true;
    return webhooks.stop();
  });
}
