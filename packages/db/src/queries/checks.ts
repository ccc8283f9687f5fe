import { createHash } from 'node:crypto';
import type { Sql } from '../sql.js';
import { DAILY_STATS_SELECT } from './rollback.js';

interface Check {
  name: string;
  /** A query returning the offending rows (at most a few); no rows means the invariant holds. */
  sql: string;
}

// Each check returns rows only when something is wrong, so the whole list reads as the set of invariants.
const CHECKS: Check[] = [
  {
    name: 'Σ address balances = Σ unspent outputs with an address',
    sql: `SELECT a.total AS balances, u.total AS unspent FROM
            (SELECT COALESCE(sum(balance), 0)::numeric AS total FROM addresses) a,
            (SELECT COALESCE(sum(value), 0)::numeric AS total FROM outputs WHERE spent_txid IS NULL AND address IS NOT NULL) u
          WHERE a.total <> u.total`,
  },
  {
    name: 'Σ unspent outputs = emitted − unclaimed subsidy − OP_RETURN value (at the tip)',
    sql: `SELECT u.total AS unspent, t.emitted, t.unclaimed, t.op_return FROM
            (SELECT COALESCE(sum(value), 0)::numeric AS total FROM outputs WHERE spent_txid IS NULL AND script_type <> 'nulldata') u,
            (SELECT COALESCE(max(cum_emitted) FILTER (WHERE height = (SELECT max(height) FROM blocks)), 0)::numeric AS emitted,
                    COALESCE(max(cum_unclaimed) FILTER (WHERE height = (SELECT max(height) FROM blocks)), 0)::numeric AS unclaimed,
                    COALESCE(max(cum_op_return) FILTER (WHERE height = (SELECT max(height) FROM blocks)), 0)::numeric AS op_return
             FROM blocks) t
          WHERE u.total <> t.emitted - t.unclaimed - t.op_return`,
  },
  {
    name: 'no coinbase claims more than the emission schedule allows',
    sql: `SELECT height, subsidy, emission FROM blocks WHERE subsidy > emission OR subsidy < 0 LIMIT 5`,
  },
  {
    name: 'every input spends exactly one existing output, marked as spent by it',
    sql: `SELECT i.txid, i.vin FROM inputs i LEFT JOIN outputs o ON o.txid = i.prev_txid AND o.vout = i.prev_vout
          WHERE i.prev_txid IS NOT NULL
            AND (o.txid IS NULL OR o.spent_txid IS DISTINCT FROM i.txid OR o.spent_vin IS DISTINCT FROM i.vin
                 OR o.spent_height IS DISTINCT FROM i.block_height OR o.value <> i.value OR o.address IS DISTINCT FROM i.address)
          LIMIT 5`,
  },
  {
    name: 'no output is spent twice, and every spent output has its input',
    sql: `SELECT o.txid, o.vout FROM outputs o LEFT JOIN inputs i ON i.txid = o.spent_txid AND i.vin = o.spent_vin
          WHERE o.spent_txid IS NOT NULL AND (i.txid IS NULL OR i.prev_txid <> o.txid OR i.prev_vout <> o.vout)
          UNION ALL
          SELECT prev_txid, prev_vout FROM inputs WHERE prev_txid IS NOT NULL GROUP BY prev_txid, prev_vout HAVING count(*) > 1
          LIMIT 5`,
  },
  {
    name: 'address totals equal their history rows and unspent outputs',
    sql: `SELECT a.address FROM addresses a
          LEFT JOIN (SELECT address, count(*) AS n, sum(received) AS r, sum(sent) AS s,
                            min(block_height) AS lo, max(block_height) AS hi FROM address_txs GROUP BY address) h USING (address)
          LEFT JOIN (SELECT address, count(*) AS n FROM outputs WHERE spent_txid IS NULL AND address IS NOT NULL GROUP BY address) u USING (address)
          WHERE h.n IS DISTINCT FROM a.tx_count::bigint OR h.r <> a.received OR h.s <> a.sent OR a.balance <> a.received - a.sent
             OR COALESCE(u.n, 0) <> a.utxo_count OR h.lo <> a.first_seen_height OR h.hi <> a.last_seen_height OR a.balance < 0
          UNION ALL
          SELECT DISTINCT t.address FROM address_txs t LEFT JOIN addresses a USING (address) WHERE a.address IS NULL
          LIMIT 5`,
  },
  {
    name: 'each history row carries the running balance',
    sql: `SELECT address, block_height, block_index FROM (
            SELECT address, block_height, block_index, balance,
                   sum(received - sent) OVER (PARTITION BY address ORDER BY block_height, block_index) AS running
            FROM address_txs) x WHERE balance <> running LIMIT 5`,
  },
  {
    name: 'transaction values and fees equal their inputs and outputs',
    sql: `SELECT t.txid FROM txs t
          LEFT JOIN (SELECT txid, count(*) AS n, sum(value) AS v FROM inputs GROUP BY txid) i USING (txid)
          LEFT JOIN (SELECT txid, count(*) AS n, sum(value) AS v FROM outputs GROUP BY txid) o USING (txid)
          WHERE COALESCE(i.n, 0) <> t.input_count OR COALESCE(o.n, 0) <> t.output_count
             OR COALESCE(i.v, 0) <> t.value_in OR COALESCE(o.v, 0) <> t.value_out
             OR (NOT t.is_coinbase AND t.fee <> t.value_in - t.value_out) OR t.fee < 0
          LIMIT 5`,
  },
  {
    name: 'block totals equal their transactions, and running totals add up',
    sql: `SELECT b.height FROM blocks b
          JOIN (SELECT block_height, count(*) AS n, sum(fee) AS fees,
                       sum(value_out) FILTER (WHERE is_coinbase) AS reward FROM txs GROUP BY block_height) t
            ON t.block_height = b.height
          WHERE t.n <> b.tx_count OR t.fees <> b.fees OR t.reward <> b.reward OR b.subsidy <> b.reward - b.fees
          UNION ALL
          SELECT height FROM (
            SELECT height, cum_tx_count, cum_emitted, cum_unclaimed, cum_fees, cum_op_return,
                   sum(tx_count) OVER w AS a, sum(emission) OVER w AS b, sum(fees) OVER w AS c, sum(op_return_value) OVER w AS d,
                   sum(emission - subsidy) OVER w AS e
            FROM blocks WINDOW w AS (ORDER BY height)) x
          WHERE cum_tx_count <> a OR cum_emitted <> b OR cum_fees <> c OR cum_op_return <> d OR cum_unclaimed <> e
          UNION ALL
          SELECT b.height FROM blocks b LEFT JOIN blocks p ON p.height = b.height - 1
          WHERE b.height > (SELECT min(height) FROM blocks) AND (p.hash IS NULL OR b.prev_hash <> p.hash)
          LIMIT 5`,
  },
  {
    name: 'miner and pool totals equal a recomputation from blocks',
    sql: `(SELECT miner_address AS k, count(*)::int4 AS blocks, sum(reward)::int8 AS reward, min(height) AS lo, max(height) AS hi
             FROM blocks WHERE miner_address IS NOT NULL GROUP BY 1
           EXCEPT SELECT address, blocks, reward, first_height, last_height FROM miner_stats)
          UNION ALL
          (SELECT address, blocks, reward, first_height, last_height FROM miner_stats
           EXCEPT SELECT miner_address, count(*)::int4, sum(reward)::int8, min(height), max(height)
             FROM blocks WHERE miner_address IS NOT NULL GROUP BY 1)
          UNION ALL
          (SELECT pool_id, count(*)::int4, sum(reward)::int8, min(height), max(height) FROM blocks GROUP BY 1
           EXCEPT SELECT pool_id, blocks, reward, first_height, last_height FROM pool_stats)
          UNION ALL
          (SELECT pool_id, blocks, reward, first_height, last_height FROM pool_stats
           EXCEPT SELECT pool_id, count(*)::int4, sum(reward)::int8, min(height), max(height) FROM blocks GROUP BY 1)
          LIMIT 5`,
  },
  {
    name: 'daily rollups equal a recomputation from blocks and certificates',
    sql: `WITH fresh AS (
            SELECT ${DAILY_STATS_SELECT}
            FROM blocks b LEFT JOIN block_certificates c ON c.block_hash = b.hash GROUP BY b.day),
          stored AS (
            SELECT day, blocks, txs, size, fees, emitted, op_return_value, last_height, last_difficulty, first_time, last_time,
                   certificates, moe_certificates, cert_v1, cert_v2, cert_v3, cert_v4, proof_bytes, proof_min, proof_max,
                   cert_v5, cert_other FROM daily_stats)
          (SELECT 'daily_stats' AS t, day FROM (SELECT * FROM fresh EXCEPT SELECT * FROM stored) a
           UNION ALL SELECT 'daily_stats', day FROM (SELECT * FROM stored EXCEPT SELECT * FROM fresh) b)
          UNION ALL
          (SELECT 'daily_pool_blocks', day FROM (
             (SELECT day, pool_id, count(*)::int4, sum(reward)::int8 FROM blocks GROUP BY 1, 2
              EXCEPT SELECT day, pool_id, blocks, reward FROM daily_pool_blocks)
             UNION ALL
             (SELECT day, pool_id, blocks, reward FROM daily_pool_blocks
              EXCEPT SELECT day, pool_id, count(*)::int4, sum(reward)::int8 FROM blocks GROUP BY 1, 2)) p)
          UNION ALL
          (SELECT 'daily_miner_blocks', day FROM (
             (SELECT day, miner_address, count(*)::int4 FROM blocks WHERE miner_address IS NOT NULL GROUP BY 1, 2
              EXCEPT SELECT day, address, blocks FROM daily_miner_blocks)
             UNION ALL
             (SELECT day, address, blocks FROM daily_miner_blocks
              EXCEPT SELECT day, miner_address, count(*)::int4 FROM blocks WHERE miner_address IS NOT NULL GROUP BY 1, 2)) m)
          LIMIT 5`,
  },
  {
    name: 'certificates belong to their blocks, and a recorded commitment mismatch is exactly a differing commitment',
    sql: `SELECT b.height FROM blocks b LEFT JOIN block_certificates c ON c.block_hash = b.hash
          WHERE b.has_certificate <> (c.block_hash IS NOT NULL) OR c.height <> b.height
          UNION ALL
          SELECT height FROM block_certificates
          WHERE readable AND (computed_commitment = proof_commitment)
                = EXISTS (SELECT 1 FROM unnest(problems) AS p WHERE p LIKE 'proof commitment mismatch%')
          LIMIT 5`,
  },
  {
    name: 'the indexer tip is the highest block',
    sql: `SELECT s.tip_height, s.tip_hash FROM indexer_state s
          LEFT JOIN blocks b ON b.height = (SELECT max(height) FROM blocks)
          WHERE s.tip_height <> COALESCE(b.height, -1) OR s.tip_hash IS DISTINCT FROM b.hash OR s.tx_tip_height <> s.tip_height`,
  },
];

