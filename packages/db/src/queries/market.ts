import type {
  MarketChartDays,
  MarketChartRecord,
  MarketChartSummary,
  MarketHealthRecord,
  MarketSnapshotRecord,
  MarketSnapshotStats,
} from '@explorer/core';
import type { Sql } from '../sql.js';

type Time = Date | string | null;

const toMs = (v: Time): number | null => (v === null ? null : new Date(v).getTime());
const toIso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

interface SnapshotRow {
  fetched_at: Date | string;
  provider: string;
  coin: string;
  vs_currency: string;
  price: number;
  change_24h: number | null;
  volume_24h: number | null;
  market_cap: number | null;
  provider_updated_at: Time;
  demo: boolean;
}

const toSnapshot = (r: SnapshotRow): MarketSnapshotRecord => ({
  fetchedAt: toMs(r.fetched_at)!,
  provider: r.provider,
  coin: r.coin,
  vsCurrency: r.vs_currency,
  price: r.price,
  change24h: r.change_24h,
  volume24h: r.volume_24h,
  marketCap: r.market_cap,
  providerUpdatedAt: toMs(r.provider_updated_at),
  demo: r.demo,
});

/** Stores one refresh's snapshots (one row per vs-currency). */
export async function insertMarketSnapshots(sql: Sql, rows: readonly MarketSnapshotRecord[]): Promise<void> {
  if (rows.length === 0) return;
  const params: unknown[] = [];
  const values = rows.map((r) => {
    const base = params.length;
    params.push(
      toIso(r.fetchedAt),
      r.provider,
      r.coin,
      r.vsCurrency,
      r.price,
      r.change24h,
      r.volume24h,
      r.marketCap,
      toIso(r.providerUpdatedAt),
      r.demo,
    );
    const p = (i: number) => `$${base + i}`;
    return `(${p(1)}::timestamptz, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}::float8, ${p(6)}::float8, ${p(7)}::float8, ${p(8)}::float8, ${p(9)}::timestamptz, ${p(10)}::boolean)`;
  });
  await sql.query(
    `INSERT INTO market_snapshots (fetched_at, provider, coin, vs_currency, price, change_24h, volume_24h,
       market_cap, provider_updated_at, demo) VALUES ${values.join(', ')}`,
    params,
    'market.insert-snapshots',
  );
}

/** Removes snapshots fetched before `beforeMs`; returns how many. */
export async function deleteMarketSnapshotsBefore(sql: Sql, beforeMs: number): Promise<number> {
  const rows = await sql.query<{ id: number }>(
    'DELETE FROM market_snapshots WHERE fetched_at < $1::timestamptz RETURNING 1 AS id',
    [toIso(beforeMs)],
    'market.prune-snapshots',
  );
  return rows.length;
}

/** The newest snapshot of each of `vsCurrencies` for this provider and coin, in the order given. */
export async function selectLatestMarketSnapshots(
  sql: Sql,
  provider: string,
  coin: string,
  vsCurrencies: readonly string[],
): Promise<MarketSnapshotRecord[]> {
  if (vsCurrencies.length === 0) return [];
  const rows = await sql.query<SnapshotRow>(
    `SELECT s.* FROM unnest($3::text[]) WITH ORDINALITY AS v(cur, ord)
     CROSS JOIN LATERAL (
       SELECT fetched_at, provider, coin, vs_currency, price, change_24h, volume_24h, market_cap,
              provider_updated_at, demo
       FROM market_snapshots
       WHERE provider = $1 AND coin = $2 AND vs_currency = v.cur
       ORDER BY fetched_at DESC, id DESC LIMIT 1
     ) s
     ORDER BY v.ord`,
    [provider, coin, [...vsCurrencies]],
    'market.latest-snapshots',
  );
  return rows.map(toSnapshot);
}

/** Count, oldest and newest of all stored snapshots. */
export async function selectMarketSnapshotStats(sql: Sql): Promise<MarketSnapshotStats> {
  const [row] = await sql.query<{ count: number; oldest: Time; newest: Time }>(
    'SELECT count(*)::int AS count, min(fetched_at) AS oldest, max(fetched_at) AS newest FROM market_snapshots',
    [],
    'market.snapshot-stats',
  );
  return { count: row?.count ?? 0, oldest: toMs(row?.oldest ?? null), newest: toMs(row?.newest ?? null) };
}

