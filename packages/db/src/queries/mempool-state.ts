import type { FeeEstimates, MempoolSummary } from '@explorer/core';
import type { Sql } from '../sql.js';
import { firstTxNoAbove, heightOf, indexOf } from '../tx-no.js';

/** The mempool as the indexer's watcher last read it. */
export interface MempoolState {
  takenAt: string;
  summary: MempoolSummary;
  fees: FeeEstimates;
}

/** Replaces the stored mempool state (one row). */
export async function writeMempoolState(sql: Sql, state: MempoolState): Promise<void> {
  await sql.query(
    `INSERT INTO mempool_state (id, taken_at, summary, fees) VALUES (1, $1, $2, $3)
     ON CONFLICT (id) DO UPDATE SET taken_at = EXCLUDED.taken_at, summary = EXCLUDED.summary, fees = EXCLUDED.fees`,
    [state.takenAt, JSON.stringify(state.summary), JSON.stringify(state.fees)],
    'mempool.write',
  );
}

/** The stored mempool state, or null before the watcher's first read. */
export async function readMempoolState(sql: Sql): Promise<MempoolState | null> {
  const [row] = await sql.query<{ taken_at: Date | string; summary: unknown; fees: unknown }>(
    'SELECT taken_at, summary, fees FROM mempool_state WHERE id = 1',
    [],
    'mempool.read',
  );
  if (!row) return null;
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
  return {
    takenAt: new Date(row.taken_at).toISOString(),
    summary: json(row.summary) as MempoolSummary,
    fees: json(row.fees) as FeeEstimates,
  };
}

/**
 * The lowest fee rate (base units per vbyte) each of the last `blocks` indexed blocks included, newest first,
 * each rounded up to 0.001 exactly (fee × 1000 ÷ vsize in numeric, then up to an integer); blocks with no
 * transaction besides the coinbase are left out.
 */
export async function recentBlockFloors(sql: Sql, blocks: number): Promise<number[]> {
  const rows = await sql.query<{ milli: number | string }>(
    `SELECT min(ceil(t.fee::numeric * 1000 / t.vsize))::int8 AS milli
     FROM txs t
     WHERE t.tx_no >= ${firstTxNoAbove('(SELECT coalesce(max(height), -1) FROM blocks) - $1')}
       AND ${indexOf('t.tx_no')} <> 0 AND t.vsize > 0
     GROUP BY ${heightOf('t.tx_no')} ORDER BY ${heightOf('t.tx_no')} DESC`,
    [blocks],
    'mempool.block-floors',
  );
  return rows.map((r) => Number(r.milli) / 1000);
}
