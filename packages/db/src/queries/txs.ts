import { decodeTx, pearlNetworkByName, renderPearlTx } from '@explorer/chain';
import { blockOutputsKey, blockTxsKey, type PageOf, txInputsKey, txOutputsKey, txsKey } from '@explorer/core';
import type { Int8, Sql } from '../sql.js';
import { keyset } from './keyset.js';

/** The columns every transaction summary reads. */
export const TX_COLUMNS = `t.txid, t.block_height, b.hash AS block_hash, t.block_index, t.block_time, t.size, t.vsize, t.weight,
  t.version, t.locktime, t.input_count, t.output_count, t.value_in, t.value_out, t.fee, t.is_coinbase, t.type`;

/** A transaction summary row. */
export interface TxQueryRow {
  txid: string;
  block_height: number;
  block_hash: string;
  block_index: number;
  block_time: number;
  size: number;
  vsize: number;
  weight: number;
  version: number;
  locktime: number;
  input_count: number;
  output_count: number;
  value_in: Int8;
  value_out: Int8;
  fee: Int8;
  is_coinbase: boolean;
  type: string;
}

/** One transaction. */
export async function selectTx(sql: Sql, txid: string): Promise<TxQueryRow | null> {
  const [row] = await sql.query<TxQueryRow>(
    `SELECT ${TX_COLUMNS} FROM txs t JOIN blocks b ON b.height = t.block_height WHERE t.txid = $1`,
    [txid],
    'txs.one',
  );
  return row ?? null;
}

/** Transactions, newest first. */
export function selectRecentTxs(sql: Sql, page: PageOf<typeof txsKey>): Promise<TxQueryRow[]> {
  const params: unknown[] = [];
  const k = keyset(txsKey, page, params, 't');
  return sql.query<TxQueryRow>(
    `SELECT ${TX_COLUMNS} FROM txs t JOIN blocks b ON b.height = t.block_height WHERE ${k.where} ${k.tail}`,
    params,
    'txs.recent',
  );
}

/** Transactions of a block, in block order. */
export function selectBlockTxs(
  sql: Sql,
  height: number,
  page: PageOf<typeof blockTxsKey>,
): Promise<TxQueryRow[]> {
  const params: unknown[] = [height];
  const k = keyset(blockTxsKey, page, params, 't');
  return sql.query<TxQueryRow>(
    `SELECT ${TX_COLUMNS} FROM txs t JOIN blocks b ON b.height = t.block_height
     WHERE t.block_height = $1 AND ${k.where} ${k.tail}`,
    params,
    'txs.of-block',
  );
}

/** Value per address on one side of some transactions. */
export interface SideRow {
  txid: string;
  address: string;
  value: Int8;
}

/** Per transaction, the value each input address paid and each output address received. */
export async function selectSides(
  sql: Sql,
  txids: string[],
): Promise<{ inputs: SideRow[]; outputs: SideRow[] }> {
  if (txids.length === 0) return { inputs: [], outputs: [] };
  const [inputs, outputs] = await Promise.all([
    sql.query<SideRow>(
      `SELECT txid, address, sum(value)::int8 AS value FROM inputs
       WHERE txid = ANY($1::text[]) AND address IS NOT NULL GROUP BY txid, address`,
      [txids],
      'txs.input-sides',
    ),
    sql.query<SideRow>(
      `SELECT txid, address, sum(value)::int8 AS value FROM outputs
       WHERE txid = ANY($1::text[]) AND address IS NOT NULL GROUP BY txid, address`,
      [txids],
      'txs.output-sides',
    ),
  ]);
  return { inputs, outputs };
}

/** An input row with the label of its address. */
export interface InputQueryRow {
  txid: string;
  vin: number;
  prev_txid: string | null;
  prev_vout: number | null;
  address: string | null;
  label: string | null;
  value: Int8;
  sequence: number;
}

