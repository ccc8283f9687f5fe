import { firstTxNoAbove } from '../tx-no.js';
import { appendTable } from './append.js';

/** An output not spent at the end of the batch that created it (later spends delete it). */
export interface UtxoRow {
  txNo: number;
  vout: number;
  addressId: number | null;
}

/**
 * The unspent outputs: a batch adds those of its outputs it did not spend itself, and the `spends`
 * description deletes those spent later (and puts them back when a reorg removes the spending block).
 */
export const utxos = appendTable<'utxos', UtxoRow>({
  key: 'utxos',
  table: 'utxos',
  columns: { txNo: 'int8', vout: 'int4', addressId: 'int8' },
  above: `tx_no >= ${firstTxNoAbove('$1')}`,
  order: 'tx_no, vout',
  dumpQuery: `SELECT u.tx_no, u.vout, a.address FROM utxos u LEFT JOIN addresses a ON a.id = u.address_id`,
  checks: [
    {
      name: 'the unspent outputs are exactly the outputs no input spends',
      sql: `SELECT o.tx_no, o.vout FROM outputs o
            LEFT JOIN utxos u USING (tx_no, vout)
            LEFT JOIN inputs i ON i.prev_tx_no = o.tx_no AND i.prev_vout = o.vout
            WHERE (u.tx_no IS NULL) = (i.tx_no IS NULL)
               OR (u.tx_no IS NOT NULL AND u.address_id IS DISTINCT FROM o.address_id)
            UNION ALL
            SELECT u.tx_no, u.vout FROM utxos u LEFT JOIN outputs o USING (tx_no, vout) WHERE o.tx_no IS NULL
            LIMIT 5`,
    },
  ],
});
