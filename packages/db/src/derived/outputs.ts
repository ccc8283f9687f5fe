import { appendTable } from './append.js';

/** An output as ingest writes it; one that the same batch spends is written spent. */
export interface OutputRow {
  txid: string;
  vout: number;
  blockHeight: number;
  blockIndex: number;
  address: string | null;
  value: bigint;
  scriptType: string;
  scriptHex: string;
  isCoinbase: boolean;
  spentTxid: string | null;
  spentVin: number | null;
  spentHeight: number | null;
}

/** Every output of every block. Which are spent is the `spends` description's part of the table. */
export const outputs = appendTable<'outputs', OutputRow>({
  key: 'outputs',
  table: 'outputs',
  columns: {
    txid: 'text',
    vout: 'int4',
    blockHeight: 'int4',
    blockIndex: 'int4',
    address: 'text',
    value: 'int8',
    scriptType: 'text',
    scriptHex: 'text',
    isCoinbase: 'bool',
    spentTxid: 'text',
    spentVin: 'int4',
    spentHeight: 'int4',
  },
  height: 'block_height',
  order: 'txid, vout',
  checks: [
    {
      name: 'Σ unspent outputs = emitted − unclaimed subsidy − OP_RETURN value (at the tip)',
      sql: `SELECT u.total AS unspent, t.emitted, t.unclaimed, t.op_return FROM
              (SELECT COALESCE(sum(value), 0)::numeric AS total FROM outputs WHERE spent_txid IS NULL AND script_type <> 'nulldata') u,
              (SELECT COALESCE(max(cum_emitted) FILTER (WHERE height = (SELECT max(height) FROM blocks)), 0)::numeric AS emitted,
                      COALESCE(max(cum_unclaimed) FILTER (WHERE height = (SELECT max(height) FROM blocks)), 0)::numeric AS unclaimed,
                      COALESCE(max(cum_op_return) FILTER (WHERE height = (SELECT max(height) FROM blocks)), 0)::numeric AS op_return
               FROM blocks) t
            WHERE u.total <> t.emitted - t.unclaimed - t.op_return`,
    },
  ],
});
