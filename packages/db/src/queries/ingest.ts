import type { Sql } from '../sql.js';

/** The indexed tip, locked for the writing transaction, with what the next block's derived fields start from. */
export interface TipState {
  height: number;
  hash: string | null;
  cumTxCount: number;
  cumEmitted: bigint;
  cumUnclaimed: bigint;
  cumFees: bigint;
  cumOpReturn: bigint;
  /** The tip's cumulative work (hex), or null before the first block. */
  chainwork: string | null;
  /** Times of the tip and up to 9 blocks before it, oldest first (for median time past). */
  recentTimes: number[];
}

/** Reads the tip under a row lock, so two writers can never both extend it. */
export async function lockTip(tx: Sql): Promise<{ height: number; hash: string | null }> {
  const [s] = await tx.query<{ tip_height: number; tip_hash: string | null }>(
    'SELECT tip_height, tip_hash FROM indexer_state WHERE id = 1 FOR UPDATE',
    [],
    'ingest.lock-tip',
  );
  return { height: s?.tip_height ?? -1, hash: s?.tip_hash ?? null };
}

/** The tip with its running totals, work and recent times: where a writer's view of the chain starts. */
export async function readTipState(sql: Sql): Promise<TipState> {
  const [s] = await sql.query<{ tip_height: number; tip_hash: string | null }>(
    'SELECT tip_height, tip_hash FROM indexer_state WHERE id = 1',
    [],
    'ingest.tip',
  );
  const height = s?.tip_height ?? -1;
  const [b] = await sql.query<{
    cum_tx_count: number;
    cum_emitted: string;
    cum_unclaimed: string;
    cum_fees: string;
    cum_op_return: string;
    chainwork: string;
  }>(
    `SELECT cum_tx_count, cum_emitted::text, cum_unclaimed::text, cum_fees::text, cum_op_return::text, chainwork
     FROM blocks WHERE height = $1`,
    [height],
    'ingest.tip-totals',
  );
  const times = await sql.query<{ time: number }>(
    'SELECT time FROM blocks WHERE height > $1 - 10 AND height <= $1 ORDER BY height',
    [height],
    'ingest.tip-times',
  );
  return {
    height,
    hash: s?.tip_hash ?? null,
    cumTxCount: b?.cum_tx_count ?? 0,
    cumEmitted: BigInt(b?.cum_emitted ?? 0),
    cumUnclaimed: BigInt(b?.cum_unclaimed ?? 0),
    cumFees: BigInt(b?.cum_fees ?? 0),
    cumOpReturn: BigInt(b?.cum_op_return ?? 0),
    chainwork: b?.chainwork ?? null,
    recentTimes: times.map((t) => t.time),
  };
}

/** A stored output as a spend sees it. */
export interface StoredPrevout {
  /** The number of the transaction that created it. */
  txNo: number;
  address: string | null;
  value: bigint;
  spent: boolean;
}

/**
 * Looks up outputs by outpoint (txid as hex); the result has one entry per outpoint, undefined where none is
 * stored. A txid is found through the index on its first 8 bytes, the whole txid compared; of two
 * transactions with one txid (BIP30), the later one's output.
 */
export async function readPrevouts(
  sql: Sql,
  outpoints: readonly { txid: string; vout: number }[],
): Promise<(StoredPrevout | undefined)[]> {
  const out: (StoredPrevout | undefined)[] = new Array(outpoints.length);
  for (let start = 0; start < outpoints.length; start += 10_000) {
    const chunk = outpoints.slice(start, start + 10_000);
    const rows = await sql.query<{
      i: number;
      tx_no: string;
      address: string | null;
      value: string;
      spent: boolean;
    }>(
      `SELECT DISTINCT ON (s.i) s.i::int4 AS i, t.tx_no::text AS tx_no, a.address, o.value::text AS value,
              u.tx_no IS NULL AS spent
       FROM unnest($1::text[], $2::int4[]) WITH ORDINALITY AS s(txid, vout, i)
       JOIN txs t ON substring(t.txid FROM 1 FOR 8) = decode(substring(s.txid FROM 1 FOR 16), 'hex')
                 AND t.txid = decode(s.txid, 'hex')
       JOIN outputs o ON o.tx_no = t.tx_no AND o.vout = s.vout
       LEFT JOIN addresses a ON a.id = o.address_id
       LEFT JOIN utxos u ON u.tx_no = o.tx_no AND u.vout = o.vout
       ORDER BY s.i, t.tx_no DESC`,
      [chunk.map((o) => o.txid), chunk.map((o) => o.vout)],
      'ingest.read-prevouts',
    );
    for (const r of rows)
      out[start + r.i - 1] = {
        txNo: Number(r.tx_no),
        address: r.address,
        value: BigInt(r.value),
        spent: r.spent,
      };
  }
  return out;
}

/** An address's dictionary id and current balance. */
export interface StoredAccount {
  id: number;
  balance: bigint;
}

/** Ids and current balances of the given addresses (absent ones are new). */
export async function readAccounts(sql: Sql, addresses: string[]): Promise<Map<string, StoredAccount>> {
  if (addresses.length === 0) return new Map();
  const rows = await sql.query<{ address: string; id: string; balance: string }>(
    'SELECT address, id::text AS id, balance::text AS balance FROM addresses WHERE address = ANY($1::text[])',
    [addresses],
    'ingest.read-accounts',
  );
  return new Map(rows.map((r) => [r.address, { id: Number(r.id), balance: BigInt(r.balance) }]));
}

/** Current balances of the given addresses (absent ones are new). */
export async function readBalances(sql: Sql, addresses: string[]): Promise<Map<string, bigint>> {
  const accounts = await readAccounts(sql, addresses);
  return new Map([...accounts].map(([address, a]) => [address, a.balance]));
}

/**
 * Takes `count` new address ids from the dictionary's sequence, ascending. Ids taken by a batch that never
 * commits are skipped, never reused: an id only names an address, it orders nothing.
 */
export async function newAddressIds(sql: Sql, count: number): Promise<number[]> {
  if (count === 0) return [];
  const rows = await sql.query<{ id: string }>(
    "SELECT nextval('addresses_id')::text AS id FROM generate_series(1, $1::int4)",
    [count],
    'ingest.new-address-ids',
  );
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/** Moves the indexed tip (blocks and transactions are written together, so both tips move as one). */
export async function setTip(tx: Sql, height: number, hash: string | null): Promise<void> {
  await tx.query(
    'UPDATE indexer_state SET tip_height = $1, tip_hash = $2, tx_tip_height = $1, updated_at = now() WHERE id = 1',
    [height, hash],
    'ingest.set-tip',
  );
}
