import type { MarketChartDays } from '@explorer/core';
import { type Logger, silentLogger } from '@explorer/core';
import type { AdvisoryLock, Sql } from '@explorer/db';
import {
  deleteMarketSnapshotsBefore,
  insertMarketSnapshots,
  type MarketRefresherConfigRecord,
  readMarketHealth,
  recordMarketAttempt,
  recordMarketConfig,
  selectMarketChartSummaries,
  upsertMarketChart,
} from '@explorer/db';
import { backoffMs } from '../backoff.js';
import { sleep } from '../sleep.js';
import { MarketProviderError } from './errors.js';
import type { MarketProvider } from './provider.js';

/** Every chart window the API serves. */
export const ALL_CHART_DAYS: readonly MarketChartDays[] = [1, 7, 30, 90, 365];

/** How often each chart window is renewed by default (a window's resolution makes refetching it sooner pointless). */
export const DEFAULT_CHART_REFRESH_MS: Readonly<Record<MarketChartDays, number>> = {
  1: 30 * 60_000,
  7: 6 * 3_600_000,
  30: 6 * 3_600_000,
  90: 6 * 3_600_000,
  365: 24 * 3_600_000,
};

/** The market refresher's defaults: what an option not given is (and the server's `MARKET_REFRESH_MS` default). */
export const MARKET_REFRESHER_DEFAULTS = {
  intervalMs: 60_000,
  staleFactor: 3,
  maxBackoffMs: 30 * 60_000,
  maxRetryAfterMs: 3_600_000,
  retentionMs: 30 * 86_400_000,
} as const;

/** Options of the market refresher. */
export interface MarketRefresherOptions {
  sql: Sql;
  provider: MarketProvider;
  /** Lowercase currency codes, e.g. `['usd', 'eur']`; the first is the chart default. */
  vsCurrencies: readonly string[];
  /** Milliseconds between successful price refreshes (default 60,000). */
  intervalMs?: number;
  /** Chart windows to keep (default all: 1, 7, 30, 90, 365). */
  chartDays?: readonly MarketChartDays[];
  /** Renewal period of each chart window (defaults in DEFAULT_CHART_REFRESH_MS). */
  chartRefreshMs?: Partial<Record<MarketChartDays, number>>;
  /** Data older than this many refresh periods is answered with `stale: true` (default 3). */
  staleFactor?: number;
  /** Longest wait between attempts while failing (default 30 minutes). */
  maxBackoffMs?: number;
  /** Longest Retry-After honoured (default 1 hour); longer ones are cut to it. */
  maxRetryAfterMs?: number;
  /** Snapshots older than this are deleted (default 30 days). */
  retentionMs?: number;
  /** Milliseconds since the epoch (tests pin it); every stored time comes from it. */
  clock?: () => number;
  log?: Logger;
}

/** What one refresh did. */
export interface MarketRefreshResult {
  ok: boolean;
  /** The failure's message; null on success. */
  error: string | null;
  /** Snapshots stored (one per vs-currency when the prices were fetched). */
  snapshots: number;
  /** Chart windows renewed. */
  charts: number;
  consecutiveFailures: number;
  /** When the next attempt is due (ms): one interval after a success; backed off, and never before Retry-After, after a failure. */
  nextAttemptAt: number;
}

/** Keeps the market cache fresh, on its own schedule (never on a request path). */
export interface MarketRefresher {
  /** Starts the loop in the background (one refresher per database writes; others stand by). */
  start(): Promise<void>;
  /** Stops the loop, abandoning an attempt in flight; resolves once stopped. */
  stop(): Promise<void>;
  /** Runs one attempt now, whatever the schedule: prices, then the chart windows that are due. Never throws. */
  refreshOnce(): Promise<MarketRefreshResult>;
}

const REFRESHER_LOCK = 7_301_003;

const messageOf = (err: unknown) =>
  err instanceof MarketProviderError
    ? err.message
    : `${(err as Error)?.name === 'DatabaseError' ? 'database: ' : ''}${(err as Error)?.message ?? String(err)}`;

/**
 * Creates the refresher that fetches prices and chart windows from a provider into the database. It records
 * every attempt (time, error) in `market_health`, backs off exponentially while the provider fails, and waits at
 * least the provider's Retry-After after a 429.
 * @example const refresher = createMarketRefresher({ sql, provider, vsCurrencies: ['usd'] }); await refresher.start();
 */
