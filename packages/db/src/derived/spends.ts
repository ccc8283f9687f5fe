import type { Sql } from '../sql.js';
import type { DerivedTable } from './table.js';

/** An outpoint being spent: by which input, in which block. */
export interface SpendRow {
  prevTxid: string;
  prevVout: number;
  txid: string;
  vin: number;
  height: number;
}

/** A block spends an output the index does not hold as unspent: the node and the index disagree. */
export class MissingPrevoutError extends Error {
  override readonly name = 'MissingPrevoutError';
}

const CHUNK = 10_000;

/**
 * Marks outputs spent and returns how many it marked. Only unspent outputs match, so a missing or double
 * spend comes back short.
 */
async function markSpent(tx: Sql, spends: readonly SpendRow[]): Promise<number> {
  let marked = 0;
  for (let start = 0; start < spends.length; start += CHUNK) {
    const chunk = spends.slice(start, start + CHUNK);
    const [row] = await tx.query<{ n: number }>(
      `WITH marked AS (
         UPDATE outputs o SET spent_txid = s.txid, spent_vin = s.vin, spent_height = s.h
         FROM unnest($1::text[], $2::int4[], $3::text[], $4::int4[], $5::int4[]) AS s(prev_txid, prev_vout, txid, vin, h)
         WHERE o.txid = s.prev_txid AND o.vout = s.prev_vout AND o.spent_txid IS NULL
         RETURNING 1)
       SELECT count(*)::int4 AS n FROM marked`,
      [
        chunk.map((s) => s.prevTxid),
        chunk.map((s) => s.prevVout),
        chunk.map((s) => s.txid),
        chunk.map((s) => s.vin),
        chunk.map((s) => s.height),
      ],
      'ingest.spends',
    );
    marked += row?.n ?? 0;
  }
  return marked;
}

/**
 * The UTXO state: which input spent each output (the spent_* columns of `outputs`). Spends of outputs of
 * earlier batches are marked here; a batch writes its own spent outputs spent already.
 */
export const spends: DerivedTable<{ spends: readonly SpendRow[] }> = {
  name: 'spends',
  async write(tx, batch) {
    const marked = await markSpent(tx, batch.spends);
    if (marked !== batch.spends.length) {
      const first = batch.spends[0]!.height;
      const last = batch.spends[batch.spends.length - 1]!.height;
      throw new MissingPrevoutError(
        `${batch.spends.length - marked} input(s) of blocks ${first}–${last} spend outputs the index does not hold as unspent`,
      );
    }
  },
  rollback: {
    async undo(tx, forkHeight) {
      await tx.query(
        `UPDATE outputs o SET spent_txid = NULL, spent_vin = NULL, spent_height = NULL
         FROM inputs i WHERE i.block_height > $1 AND o.txid = i.prev_txid AND o.vout = i.prev_vout`,
        [forkHeight],
        'rollback.spends',
      );
    },
  },
  checks: [
    {
      name: 'every input spends exactly one existing output, marked as spent by it',
      sql: `SELECT i.txid, i.vin FROM inputs i LEFT JOIN outputs o ON o.txid = i.prev_txid AND o.vout = i.prev_vout
            WHERE i.prev_txid IS NOT NULL
              AND (o.txid IS NULL OR o.spent_txid IS DISTINCT FROM i.txid OR o.spent_vin IS DISTINCT FROM i.vin
                   OR o.spent_height IS DISTINCT FROM i.block_height OR o.value <> i.value OR o.address IS DISTINCT FROM i.address)
            LIMIT 5`,
    },
    {
      name: 'no output is spent twice, and every spent output has its input',
      sql: `SELECT o.txid, o.vout FROM outputs o LEFT JOIN inputs i ON i.txid = o.spent_txid AND i.vin = o.spent_vin
            WHERE o.spent_txid IS NOT NULL AND (i.txid IS NULL OR i.prev_txid <> o.txid OR i.prev_vout <> o.vout)
            UNION ALL
            SELECT prev_txid, prev_vout FROM inputs WHERE prev_txid IS NOT NULL GROUP BY prev_txid, prev_vout HAVING count(*) > 1
            LIMIT 5`,
    },
  ],
};
