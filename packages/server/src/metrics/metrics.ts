import { getHeapStatistics } from 'node:v8';
import {
  type AnswerFacts,
  type EventFeed,
  type Identity,
  type RateLimiter,
  SharedCache,
  type Store,
} from '@explorer/core';
import { countPendingDeliveries, type QueryObserver, type Sql } from '@explorer/db';
import { INDEXER_STATES, type IndexerObserver } from '@explorer/indexer';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { WebhookAttemptOutcome } from '../webhooks/worker.js';

/** The label every path that names no route is counted under, so unknown paths add no series. */
export const UNMATCHED_ROUTE = 'unmatched';

/** One HTTP request as the metrics count it. */
export interface RequestFacts {
  /** The route's path template (`/v1/blocks/{heightOrHash}`), or UNMATCHED_ROUTE. */
  route: string;
  status: number;
  /** The body came from a cache (`meta.cached`). */
  cached: boolean;
  /** Seconds until the response was ready (a stream's head; not its lifetime). */
  seconds: number;
}

/** What the metrics read when they are scraped; each part is optional, and set once it exists. */
export interface MetricSources {
  /** The store the process serves from: indexer state, tip and mempool as /v1/status reads them. */
  store?: Store;
  /** The primary database, for the webhook outbox. */
  sql?: Sql;
  /** The live event feed (its subscribers). */
  events?: Pick<EventFeed, 'health'>;
  /** The API (its response cache). */
  api?: { responseCacheSize(): { entries: number; bytes: number } | null };
}

/** The metrics of one process: the registry, the hooks the pieces report through, and what is read at scrape time. */
export interface Metrics {
  readonly registry: Registry;
  /** One HTTP request answered. */
  request(facts: RequestFacts): void;
  /** What the API said of an answer (its response-cache lookup). */
  answered(facts: AnswerFacts): void;
  /** The database's per-statement hook (openDatabase's `onQuery`). */
  readonly onQuery: QueryObserver;
  /** The indexer's hook (createIndexer's `observe`). */
  readonly indexer: IndexerObserver;
  /** The event hub's hook (createEventHub's `observe`). */
  readonly events: { sent(): void; dropped(): void };
  /** The webhook worker's hook (createWebhookWorker's `onAttempt`). */
  webhookAttempt(outcome: WebhookAttemptOutcome): void;
  /** Reports the pool of `sql` under `pool` (primary, replica, writer) where the driver has one. */
  watchPool(pool: string, sql: Sql): void;
  /** Adds what scrapes read from. */
  watch(sources: MetricSources): void;
  /** The limiter, counting its refusals by bucket (anonymous, a configured tier, or key). */
  countRefusals(limiter: RateLimiter, tiers: Readonly<Record<string, number>>): RateLimiter;
}

/** Options of the metrics. */
export interface MetricsOptions {
  /** The version `explorer_build_info` reports. */
  version: string;
  /** Milliseconds since the epoch (lag in seconds is measured with it). */
  clock?: () => number;
}

// Latency buckets: cached answers take well under a millisecond, a cold list query tens of milliseconds.
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Default metrics of prom-client that `promtool check metrics` refuses (gauges ending in `_total`). */
const LINT_REFUSED_DEFAULTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/** What one scrape reads from the database, once for every gauge that shows part of it. */
interface Snapshot {
  state: Awaited<ReturnType<Store['indexerState']>> | null;
  tip: Awaited<ReturnType<Store['tip']>> | null;
  mempool: Awaited<ReturnType<Store['mempoolState']>> | null;
  outbox: number | null;
}

const statusClass = (status: number) => `${Math.min(5, Math.max(1, Math.floor(status / 100)))}xx`;

let processRegistry: Registry | null = null;

/**
 * The Node.js process's own metrics (prom-client's default collectors), made once per process: each collector
 * starts observers (garbage collections, event-loop delay) that run as long as the process does.
 */
function processMetrics(): Registry {
  if (processRegistry) return processRegistry;
  processRegistry = new Registry();
  collectDefaultMetrics({ register: processRegistry });
  // Gauges named like counters, which Prometheus' lint refuses; each is the sum of its labelled namesake
  // (nodejs_active_handles{type} and the like), which stays.
  for (const name of LINT_REFUSED_DEFAULTS) processRegistry.removeSingleMetric(name);
  return processRegistry;
}

/**
 * Builds a process's metrics on a registry of its own (several runtimes may share a process, as tests do),
 * served together with the process's default metrics.
 * Counters and histograms are told by the pieces as things happen; gauges that show state (indexer, pools,
 * subscribers, caches, mempool, outbox) are read when Prometheus scrapes. Every label has a bounded set of
 * values: route templates, status classes, configured tiers, query names, fixed outcomes.
 * @example const metrics = createMetrics({ version }); await metrics.registry.metrics()
 */
