import { firstTxNoAbove } from '../tx-no.js';
import { appendTable } from './append.js';

/** One transaction in an address's history: what it received and sent, and its balance after. */
export interface AddressTxRow {
  addressId: number;
  txNo: number;
  received: bigint;
  sent: bigint;
  balance: bigint;
}

/** Address history: one row per address and transaction touching it, with the running balance. */
export const addressTxs = appendTable<'addressTxs', AddressTxRow>({
  key: 'addressTxs',
  table: 'address_txs',
  columns: {
    addressId: 'int8',
    txNo: 'int8',
    received: 'int8',
    sent: 'int8',
    balance: 'int8',
  },
  above: `tx_no >= ${firstTxNoAbove('$1')}`,
  order: 'a.address, h.tx_no',
  dumpQuery: `SELECT a.address, h.tx_no, h.received, h.sent, h.balance
              FROM address_txs h JOIN addresses a ON a.id = h.address_id`,
  checks: [
    {
      name: 'each history row carries the running balance, and names a transaction and an address',
      sql: `SELECT address_id, tx_no FROM (
              SELECT address_id, tx_no, balance,
                     sum(received - sent) OVER (PARTITION BY address_id ORDER BY tx_no) AS running
              FROM address_txs) x WHERE balance <> running
            UNION ALL
            SELECT h.address_id, h.tx_no FROM address_txs h LEFT JOIN txs t USING (tx_no)
            LEFT JOIN addresses a ON a.id = h.address_id WHERE t.tx_no IS NULL OR a.id IS NULL
            LIMIT 5`,
    },
  ],
});
