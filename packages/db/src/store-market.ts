import type { MarketStore } from '@explorer/core';
import {
  readMarketHealth,
  selectLatestMarketSnapshots,
  selectMarketChart,
  selectMarketChartSummaries,
  selectMarketSnapshotStats,
} from './queries/market.js';
import type { Sql } from './sql.js';

/**
 * The market part of the Store: what /v1/market, /v1/market/chart and /v1/analytics/market read.
 * @example const store = { ...createSqlStore(sql), ...marketStoreMethods(sql) }
 */
export function marketStoreMethods(sql: Sql): MarketStore {
  return {
    marketHealth: () => readMarketHealth(sql),
    latestMarketSnapshots: (provider, coin, vsCurrencies) =>
      selectLatestMarketSnapshots(sql, provider, coin, vsCurrencies),
    marketChart: (provider, coin, vsCurrency, days) =>
      selectMarketChart(sql, provider, coin, vsCurrency, days),
    marketChartSummaries: (provider, coin) => selectMarketChartSummaries(sql, provider, coin),
    marketSnapshotStats: () => selectMarketSnapshotStats(sql),
  };
}
