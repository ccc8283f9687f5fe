import { firstTxNoAbove } from '../tx-no.js';
import { appendTable } from './append.js';

/** An output of a transaction; its address by dictionary id. */
export interface OutputRow {
  txNo: number;
  vout: number;
  addressId: number | null;
  value: bigint;
  scriptType: string;
  /** The output script as hex; stored as bytes. */
  script: string;
}

/** Every output of every block. Which are unspent is the `utxos` table's part. */
export const outputs = appendTable<'outputs', OutputRow>({
  key: 'outputs',
  table: 'outputs',
  columns: {
    txNo: 'int8',
    vout: 'int4',
    addressId: 'int8',
    value: 'int8',
    scriptType: 'text',
    script: 'bytea',
  },
  above: `tx_no >= ${firstTxNoAbove('$1')}`,
  order: 'tx_no, vout',
  dumpQuery: `SELECT o.tx_no, o.vout, a.address, o.value, o.script_type, o.script
              FROM outputs o LEFT JOIN addresses a ON a.id = o.address_id`,
  checks: [
    {
      name: 'Σ unspent outputs = emitted − unclaimed subsidy − OP_RETURN value (at the tip)',
      sql: `SELECT u.total AS unspent, t.emitted, t.unclaimed, t.op_return FROM
              (SELECT COALESCE(sum(o.value), 0)::numeric AS total FROM utxos u JOIN outputs o USING (tx_no, vout)
               WHERE o.script_type <> 'nulldata') u,
              (SELECT COALESCE(max(cum_emitted) FILTER (WHERE height = (SELECT max(height) FROM blocks)), 0)::numeric AS emitted,
                      COALESCE(max(cum_unclaimed) FILTER (WHERE height = (SELECT max(height) FROM blocks)), 0)::numeric AS unclaimed,
                      COALESCE(max(cum_op_return) FILTER (WHERE height = (SELECT max(height) FROM blocks)), 0)::numeric AS op_return
               FROM blocks) t
            WHERE u.total <> t.emitted - t.unclaimed - t.op_return`,
    },
    {
      name: 'every output belongs to a transaction, and names an address of the dictionary',
      sql: `SELECT o.tx_no, o.vout FROM outputs o LEFT JOIN txs t USING (tx_no)
            LEFT JOIN addresses a ON a.id = o.address_id
            WHERE t.tx_no IS NULL OR (o.address_id IS NOT NULL AND a.id IS NULL)
            LIMIT 5`,
    },
  ],
});
