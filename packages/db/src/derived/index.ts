import type { Sql } from '../sql.js';
import { type AddressTotalsRow, addressTotals } from './address-totals.js';
import { type AddressTxRow, addressTxs } from './address-txs.js';
import { type BlockRow, blocks } from './blocks.js';
import { type CertificateRow, certificates } from './certificates.js';
import { type DailyMinerBlocksRow, dailyMinerBlocks } from './daily-miner-blocks.js';
import { type DailyPoolBlocksRow, dailyPoolBlocks } from './daily-pool-blocks.js';
import { type DailyStatsRow, dailyStats } from './daily-stats.js';
import { type InputRow, inputs } from './inputs.js';
import { type MinerStatsRow, minerStats } from './miner-stats.js';
import { type OutputRow, outputs } from './outputs.js';
import { type PoolStatsRow, poolStats } from './pool-stats.js';
import { type SpendRow, spends } from './spends.js';
import type { DerivedTable } from './table.js';
import { type TxRow, txs } from './txs.js';
import { type UtxoRow, utxos } from './utxos.js';

export type { AddressTotalsRow } from './address-totals.js';
export type { AddressTxRow } from './address-txs.js';
export type { BlockRow } from './blocks.js';
export type { CertificateRow } from './certificates.js';
export type { DailyMinerBlocksRow } from './daily-miner-blocks.js';
export type { DailyPoolBlocksRow } from './daily-pool-blocks.js';
export type { DailyStatsRow } from './daily-stats.js';
export type { InputRow } from './inputs.js';
export type { MinerStatsRow } from './miner-stats.js';
export type { OutputRow } from './outputs.js';
export type { PoolStatsRow } from './pool-stats.js';
export { type CoreRawRecipe, type KeptTxJson, keepCoreTxJson, renderKeptCoreTx } from './raw-tx.js';
export { MissingPrevoutError, type SpendRow } from './spends.js';
export type { Check, DerivedTable, Rollback } from './table.js';
export type { TxRow } from './txs.js';
export type { UtxoRow } from './utxos.js';

/** Every row a batch of blocks adds to the index, one field per derived table. */
export interface BatchRows {
  outputs: OutputRow[];
  utxos: UtxoRow[];
  spends: SpendRow[];
  txs: TxRow[];
  inputs: InputRow[];
  addressTxs: AddressTxRow[];
  addressTotals: AddressTotalsRow[];
  blocks: BlockRow[];
  certificates: CertificateRow[];
  minerStats: MinerStatsRow[];
  poolStats: PoolStatsRow[];
  dailyStats: DailyStatsRow[];
  dailyPoolBlocks: DailyPoolBlocksRow[];
  dailyMinerBlocks: DailyMinerBlocksRow[];
}

/**
 * Every table the index derives from the chain, in write order: outputs and the unspent ones before the
 * spends that take them out, and each rollback phase runs in this order too.
 */
export const DERIVED_TABLES: readonly DerivedTable<BatchRows>[] = [
  outputs,
  utxos,
  spends,
  txs,
  inputs,
  addressTxs,
  addressTotals,
  blocks,
  certificates,
  minerStats,
  poolStats,
  dailyStats,
  dailyPoolBlocks,
  dailyMinerBlocks,
];

/**
 * Refreshes the planner's statistics of every table of the index. After a bulk load the statistics autovacuum
 * last gathered describe a fraction of the rows (or none), and a page planned from them can read millions of
 * rows instead of a few (a transaction's flow took 2 s instead of 2 ms on a freshly synced 1.1 M-transaction
 * chain); ANALYZE samples each table, so it takes seconds however large the chain.
 */
export async function analyzeIndex(sql: Sql): Promise<void> {
  // The index's own tables, as the search path names them: not every schema of a shared database.
  const tables = [...new Set(DERIVED_TABLES.flatMap((t) => (t.dump ? [t.dump.table] : [])))];
  await sql.exec(`ANALYZE ${tables.join(', ')}`, 'derived.analyze');
}

/** Writes a batch's rows into every derived table, in the writing transaction. */
export async function writeDerived(tx: Sql, rows: BatchRows): Promise<void> {
  for (const t of DERIVED_TABLES) await t.write(tx, rows);
}

/**
 * Whether the planner's statistics of the index lag the chain: never gathered while it holds transactions, or
 * gathered when it held fewer than `1 / (1 + growth)` of them (and 1,000 or more fewer). Read from what ANALYZE
 * (the indexer's or autovacuum's) last recorded of `txs`, which grows with every bulk table, against the tip's
 * count of transactions; so it says the same on PostgreSQL, with or without autovacuum, and on PGlite.
 */
export async function statisticsStale(sql: Sql, growth: number): Promise<boolean> {
  // The column statistics themselves (pg_stats): a VACUUM without ANALYZE sets reltuples but gathers none.
  const [row] = await sql.query<{ analyzed: number; txs: number | null; columns: boolean }>(
    `SELECT (SELECT reltuples FROM pg_class WHERE oid = to_regclass('txs'))::float8 AS analyzed,
            EXISTS (SELECT 1 FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'txs') AS columns,
            (SELECT cum_tx_count FROM blocks ORDER BY height DESC LIMIT 1)::float8 AS txs`,
    [],
    'derived.statistics-stale',
  );
  const txs = row?.txs ?? 0;
  const analyzed = row?.columns ? (row.analyzed ?? -1) : -1;
  if (txs <= 0) return false;
  if (analyzed < 0) return true;
  return txs >= analyzed * (1 + growth) + 1_000;
}
