import { PLACEHOLDER_COMMITMENT } from '@explorer/chain';
import type { Int8, Sql } from '../sql.js';

/** Blocks, summed difficulty and time span of the 24 hours before `tipTime`. */
export async function selectDayWork(
  sql: Sql,
  tipTime: number,
): Promise<{
  blocks: number;
  first_time: number | null;
  last_time: number | null;
  work: number | null;
  first_difficulty: number | null;
}> {
  const [r] = await sql.query<{
    blocks: number;
    first_time: number | null;
    last_time: number | null;
    work: number | null;
    first_difficulty: number | null;
  }>(
    `SELECT count(*)::int4 AS blocks, min(time) AS first_time, max(time) AS last_time, sum(difficulty) AS work,
            (array_agg(difficulty ORDER BY height))[1] AS first_difficulty
     FROM blocks WHERE time > $1::int8 - 86400`,
    [tipTime],
    'analytics.day-work',
  );
  return r!;
}

/** A daily rollup row. */
export interface DailyStatsQueryRow {
  day: number;
  blocks: number;
  txs: number;
  fees: Int8;
  emitted: Int8;
  first_time: number;
  last_time: number;
  last_difficulty: number;
  certificates: number;
  moe_certificates: number;
  proof_bytes: number;
  cert_v1: number;
  cert_v2: number;
  cert_v3: number;
  cert_v4: number;
  cert_v5: number;
  cert_other: number;
}

/** The last `days` daily rollup rows up to `tipDay`, oldest first. */
export function selectRecentDays(sql: Sql, tipDay: number, days: number): Promise<DailyStatsQueryRow[]> {
  return sql.query<DailyStatsQueryRow>(
    `SELECT day, blocks, txs, fees, emitted, first_time, last_time, last_difficulty, certificates, moe_certificates, proof_bytes,
            cert_v1, cert_v2, cert_v3, cert_v4, cert_v5, cert_other
     FROM daily_stats WHERE day > $1::int4 - $2::int4 ORDER BY day`,
    [tipDay, days],
    'analytics.recent-days',
  );
}

/** Certificate totals over every day, with what verification and decoding found. */
export interface CertificateTotalsRow {
  blocks: number;
  certificates: number;
  moe: number;
  v1: number;
  v2: number;
  v3: number;
  v4: number;
  v5: number;
  other: number;
  proof_bytes: number;
  proof_min: number | null;
  proof_max: number | null;
  failures: number;
  /** Certificates that do not bind to a header committing to none (see certificateStatus). */
  placeholders: number;
  unreadable: number;
}

/** Sums the certificate columns of the daily rollup; counts failed verifications and unreadable certificates. */
export async function selectCertificateTotals(sql: Sql): Promise<CertificateTotalsRow> {
  const [[r], [f]] = await Promise.all([
    sql.query<Omit<CertificateTotalsRow, 'failures' | 'placeholders' | 'unreadable'>>(
      `SELECT COALESCE(sum(blocks), 0)::int8 AS blocks, COALESCE(sum(certificates), 0)::int8 AS certificates,
              COALESCE(sum(moe_certificates), 0)::int8 AS moe, COALESCE(sum(cert_v1), 0)::int8 AS v1,
              COALESCE(sum(cert_v2), 0)::int8 AS v2, COALESCE(sum(cert_v3), 0)::int8 AS v3, COALESCE(sum(cert_v4), 0)::int8 AS v4,
              COALESCE(sum(cert_v5), 0)::int8 AS v5, COALESCE(sum(cert_other), 0)::int8 AS other,
              COALESCE(sum(proof_bytes), 0)::int8 AS proof_bytes, min(proof_min) AS proof_min, max(proof_max) AS proof_max
       FROM daily_stats`,
      [],
      'analytics.certificate-totals',
    ),
    sql.query<{ failures: number; placeholders: number; unreadable: number }>(
      `SELECT count(*) FILTER (WHERE readable AND height > 0 AND cardinality(problems) > 0
                                 AND proof_commitment <> $1)::int4 AS failures,
              count(*) FILTER (WHERE readable AND height > 0 AND cardinality(problems) > 0
                                 AND proof_commitment = $1)::int4 AS placeholders,
              count(*) FILTER (WHERE NOT readable)::int4 AS unreadable
       FROM block_certificates`,
      [PLACEHOLDER_COMMITMENT],
      'analytics.certificate-verification',
    ),
  ]);
  return { ...r!, ...f! };
}

