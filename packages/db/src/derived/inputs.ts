import { firstTxNoAbove } from '../tx-no.js';
import { appendTable } from './append.js';

/**
 * An input: the output it spends by number (none for a coinbase). Its address and value are that output's,
 * read through it.
 */
export interface InputRow {
  txNo: number;
  vin: number;
  prevTxNo: number | null;
  prevVout: number | null;
  sequence: number;
}

/** Every input of every block; what they spent is checked by the `spends` description. */
export const inputs = appendTable<'inputs', InputRow>({
  key: 'inputs',
  table: 'inputs',
  columns: {
    txNo: 'int8',
    vin: 'int4',
    prevTxNo: 'int8',
    prevVout: 'int4',
    sequence: 'int8',
  },
  above: `tx_no >= ${firstTxNoAbove('$1')}`,
  order: 'tx_no, vin',
});
