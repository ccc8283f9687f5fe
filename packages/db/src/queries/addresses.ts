import { addressFlowsKey, addressTxsKey, addressUtxosKey, type PageOf } from '@explorer/core';
import type { Int8, Sql } from '../sql.js';
import { cursorTxNo, firstTxNoOf, heightOf, indexOf } from '../tx-no.js';
import { keyset, type PackedKey } from './keyset.js';
import { TX_COLUMNS, type TxQueryRow } from './txs.js';

/** SQL: the dictionary id of the address in parameter `$1` (null when the index has not seen it). */
const ADDRESS_ID = '(SELECT id FROM addresses WHERE address = $1)';

/** A history or UTXO key (block height, index in block) stored as the transaction number of `alias`. */
const byTxNo = (alias: string): PackedKey => ({
  columns: [`${alias}.tx_no`],
  pack: ([h, i]) => [cursorTxNo(Number(h), Number(i))],
});

/** An address row with its label. */
export interface AddressQueryRow {
  address: string;
  balance: Int8;
  received: Int8;
  sent: Int8;
  tx_count: number;
  utxo_count: number;
  first_seen_height: number;
  first_seen_time: number;
  last_seen_height: number;
  last_seen_time: number;
}

/** The totals of one address. */
export async function selectAddress(sql: Sql, address: string): Promise<AddressQueryRow | null> {
  const [row] = await sql.query<AddressQueryRow>(
    `SELECT address, balance, received, sent, tx_count, utxo_count, first_seen_height, first_seen_time,
            last_seen_height, last_seen_time FROM addresses WHERE address = $1`,
    [address],
    'addresses.one',
  );
  return row ?? null;
}

/** An address's totals and label; the totals are null for an address the index has not seen. */
export interface AddressSummaryQueryRow extends Omit<AddressQueryRow, 'address'> {
  address: string;
  seen: boolean;
  label: string | null;
  kind: string | null;
}

/** The columns of an address summary, from the asked address `q`, its totals `a` and its label `l`. */
export const ADDRESS_SUMMARY_COLUMNS = `q.address, a.address IS NOT NULL AS seen, a.balance, a.received, a.sent,
  a.tx_count, a.utxo_count, a.first_seen_height, a.first_seen_time, a.last_seen_height, a.last_seen_time,
  l.label, l.kind`;

/** The totals and label of one address, in one statement. */
export async function selectAddressSummary(sql: Sql, address: string): Promise<AddressSummaryQueryRow> {
  const [row] = await sql.query<AddressSummaryQueryRow>(
    `SELECT ${ADDRESS_SUMMARY_COLUMNS}
     FROM (SELECT $1::text AS address) q
     LEFT JOIN addresses a ON a.address = q.address
     LEFT JOIN known_labels l ON l.address = q.address`,
    [address],
    'addresses.summary',
  );
  return row!;
}

/** A transaction of an address with what it did to the address. */
export interface AddressTxQueryRow extends TxQueryRow {
  received: Int8;
  sent: Int8;
  balance: Int8;
}

/** Transactions of an address, newest first. */
export function selectAddressTxs(
  sql: Sql,
  address: string,
  page: PageOf<typeof addressTxsKey>,
): Promise<AddressTxQueryRow[]> {
  const params: unknown[] = [address];
  const k = keyset(addressTxsKey, page, params, 'a', byTxNo('a'));
  // The page is cut from the address's history first, then joined row by row: a join planned over the whole
  // history (a merge join walking blocks down from the tip) would cost more the deeper the page.
  return sql.query<AddressTxQueryRow>(
    `SELECT ${TX_COLUMNS}, a.received, a.sent, a.balance
     FROM (SELECT a.tx_no, a.received, a.sent, a.balance FROM address_txs a
           WHERE a.address_id = ${ADDRESS_ID} AND ${k.where} ${k.tail}) a
     JOIN txs t ON t.tx_no = a.tx_no
     JOIN blocks b ON b.height = ${heightOf('a.tx_no')}
     ${k.order}`,
    params,
    'addresses.txs',
  );
}

/** A history row of an address. */
export interface FlowQueryRow {
  txid: string;
  block_height: number;
  block_hash: string;
  block_index: number;
  block_time: number;
  received: Int8;
  sent: Int8;
  balance: Int8;
}

