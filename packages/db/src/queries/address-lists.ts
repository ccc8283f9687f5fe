import { multiAddressTxsKey, multiAddressUtxosKey, type PageOf } from '@explorer/core';
import type { Int8, Sql } from '../sql.js';
import { cursorTxNo, heightOf } from '../tx-no.js';
import {
  ADDRESS_SUMMARY_COLUMNS,
  type AddressSummaryQueryRow,
  type UtxoQueryRow,
  utxoPageSql,
} from './addresses.js';
import { keyset, pageRows } from './keyset.js';
import { TX_COLUMNS, type TxQueryRow } from './txs.js';

// Many addresses, one statement per page. The asked addresses (one parameter each, askedRows) are resolved through
// the dictionary to their ids; each id's rows are then read from its own index range (address_txs' primary key,
// utxos_address) newest first, at most as many as the page needs, and the ranges merged: a row that makes the
// merged page is within the first `limit + 1` (plus offset) rows of every address it belongs to, so nothing
// below those is read. The cost is at most addresses × page rows, however long the histories are.

/** The sizes a list of asked addresses is written for: padded with nulls up to the next one. */
const LIST_SIZES = [1, 2, 5, 10, 20, 50, 100, 200] as const;

/**
 * SQL: the asked addresses as rows `(n, address)`, `n` their place in the request, one parameter each (appended
 * to `params`). The list is padded with nulls up to one of a few sizes (LIST_SIZES, then hundreds), so that a
 * statement has a handful of texts and PostgreSQL, knowing how many rows it reads, keeps one plan for each
 * (an array parameter's length is unknown to a kept plan: every call was planned anew).
 */
function askedRows(addresses: readonly string[], params: unknown[]): string {
  const size = LIST_SIZES.find((n) => n >= addresses.length) ?? Math.ceil(addresses.length / 100) * 100;
  const rows: string[] = [];
  for (let i = 0; i < size; i++) {
    params.push(addresses[i] ?? null);
    rows.push(`(${i + 1}, $${params.length}::text)`);
  }
  return `(VALUES ${rows.join(', ')}) AS v(n, address)`;
}

/** SQL: the asked addresses with their dictionary ids and place in the request (unknown ones drop out). */
const asked = (addresses: readonly string[], params: unknown[]) =>
  `(SELECT d.id, v.address, v.n FROM ${askedRows(addresses, params)} JOIN addresses d ON d.address = v.address)`;

/** Rows each address must give for the merged page: the page and its look-ahead row, plus a legacy offset. */
function perAddressLimit(page: { limit: number; after: unknown; offset: number }, params: unknown[]): string {
  // keyset() pushed the offset last when it applies (no cursor): the same parameter widens every range.
  const rows = pageRows(page.limit);
  return !page.after && page.offset > 0 ? `${rows} + $${params.length}` : `${rows}`;
}

/** The totals and labels of the addresses, in the order given (one statement). */
export function selectAddresses(sql: Sql, addresses: readonly string[]): Promise<AddressSummaryQueryRow[]> {
  const params: unknown[] = [];
  return sql.query<AddressSummaryQueryRow>(
    `SELECT ${ADDRESS_SUMMARY_COLUMNS}
     FROM (SELECT v.n, v.address FROM ${askedRows(addresses, params)} WHERE v.address IS NOT NULL) q
     LEFT JOIN addresses a ON a.address = q.address
     LEFT JOIN known_labels l ON l.address = q.address
     ORDER BY q.n`,
    params,
    'address-lists.summaries',
  );
}

/** A transaction of the merged history, with its amounts summed over the asked addresses it touched. */
export interface MultiAddressTxQueryRow extends TxQueryRow {
  received: Int8;
  sent: Int8;
  addresses: string[];
}