/** Inputs of a transaction, in order. */
export function selectInputs(
  sql: Sql,
  txid: string,
  page: PageOf<typeof txInputsKey>,
): Promise<InputQueryRow[]> {
  const params: unknown[] = [txid];
  const k = keyset(txInputsKey, page, params, 'i');
  return sql.query<InputQueryRow>(
    `SELECT i.txid, i.vin, i.prev_txid, i.prev_vout, i.address, l.label, i.value, i.sequence
     FROM inputs i LEFT JOIN known_labels l ON l.address = i.address WHERE i.txid = $1 AND ${k.where} ${k.tail}`,
    params,
    'txs.inputs',
  );
}

/** An output row with the label of its address. */
export interface OutputQueryRow {
  txid: string;
  vout: number;
  block_height: number;
  block_index: number;
  address: string | null;
  label: string | null;
  value: Int8;
  script_type: string;
  script_hex: string;
  is_coinbase: boolean;
  spent_txid: string | null;
  spent_vin: number | null;
  spent_height: number | null;
}

const OUTPUT_SELECT = `SELECT o.txid, o.vout, o.block_height, o.block_index, o.address, l.label, o.value, o.script_type,
  o.script_hex, o.is_coinbase, o.spent_txid, o.spent_vin, o.spent_height
  FROM outputs o LEFT JOIN known_labels l ON l.address = o.address`;

/** Outputs of a transaction, in order. */
export function selectTxOutputs(
  sql: Sql,
  txid: string,
  page: PageOf<typeof txOutputsKey>,
): Promise<OutputQueryRow[]> {
  const params: unknown[] = [txid];
  const k = keyset(txOutputsKey, page, params, 'o');
  return sql.query<OutputQueryRow>(
    `${OUTPUT_SELECT} WHERE o.txid = $1 AND ${k.where} ${k.tail}`,
    params,
    'txs.outputs',
  );
}

/** Outputs created in a block, in block order. */
export function selectBlockOutputs(
  sql: Sql,
  height: number,
  page: PageOf<typeof blockOutputsKey>,
): Promise<OutputQueryRow[]> {
  const params: unknown[] = [height];
  const k = keyset(blockOutputsKey, page, params, 'o');
  return sql.query<OutputQueryRow>(
    `${OUTPUT_SELECT} WHERE o.block_height = $1 AND ${k.where} ${k.tail}`,
    params,
    'blocks.outputs',
  );
}

/** Every output of a block's coinbase. */
export function selectCoinbaseOutputs(sql: Sql, height: number): Promise<OutputQueryRow[]> {
  return sql.query<OutputQueryRow>(
    `${OUTPUT_SELECT} WHERE o.block_height = $1 AND o.block_index = 0 ORDER BY o.vout`,
    [height],
    'blocks.coinbase-outputs',
  );
}

/**
 * The stored raw JSON of a transaction. A transaction kept as bytes (Pearl) is rendered from them as pearld's
 * `getrawtransaction <txid> 1` renders it, with the block it is in and without confirmations (which change).
 */
export async function selectTxRaw(sql: Sql, txid: string): Promise<unknown | null> {
  const [row] = await sql.query<{
    raw: unknown;
    raw_hex: string | null;
    block_hash: string;
    block_time: Int8;
    network: string | null;
  }>(
    `SELECT t.raw, t.raw_hex, b.hash AS block_hash, t.block_time, s.chain->>'network' AS network
     FROM txs t JOIN blocks b ON b.height = t.block_height CROSS JOIN indexer_state s
     WHERE t.txid = $1`,
    [txid],
    'txs.raw',
  );
  if (!row) return null;
  if (row.raw_hex === null) return row.raw;
  const network = pearlNetworkByName(row.network ?? '');
  if (!network)
    throw new Error(
      `transaction ${txid} is kept as bytes, but the chain's network (${row.network}) is not Pearl's`,
    );
  return renderPearlTx(decodeTx(Buffer.from(row.raw_hex, 'hex')), network.hrp, {
    blockHash: row.block_hash,
    time: Number(row.block_time),
  });
}
