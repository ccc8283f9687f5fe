import { bulkWrite } from '../queries/bulk.js';
import { firstTxNoAbove, firstTxNoOf, heightOf, TX_INDEX_BITS } from '../tx-no.js';
import { upsertOf } from './aggregate.js';
import type { DerivedTable } from './table.js';

const ABOVE = firstTxNoAbove('$1');

/**
 * A batch's change to one address's totals: the sums and counts are what the batch adds. The row is also the
 * address's dictionary entry: `id` names it in outputs and history rows.
 */
export interface AddressTotalsRow {
  id: number;
  address: string;
  balance: bigint;
  received: bigint;
  sent: bigint;
  txCount: number;
  utxoCount: number;
  /** Outputs paid to the address (spent or not). */
  outputCount: number;
  firstSeenHeight: number;
  firstSeenTime: number;
  lastSeenHeight: number;
  lastSeenTime: number;
}

const { shape, suffix } = upsertOf<AddressTotalsRow>('addresses', {
  id: { type: 'int8', merge: 'key' },
  address: { type: 'text', merge: 'keep' },
  balance: { type: 'int8', merge: 'add' },
  received: { type: 'int8', merge: 'add' },
  sent: { type: 'int8', merge: 'add' },
  txCount: { type: 'int4', merge: 'add' },
  utxoCount: { type: 'int4', merge: 'add' },
  outputCount: { type: 'int4', merge: 'add' },
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
export const addressTotals: DerivedTable<
  { addressTotals: readonly AddressTotalsRow[]; outputs: readonly { txNo: number }[] },
  string[]
> = {
  name: 'addressTotals',
  dump: {
    table: 'addresses',
    order: 'address',
    query: `SELECT address, balance, received, sent, tx_count, utxo_count, output_count, first_seen_height, first_seen_time,
                   last_seen_height, last_seen_time FROM addresses`,
  },
  async write(tx, batch) {
    await bulkWrite(tx, 'ingest.addressTotals', 'addresses', shape, batch.addressTotals, suffix);
    if (batch.outputs.length === 0) return;
    let low = Number.POSITIVE_INFINITY;
    let high = 0;
    for (const o of batch.outputs) {
      if (o.txNo < low) low = o.txNo;
      if (o.txNo > high) high = o.txNo;
    }
    // The script hash of the addresses first paid in this batch (outputs are written first), from the first
    // output that pays each, by PostgreSQL: hashed beside the writer, not on its thread.
    await tx.query(
      `UPDATE addresses a SET script_hash = sha256(o.script)
       FROM (SELECT DISTINCT ON (address_id) address_id, script FROM outputs
             WHERE tx_no >= ${firstTxNoOf('$1')} AND tx_no < ${firstTxNoAbove('$2')} AND address_id IS NOT NULL
             ORDER BY address_id, script_type IN ('pubkey', 'multisig'), tx_no, vout) o
       WHERE a.id = o.address_id AND a.script_hash IS NULL`,
      [Math.floor(low / 2 ** TX_INDEX_BITS), Math.floor(high / 2 ** TX_INDEX_BITS)],
      'ingest.addressScriptHash',
    );
  },
  rollback: {
    async undo(tx, forkHeight) {
      // The UTXO count changes of the removed blocks: outputs they created, minus older outputs they spent.
      await tx.query(
        `WITH hist AS (
           SELECT address_id, sum(received) AS r, sum(sent) AS s, count(*) AS n
           FROM address_txs WHERE tx_no >= ${ABOVE} GROUP BY address_id
         ), created AS (
           SELECT address_id, count(*) AS c FROM outputs
           WHERE tx_no >= ${ABOVE} AND address_id IS NOT NULL GROUP BY address_id
         ), spent AS (
           SELECT o.address_id, count(*) AS c FROM inputs i
           JOIN outputs o ON o.tx_no = i.prev_tx_no AND o.vout = i.prev_vout
           WHERE i.tx_no >= ${ABOVE} AND o.address_id IS NOT NULL GROUP BY o.address_id
         )
         UPDATE addresses a SET
           balance = a.balance - (h.r - h.s),
           received = a.received - h.r,
           sent = a.sent - h.s,
           tx_count = a.tx_count - h.n,
           utxo_count = a.utxo_count - COALESCE(c.c, 0) + COALESCE(s.c, 0),
           output_count = a.output_count - COALESCE(c.c, 0)
         FROM hist h LEFT JOIN created c USING (address_id) LEFT JOIN spent s USING (address_id)
         WHERE a.id = h.address_id`,
        [forkHeight],
        'rollback.addressTotals.subtract',
      );
      const touched = await tx.query<{ address_id: string }>(
        `SELECT DISTINCT address_id::text FROM address_txs WHERE tx_no >= ${ABOVE}`,
        [forkHeight],
        'rollback.addressTotals.touched',
      );
      return touched.map((r) => r.address_id);
    },
    async settle(tx, _forkHeight, touched) {
      if (touched.length === 0) return;
      await tx.query(
        'DELETE FROM addresses WHERE id = ANY($1::int8[]) AND tx_count = 0',
        [touched],
        'rollback.addressTotals.drop-empty',
      );
      await tx.query(
        `UPDATE addresses a SET (last_seen_height, last_seen_time) = (
           SELECT b.height, b.time FROM address_txs t JOIN blocks b ON b.height = ${heightOf('t.tx_no')}
           WHERE t.address_id = a.id ORDER BY t.tx_no DESC LIMIT 1)
         WHERE a.id = ANY($1::int8[])`,
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
              (SELECT COALESCE(sum(o.value), 0)::numeric AS total FROM utxos u JOIN outputs o USING (tx_no, vout)
               WHERE u.address_id IS NOT NULL) u
            WHERE a.total <> u.total`,
    },
    {
      name: 'address totals equal their history rows and unspent outputs',
      sql: `SELECT a.address FROM addresses a
            LEFT JOIN (SELECT address_id AS id, count(*) AS n, sum(received) AS r, sum(sent) AS s,
                              min(tx_no) >> ${TX_INDEX_BITS} AS lo, max(tx_no) >> ${TX_INDEX_BITS} AS hi
                       FROM address_txs GROUP BY address_id) h USING (id)
            LEFT JOIN (SELECT address_id AS id, count(*) AS n FROM utxos WHERE address_id IS NOT NULL GROUP BY address_id) u USING (id)
            LEFT JOIN (SELECT address_id AS id, count(*) AS n FROM outputs WHERE address_id IS NOT NULL GROUP BY address_id) o USING (id)
            WHERE h.n IS DISTINCT FROM a.tx_count::bigint OR h.r <> a.received OR h.s <> a.sent OR a.balance <> a.received - a.sent
               OR COALESCE(u.n, 0) <> a.utxo_count OR COALESCE(o.n, 0) <> a.output_count OR h.lo <> a.first_seen_height OR h.hi <> a.last_seen_height OR a.balance < 0
            LIMIT 5`,
    },
  ],
};
