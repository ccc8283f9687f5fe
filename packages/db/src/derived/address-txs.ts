import { appendTable } from './append.js';

/** One transaction in an address's history: what it received and sent, and its balance after. */
export interface AddressTxRow {
  address: string;
  blockHeight: number;
  blockIndex: number;
  txid: string;
  blockTime: number;
  received: bigint;
  sent: bigint;
  balance: bigint;
}

/** Address history: one row per address and transaction touching it, with the running balance. */
export const addressTxs = appendTable<'addressTxs', AddressTxRow>({
  key: 'addressTxs',
  table: 'address_txs',
  columns: {
    address: 'text',
    blockHeight: 'int4',
    blockIndex: 'int4',
    txid: 'text',
    blockTime: 'int8',
    received: 'int8',
    sent: 'int8',
    balance: 'int8',
  },
  height: 'block_height',
  order: 'address, block_height, block_index',
  checks: [
    {
      name: 'each history row carries the running balance',
      sql: `SELECT address, block_height, block_index FROM (
              SELECT address, block_height, block_index, balance,
                     sum(received - sent) OVER (PARTITION BY address ORDER BY block_height, block_index) AS running
              FROM address_txs) x WHERE balance <> running LIMIT 5`,
    },
  ],
});
