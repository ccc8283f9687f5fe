import { appendTable } from './append.js';

/** An input with the address and value of the output it spends (none for a coinbase). */
export interface InputRow {
  txid: string;
  vin: number;
  blockHeight: number;
  prevTxid: string | null;
  prevVout: number | null;
  address: string | null;
  value: bigint;
  sequence: number;
}

/** Every input of every block; what they spent is checked by the `spends` description. */
export const inputs = appendTable<'inputs', InputRow>({
  key: 'inputs',
  table: 'inputs',
  columns: {
    txid: 'text',
    vin: 'int4',
    blockHeight: 'int4',
    prevTxid: 'text',
    prevVout: 'int4',
    address: 'text',
    value: 'int8',
    sequence: 'int8',
  },
  height: 'block_height',
  order: 'txid, vin',
});
