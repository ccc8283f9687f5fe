/** The chart windows the API serves and the refresher keeps, in days. */
export const MARKET_CHART_DAYS = [1, 7, 30, 90, 365] as const;

/** One chart window, in days. */
export type MarketChartDays = (typeof MARKET_CHART_DAYS)[number];

/** One stored price snapshot of one vs-currency. Times are milliseconds since the epoch. */
export interface MarketSnapshotRecord {
  fetchedAt: number;
  provider: string;
  coin: string;
  vsCurrency: string;
  price: number;
  /** Percent change over 24 h, as the provider reports it. */
  change24h: number | null;
  volume24h: number | null;
  /** The provider's own market cap. */
  marketCap: number | null;
  /** When the provider last updated its price (its `last_updated_at`). */
  providerUpdatedAt: number | null;
  demo: boolean;
}

/** One stored chart window. */
export interface MarketChartRecord {
  provider: string;
  coin: string;
  vsCurrency: string;
  days: MarketChartDays;
  fetchedAt: number;
  /** How often the refresher renews this window. */
  refreshMs: number;
  /** Age past which the window counts as stale. */
  staleAfterMs: number;
  demo: boolean;
  /** Oldest first; `t` in milliseconds since the epoch. */
  points: { t: number; price: number }[];
}

/** A stored chart window without its points. */
export type MarketChartSummary = Omit<MarketChartRecord, 'points'> & { pointCount: number };

/** The cache's health as the refresher last recorded it (nulls before its first attempt). */
export interface MarketHealthRecord {
  /**
   * False when the indexer runs beside a chain node with no market-data provider configured (the market
   * routes then say so); true once a refresher recorded its provider; null before either.
   */
  configured: boolean | null;
  /** Provider, coin and currencies of the refresher's configuration. */
  provider: string | null;
  coin: string | null;
  demo: boolean | null;
  vsCurrencies: string[];
  refreshIntervalMs: number | null;
  /** Age past which snapshots count as stale. */
  staleAfterMs: number | null;
  lastAttemptAt: number | null;
  lastAttemptOk: boolean | null;
  lastSuccessAt: number | null;
  lastErrorAt: number | null;
  lastError: string | null;
  consecutiveFailures: number;
  nextAttemptAt: number | null;
}

/** Count and time range of the stored snapshots. */
export interface MarketSnapshotStats {
  count: number;
  oldest: number | null;
  newest: number | null;
}

/**
 * The reads of /v1/market, /v1/market/chart and /v1/analytics/market. `@explorer/db` implements it
 * (`marketStoreMethods`); it is meant to be merged into `Store`.
 */
export interface MarketStore {
  /** The cache's recorded health and the refresher's configuration. */
  marketHealth(): Promise<MarketHealthRecord>;
  /** The newest snapshot of each vs-currency of this provider and coin, in the order of `vsCurrencies`. */
  latestMarketSnapshots(
    provider: string,
    coin: string,
    vsCurrencies: readonly string[],
  ): Promise<MarketSnapshotRecord[]>;
  /** A stored chart window, or null when it was never fetched. */
  marketChart(
    provider: string,
    coin: string,
    vsCurrency: string,
    days: MarketChartDays,
  ): Promise<MarketChartRecord | null>;
  /** Every stored chart window of this provider and coin, without points. */
  marketChartSummaries(provider: string, coin: string): Promise<MarketChartSummary[]>;
  /** Count, oldest and newest of all stored snapshots. */
  marketSnapshotStats(): Promise<MarketSnapshotStats>;
}