export function createMarketRefresher(opts: MarketRefresherOptions): MarketRefresher {
  const { sql, provider } = opts;
  const vsCurrencies = [...new Set(opts.vsCurrencies.map((c) => c.toLowerCase()))];
  if (vsCurrencies.length === 0) throw new Error('market refresher: at least one vs-currency is needed');
  const defaults = MARKET_REFRESHER_DEFAULTS;
  const intervalMs = opts.intervalMs ?? defaults.intervalMs;
  const chartDays = [...new Set(opts.chartDays ?? ALL_CHART_DAYS)];
  const staleFactor = opts.staleFactor ?? defaults.staleFactor;
  const maxBackoffMs = opts.maxBackoffMs ?? defaults.maxBackoffMs;
  const maxRetryAfterMs = opts.maxRetryAfterMs ?? defaults.maxRetryAfterMs;
  const retentionMs = opts.retentionMs ?? defaults.retentionMs;
  const clock = opts.clock ?? Date.now;
  const log = opts.log ?? silentLogger;
  const chartRefreshMs = (d: MarketChartDays) => opts.chartRefreshMs?.[d] ?? DEFAULT_CHART_REFRESH_MS[d];
  const config: MarketRefresherConfigRecord = {
    provider: provider.name,
    coin: provider.coin,
    demo: provider.demo,
    vsCurrencies,
    refreshIntervalMs: intervalMs,
    staleAfterMs: staleFactor * intervalMs,
  };

  let abort = new AbortController();
  let loop: Promise<void> | null = null;
  let lock: AdvisoryLock | null = null;
  let running: Promise<MarketRefreshResult> | null = null;

  /** Chart windows never fetched or older than their renewal period. */
  async function dueCharts(now: number): Promise<{ vsCurrency: string; days: MarketChartDays }[]> {
    const stored = await selectMarketChartSummaries(sql, provider.name, provider.coin);
    const fetchedAt = new Map(stored.map((c) => [`${c.vsCurrency}:${c.days}`, c.fetchedAt]));
    const due: { vsCurrency: string; days: MarketChartDays }[] = [];
    for (const days of chartDays) {
      for (const vsCurrency of vsCurrencies) {
        const at = fetchedAt.get(`${vsCurrency}:${days}`);
        if (at === undefined || now - at >= chartRefreshMs(days)) due.push({ vsCurrency, days });
      }
    }
    return due;
  }

  async function attempt(signal: AbortSignal): Promise<MarketRefreshResult> {
    const startedAt = clock();
    let snapshots = 0;
    let charts = 0;
    let failures = 0;
    try {
      failures = (await readMarketHealth(sql)).consecutiveFailures;
      const quotes = await provider.prices(vsCurrencies, signal);
      const fetchedAt = clock();
      await insertMarketSnapshots(
        sql,
        quotes.map((q) => ({
          ...q,
          fetchedAt,
          provider: provider.name,
          coin: provider.coin,
          demo: provider.demo,
        })),
      );
      snapshots = quotes.length;
      await deleteMarketSnapshotsBefore(sql, fetchedAt - retentionMs);
      for (const { vsCurrency, days } of await dueCharts(fetchedAt)) {
        const points = await provider.chart(vsCurrency, days, signal);
        await upsertMarketChart(sql, {
          provider: provider.name,
          coin: provider.coin,
          vsCurrency,
          days,
          fetchedAt: clock(),
          refreshMs: chartRefreshMs(days),
          staleAfterMs: staleFactor * Math.max(intervalMs, chartRefreshMs(days)),
          demo: provider.demo,
          points,
        });
        charts++;
      }
      const nextAttemptAt = clock() + intervalMs;
      await recordMarketAttempt(sql, config, {
        startedAt,
        finishedAt: clock(),
        error: null,
        consecutiveFailures: 0,
        nextAttemptAt,
      });
      if (failures > 0) log.info({ after: failures }, 'market data provider answers again');
      return { ok: true, error: null, snapshots, charts, consecutiveFailures: 0, nextAttemptAt };
    } catch (err) {
      const message = messageOf(err);
      const finishedAt = clock();
      failures += 1;
      const backoff = backoffMs(failures, { firstMs: intervalMs, maxMs: maxBackoffMs });
      const retryAfter = err instanceof MarketProviderError ? err.retryAfterMs : undefined;
      const wait = Math.max(backoff, Math.min(retryAfter ?? 0, maxRetryAfterMs));
      const nextAttemptAt = finishedAt + wait;
      const result = {
        ok: false,
        error: message,
        snapshots,
        charts,
        consecutiveFailures: failures,
        nextAttemptAt,
      };
      if (signal.aborted) return result;
      log.warn(
        { err: message, failures, retryInMs: wait },
        'market data refresh failed; keeping the last data',
      );
      try {
        await recordMarketAttempt(sql, config, {
          startedAt,
          finishedAt,
          error: message.slice(0, 1000),
          consecutiveFailures: failures,
          nextAttemptAt,
        });
      } catch (dbErr) {
        log.error({ err: messageOf(dbErr) }, 'could not record the market refresh failure');
      }
      return result;
    }
  }

  function refreshOnce(): Promise<MarketRefreshResult> {
    // One attempt at a time: a manual call while the loop is fetching joins that attempt.
    running ??= attempt(abort.signal).finally(() => {
      running = null;
    });
    return running;
  }

  async function run(signal: AbortSignal): Promise<void> {
    let nextAt: number | null = null;
    while (!signal.aborted) {
      if (lock && !lock.held()) {
        // Lost with its database connection: take it again before the next refresh writes.
        await lock.release().catch(() => {});
        lock = null;
      }
      if (!lock) {
        lock = await sql.tryAdvisoryLock(REFRESHER_LOCK).catch(() => null);
        if (!lock) {
          log.debug({}, 'another market refresher holds the lock; standing by');
          await sleep(intervalMs, signal);
          continue;
        }
        // The API reports this refresher's provider from now on, not an earlier one's (or none).
        await recordMarketConfig(sql, config).catch((err) =>
          log.warn({ err: messageOf(err) }, 'could not record the market configuration'),
        );
      }
      // A wait recorded before a restart (a 429's Retry-After, a backoff) is honoured too.
      nextAt ??= await readMarketHealth(sql)
        .then((h) => h.nextAttemptAt ?? 0)
        .catch(() => 0);
      const wait = nextAt - clock();
      if (wait > 0) {
        await sleep(wait, signal);
        continue;
      }
      nextAt = (await refreshOnce()).nextAttemptAt;
    }
  }

  return {
    async start() {
      if (loop) return;
      abort = new AbortController();
      loop = run(abort.signal);
      log.info(
        { provider: provider.name, coin: provider.coin, vsCurrencies, intervalMs, demo: provider.demo },
        'market data refresher started',
      );
    },
    async stop() {
      abort.abort();
      await loop;
      await running;
      loop = null;
      abort = new AbortController();
      if (lock) {
        await lock.release().catch(() => {});
        lock = null;
      }
    },
    refreshOnce,
  };
}
