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
  address: string | null;
  value: bigint;
  spent: boolean;
}

/** Looks up outputs by outpoint; the result has one entry per outpoint, undefined where none is stored. */
export async function readPrevouts(
  sql: Sql,
  outpoints: readonly { txid: string; vout: number }[],
): Promise<(StoredPrevout | undefined)[]> {
  const out: (StoredPrevout | undefined)[] = new Array(outpoints.length);
  for (let start = 0; start < outpoints.length; start += 10_000) {
    const chunk = outpoints.slice(start, start + 10_000);
    const rows = await sql.query<{ i: number; address: string | null; value: string; spent: boolean }>(
      `SELECT s.i::int4 AS i, o.address, o.value::text AS value, o.spent_txid IS NOT NULL AS spent
       FROM unnest($1::text[], $2::int4[]) WITH ORDINALITY AS s(txid, vout, i)
       JOIN outputs o ON o.txid = s.txid AND o.vout = s.vout`,
      [chunk.map((o) => o.txid), chunk.map((o) => o.vout)],
      'ingest.read-prevouts',
    );
    for (const r of rows)
      out[start + r.i - 1] = { address: r.address, value: BigInt(r.value), spent: r.spent };
  }
  return out;
}

/** Current balances of the given addresses (absent ones are new). */
export async function readBalances(tx: Sql, addresses: string[]): Promise<Map<string, bigint>> {
  if (addresses.length === 0) return new Map();
  const rows = await tx.query<{ address: string; balance: string }>(
    'SELECT address, balance::text AS balance FROM addresses WHERE address = ANY($1::text[])',
    [addresses],
    'ingest.read-balances',
  );
  return new Map(rows.map((r) => [r.address, BigInt(r.balance)]));
}

/** Moves the indexed tip (blocks and transactions are written together, so both tips move as one). */
export async function setTip(tx: Sql, height: number, hash: string | null): Promise<void> {
  await tx.query(
    'UPDATE indexer_state SET tip_height = $1, tip_hash = $2, tx_tip_height = $1, updated_at = now() WHERE id = 1',
    [height, hash],
    'ingest.set-tip',
  );
}