/** One broken invariant, with a few offending rows. */
export interface InvariantViolation {
  invariant: string;
  rows: unknown[];
}

/**
 * Checks every invariant of the index (balances, supply, spends, totals, rollups, tip). An empty result means
 * the database is internally consistent. Cost grows with the chain: for tests and `explorer-server check`.
 */
export async function checkInvariants(sql: Sql): Promise<InvariantViolation[]> {
  const out: InvariantViolation[] = [];
  for (const c of CHECKS) {
    const rows = await sql.query(c.sql, [], `check.${c.name.slice(0, 40)}`);
    if (rows.length > 0) out.push({ invariant: c.name, rows });
  }
  return out;
}

// Columns that record when or how often something happened, not what the chain is.
const VOLATILE: Record<string, string[]> = {
  indexer_state: [
    'status',
    'error',
    'node_height',
    'reorgs',
    'last_reorg_depth',
    'last_reorg_at',
    'started_at',
    'updated_at',
  ],
};

const TABLES: Record<string, string> = {
  blocks: 'height',
  block_certificates: 'height',
  txs: 'block_height, block_index',
  outputs: 'txid, vout',
  inputs: 'txid, vin',
  address_txs: 'address, block_height, block_index',
  addresses: 'address',
  miner_stats: 'address',
  pool_stats: 'pool_id',
  daily_stats: 'day',
  daily_pool_blocks: 'day, pool_id',
  daily_miner_blocks: 'address, day',
  pools: 'id',
  known_labels: 'address',
  indexer_state: 'id',
};

/**
 * A canonical digest of every chain table (row order fixed, volatile columns left out): two databases with
 * equal dumps hold the same index. Returns per-table row counts and digests.
 */
export async function canonicalDump(sql: Sql): Promise<Record<string, { rows: number; digest: string }>> {
  const out: Record<string, { rows: number; digest: string }> = {};
  for (const [table, order] of Object.entries(TABLES)) {
    const rows = await sql.query<Record<string, unknown>>(
      `SELECT * FROM ${table} ORDER BY ${order}`,
      [],
      `dump.${table}`,
    );
    const hash = createHash('sha256');
    const skip = new Set(VOLATILE[table] ?? []);
    for (const r of rows) {
      const clean: Record<string, unknown> = {};
      for (const k of Object.keys(r).sort()) {
        if (skip.has(k)) continue;
        const v = r[k];
        clean[k] = v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v;
      }
      hash.update(JSON.stringify(clean));
      hash.update('\n');
    }
    out[table] = { rows: rows.length, digest: hash.digest('hex') };
  }
  return out;
}
