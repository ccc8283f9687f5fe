import { addressMempoolKey, type PageOf } from '@explorer/core';
import type { Int8, Sql } from '../sql.js';
import { firstTxNoAbove } from '../tx-no.js';
import { keyset } from './keyset.js';

/** One mempool transaction's part for one address, as the watcher stores it. */
export interface MempoolAddressTxRow {
  address: string;
  /** The txid as hex, in display order; stored as its 32 bytes. */
  txid: string;
  received: bigint;
  sent: bigint;
  /** When the node first saw the transaction, Unix seconds. */
  firstSeen: number;
  fee: bigint;
  vsize: number;
}

const CHUNK = 10_000;

/**
 * Adds the rows of transactions that entered the mempool, leaving out any transaction an indexed block already
 * holds (a block written between the node's answer and this transaction confirmed it: its rows must not come
 * back). Run after taking the tip's lock (`lockTipShared`), so no block write interleaves with it.
 */
export async function insertMempoolAddressTxs(sql: Sql, rows: readonly MempoolAddressTxRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK);
    await sql.query(
      `INSERT INTO mempool_address_txs (address, first_seen, txid, received, sent, fee, vsize)
       SELECT s.address, s.first_seen, decode(s.txid, 'hex'), s.received, s.sent, s.fee, s.vsize
       FROM unnest($1::text[], $2::int8[], $3::text[], $4::int8[], $5::int8[], $6::int8[], $7::int4[])
            AS s(address, first_seen, txid, received, sent, fee, vsize)
       WHERE NOT EXISTS (SELECT 1 FROM txs t
                         WHERE substring(t.txid FROM 1 FOR 8) = decode(substring(s.txid FROM 1 FOR 16), 'hex')
                           AND t.txid = decode(s.txid, 'hex'))
       ON CONFLICT DO NOTHING`,
      [
        chunk.map((r) => r.address),
        chunk.map((r) => r.firstSeen),
        chunk.map((r) => r.txid),
        chunk.map((r) => r.received.toString()),
        chunk.map((r) => r.sent.toString()),
        chunk.map((r) => r.fee.toString()),
        chunk.map((r) => r.vsize),
      ],
      'mempool.address-txs.insert',
    );
  }
}

/** Deletes the rows of transactions that left the mempool (txids as hex). */
export async function deleteMempoolAddressTxs(sql: Sql, txids: readonly string[]): Promise<void> {
  for (let start = 0; start < txids.length; start += CHUNK) {
    await sql.query(
      `DELETE FROM mempool_address_txs WHERE txid IN (SELECT decode(t, 'hex') FROM unnest($1::text[]) AS t)`,
      [txids.slice(start, start + CHUNK)],
      'mempool.address-txs.delete',
    );
  }
}

/** Empties the table: the watcher's first reading replaces its content with the whole mempool's. */
export async function clearMempoolAddressTxs(sql: Sql): Promise<void> {
  await sql.query('DELETE FROM mempool_address_txs', [], 'mempool.address-txs.clear');
}

/**
 * Deletes the rows of the transactions of indexed blocks above `height` (a batch just written, in its
 * transaction): a confirmed transaction leaves an address's unconfirmed activity with the block that confirms
 * it, not one mempool reading later, so the confirmed balance never counts it twice.
 */
export async function deleteMinedMempoolAddressTxs(sql: Sql, aboveHeight: number): Promise<void> {
  await sql.query(
    `DELETE FROM mempool_address_txs m USING txs t
     WHERE t.tx_no >= ${firstTxNoAbove('$1')} AND m.txid = t.txid`,
    [aboveHeight],
    'mempool.address-txs.mined',
  );
}

/**
 * Takes the indexed tip's row lock in share mode: a block write or rollback (which takes it for update first)
 * waits for the mempool reading's transaction, and the reading waits for a block write in progress, so the two
 * never interleave. Returns how many reorgs the indexer has rolled back (the watcher rebuilds its rows after one,
 * since a rollback returns confirmed transactions to the mempool without the watcher seeing them enter).
 */
export async function lockTipShared(tx: Sql): Promise<number> {
  const [row] = await tx.query<{ reorgs: number }>(
    'SELECT reorgs FROM indexer_state WHERE id = 1 FOR SHARE',
    [],
    'mempool.lock-tip',
  );
  return row?.reorgs ?? 0;
}

/** How many reorgs the indexer has rolled back (read without a lock). */
export async function readReorgCount(sql: Sql): Promise<number> {
  const [row] = await sql.query<{ reorgs: number }>(
    'SELECT reorgs FROM indexer_state WHERE id = 1',
    [],
    'mempool.reorg-count',
  );
  return row?.reorgs ?? 0;
}

/** A mempool transaction of an address, as the list reads it. */
export interface MempoolAddressTxQueryRow {
  txid: string;
  first_seen: Int8;
  received: Int8;
  sent: Int8;
  fee: Int8;
  vsize: number;
}

/** An address's mempool transactions, newest first (by first-seen time, then txid). */
export function selectAddressMempoolTxs(
  sql: Sql,
  address: string,
  page: PageOf<typeof addressMempoolKey>,
): Promise<MempoolAddressTxQueryRow[]> {
  const params: unknown[] = [address];
  const k = keyset(addressMempoolKey, page, params, 'm', {
    firstSeen: 'm.first_seen',
    txid: `encode(m.txid, 'hex') COLLATE "C"`,
  });
  return sql.query<MempoolAddressTxQueryRow>(
    `SELECT encode(m.txid, 'hex') AS txid, m.first_seen, m.received, m.sent, m.fee, m.vsize
     FROM mempool_address_txs m WHERE m.address = $1 AND ${k.where} ${k.tail}`,
    params,
    'mempool.address-txs.page',
  );
}

/** An address's confirmed balance and mempool totals, read in one statement (one snapshot). */
export interface AddressMempoolTotalsRow {
  balance: Int8;
  tx_count: number;
  received: Int8;
  sent: Int8;
  taken_at: Date | string | null;
}

/** The confirmed balance of an address, with what its mempool transactions receive and send. */
export async function selectAddressMempoolTotals(
  sql: Sql,
  address: string,
): Promise<AddressMempoolTotalsRow> {
  const [row] = await sql.query<AddressMempoolTotalsRow>(
    `SELECT coalesce((SELECT balance FROM addresses WHERE address = $1), 0) AS balance,
            count(*)::int4 AS tx_count, coalesce(sum(m.received), 0)::int8 AS received,
            coalesce(sum(m.sent), 0)::int8 AS sent,
            (SELECT taken_at FROM mempool_state WHERE id = 1) AS taken_at
     FROM mempool_address_txs m WHERE m.address = $1`,
    [address],
    'mempool.address-totals',
  );
  return row!;
}