/** The merged history of the addresses, newest first, each transaction once (one statement). */
export function selectMultiAddressTxs(
  sql: Sql,
  addresses: readonly string[],
  page: PageOf<typeof multiAddressTxsKey>,
): Promise<MultiAddressTxQueryRow[]> {
  const params: unknown[] = [];
  const from = asked(addresses, params);
  const k = keyset(multiAddressTxsKey, page, params, 'a', {
    columns: ['a.tx_no'],
    pack: ([h, i]) => [cursorTxNo(Number(h), Number(i))],
  });
  const each = perAddressLimit(page, params);
  return sql.query<MultiAddressTxQueryRow>(
    `SELECT ${TX_COLUMNS}, a.received, a.sent, a.addresses
     FROM (SELECT a.tx_no, sum(a.received)::int8 AS received, sum(a.sent)::int8 AS sent,
                  array_agg(a.address ORDER BY a.n) AS addresses
           FROM ${from} q
           CROSS JOIN LATERAL (SELECT a.tx_no, a.received, a.sent, q.address, q.n FROM address_txs a
                               WHERE a.address_id = q.id AND ${k.where}
                               ORDER BY a.tx_no DESC LIMIT ${each}) a
           GROUP BY a.tx_no ${k.tail}) a
     JOIN txs t ON t.tx_no = a.tx_no
     JOIN blocks b ON b.height = ${heightOf('a.tx_no')}
     ${k.order}`,
    params,
    'address-lists.txs',
  );
}

/** An unspent output of one of the asked addresses. */
export interface MultiAddressUtxoQueryRow extends UtxoQueryRow {
  address: string;
}

/** The addresses' unspent outputs merged, newest first by creating position (one statement). */
export function selectMultiAddressUtxos(
  sql: Sql,
  addresses: readonly string[],
  page: PageOf<typeof multiAddressUtxosKey>,
): Promise<MultiAddressUtxoQueryRow[]> {
  const params: unknown[] = [];
  const from = asked(addresses, params);
  const k = keyset(multiAddressUtxosKey, page, params, 'u', {
    columns: ['u.tx_no', 'u.vout'],
    pack: ([h, i, vout]) => [cursorTxNo(Number(h), Number(i)), vout],
  });
  const each = perAddressLimit(page, params);
  return sql.query<MultiAddressUtxoQueryRow>(
    utxoPageSql(
      `SELECT u.tx_no, u.vout, u.address
       FROM ${from} q
       CROSS JOIN LATERAL (SELECT u.tx_no, u.vout, q.address FROM utxos u
                           WHERE u.address_id = q.id AND ${k.where}
                           ORDER BY u.tx_no DESC, u.vout DESC LIMIT ${each}) u
       ${k.tail}`,
      k.order,
      'u.address',
    ),
    params,
    'address-lists.utxos',
  );
}

/** The totals of a set of addresses taken as one wallet: each transaction counted once, by its net effect. */
export interface WalletTotalsQueryRow {
  tx_count: number;
  received: Int8;
  sent: Int8;
}

/**
 * A wallet's totals over its addresses (one statement): its distinct transactions, and what they brought in and
 * took out, each by its net over the addresses — a payment between two of them (change) moves nothing.
 */
export async function selectWalletTotals(
  sql: Sql,
  addresses: readonly string[],
): Promise<WalletTotalsQueryRow> {
  const params: unknown[] = [];
  const from = asked(addresses, params);
  const rows = await sql.query<WalletTotalsQueryRow>(
    `SELECT count(*)::int AS tx_count, coalesce(sum(greatest(t.net, 0)), 0)::int8 AS received,
            coalesce(sum(greatest(-t.net, 0)), 0)::int8 AS sent
     FROM (SELECT a.tx_no, sum(a.received - a.sent) AS net
           FROM ${from} q JOIN address_txs a ON a.address_id = q.id
           GROUP BY a.tx_no) t`,
    params,
    'address-lists.wallet-totals',
  );
  return rows[0] ?? { tx_count: 0, received: 0, sent: 0 };
}