export function createMetrics(opts: MetricsOptions): Metrics {
  const clock = opts.clock ?? Date.now;
  const registry = new Registry();
  const register = [registry];
  const sources: MetricSources = {};
  const pools = new Map<string, Sql>();

  new Gauge({
    name: 'explorer_build_info',
    help: 'The explorer version this process runs (always 1).',
    labelNames: ['version'],
    registers: register,
  }).set({ version: opts.version }, 1);

  new Gauge({
    name: 'explorer_heap_limit_bytes',
    help: "V8's heap size limit on the thread that runs the server: the heap cap of start and index (docs/operations.md#indexer-memory), or Node's own.",
    registers: register,
    collect() {
      this.set(getHeapStatistics().heap_size_limit);
    },
  });

  // HTTP
  const httpLabels = ['route', 'status_class', 'cache'] as const;
  const requests = new Counter({
    name: 'explorer_http_requests_total',
    help: 'HTTP requests answered, by route template, status class and whether the body came from a cache.',
    labelNames: httpLabels,
    registers: register,
  });
  const latency = new Histogram({
    name: 'explorer_http_request_duration_seconds',
    help: 'Seconds until the response was ready, by route template, status class and cache.',
    labelNames: httpLabels,
    buckets: HTTP_BUCKETS,
    registers: register,
  });
  const refusals = new Counter({
    name: 'explorer_rate_limit_refusals_total',
    help: 'Requests refused with 429 by the rate limiter, by bucket: anonymous, a configured tier, or key.',
    labelNames: ['bucket'],
    registers: register,
  });

  // Database pools, registered before every gauge that reads the database at scrape time: prom-client collects in
  // registration order, and these read the pool synchronously, so they see it as it was before the scrape's own
  // queries asked it for connections (node-postgres queues those, even with connections idle, until its next tick).
  new Gauge({
    name: 'explorer_db_pool_connections',
    help: 'PostgreSQL connections of each pool, by state: in_use or idle.',
    labelNames: ['pool', 'state'],
    registers: register,
    collect() {
      this.reset();
      for (const [pool, sql] of pools) {
        const stats = sql.poolStats?.();
        if (!stats) continue;
        this.set({ pool, state: 'in_use' }, stats.total - stats.idle);
        this.set({ pool, state: 'idle' }, stats.idle);
      }
    },
  });
  new Gauge({
    name: 'explorer_db_pool_waiting',
    help: 'Callers waiting for a PostgreSQL connection, by pool.',
    labelNames: ['pool'],
    registers: register,
    collect() {
      this.reset();
      for (const [pool, sql] of pools) {
        const stats = sql.poolStats?.();
        if (stats) this.set({ pool }, stats.waiting);
      }
    },
  });
  // Scrape-time reads of the database: one per scrape, shared by the gauges that show its parts.
  const snapshots = new SharedCache<Snapshot>({ maxEntries: 1, ttlMs: 1_000 });
  const quietly = <T>(read: (() => Promise<T>) | undefined) =>
    read ? read().catch(() => null) : Promise.resolve(null);
  const snapshot = (): Promise<Snapshot> =>
    snapshots.load('snapshot', clock(), async () => {
      const { store, sql } = sources;
      const [state, tip, mempool, outbox] = await Promise.all([
        quietly(store && (() => store.indexerState())),
        quietly(store && (() => store.tip())),
        quietly(store && (() => store.mempoolState())),
        quietly(sql && (() => countPendingDeliveries(sql))),
      ]);
      return { state, tip, mempool, outbox };
    }).value;
  /** A gauge without labels whose value a scrape reads; NaN when it is unknown. */
  const scraped = (name: string, help: string, read: (s: Snapshot) => number | null | undefined) =>
    new Gauge({
      name,
      help,
      registers: register,
      async collect() {
        this.set(read(await snapshot()) ?? Number.NaN);
      },
    });

  // Indexer
  scraped(
    'explorer_indexer_height',
    'Height of the indexed tip this process serves (-1 before the first block).',
    (s) => s.state?.tipHeight ?? s.tip?.height,
  );
  scraped(
    'explorer_node_height',
    'Height of the node’s tip when the indexer last asked it.',
    (s) => s.state?.nodeHeight,
  );
  scraped('explorer_indexer_lag_blocks', 'Blocks the indexed tip is behind the node’s.', (s) =>
    s.state?.nodeHeight == null ? null : Math.max(0, s.state.nodeHeight - s.state.tipHeight),
  );
  scraped('explorer_indexer_lag_seconds', 'Seconds between the indexed tip block’s time and now.', (s) =>
    s.tip?.time == null ? null : Math.max(0, Math.floor(clock() / 1000) - s.tip.time),
  );
  scraped(
    'explorer_indexer_last_reorg_depth',
    'Blocks the last reorganisation rolled back (0 before any).',
    (s) => (s.state ? (s.state.lastReorgDepth ?? 0) : null),
  );
  const states = [...INDEXER_STATES, 'unknown'];
  new Gauge({
    name: 'explorer_indexer_state',
    help: 'The indexer’s state: 1 for the state it is in, 0 for the others (unknown: not readable).',
    labelNames: ['state'],
    registers: register,
    async collect() {
      const current = (await snapshot()).state?.state;
      const known = states.includes(current ?? '') ? current : 'unknown';
      for (const state of states) this.set({ state }, state === known ? 1 : 0);
    },
  });
  const blocks = new Counter({
    name: 'explorer_indexer_blocks_total',
    help: 'Blocks this process’s indexer wrote.',
    registers: register,
  });
  const txs = new Counter({
    name: 'explorer_indexer_transactions_total',
    help: 'Transactions in the blocks this process’s indexer wrote.',
    registers: register,
  });
  const reorgs = new Counter({
    name: 'explorer_indexer_reorgs_total',
    help: 'Reorganisations this process’s indexer rolled back.',
    registers: register,
  });

  // Database
  const queries = new Histogram({
    name: 'explorer_db_query_duration_seconds',
    help: 'Seconds each database statement took, by query name.',
    labelNames: ['query'],
    buckets: QUERY_BUCKETS,
    registers: register,
  });

  // Response cache
  const cacheHits = new Counter({
    name: 'explorer_response_cache_hits_total',
    help: 'Chain-derived bodies served from the response cache (rendered for the same URL at the same tip).',
    registers: register,
  });
  const cacheMisses = new Counter({
    name: 'explorer_response_cache_misses_total',
    help: 'Chain-derived bodies the response cache did not hold, rendered anew.',
    registers: register,
  });
  new Gauge({
    name: 'explorer_response_cache_entries',
    help: 'Bodies the response cache holds.',
    registers: register,
    collect() {
      this.set(sources.api?.responseCacheSize()?.entries ?? 0);
    },
  });
  new Gauge({
    name: 'explorer_response_cache_bytes',
    help: 'Approximate bytes the response cache holds.',
    registers: register,
    collect() {
      this.set(sources.api?.responseCacheSize()?.bytes ?? 0);
    },
  });

  // Live events
  new Gauge({
    name: 'explorer_event_subscribers',
    help: 'Open live-event subscriptions (SSE streams and WebSocket subscriptions) of this process.',
    registers: register,
    collect() {
      this.set(sources.events?.health().subscribers ?? 0);
    },
  });
  const framesSent = new Counter({
    name: 'explorer_event_frames_sent_total',
    help: 'Events handed to live-event subscribers (one per event and subscriber).',
    registers: register,
  });
  const dropped = new Counter({
    name: 'explorer_event_slow_consumers_dropped_total',
    help: 'Live-event subscribers dropped for reading too slowly.',
    registers: register,
  });

  // Webhooks
  const deliveries = new Counter({
    name: 'explorer_webhook_deliveries_total',
    help: 'Webhook delivery attempts, by outcome: delivered, retry (attempted again later) or failed (given up).',
    labelNames: ['outcome'],
    registers: register,
  });
  // Each outcome from zero, so that the first failure shows in rate() and increase().
  for (const outcome of ['delivered', 'retry', 'failed'] satisfies WebhookAttemptOutcome[])
    deliveries.inc({ outcome }, 0);
  scraped(
    'explorer_webhook_outbox_depth',
    'Webhook deliveries waiting for an attempt (pending).',
    (s) => s.outbox,
  );

  // Mempool
  scraped(
    'explorer_mempool_transactions',
    'Unconfirmed transactions in the node’s mempool at the last reading.',
    (s) => s.mempool?.summary.count,
  );
  scraped(
    'explorer_mempool_vbytes',
    'Sum of the virtual sizes of the mempool’s transactions at the last reading.',
    (s) => s.mempool?.summary.bytes,
  );

  const bucketOf = (identity: Identity, tiers: Readonly<Record<string, number>>) =>
    identity.type === 'anonymous' ? 'anonymous' : Object.hasOwn(tiers, identity.tier) ? identity.tier : 'key';

  return {
    registry: Registry.merge([processMetrics(), registry]),
    request(facts) {
      const labels = {
        route: facts.route,
        status_class: statusClass(facts.status),
        cache: facts.cached ? 'hit' : 'miss',
      };
      requests.inc(labels);
      latency.observe(labels, facts.seconds);
    },
    answered(facts) {
      if (facts.responseCache === 'hit') cacheHits.inc();
      else if (facts.responseCache === 'miss') cacheMisses.inc();
    },
    onQuery: (name, seconds) => queries.observe({ query: name }, seconds),
    indexer: {
      committed(n, t) {
        blocks.inc(n);
        txs.inc(t);
      },
      reorg: () => reorgs.inc(),
    },
    events: { sent: () => framesSent.inc(), dropped: () => dropped.inc() },
    webhookAttempt: (outcome) => deliveries.inc({ outcome }),
    watchPool(pool, sql) {
      pools.set(pool, sql);
    },
    watch(more) {
      Object.assign(sources, more);
    },
    countRefusals(limiter, tiers) {
      const counted: RateLimiter = {
        async consume(identity, clientAddress, points) {
          const result = await limiter.consume(identity, clientAddress, points);
          if (!result.allowed) refusals.inc({ bucket: bucketOf(identity, tiers) });
          return result;
        },
      };
      if (limiter.health) counted.health = () => limiter.health!();
      return counted;
    },
  };
}