interface ChartRow {
  provider: string;
  coin: string;
  vs_currency: string;
  days: number;
  fetched_at: Date | string;
  refresh_ms: number;
  stale_after_ms: number;
  demo: boolean;
}

const toChartSummary = (r: ChartRow & { point_count: number }): MarketChartSummary => ({
  provider: r.provider,
  coin: r.coin,
  vsCurrency: r.vs_currency,
  days: r.days as MarketChartDays,
  fetchedAt: toMs(r.fetched_at)!,
  refreshMs: r.refresh_ms,
  staleAfterMs: r.stale_after_ms,
  demo: r.demo,
  pointCount: r.point_count,
});

/** Replaces the stored window of this provider, coin, vs-currency and days. Points are kept as `[t, price]`. */
export async function upsertMarketChart(sql: Sql, chart: MarketChartRecord): Promise<void> {
  await sql.query(
    `INSERT INTO market_chart (provider, coin, vs_currency, days, fetched_at, refresh_ms, stale_after_ms, demo, points)
     VALUES ($1, $2, $3, $4, $5::timestamptz, $6, $7, $8, $9::jsonb)
     ON CONFLICT (provider, coin, vs_currency, days) DO UPDATE SET fetched_at = EXCLUDED.fetched_at,
       refresh_ms = EXCLUDED.refresh_ms, stale_after_ms = EXCLUDED.stale_after_ms, demo = EXCLUDED.demo,
       points = EXCLUDED.points`,
    [
      chart.provider,
      chart.coin,
      chart.vsCurrency,
      chart.days,
      toIso(chart.fetchedAt),
      Math.round(chart.refreshMs),
      Math.round(chart.staleAfterMs),
      chart.demo,
      JSON.stringify(chart.points.map((p) => [p.t, p.price])),
    ],
    'market.upsert-chart',
  );
}

/** One stored window, or null. */
export async function selectMarketChart(
  sql: Sql,
  provider: string,
  coin: string,
  vsCurrency: string,
  days: MarketChartDays,
): Promise<MarketChartRecord | null> {
  const [row] = await sql.query<ChartRow & { points: unknown }>(
    `SELECT provider, coin, vs_currency, days, fetched_at, refresh_ms, stale_after_ms, demo, points
     FROM market_chart WHERE provider = $1 AND coin = $2 AND vs_currency = $3 AND days = $4`,
    [provider, coin, vsCurrency, days],
    'market.chart',
  );
  if (!row) return null;
  const raw = typeof row.points === 'string' ? JSON.parse(row.points) : row.points;
  const points = (raw as [number, number][]).map(([t, price]) => ({ t, price }));
  const { pointCount: _n, ...summary } = toChartSummary({ ...row, point_count: points.length });
  return { ...summary, points };
}

/** Every stored window of this provider and coin, without points, by vs-currency and days. */
export async function selectMarketChartSummaries(
  sql: Sql,
  provider: string,
  coin: string,
): Promise<MarketChartSummary[]> {
  const rows = await sql.query<ChartRow & { point_count: number }>(
    `SELECT provider, coin, vs_currency, days, fetched_at, refresh_ms, stale_after_ms, demo,
            jsonb_array_length(points) AS point_count
     FROM market_chart WHERE provider = $1 AND coin = $2 ORDER BY vs_currency, days`,
    [provider, coin],
    'market.chart-summaries',
  );
  return rows.map(toChartSummary);
}

interface HealthRow {
  configured: boolean | null;
  provider: string | null;
  coin: string | null;
  demo: boolean | null;
  vs_currencies: string[] | null;
  refresh_interval_ms: number | null;
  stale_after_ms: number | null;
  last_attempt_at: Time;
  last_attempt_ok: boolean | null;
  last_success_at: Time;
  last_error_at: Time;
  last_error: string | null;
  consecutive_failures: number;
  next_attempt_at: Time;
}

/** The cache's health row. */
export async function readMarketHealth(sql: Sql): Promise<MarketHealthRecord> {
  const [r] = await sql.query<HealthRow>('SELECT * FROM market_health WHERE id = 1', [], 'market.health');
  if (!r) throw new Error('market_health has no row: the schema was not migrated');
  return {
    configured: r.configured,
    provider: r.provider,
    coin: r.coin,
    demo: r.demo,
    vsCurrencies: r.vs_currencies ?? [],
    refreshIntervalMs: r.refresh_interval_ms,
    staleAfterMs: r.stale_after_ms,
    lastAttemptAt: toMs(r.last_attempt_at),
    lastAttemptOk: r.last_attempt_ok,
    lastSuccessAt: toMs(r.last_success_at),
    lastErrorAt: toMs(r.last_error_at),
    lastError: r.last_error,
    consecutiveFailures: r.consecutive_failures,
    nextAttemptAt: toMs(r.next_attempt_at),
  };
}

