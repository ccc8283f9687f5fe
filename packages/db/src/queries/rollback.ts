import type { Sql } from '../sql.js';

/** What a rollback removed. */
export interface RollbackResult {
  removedBlocks: number;
  newTip: { height: number; hash: string | null };
}

/**
 * Removes every block above `forkHeight` and everything derived from it — spends, address totals and
 * history, miner/pool totals, daily rollups — inside the caller's transaction. Afterwards the database is
 * exactly what indexing the chain up to `forkHeight` would have produced.
 */
export async function rollbackTo(tx: Sql, forkHeight: number): Promise<RollbackResult> {
  const q = <T = Record<string, unknown>>(name: string, text: string) =>
    tx.query<T>(text, [forkHeight], name);

  const [{ n: removedBlocks } = { n: 0 }] = await q<{ n: number }>(
    'rollback.count',
    'SELECT count(*)::int4 AS n FROM blocks WHERE height > $1',
  );
  if (removedBlocks === 0) {
    const [tip] = await q<{ hash: string | null }>(
      'rollback.tip',
      'SELECT hash FROM blocks WHERE height = $1',
    );
    return { removedBlocks: 0, newTip: { height: forkHeight, hash: tip?.hash ?? null } };
  }
  const days = (
    await q<{ day: number }>('rollback.days', 'SELECT DISTINCT day FROM blocks WHERE height > $1')
  ).map((r) => r.day);

  // Address totals: undo each removed history row, and the UTXO count changes of the removed blocks
  // (outputs they created, minus older outputs they spent).
  await q(
    'rollback.address-totals',
    `WITH hist AS (
       SELECT address, sum(received) AS r, sum(sent) AS s, count(*) AS n
       FROM address_txs WHERE block_height > $1 GROUP BY address
     ), created AS (
       SELECT address, count(*) AS c FROM outputs WHERE block_height > $1 AND address IS NOT NULL GROUP BY address
     ), spent AS (
       -- Each input of a removed block spent one output, whose address it records.
       SELECT address, count(*) AS c FROM inputs
       WHERE block_height > $1 AND prev_txid IS NOT NULL AND address IS NOT NULL GROUP BY address
     )
     UPDATE addresses a SET
       balance = a.balance - (h.r - h.s),
       received = a.received - h.r,
       sent = a.sent - h.s,
       tx_count = a.tx_count - h.n,
       utxo_count = a.utxo_count - COALESCE(c.c, 0) + COALESCE(s.c, 0)
     FROM hist h LEFT JOIN created c USING (address) LEFT JOIN spent s USING (address)
     WHERE a.address = h.address`,
  );
  const touched = (
    await q<{ address: string }>(
      'rollback.touched-addresses',
      'SELECT DISTINCT address FROM address_txs WHERE block_height > $1',
    )
  ).map((r) => r.address);

  await q(
    'rollback.unspend',
    `UPDATE outputs o SET spent_txid = NULL, spent_vin = NULL, spent_height = NULL
     FROM inputs i WHERE i.block_height > $1 AND o.txid = i.prev_txid AND o.vout = i.prev_vout`,
  );
  await q('rollback.delete-outputs', 'DELETE FROM outputs WHERE block_height > $1');
  await q('rollback.delete-inputs', 'DELETE FROM inputs WHERE block_height > $1');
  await q('rollback.delete-address-txs', 'DELETE FROM address_txs WHERE block_height > $1');
  await q('rollback.delete-txs', 'DELETE FROM txs WHERE block_height > $1');
  await q('rollback.delete-certificates', 'DELETE FROM block_certificates WHERE height > $1');

  const miners = await q<{ key: string; blocks: number; reward: number }>(
    'rollback.miner-deltas',
    `SELECT miner_address AS key, count(*)::int4 AS blocks, sum(reward)::int8 AS reward
     FROM blocks WHERE height > $1 AND miner_address IS NOT NULL GROUP BY miner_address`,
  );
  const pools = await q<{ key: string; blocks: number; reward: number }>(
    'rollback.pool-deltas',
    `SELECT pool_id AS key, count(*)::int4 AS blocks, sum(reward)::int8 AS reward
     FROM blocks WHERE height > $1 GROUP BY pool_id`,
  );
  await q('rollback.delete-blocks', 'DELETE FROM blocks WHERE height > $1');

  await undoMiningStats(tx, 'miner_stats', 'address', 'miner_address', miners);
  await undoMiningStats(tx, 'pool_stats', 'pool_id', 'pool_id', pools);

  if (touched.length > 0) {
    await tx.query(
      'DELETE FROM addresses WHERE address = ANY($1::text[]) AND tx_count = 0',
      [touched],
      'rollback.delete-empty-addresses',
    );
    await tx.query(
      `UPDATE addresses a SET (last_seen_height, last_seen_time) = (
         SELECT t.block_height, t.block_time FROM address_txs t WHERE t.address = a.address
         ORDER BY t.block_height DESC, t.block_index DESC LIMIT 1)
       WHERE a.address = ANY($1::text[])`,
      [touched],
      'rollback.last-seen',
    );
  }

  await rebuildDays(tx, days);

  const [tip] = await q<{ hash: string | null }>('rollback.tip', 'SELECT hash FROM blocks WHERE height = $1');
  const hash = tip?.hash ?? null;
  const height = hash ? forkHeight : -1;
  await tx.query(
    `UPDATE indexer_state SET tip_height = $1, tip_hash = $2, tx_tip_height = $1, reorgs = reorgs + 1,
       last_reorg_depth = $3, last_reorg_at = now(), updated_at = now() WHERE id = 1`,
    [height, hash, removedBlocks],
    'rollback.set-tip',
  );
  return { removedBlocks, newTip: { height, hash } };
}

