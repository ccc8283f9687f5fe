import { decodeTx, pearlNetworkByName, renderPearlTx } from '@explorer/chain';
import {
  blockOutputsKey,
  blockTxsKey,
  type PageOf,
  txInputsKey,
  txOutputsKey,
  txOutspendsKey,
  txsKey,
} from '@explorer/core';
import { isCoreRawRecipe, renderKeptCoreTx } from '../derived/raw-tx.js';
import type { Int8, Sql } from '../sql.js';
import { cursorTxNo, firstTxNoAbove, firstTxNoOf, heightOf, indexOf, txNoOfTxid } from '../tx-no.js';
import { type BlockRef, refWhere } from './blocks.js';
import { keyset } from './keyset.js';

/** The columns every transaction summary reads, from `txs t` and its block `b`. */
export const TX_COLUMNS = `t.tx_no, encode(t.txid, 'hex') AS txid, ${heightOf('t.tx_no')} AS block_height, b.hash AS block_hash,
  ${indexOf('t.tx_no')} AS block_index, b.time AS block_time, t.size, t.vsize, t.weight, t.version, t.locktime,
  t.input_count, t.output_count, t.value_in, t.value_out, t.fee, ${indexOf('t.tx_no')} = 0 AS is_coinbase, t.type`;

/** The block of `txs t`. */
export const TX_BLOCK = `JOIN blocks b ON b.height = ${heightOf('t.tx_no')}`;

