import { secp256k1Backend } from '@explorer/chain';
import {
  type AdapterRoute,
  createExplorerApi,
  DEFAULT_EVENT_LIMITS,
  esploraRoutes,
  type Logger,
  type Protocol,
  v1Routes,
} from '@explorer/core';
import { createSqlStore, type Sql } from '@explorer/db';
import type { Indexer, NodeClientOptions } from '@explorer/indexer';
import { createAccess } from '../access.js';
import { publicBaseUrl, type ServerConfig } from '../config/index.js';
import { createEventHub } from '../events/hub.js';
import { attachWebSocket } from '../events/websocket.js';
import { createServerApp } from '../http/app.js';
import { upgradeClientAddress } from '../http/client-address.js';
import type { Metrics } from '../metrics/index.js';
import { createNodeAdapter } from '../node-adapter.js';
import { connectRedis, type RedisLink } from '../redis.js';
import { createWalletPool, defaultWalletThreads } from '../wallet-pool.js';
import type { EventFanout } from './event-fanout.js';
import type { HttpListener } from './http-listener.js';
import { withLocalIndexer } from './local-indexer.js';
import type { Shutdown } from './shutdown.js';

/** What the API is served from. */
export interface ApiContext {
  config: ServerConfig;
  log: Logger;
  shutdown: Shutdown;
  listener: HttpListener;
  /** The primary: the event log and API keys are read from it. */
  sql: Sql;
  /** Where the API's reads go (the replica when one is configured). */
  readSql: Sql;
  indexer: Indexer | null;
  node: NodeClientOptions | null;
  metrics: Metrics | null;
  events: EventFanout;
}

/** The protocol adapters the server mounts beside /v1, as configured (Esplora under ESPLORA_PREFIX). */
export function adapterRoutes(config: ServerConfig): AdapterRoute[] {
  return config.esploraPrefix
    ? esploraRoutes({ prefix: config.esploraPrefix, broadcast: config.broadcastEnabled })
    : [];
}

/** The protocols of those adapters: what the listener answers in, under their prefixes, before the API is up. */
export function serverProtocols(config: ServerConfig): Protocol[] {
  const byName = new Map<string, Protocol>();
  for (const r of adapterRoutes(config)) byName.set(r.protocol.name, r.protocol);
  return [...byName.values()];
}

/**
 * Builds the API (store, node, event hub, keys and rate limits, wallet derivation) and hands it to the bound
 * HTTP server, with the WebSocket feed on the same port.
 */
export async function serveApi(ctx: ApiContext): Promise<void> {
  const { config, log, shutdown, listener, sql, indexer, metrics } = ctx;
  const node = ctx.node ? createNodeAdapter(ctx.node) : null;
  if (node) shutdown.add(() => node.close());
  const hub = await startEventHub(ctx);
  const baseUrl = publicBaseUrl(config, listener.info.port);
  // Keys are read from the primary: a replica could still serve a key revoked a moment ago.
  const access = await createAccess(config, sql, log);
  shutdown.add(() => access.close());
  const rateLimiter =
    access.rateLimiter && metrics
      ? metrics.countRefusals(access.rateLimiter, config.rateLimitTiers)
      : access.rateLimiter;
  const eventLimits = {
    ...DEFAULT_EVENT_LIMITS,
    maxConnections: { anonymous: config.eventsMaxStreamsAnon, key: config.eventsMaxStreamsKey },
    maxQueueBytes: config.eventsMaxQueueKb * 1024,
  };
  const store = withLocalIndexer(createSqlStore(ctx.readSql), indexer);
  const wallets = createWalletPool(config.walletThreads ?? defaultWalletThreads());
  shutdown.add(() => wallets.close());
  log.info({ threads: wallets.threads, secp256k1: secp256k1Backend() }, 'wallet key derivation ready');
  const api = createExplorerApi({
    store,
    routes: v1Routes,
    adapters: adapterRoutes(config),
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
  shutdown.beforeHttp(() => sockets.close());
}

/** The live event feed of this process's subscribers: its own indexer's events, Redis, the log. */
async function startEventHub({ config, log, shutdown, sql, indexer, metrics, events }: ApiContext) {
  let subscriber: RedisLink | null = null;
  if (config.redisUrl) {
    subscriber = connectRedis(config.redisUrl, log, {
      commandTimeoutMs: config.redisCommandTimeoutMs,
      name: 'events subscriber',
    });
    const link = subscriber;
    shutdown.add(() => link.close());
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
  events.listen((batch) => hub.receive(batch));
  shutdown.beforeHttp(() => hub.close());
  return hub;
}
