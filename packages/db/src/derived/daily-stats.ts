import { aggregateTable } from './aggregate.js';

/** One day's additions to the daily rollup. */
export interface DailyStatsRow {
  day: number;
  blocks: number;
  txs: number;
  size: number;
  fees: bigint;
  /** Σ scheduled subsidy (the block's `emission`). */
  emitted: bigint;
  opReturnValue: bigint;
  lastHeight: number;
  lastDifficulty: number;
  firstTime: number;
  lastTime: number;
  certificates: number;
  moeCertificates: number;
  certV1: number;
  certV2: number;
  certV3: number;
  certV4: number;
  certV5: number;
  /** Certificates that are unreadable or of an unknown version. */
  certOther: number;
  proofBytes: number;
  proofMin: number | null;
  proofMax: number | null;
}

const readableVersion = (v: number) =>
  ({
    type: 'int4',
    merge: 'add',
    from: `count(c.block_hash) FILTER (WHERE c.readable AND c.version = ${v})::int4`,
  }) as const;

// Proof sizes are those of the certificates that decoded: an unreadable one has no proof to measure.
const READABLE = 'FILTER (WHERE c.readable)';

/** The chain-wide rollup per UTC day: blocks, transactions, fees, emission, difficulty, certificates. */
export const dailyStats = aggregateTable<'dailyStats', DailyStatsRow>({
  key: 'dailyStats',
  table: 'daily_stats',
  columns: {
    day: { type: 'int4', merge: 'key', from: 'b.day' },
    blocks: { type: 'int4', merge: 'add', from: 'count(*)::int4' },
    txs: { type: 'int8', merge: 'add', from: 'sum(b.tx_count)::int8' },
    size: { type: 'int8', merge: 'add', from: 'sum(b.size)::int8' },
    fees: { type: 'int8', merge: 'add', from: 'sum(b.fees)::int8' },
    emitted: { type: 'int8', merge: 'add', from: 'sum(b.emission)::int8' },
    opReturnValue: { type: 'int8', merge: 'add', from: 'sum(b.op_return_value)::int8' },
    lastHeight: { type: 'int4', merge: 'max', from: 'max(b.height)' },
    // The difficulty of the day's highest block: the batch's when its last block is higher.
    lastDifficulty: {
      type: 'float8',
      merge: (stored, batch) =>
        `CASE WHEN EXCLUDED.last_height > daily_stats.last_height THEN ${batch} ELSE ${stored} END`,
      from: '(array_agg(b.difficulty ORDER BY b.height DESC))[1]',
    },
    firstTime: { type: 'int8', merge: 'min', from: 'min(b.time)' },
    lastTime: { type: 'int8', merge: 'max', from: 'max(b.time)' },
    certificates: { type: 'int4', merge: 'add', from: 'count(c.block_hash)::int4' },
    moeCertificates: {
      type: 'int4',
      merge: 'add',
      from: 'count(c.block_hash) FILTER (WHERE c.is_moe)::int4',
    },
    certV1: readableVersion(1),
    certV2: readableVersion(2),
    certV3: readableVersion(3),
    certV4: readableVersion(4),
    certV5: readableVersion(5),
    certOther: {
      type: 'int4',
      merge: 'add',
      from: 'count(c.block_hash) FILTER (WHERE NOT c.readable OR c.version NOT BETWEEN 1 AND 5)::int4',
    },
    proofBytes: { type: 'int8', merge: 'add', from: `COALESCE(sum(c.proof_size) ${READABLE}, 0)::int8` },
    proofMin: { type: 'int4', merge: 'min', from: `min(c.proof_size) ${READABLE}` },
    proofMax: { type: 'int4', merge: 'max', from: `max(c.proof_size) ${READABLE}` },
  },
  source: { from: 'blocks b LEFT JOIN block_certificates c ON c.block_hash = b.hash', height: 'b.height' },
  // Sums could be decremented, but minima and maxima cannot: a day touched by a reorg is recomputed.
  rollback: { rebuild: 'day' },
  check: 'daily rollups equal a recomputation from blocks and certificates',
});