/** The refresher's configuration, recorded with every attempt so API processes can read it. */
export interface MarketRefresherConfigRecord {
  provider: string;
  coin: string;
  demo: boolean;
  vsCurrencies: readonly string[];
  refreshIntervalMs: number;
  staleAfterMs: number;
}

/** One refresh attempt's outcome. */
export interface MarketAttemptRecord {
  startedAt: number;
  /** Time of the success or failure. */
  finishedAt: number;
  /** Null when the attempt succeeded. */
  error: string | null;
  consecutiveFailures: number;
  nextAttemptAt: number;
}

/** A refresher's configuration as the first six parameters of the statements that record it. */
const configParams = (config: MarketRefresherConfigRecord) => [
  config.provider,
  config.coin,
  config.demo,
  [...config.vsCurrencies],
  Math.round(config.refreshIntervalMs),
  Math.round(config.staleAfterMs),
];

/** Records an attempt (success or failure) and the configuration it ran with. */
export async function recordMarketAttempt(
  sql: Sql,
  config: MarketRefresherConfigRecord,
  attempt: MarketAttemptRecord,
): Promise<void> {
  const ok = attempt.error === null;
  await sql.query(
    `UPDATE market_health SET configured = true, provider = $1, coin = $2, demo = $3, vs_currencies = $4::text[],
       refresh_interval_ms = $5, stale_after_ms = $6, last_attempt_at = $7::timestamptz, last_attempt_ok = $8,
       last_success_at = CASE WHEN $8 THEN $12::timestamptz ELSE last_success_at END,
       last_error_at = CASE WHEN $8 THEN last_error_at ELSE $12::timestamptz END,
       last_error = CASE WHEN $8 THEN last_error ELSE $9 END,
       consecutive_failures = $10, next_attempt_at = $11::timestamptz
     WHERE id = 1`,
    [
      ...configParams(config),
      toIso(attempt.startedAt),
      ok,
      attempt.error,
      attempt.consecutiveFailures,
      toIso(attempt.nextAttemptAt),
      toIso(attempt.finishedAt),
    ],
    'market.record-attempt',
  );
}

/**
 * Records the configuration of a refresher that starts (it holds the refresher lock), before its first attempt:
 * the API then reports its provider instead of an earlier configuration, or of none.
 */
export async function recordMarketConfig(sql: Sql, config: MarketRefresherConfigRecord): Promise<void> {
  await sql.query(
    `UPDATE market_health SET configured = true, provider = $1, coin = $2, demo = $3, vs_currencies = $4::text[],
       refresh_interval_ms = $5, stale_after_ms = $6 WHERE id = 1`,
    configParams(config),
    'market.record-config',
  );
}

/**
 * Records that no market-data provider is configured where the indexer runs beside a chain node: the health
 * row is reset (its figures were an earlier provider's) and the made-up data of the demo provider an earlier
 * run may have stored is deleted, so nothing of it is ever served as this chain's market. Snapshots of a real
 * provider are kept (they are never served under another configuration; retention removes them).
 */
export async function recordMarketNotConfigured(sql: Sql): Promise<{ removedDemoSnapshots: number }> {
  return sql.transaction(async (tx) => {
    await tx.query(
      `UPDATE market_health SET configured = false, provider = NULL, coin = NULL, demo = NULL,
         vs_currencies = '{}', refresh_interval_ms = NULL, stale_after_ms = NULL, last_attempt_at = NULL,
         last_attempt_ok = NULL, last_success_at = NULL, last_error_at = NULL, last_error = NULL,
         consecutive_failures = 0, next_attempt_at = NULL
       WHERE id = 1`,
      [],
      'market.record-not-configured',
    );
    const [removed] = await tx.query<{ n: number }>(
      'WITH d AS (DELETE FROM market_snapshots WHERE demo RETURNING 1) SELECT count(*)::int4 AS n FROM d',
      [],
      'market.delete-demo-snapshots',
    );
    await tx.query('DELETE FROM market_chart WHERE demo', [], 'market.delete-demo-charts');
    return { removedDemoSnapshots: removed?.n ?? 0 };
  });
}
