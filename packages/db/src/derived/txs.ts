import { appendTable } from './append.js';

/** A transaction with its totals. */
export interface TxRow {
  txid: string;
  blockHeight: number;
  blockIndex: number;
  blockTime: number;
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
  isCoinbase: boolean;
  type: string;
  /** The node's JSON of the transaction, as text; null where the transaction's bytes are kept instead. */
  raw: string | null;
  /** The transaction's bytes as hex, kept instead of its JSON (Pearl), which is rendered from them on read. */
  rawHex: string | null;
}

/** Every transaction, with counts, values and fee derived from its inputs and outputs. */
export const txs = appendTable<'txs', TxRow>({
  key: 'txs',
  table: 'txs',
  columns: {
    txid: 'text',
    blockHeight: 'int4',
    blockIndex: 'int4',
    blockTime: 'int8',
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
    isCoinbase: 'bool',
    type: 'text',
    raw: 'json',
    rawHex: 'text',
  },
  height: 'block_height',
  order: 'block_height, block_index',
  checks: [
    {
      name: 'transaction values and fees equal their inputs and outputs',
      sql: `SELECT t.txid FROM txs t
            LEFT JOIN (SELECT txid, count(*) AS n, sum(value) AS v FROM inputs GROUP BY txid) i USING (txid)
            LEFT JOIN (SELECT txid, count(*) AS n, sum(value) AS v FROM outputs GROUP BY txid) o USING (txid)
            WHERE COALESCE(i.n, 0) <> t.input_count OR COALESCE(o.n, 0) <> t.output_count
               OR COALESCE(i.v, 0) <> t.value_in OR COALESCE(o.v, 0) <> t.value_out
               OR (NOT t.is_coinbase AND t.fee <> t.value_in - t.value_out) OR t.fee < 0
            LIMIT 5`,
    },
  ],
});