/** History rows of an address, newest first. */
export function selectAddressFlows(
  sql: Sql,
  address: string,
  page: PageOf<typeof addressFlowsKey>,
): Promise<FlowQueryRow[]> {
  const params: unknown[] = [address];
  const k = keyset(addressFlowsKey, page, params, 'a', byTxNo('a'));
  return sql.query<FlowQueryRow>(
    `SELECT encode(t.txid, 'hex') AS txid, ${heightOf('a.tx_no')} AS block_height, b.hash AS block_hash,
            ${indexOf('a.tx_no')} AS block_index, b.time AS block_time, a.received, a.sent, a.balance
     FROM (SELECT a.* FROM address_txs a WHERE a.address_id = ${ADDRESS_ID} AND ${k.where} ${k.tail}) a
     JOIN txs t ON t.tx_no = a.tx_no
     JOIN blocks b ON b.height = ${heightOf('a.tx_no')}
     ${k.order}`,
    params,
    'addresses.flows',
  );
}

/** An unspent output of an address. */
export interface UtxoQueryRow {
  txid: string;
  vout: number;
  value: Int8;
  block_height: number;
  block_hash: string;
  block_index: number;
  time: number;
  script_type: string;
  script_hex: string;
  is_coinbase: boolean;
}

/**
 * A page of unspent outputs: `page` selects `u.tx_no, u.vout` (and the columns `extra` names, e.g. `u.address`)
 * of the page's outputs in its order; their output, transaction and block are joined here, one row each. Every
 * UTXO list reads its page through this.
 */
export const utxoPageSql = (page: string, order: string, extra = '') =>
  `SELECT encode(t.txid, 'hex') AS txid, u.vout${extra ? `, ${extra}` : ''}, o.value, ${heightOf('u.tx_no')} AS block_height,
          b.hash AS block_hash, ${indexOf('u.tx_no')} AS block_index, b.time, o.script_type,
          encode(o.script, 'hex') AS script_hex, ${indexOf('u.tx_no')} = 0 AS is_coinbase
   FROM (${page}) u
   JOIN outputs o ON o.tx_no = u.tx_no AND o.vout = u.vout
   JOIN txs t ON t.tx_no = u.tx_no
   JOIN blocks b ON b.height = ${heightOf('u.tx_no')}
   ${order}`;

/** Unspent outputs of an address, newest first (served by the unspent outputs' index by address). */
export function selectAddressUtxos(
  sql: Sql,
  address: string,
  page: PageOf<typeof addressUtxosKey>,
): Promise<UtxoQueryRow[]> {
  const params: unknown[] = [address];
  const k = keyset(addressUtxosKey, page, params, 'u', {
    columns: ['u.tx_no', 'u.vout'],
    pack: ([h, i, vout]) => [cursorTxNo(Number(h), Number(i)), vout],
  });
  return sql.query<UtxoQueryRow>(
    utxoPageSql(
      `SELECT u.tx_no, u.vout FROM utxos u WHERE u.address_id = ${ADDRESS_ID} AND ${k.where} ${k.tail}`,
      k.order,
    ),
    params,
    'addresses.utxos',
  );
}

/** One day of an address's activity. */
export interface BalanceDayRow {
  day: number;
  height: number;
  time: number;
  balance: Int8;
  received: Int8;
  sent: Int8;
  tx_count: number;
}

/** The balance at the end of each UTC day with activity, oldest first. */
export function selectBalanceHistory(sql: Sql, address: string): Promise<BalanceDayRow[]> {
  return sql.query<BalanceDayRow>(
    // Summed per block first, so each block of the history is looked up once for its time.
    `SELECT (b.time / 86400)::int4 AS day, max(b.height) AS height, max(b.time) AS time,
            (array_agg(h.balance ORDER BY h.height DESC))[1] AS balance,
            sum(h.received)::int8 AS received, sum(h.sent)::int8 AS sent, sum(h.n)::int4 AS tx_count
     FROM (SELECT ${heightOf('tx_no')} AS height, sum(received) AS received, sum(sent) AS sent, count(*) AS n,
                  (array_agg(balance ORDER BY tx_no DESC))[1] AS balance
           FROM address_txs WHERE address_id = ${ADDRESS_ID} GROUP BY 1) h
     JOIN blocks b ON b.height = h.height
     GROUP BY 1 ORDER BY 1`,
    [address],
    'addresses.balance-history',
  );
}