async function undoMiningStats(
  tx: Sql,
  table: 'miner_stats' | 'pool_stats',
  key: 'address' | 'pool_id',
  blockColumn: 'miner_address' | 'pool_id',
  deltas: { key: string; blocks: number; reward: number }[],
): Promise<void> {
  if (deltas.length === 0) return;
  const keys = deltas.map((d) => d.key);
  await tx.query(
    `UPDATE ${table} t SET blocks = t.blocks - d.blocks, reward = t.reward - d.reward
     FROM unnest($1::text[], $2::int4[], $3::int8[]) AS d(k, blocks, reward) WHERE t.${key} = d.k`,
    [keys, deltas.map((d) => d.blocks), deltas.map((d) => d.reward)],
    `rollback.${table}`,
  );
  await tx.query(
    `DELETE FROM ${table} WHERE ${key} = ANY($1::text[]) AND blocks <= 0`,
    [keys],
    `rollback.${table}-empty`,
  );
  await tx.query(
    `UPDATE ${table} t SET last_height = (
       SELECT max(b.height) FROM blocks b WHERE b.${blockColumn} = t.${key})
     WHERE t.${key} = ANY($1::text[])`,
    [keys],
    `rollback.${table}-last`,
  );
}

/**
 * One day's rollup from its blocks (`b`) and their certificates (`c`), in daily_stats' column order. Proof sizes
 * are those of the certificates that decoded; version 5 and unreadable ones have their own counts.
 */
export const DAILY_STATS_SELECT = `b.day, count(*)::int4, sum(b.tx_count)::int8, sum(b.size)::int8, sum(b.fees)::int8,
  sum(b.emission)::int8, sum(b.op_return_value)::int8, max(b.height), (array_agg(b.difficulty ORDER BY b.height DESC))[1],
  min(b.time), max(b.time), count(c.block_hash)::int4, count(c.block_hash) FILTER (WHERE c.is_moe)::int4,
  count(c.block_hash) FILTER (WHERE c.readable AND c.version = 1)::int4, count(c.block_hash) FILTER (WHERE c.readable AND c.version = 2)::int4,
  count(c.block_hash) FILTER (WHERE c.readable AND c.version = 3)::int4, count(c.block_hash) FILTER (WHERE c.readable AND c.version = 4)::int4,
  COALESCE(sum(c.proof_size) FILTER (WHERE c.readable), 0)::int8, min(c.proof_size) FILTER (WHERE c.readable),
  max(c.proof_size) FILTER (WHERE c.readable), count(c.block_hash) FILTER (WHERE c.readable AND c.version = 5)::int4,
  count(c.block_hash) FILTER (WHERE NOT c.readable OR c.version NOT BETWEEN 1 AND 5)::int4`;

/**
 * Recomputes the daily rollups of the given days from the base rows. Used after a rollback (sums could be
 * decremented, but minima and maxima cannot) and by the invariant check that proves the rollups right.
 */
export async function rebuildDays(tx: Sql, days: number[]): Promise<void> {
  if (days.length === 0) return;
  const p = [days];
  await tx.query('DELETE FROM daily_stats WHERE day = ANY($1::int4[])', p, 'rollup.delete-daily-stats');
  await tx.query('DELETE FROM daily_pool_blocks WHERE day = ANY($1::int4[])', p, 'rollup.delete-daily-pools');
  await tx.query(
    'DELETE FROM daily_miner_blocks WHERE day = ANY($1::int4[])',
    p,
    'rollup.delete-daily-miners',
  );
  await tx.query(
    `INSERT INTO daily_stats (day, blocks, txs, size, fees, emitted, op_return_value, last_height, last_difficulty,
       first_time, last_time, certificates, moe_certificates, cert_v1, cert_v2, cert_v3, cert_v4, proof_bytes,
       proof_min, proof_max, cert_v5, cert_other)
       SELECT ${DAILY_STATS_SELECT}
       FROM blocks b LEFT JOIN block_certificates c ON c.block_hash = b.hash
       WHERE b.day = ANY($1::int4[]) GROUP BY b.day`,
    p,
    'rollup.rebuild-daily-stats',
  );
  await tx.query(
    `INSERT INTO daily_pool_blocks
       SELECT day, pool_id, count(*)::int4, sum(reward)::int8 FROM blocks WHERE day = ANY($1::int4[]) GROUP BY day, pool_id`,
    p,
    'rollup.rebuild-daily-pools',
  );
  await tx.query(
    `INSERT INTO daily_miner_blocks
       SELECT day, miner_address, count(*)::int4 FROM blocks
       WHERE day = ANY($1::int4[]) AND miner_address IS NOT NULL GROUP BY day, miner_address`,
    p,
    'rollup.rebuild-daily-miners',
  );
}
