import { firstTxNoAbove, heightOf, indexOf } from '../tx-no.js';
import { appendTable } from './append.js';

/** The txids Bitcoin's main chain holds twice (coinbases of blocks 91842/91812 and 91880/91722). */
const BIP30 = [
  'd5d27987d2a3dfc724e359870c6644b40e497bdc0589a033220fe15429d88599',
  'e3bf3d07d4b0375638d5f1db5255fe07ba2c4cb067cd81b84ee974b6585fb468',
];

/** A transaction with its totals, keyed by its number (its place in the chain). */
export interface TxRow {
  txNo: number;
  /** The txid as hex, in display order; stored as its 32 bytes. */
  txid: string;
  version: number;
  locktime: number;
  size: number;
  vsize: number;
  weight: number;
  inputCount: number;
  outputCount: number;
  valueIn: bigint;
  valueOut: bigint;
  fee: bigint;
  type: string;
  /**
   * The node's JSON of the transaction, as text; beside `rawBytes`, a Core transaction's recipe (how its JSON is
   * rendered from them, see `keepCoreTxJson`); null for Pearl, whose JSON is rendered from `rawBytes` alone.
   */
  raw: string | null;
  /** The transaction's bytes as hex, kept instead of its JSON, which is rendered from them on read; else null. */
  rawBytes: string | null;
}

/** Every transaction, with counts, values and fee derived from its inputs and outputs. */
export const txs = appendTable<'txs', TxRow>({
  key: 'txs',
  table: 'txs',
  columns: {
    txNo: 'int8',
    txid: 'bytea',
    version: 'int8',
    locktime: 'int8',
    size: 'int4',
    vsize: 'int4',
    weight: 'int4',
    inputCount: 'int4',
    outputCount: 'int4',
    valueIn: 'int8',
    valueOut: 'int8',
    fee: 'int8',
    type: 'text',
    raw: 'json',
    rawBytes: 'bytea',
  },
  above: `tx_no >= ${firstTxNoAbove('$1')}`,
  order: 'tx_no',
  checks: [
    {
      name: 'transaction values and fees equal their inputs and outputs',
      sql: `SELECT encode(t.txid, 'hex') AS txid FROM txs t
            LEFT JOIN (SELECT i.tx_no, count(*) AS n, sum(o.value) AS v FROM inputs i
                       LEFT JOIN outputs o ON o.tx_no = i.prev_tx_no AND o.vout = i.prev_vout GROUP BY i.tx_no) i USING (tx_no)
            LEFT JOIN (SELECT tx_no, count(*) AS n, sum(value) AS v FROM outputs GROUP BY tx_no) o USING (tx_no)
            WHERE COALESCE(i.n, 0) <> t.input_count OR COALESCE(o.n, 0) <> t.output_count
               OR COALESCE(i.v, 0) <> t.value_in OR COALESCE(o.v, 0) <> t.value_out
               OR (${indexOf('t.tx_no')} <> 0 AND t.fee <> t.value_in - t.value_out) OR t.fee < 0
               OR length(t.txid) <> 32
            LIMIT 5`,
    },
    {
      // Bitcoin's two duplicated coinbases (BIP30) are the chain's own exceptions.
      name: 'no txid is stored twice (BIP30 exceptions aside)',
      sql: `SELECT encode(txid, 'hex') AS txid FROM txs GROUP BY txid HAVING count(*) > 1
              AND encode(txid, 'hex') NOT IN ('${BIP30.join("', '")}')
            LIMIT 5`,
    },
    {
      name: 'every transaction lies in an indexed block',
      sql: `SELECT t.tx_no FROM txs t LEFT JOIN blocks b ON b.height = ${heightOf('t.tx_no')} WHERE b.height IS NULL LIMIT 5`,
    },
  ],
});