/** Flow totals of an address over three windows ending at `now`. */
export interface FlowWindowsRow {
  receiving: number;
  spending: number;
  in_24h: Int8;
  out_24h: Int8;
  n_24h: number;
  in_7d: Int8;
  out_7d: Int8;
  n_7d: number;
  in_30d: Int8;
  out_30d: Int8;
  n_30d: number;
}

/** Counts receiving/spending transactions and sums the 24 h, 7 d and 30 d windows before `now`. */
export async function selectFlowWindows(sql: Sql, address: string, now: number): Promise<FlowWindowsRow> {
  const [row] = await sql.query<FlowWindowsRow>(
    // Counted over the whole history; the windows read block times only from the lowest height whose block
    // is inside the widest window (every block with a later time is at that height or above).
    `SELECT c.receiving, c.spending, w.* FROM
       (SELECT count(*) FILTER (WHERE received > 0)::int4 AS receiving, count(*) FILTER (WHERE sent > 0)::int4 AS spending
        FROM address_txs WHERE address_id = ${ADDRESS_ID}) c,
       (SELECT COALESCE(sum(received) FILTER (WHERE block_time > $2::int8 - 86400), 0)::int8 AS in_24h,
               COALESCE(sum(sent) FILTER (WHERE block_time > $2::int8 - 86400), 0)::int8 AS out_24h,
               count(*) FILTER (WHERE block_time > $2::int8 - 86400)::int4 AS n_24h,
               COALESCE(sum(received) FILTER (WHERE block_time > $2::int8 - 604800), 0)::int8 AS in_7d,
               COALESCE(sum(sent) FILTER (WHERE block_time > $2::int8 - 604800), 0)::int8 AS out_7d,
               count(*) FILTER (WHERE block_time > $2::int8 - 604800)::int4 AS n_7d,
               COALESCE(sum(received) FILTER (WHERE block_time > $2::int8 - 2592000), 0)::int8 AS in_30d,
               COALESCE(sum(sent) FILTER (WHERE block_time > $2::int8 - 2592000), 0)::int8 AS out_30d,
               count(*) FILTER (WHERE block_time > $2::int8 - 2592000)::int4 AS n_30d
        FROM (SELECT a.received, a.sent, b.time AS block_time FROM address_txs a
              JOIN blocks b ON b.height = ${heightOf('a.tx_no')}
              WHERE a.address_id = ${ADDRESS_ID}
                AND a.tx_no >= ${firstTxNoOf('COALESCE((SELECT min(height) FROM blocks WHERE time > $2::int8 - 2592000), 2147483647)')}) a
       ) w`,
    [address, now],
    'addresses.flow-windows',
  );
  return row!;
}

/** An address's confirmed statistics in Esplora's terms and its mempool transactions' txids. */
export interface AddressChainStatsRow {
  funded: number;
  funded_sum: Int8;
  spent: number;
  spent_sum: Int8;
  tx_count: number;
  mempool_txids: string[] | null;
}

/**
 * An address's confirmed statistics in Esplora's terms, from its row (zeros for one the index has not seen),
 * and the txids of its newest 50 mempool transactions, in one statement.
 */
export async function selectAddressChainStats(sql: Sql, address: string): Promise<AddressChainStatsRow> {
  const [row] = await sql.query<AddressChainStatsRow>(
    `SELECT COALESCE(a.output_count, 0) AS funded, COALESCE(a.received, 0) AS funded_sum,
            COALESCE(a.output_count - a.utxo_count, 0) AS spent, COALESCE(a.sent, 0) AS spent_sum,
            COALESCE(a.tx_count, 0) AS tx_count,
            (SELECT array_agg(m.txid) FROM (SELECT encode(txid, 'hex') AS txid FROM mempool_address_txs
               WHERE address = q.address ORDER BY first_seen DESC, txid DESC LIMIT 50) m) AS mempool_txids
     FROM (SELECT $1::text COLLATE "C" AS address) q LEFT JOIN addresses a ON a.address = q.address`,
    [address],
    'addresses.chain-stats',
  );
  return row!;
}

/** The address paid by the script whose SHA-256 is `scriptHash` (hex); null when the index has none. */
export async function selectAddressByScriptHash(sql: Sql, scriptHash: string): Promise<string | null> {
  const [row] = await sql.query<{ address: string }>(
    `SELECT address FROM addresses WHERE script_hash = decode($1, 'hex') ORDER BY id LIMIT 1`,
    [scriptHash],
    'addresses.by-script-hash',
  );
  return row?.address ?? null;
}