/** Proof-size bucket edges (bytes) of the PoUW histogram; the last bucket is open. */
export const PROOF_SIZE_EDGES = [
  0, 1_000, 2_000, 5_000, 10_000, 20_000, 30_000, 40_000, 50_000, 60_000, 70_000,
];

/**
 * Distributions over the certificates: proof sizes, matrix shapes, ranks, the first height of each version.
 * Shapes and ranks leave out genesis, whose certificate is Pearl's literal zero public data, not a job.
 */
export async function selectCertificateDistributions(sql: Sql): Promise<{
  sizes: { bucket: number; n: number }[];
  shapes: { m: number; n: number; k: number; certificates: number }[];
  ranks: { rank: number; certificates: number }[];
  firstSeen: { version: number; height: number }[];
}> {
  const [sizes, shapes, ranks, firstSeen] = await Promise.all([
    sql.query<{ bucket: number; n: number }>(
      `SELECT width_bucket(proof_size, $1::int4[])::int4 AS bucket, count(*)::int4 AS n
       FROM block_certificates WHERE readable GROUP BY 1 ORDER BY 1`,
      [PROOF_SIZE_EDGES],
      'analytics.proof-sizes',
    ),
    sql.query<{ m: number; n: number; k: number; certificates: number }>(
      `SELECT m, n, k, count(*)::int4 AS certificates FROM block_certificates WHERE m IS NOT NULL AND height > 0
       GROUP BY m, n, k ORDER BY certificates DESC, m, n, k LIMIT 20`,
      [],
      'analytics.shapes',
    ),
    sql.query<{ rank: number; certificates: number }>(
      `SELECT rank, count(*)::int4 AS certificates FROM block_certificates WHERE rank IS NOT NULL AND height > 0
       GROUP BY rank ORDER BY rank`,
      [],
      'analytics.ranks',
    ),
    sql.query<{ version: number; height: number }>(
      `SELECT version, min(height) AS height FROM block_certificates WHERE readable GROUP BY version ORDER BY version`,
      [],
      'analytics.first-versions',
    ),
  ]);
  return { sizes, shapes, ranks, firstSeen };
}

/** The most recent certificates. */
export function selectLatestCertificates(
  sql: Sql,
  limit: number,
): Promise<
  {
    height: number;
    block_hash: string;
    time: number;
    version: number;
    is_moe: boolean;
    proof_size: number;
    proof_commitment: string;
    readable: boolean;
    verified: boolean | null;
  }[]
> {
  return sql.query(
    `SELECT c.height, c.block_hash, b.time, c.version, c.is_moe, c.proof_size, c.proof_commitment, c.readable,
            CASE WHEN c.readable THEN cardinality(c.problems) = 0 END AS verified
     FROM block_certificates c JOIN blocks b ON b.height = c.height ORDER BY c.height DESC LIMIT $1`,
    [limit],
    'analytics.latest-certificates',
  );
}

/** Running totals at the tip, the balances of burn addresses and the chain the database holds. */
export async function selectSupply(sql: Sql): Promise<{
  height: number | null;
  hash: string | null;
  emitted: string;
  unclaimed: string;
  fees: string;
  op_return: string;
  burn: string;
  chain: Record<string, unknown> | null;
}> {
  const [r] = await sql.query<{
    height: number | null;
    hash: string | null;
    emitted: string | null;
    unclaimed: string | null;
    fees: string | null;
    op_return: string | null;
    burn: string;
    chain: Record<string, unknown> | null;
  }>(
    `SELECT t.height, t.hash, t.cum_emitted::text AS emitted, t.cum_unclaimed::text AS unclaimed, t.cum_fees::text AS fees,
            t.cum_op_return::text AS op_return,
            (SELECT COALESCE(sum(a.balance), 0)::text FROM known_labels l JOIN addresses a ON a.address = l.address
             WHERE l.kind = 'burn') AS burn,
            (SELECT chain FROM indexer_state WHERE id = 1) AS chain
     FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT * FROM blocks ORDER BY height DESC LIMIT 1) t ON TRUE`,
    [],
    'analytics.supply',
  );
  return {
    height: r?.height ?? null,
    hash: r?.hash ?? null,
    emitted: r?.emitted ?? '0',
    unclaimed: r?.unclaimed ?? '0',
    fees: r?.fees ?? '0',
    op_return: r?.op_return ?? '0',
    burn: r?.burn ?? '0',
    chain: r?.chain ?? null,
  };
}