/** A transaction summary row. */
export interface TxQueryRow {
  /** The transaction's number (its place in the chain), for the queries that follow up on it. */
  tx_no: Int8;
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

/** SQL for the number of the transaction whose txid (hex) is appended to `params` (null when none). */
function txNoSql(txid: string, params: unknown[]): string {
  params.push(txid);
  return txNoOfTxid(`$${params.length}::text`);
}

/** One transaction. */
export async function selectTx(sql: Sql, txid: string): Promise<TxQueryRow | null> {
  const params: unknown[] = [];
  const no = txNoSql(txid, params);
  const [row] = await sql.query<TxQueryRow>(
    `SELECT ${TX_COLUMNS} FROM txs t ${TX_BLOCK} WHERE t.tx_no = ${no}`,
    params,
    'txs.one',
  );
  return row ?? null;
}

/**
 * SQL: the addresses on each side of the transaction `alias` names, as JSON arrays of `[address, value, label]`
 * (values as text, summed per address): `senders` paid through its inputs, `receivers` got its outputs.
 * Outputs without an address are on neither side.
 */
const txSides = (alias: string) => `
  (SELECT json_agg(json_build_array(a.address, s.value::text, l.label))
   FROM (SELECT o.address_id, sum(o.value) AS value FROM inputs i
         JOIN outputs o ON o.tx_no = i.prev_tx_no AND o.vout = i.prev_vout
         WHERE i.tx_no = ${alias}.tx_no GROUP BY o.address_id) s
   JOIN addresses a ON a.id = s.address_id LEFT JOIN known_labels l ON l.address = a.address) AS senders,
  (SELECT json_agg(json_build_array(a.address, s.value::text, l.label))
   FROM (SELECT o.address_id, sum(o.value) AS value FROM outputs o
         WHERE o.tx_no = ${alias}.tx_no AND o.address_id IS NOT NULL GROUP BY o.address_id) s
   JOIN addresses a ON a.id = s.address_id LEFT JOIN known_labels l ON l.address = a.address) AS receivers`;

/** One address on one side of a transaction: address, value (text) and label. */
export type SideJson = [address: string, value: string, label: string | null];

/** A transaction summary row with the addresses on each side of it. */
export interface TxSidesQueryRow extends TxQueryRow {
  senders: SideJson[] | null;
  receivers: SideJson[] | null;
}

/** Transactions, newest first, each with the addresses on its two sides. */
export function selectRecentTxs(sql: Sql, page: PageOf<typeof txsKey>): Promise<TxSidesQueryRow[]> {
  const params: unknown[] = [];
  const k = keyset(txsKey, page, params, 't', {
    columns: ['t.tx_no'],
    pack: ([h, i]) => [cursorTxNo(Number(h), Number(i))],
  });
  return sql.query<TxSidesQueryRow>(
    `SELECT ${TX_COLUMNS}, ${txSides('t')} FROM txs t ${TX_BLOCK} WHERE ${k.where} ${k.tail}`,
    params,
    'txs.recent',
  );
}

/** The most inputs and outputs a flow lists (one more is read, to say whether the list was cut). */
export const FLOW_LIST_MAX = 250;

/** A transaction's flow in one row: the summary, its first inputs and outputs, and both sides. */
export interface TxFlowQueryRow extends TxSidesQueryRow {
  /** `[prev txid, prev vout, address, value]` of the first inputs, in order (nulls for a coinbase). */
  inputs: [string | null, number | null, string | null, string][];
  /** `[vout, address, value, script type, spent]` of the first outputs, in order. */
  outputs: [number, string | null, string, string, boolean][];
}

/**
 * A transaction's flow, in one statement: its summary, its first FLOW_LIST_MAX + 1 inputs (with what each
 * spends) and outputs (with whether each is spent), and the addresses on each side with their labels; null
 * when the index does not hold it.
 */
export async function selectTxFlow(sql: Sql, txid: string): Promise<TxFlowQueryRow | null> {
  const params: unknown[] = [];
  const no = txNoSql(txid, params);
  const [row] = await sql.query<TxFlowQueryRow>(
    `SELECT ${TX_COLUMNS}, ${txSides('t')},
       COALESCE((SELECT json_agg(json_build_array(encode(p.txid, 'hex'), i.prev_vout, a.address,
                                                  COALESCE(o.value, 0)::text) ORDER BY i.vin)
        FROM (SELECT i.vin, i.prev_tx_no, i.prev_vout FROM inputs i WHERE i.tx_no = t.tx_no
              ORDER BY i.vin LIMIT ${FLOW_LIST_MAX + 1}) i
        LEFT JOIN txs p ON p.tx_no = i.prev_tx_no
        LEFT JOIN outputs o ON o.tx_no = i.prev_tx_no AND o.vout = i.prev_vout
        LEFT JOIN addresses a ON a.id = o.address_id), '[]') AS inputs,
       COALESCE((SELECT json_agg(json_build_array(o.vout, a.address, o.value::text, o.script_type,
                   EXISTS (SELECT 1 FROM inputs s WHERE s.prev_tx_no = o.tx_no AND s.prev_vout = o.vout))
                 ORDER BY o.vout)
        FROM (SELECT o.tx_no, o.vout, o.address_id, o.value, o.script_type FROM outputs o
              WHERE o.tx_no = t.tx_no ORDER BY o.vout LIMIT ${FLOW_LIST_MAX + 1}) o
        LEFT JOIN addresses a ON a.id = o.address_id), '[]') AS outputs
     FROM txs t ${TX_BLOCK} WHERE t.tx_no = ${no}`,
    params,
    'txs.flow',
  );
  return row ?? null;
}

/** What a list of a block's or a transaction's rows belongs to, read with the page. */
export interface OwnerColumns {
  /** The block's height, or the transaction's block's height. */
  owner_height: number;
  /** The block's hash (lists of a block). */
  owner_hash?: string;
}

/**
 * A page of the rows of the block `ref` names, with the block, in one statement: `page` selects the rows of
 * the block `b` (one key range of `alias`), ordered; no row when the index does not hold the block, one row
 * with null page columns when the page is past its rows. A page after a cursor is read by height: the cursor
 * is a position in the block, and the block was read for its scope already.
 */
function blockPage(ref: BlockRef, page: { after: unknown }): { height: number | null } {
  if (page.after && !('height' in ref))
    throw new Error('a page of a block after a cursor is read by the block height');
  return { height: 'height' in ref ? ref.height : null };
}

/** Transactions of a block, in block order, with the block (no row: no such block). */
export function selectBlockTxs(
  sql: Sql,
  ref: BlockRef,
  page: PageOf<typeof blockTxsKey>,
): Promise<(Partial<TxQueryRow> & OwnerColumns)[]> {
  const { height } = blockPage(ref, page);
  const params: unknown[] = [];
  const where = refWhere(ref, params);
  const k = keyset(blockTxsKey, page, params, 't', {
    columns: ['t.tx_no'],
    pack: ([i]) => [cursorTxNo(height ?? 0, Number(i))],
  });
  return sql.query<Partial<TxQueryRow> & OwnerColumns>(
    `SELECT b.height AS owner_height, b.hash AS owner_hash, p.* FROM blocks b
     LEFT JOIN LATERAL (
       SELECT ${TX_COLUMNS} FROM txs t
       WHERE t.tx_no >= ${firstTxNoOf('b.height')} AND t.tx_no < ${firstTxNoAbove('b.height')} AND ${k.where} ${k.tail}
     ) p ON TRUE
     WHERE ${where}
     ORDER BY p.tx_no`,
    params,
    'txs.of-block',
  );
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

/** Inputs of a transaction, in order, with the address and value of what each spends, and the height of the
 * transaction's block (no row: no such transaction; null page columns: a page past its inputs). */
export function selectInputs(
  sql: Sql,
  txid: string,
  page: PageOf<typeof txInputsKey>,
): Promise<(Partial<InputQueryRow> & OwnerColumns)[]> {
  const params: unknown[] = [];
  const no = txNoSql(txid, params);
  const k = keyset(txInputsKey, page, params, 'i');
  return sql.query<Partial<InputQueryRow> & OwnerColumns>(
    `SELECT ${heightOf('x.tx_no')} AS owner_height, p.*
     FROM (SELECT ${no} AS tx_no) x
     LEFT JOIN LATERAL (
       SELECT encode(t.txid, 'hex') AS txid, i.vin, encode(p.txid, 'hex') AS prev_txid, i.prev_vout, a.address,
              l.label, COALESCE(o.value, 0)::int8 AS value, i.sequence
       FROM inputs i JOIN txs t ON t.tx_no = i.tx_no
       LEFT JOIN txs p ON p.tx_no = i.prev_tx_no
       LEFT JOIN outputs o ON o.tx_no = i.prev_tx_no AND o.vout = i.prev_vout
       LEFT JOIN addresses a ON a.id = o.address_id
       LEFT JOIN known_labels l ON l.address = a.address
       WHERE i.tx_no = x.tx_no AND ${k.where} ${k.tail}
     ) p ON TRUE
     WHERE x.tx_no IS NOT NULL
     ORDER BY p.vin`,
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

/** Outputs `o` with their transaction, address and label, and the input that spent each (if any). */
const OUTPUT_SELECT = `SELECT encode(t.txid, 'hex') AS txid, o.vout, ${heightOf('o.tx_no')} AS block_height,
  ${indexOf('o.tx_no')} AS block_index, a.address, l.label, o.value, o.script_type,
  encode(o.script, 'hex') AS script_hex, ${indexOf('o.tx_no')} = 0 AS is_coinbase,
  encode(st.txid, 'hex') AS spent_txid, s.vin AS spent_vin, ${heightOf('s.tx_no')} AS spent_height
  FROM outputs o JOIN txs t ON t.tx_no = o.tx_no
  LEFT JOIN addresses a ON a.id = o.address_id
  LEFT JOIN known_labels l ON l.address = a.address
  LEFT JOIN inputs s ON s.prev_tx_no = o.tx_no AND s.prev_vout = o.vout
  LEFT JOIN txs st ON st.tx_no = s.tx_no`;

/** Outputs of a transaction, in order, with its block's height (no row: no such transaction). */
export function selectTxOutputs(
  sql: Sql,
  txid: string,
  page: PageOf<typeof txOutputsKey>,
): Promise<(Partial<OutputQueryRow> & OwnerColumns)[]> {
  const params: unknown[] = [];
  const no = txNoSql(txid, params);
  const k = keyset(txOutputsKey, page, params, 'o');
  return sql.query<Partial<OutputQueryRow> & OwnerColumns>(
    `SELECT ${heightOf('x.tx_no')} AS owner_height, p.*
     FROM (SELECT ${no} AS tx_no) x
     LEFT JOIN LATERAL (${OUTPUT_SELECT} WHERE o.tx_no = x.tx_no AND ${k.where} ${k.tail}) p ON TRUE
     WHERE x.tx_no IS NOT NULL
     ORDER BY p.vout`,
    params,
    'txs.outputs',
  );
}

/** Outputs created in a block, in block order, with the block (no row: no such block). */
export function selectBlockOutputs(
  sql: Sql,
  ref: BlockRef,
  page: PageOf<typeof blockOutputsKey>,
): Promise<(Partial<OutputQueryRow> & OwnerColumns)[]> {
  const { height } = blockPage(ref, page);
  const params: unknown[] = [];
  const where = refWhere(ref, params);
  const k = keyset(blockOutputsKey, page, params, 'o', {
    columns: ['o.tx_no', 'o.vout'],
    pack: ([i, vout]) => [cursorTxNo(height ?? 0, Number(i)), vout],
  });
  return sql.query<Partial<OutputQueryRow> & OwnerColumns>(
    `SELECT b.height AS owner_height, b.hash AS owner_hash, p.* FROM blocks b
     LEFT JOIN LATERAL (
       ${OUTPUT_SELECT}
       WHERE o.tx_no >= ${firstTxNoOf('b.height')} AND o.tx_no < ${firstTxNoAbove('b.height')} AND ${k.where} ${k.tail}
     ) p ON TRUE
     WHERE ${where}
     ORDER BY p.block_index, p.vout`,
    params,
    'blocks.outputs',
  );
}

/** Every output of a block's coinbase. */
export function selectCoinbaseOutputs(sql: Sql, height: number): Promise<OutputQueryRow[]> {
  return sql.query<OutputQueryRow>(
    `${OUTPUT_SELECT} WHERE o.tx_no = ${firstTxNoOf('$1')} ORDER BY o.vout`,
    [height],
    'blocks.coinbase-outputs',
  );
}

/**
 * The stored raw JSON of a transaction. A Pearl transaction, kept as bytes, is rendered from them as pearld's
 * `getrawtransaction <txid> 1` renders it, with the block it is in and without confirmations (which change); a
 * Core transaction kept as bytes and a recipe is rendered as the node wrote it in its block.
 */
export async function selectTxRaw(sql: Sql, txid: string): Promise<unknown | null> {
  const params: unknown[] = [];
  const no = txNoSql(txid, params);
  const [row] = await sql.query<{
    raw: unknown;
    raw_bytes: Uint8Array | null;
    fee: Int8;
    outputs: [string, string | null][] | null;
    block_hash: string;
    block_time: Int8;
    network: string | null;
  }>(
    `SELECT t.raw, t.raw_bytes, t.fee, b.hash AS block_hash, b.time AS block_time, s.chain->>'network' AS network,
            CASE WHEN t.raw IS NOT NULL AND t.raw_bytes IS NOT NULL THEN
              (SELECT json_agg(json_build_array(o.script_type, a.address) ORDER BY o.vout)
               FROM outputs o LEFT JOIN addresses a ON a.id = o.address_id WHERE o.tx_no = t.tx_no)
            END AS outputs
     FROM txs t ${TX_BLOCK} CROSS JOIN indexer_state s
     WHERE t.tx_no = ${no}`,
    params,
    'txs.raw',
  );
  if (!row) return null;
  if (row.raw_bytes === null) return row.raw;
  if (row.raw !== null) {
    if (!isCoreRawRecipe(row.raw))
      throw new Error(`transaction ${txid} is kept as bytes beside JSON that is not a recipe`);
    const names = (row.outputs ?? []).map(([type, address]) => ({ type, address }));
    return renderKeptCoreTx(row.raw, row.raw_bytes, names, BigInt(row.fee));
  }
  const network = pearlNetworkByName(row.network ?? '');
  if (!network)
    throw new Error(
      `transaction ${txid} is kept as bytes, but the chain's network (${row.network}) is not Pearl's`,
    );
  return renderPearlTx(decodeTx(Buffer.from(row.raw_bytes)), network.hrp, {
    blockHash: row.block_hash,
    time: Number(row.block_time),
  });
}

/** A transaction's block, position and header fields, with the txids of every transaction of its block. */
export interface TxProofQueryRow {
  block_height: number;
  block_index: number;
  block_hash: string;
  prev_hash: string | null;
  version: Int8;
  merkle_root: string;
  time: Int8;
  bits: string;
  nonce: Int8 | null;
  tx_count: number;
  /** Pearl's header field (display hex): the certificate's row, else the block's JSON; null on Core. */
  proof_commitment: string | null;
  /** The chain profile the indexer recorded (`bitcoin`, `pearl`). */
  profile: string | null;
  /** The block's txids (32 bytes each, display order), concatenated in block order. */
  txids: Uint8Array;
}

/**
 * What a merkle proof of a transaction is built from, in one statement: the transaction's place, its block's
 * header fields, and its block's txids in order (one key range of `txs`); null when the index does not hold it.
 */
export async function selectTxProof(sql: Sql, txid: string): Promise<TxProofQueryRow | null> {
  const params: unknown[] = [];
  const no = txNoSql(txid, params);
  const [row] = await sql.query<TxProofQueryRow>(
    `SELECT ${heightOf('x.tx_no')} AS block_height, ${indexOf('x.tx_no')} AS block_index, b.hash AS block_hash,
            b.prev_hash, b.version, b.merkle_root, b.time, b.bits, b.nonce, b.tx_count,
            COALESCE(c.proof_commitment, b.raw->>'proofcommitment') AS proof_commitment,
            (SELECT s.chain->>'profile' FROM indexer_state s WHERE s.id = 1) AS profile,
            (SELECT string_agg(t.txid, ''::bytea ORDER BY t.tx_no) FROM txs t
             WHERE t.tx_no >= ${firstTxNoOf(heightOf('x.tx_no'))} AND t.tx_no < ${firstTxNoAbove(heightOf('x.tx_no'))}) AS txids
     FROM (SELECT ${no} AS tx_no) x
     JOIN blocks b ON b.height = ${heightOf('x.tx_no')}
     LEFT JOIN block_certificates c ON c.height = b.height`,
    params,
    'txs.proof',
  );
  return row ?? null;
}

/** The spend state of one output; `vout` is null on the row that only says the transaction exists. */
export interface OutspendQueryRow {
  vout: number | null;
  spent_txid: string | null;
  spent_vin: number | null;
  spent_height: number | null;
}

/**
 * One page of a transaction's outputs with the input that spent each (if any), in one statement: no row when
 * the index does not hold the transaction, one row with a null `vout` when the page is past its outputs.
 */
export async function selectTxOutspends(
  sql: Sql,
  txid: string,
  page: PageOf<typeof txOutspendsKey>,
): Promise<OutspendQueryRow[] | null> {
  const params: unknown[] = [];
  const no = txNoSql(txid, params);
  const k = keyset(txOutspendsKey, page, params, 'o');
  const rows = await sql.query<OutspendQueryRow>(
    `SELECT p.vout, p.spent_txid, p.spent_vin, p.spent_height
     FROM (SELECT ${no} AS tx_no) x
     LEFT JOIN LATERAL (
       SELECT o.vout, encode(st.txid, 'hex') AS spent_txid, s.vin AS spent_vin, ${heightOf('s.tx_no')} AS spent_height
       FROM outputs o
       LEFT JOIN inputs s ON s.prev_tx_no = o.tx_no AND s.prev_vout = o.vout
       LEFT JOIN txs st ON st.tx_no = s.tx_no
       WHERE o.tx_no = x.tx_no AND ${k.where} ${k.tail}
     ) p ON TRUE
     WHERE x.tx_no IS NOT NULL
     ORDER BY p.vout`,
    params,
    'txs.outspends',
  );
  if (rows.length === 0) return null;
  return rows.filter((r) => r.vout !== null);
}

/** A transaction in full, as one row: the summary, the kept bytes or JSON, every output and input. */
export interface TxDetailQueryRow extends TxQueryRow {
  raw: unknown;
  raw_bytes: Uint8Array | null;
  /** `[value, script hex, address, script type]` per output, in order. */
  outputs: [string, string, string | null, string][] | null;
  /**
   * `[prev txid, prev vout, sequence, value, script hex, address, script type]` per input, in order (the last
   * four null for a coinbase).
   */
  inputs:
    | [string | null, number | null, number, string | null, string | null, string | null, string | null][]
    | null;
}

/** The columns of a transaction in full, from `txs t` and its block `b`. */
const TX_DETAIL_COLUMNS = `${TX_COLUMNS}, t.raw, t.raw_bytes,
  (SELECT json_agg(json_build_array(o.value::text, encode(o.script, 'hex'), a.address, o.script_type) ORDER BY o.vout)
   FROM outputs o LEFT JOIN addresses a ON a.id = o.address_id WHERE o.tx_no = t.tx_no) AS outputs,
  (SELECT json_agg(json_build_array(encode(p.txid, 'hex'), i.prev_vout, i.sequence, o.value::text,
                                    encode(o.script, 'hex'), a.address, o.script_type) ORDER BY i.vin)
   FROM inputs i LEFT JOIN txs p ON p.tx_no = i.prev_tx_no
   LEFT JOIN outputs o ON o.tx_no = i.prev_tx_no AND o.vout = i.prev_vout
   LEFT JOIN addresses a ON a.id = o.address_id
   WHERE i.tx_no = t.tx_no) AS inputs`;

/**
 * Transactions in full, in the order of `txids` (one statement; a txid the index does not hold gives no row):
 * the summary, the bytes (or the node's JSON) they were kept as, every output with its script and every input
 * with the output it spends. One txid has a statement of its own, whose plan PostgreSQL keeps (a list's plan
 * depends on its length, so it is planned each time).
 */
export async function selectTxDetails(sql: Sql, txids: readonly string[]): Promise<TxDetailQueryRow[]> {
  if (txids.length === 1) {
    const params: unknown[] = [];
    const no = txNoSql(txids[0]!, params);
    return sql.query<TxDetailQueryRow>(
      `SELECT ${TX_DETAIL_COLUMNS} FROM txs t ${TX_BLOCK} WHERE t.tx_no = ${no}`,
      params,
      'txs.detail',
    );
  }
  return sql.query<TxDetailQueryRow>(
    `SELECT ${TX_DETAIL_COLUMNS}
     FROM unnest($1::text[]) WITH ORDINALITY AS q(txid, n)
     CROSS JOIN LATERAL ${txNoOfTxid('q.txid')} x(tx_no)
     JOIN txs t ON t.tx_no = x.tx_no ${TX_BLOCK}
     ORDER BY q.n`,
    [txids],
    'txs.details',
  );
}
