import { bulkWrite } from '../queries/bulk.js';
import { upsertOf } from './aggregate.js';
import type { DerivedTable } from './table.js';

/** A batch's change to one address's totals: the sums and counts are what the batch adds. */
export interface AddressTotalsRow {
  address: string;
  balance: bigint;
  received: bigint;
  sent: bigint;
  txCount: number;
  utxoCount: number;
  firstSeenHeight: number;
  firstSeenTime: number;
  lastSeenHeight: number;
  lastSeenTime: number;
}

const { shape, suffix } = upsertOf<AddressTotalsRow>('addresses', {
  address: { type: 'text', merge: 'key' },
  balance: { type: 'int8', merge: 'add' },
  received: { type: 'int8', merge: 'add' },
  sent: { type: 'int8', merge: 'add' },
  txCount: { type: 'int4', merge: 'add' },
  utxoCount: { type: 'int4', merge: 'add' },
  firstSeenHeight: { type: 'int4', merge: 'keep' },
  firstSeenTime: { type: 'int8', merge: 'keep' },
  lastSeenHeight: { type: 'int4', merge: 'set' },
  lastSeenTime: { type: 'int8', merge: 'set' },
});

/**
 * Per-address totals (the `addresses` table): balance, flows, transaction and UTXO counts, first and last
 * seen. A reorg subtracts the removed history rows, then drops addresses left without history and
 * recomputes last-seen from the history that remains.
 */
export const addressTotals: DerivedTable<{ addressTotals: readonly AddressTotalsRow[] }, string[]> = {
  name: 'addressTotals',
  dump: { table: 'addresses', order: 'address' },
  write: (tx, batch) =>
    bulkWrite(tx, 'ingest.addressTotals', 'addresses', shape, batch.addressTotals, suffix),
  rollback: {
    async undo(tx, forkHeight) {
      // The UTXO count changes of the removed blocks: outputs they created, minus older outputs they spent.
      await tx.query(
        `WITH hist AS (
           SELECT address, sum(received) AS r, sum(sent) AS s, count(*) AS n
           FROM address_txs WHERE block_height > $1 GROUP BY address
         ), created AS (
           SELECT address, count(*) AS c FROM outputs WHERE block_height > $1 AND address IS NOT NULL GROUP BY address
         ), spent AS (
           -- Each input of a removed block spent one output, whose address it records.
           SELECT address, count(*) AS c FROM inputs
           WHERE block_height > $1 AND prev_txid IS NOT NULL AND address IS NOT NULL GROUP BY address
         )
         UPDATE addresses a SET
           balance = a.balance - (h.r - h.s),
           received = a.received - h.r,
           sent = a.sent - h.s,
           tx_count = a.tx_count - h.n,
           utxo_count = a.utxo_count - COALESCE(c.c, 0) + COALESCE(s.c, 0)
         FROM hist h LEFT JOIN created c USING (address) LEFT JOIN spent s USING (address)
         WHERE a.address = h.address`,
        [forkHeight],
        'rollback.addressTotals.subtract',
      );
      const touched = await tx.query<{ address: string }>(
        'SELECT DISTINCT address FROM address_txs WHERE block_height > $1',
        [forkHeight],
        'rollback.addressTotals.touched',
      );
      return touched.map((r) => r.address);
    },
    async settle(tx, _forkHeight, touched) {
      if (touched.length === 0) return;
      await tx.query(
        'DELETE FROM addresses WHERE address = ANY($1::text[]) AND tx_count = 0',
        [touched],
        'rollback.addressTotals.drop-empty',
      );
      await tx.query(
        `UPDATE addresses a SET (last_seen_height, last_seen_time) = (
           SELECT t.block_height, t.block_time FROM address_txs t WHERE t.address = a.address
           ORDER BY t.block_height DESC, t.block_index DESC LIMIT 1)
         WHERE a.address = ANY($1::text[])`,
        [touched],
        'rollback.addressTotals.last-seen',
      );
    },
  },
  checks: [
    {
      name: 'Σ address balances = Σ unspent outputs with an address',
      sql: `SELECT a.total AS balances, u.total AS unspent FROM
              (SELECT COALESCE(sum(balance), 0)::numeric AS total FROM addresses) a,
              (SELECT COALESCE(sum(value), 0)::numeric AS total FROM outputs WHERE spent_txid IS NULL AND address IS NOT NULL) u
            WHERE a.total <> u.total`,
    },
    {
      name: 'address totals equal their history rows and unspent outputs',
      sql: `SELECT a.address FROM addresses a
            LEFT JOIN (SELECT address, count(*) AS n, sum(received) AS r, sum(sent) AS s,
                              min(block_height) AS lo, max(block_height) AS hi FROM address_txs GROUP BY address) h USING (address)
            LEFT JOIN (SELECT address, count(*) AS n FROM outputs WHERE spent_txid IS NULL AND address IS NOT NULL GROUP BY address) u USING (address)
            WHERE h.n IS DISTINCT FROM a.tx_count::bigint OR h.r <> a.received OR h.s <> a.sent OR a.balance <> a.received - a.sent
               OR COALESCE(u.n, 0) <> a.utxo_count OR h.lo <> a.first_seen_height OR h.hi <> a.last_seen_height OR a.balance < 0
            UNION ALL
            SELECT DISTINCT t.address FROM address_txs t LEFT JOIN addresses a USING (address) WHERE a.address IS NULL
            LIMIT 5`,
    },
  ],
};
