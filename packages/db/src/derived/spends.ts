import type { Sql } from '../sql.js';
import { firstTxNoAbove, indexOf } from '../tx-no.js';
import type { DerivedTable } from './table.js';

/** An output of an earlier batch being spent, by its number. */
export interface SpendRow {
  prevTxNo: number;
  prevVout: number;
  /** The height of the spending block (for the error that names a spend the index cannot make). */
  height: number;
}

/** A block spends an output the index does not hold as unspent: the node and the index disagree. */
export class MissingPrevoutError extends Error {
  override readonly name = 'MissingPrevoutError';
}

const CHUNK = 10_000;

/**
 * Takes spent outputs out of the unspent ones and returns how many it took. Only unspent outputs match, so a
 * missing or double spend comes back short.
 */
async function takeSpent(tx: Sql, spends: readonly SpendRow[]): Promise<number> {
  let taken = 0;
  for (let start = 0; start < spends.length; start += CHUNK) {
    const chunk = spends.slice(start, start + CHUNK);
    const [row] = await tx.query<{ n: number }>(
      `WITH taken AS (
         DELETE FROM utxos u USING unnest($1::int8[], $2::int4[]) AS s(tx_no, vout)
         WHERE u.tx_no = s.tx_no AND u.vout = s.vout
         RETURNING 1)
       SELECT count(*)::int4 AS n FROM taken`,
      [chunk.map((s) => s.prevTxNo), chunk.map((s) => s.prevVout)],
      'ingest.spends',
    );
    taken += row?.n ?? 0;
  }
  return taken;
}

/**
 * Spends of outputs of earlier batches: each deletes its output's `utxos` row (an output a batch spends
 * itself never gets one). No earlier row is rewritten; which input spent an output is read from `inputs`.
 */
export const spends: DerivedTable<{ spends: readonly SpendRow[] }> = {
  name: 'spends',
  async write(tx, batch) {
    const taken = await takeSpent(tx, batch.spends);
    if (taken !== batch.spends.length) {
      let first = Number.POSITIVE_INFINITY;
      let last = 0;
      for (const s of batch.spends) {
        first = Math.min(first, s.height);
        last = Math.max(last, s.height);
      }
      throw new MissingPrevoutError(
        `${batch.spends.length - taken} input(s) of blocks ${first}–${last} spend outputs the index does not hold as unspent`,
      );
    }
  },
  rollback: {
    async undo(tx, forkHeight) {
      // Outputs below the fork that the removed blocks spent are unspent again.
      await tx.query(
        `INSERT INTO utxos (tx_no, vout, address_id)
         SELECT o.tx_no, o.vout, o.address_id FROM inputs i
         JOIN outputs o ON o.tx_no = i.prev_tx_no AND o.vout = i.prev_vout
         WHERE i.tx_no >= ${firstTxNoAbove('$1')} AND o.tx_no < ${firstTxNoAbove('$1')}`,
        [forkHeight],
        'rollback.spends',
      );
    },
  },
  checks: [
    {
      name: 'every input spends one existing earlier output, and no output is spent twice',
      sql: `SELECT i.tx_no, i.vin FROM inputs i LEFT JOIN outputs o ON o.tx_no = i.prev_tx_no AND o.vout = i.prev_vout
            WHERE i.prev_tx_no IS NOT NULL AND (o.tx_no IS NULL OR o.tx_no >= i.tx_no)
            UNION ALL
            SELECT prev_tx_no, prev_vout FROM inputs WHERE prev_tx_no IS NOT NULL GROUP BY prev_tx_no, prev_vout HAVING count(*) > 1
            LIMIT 5`,
    },
    {
      name: 'the coinbase (the first transaction of a block) alone has inputs that spend nothing',
      sql: `SELECT tx_no, vin FROM inputs WHERE (prev_tx_no IS NULL) <> (${indexOf('tx_no')} = 0)
               OR (prev_tx_no IS NULL) <> (prev_vout IS NULL)
            LIMIT 5`,
    },
  ],
};
