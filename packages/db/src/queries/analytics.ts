import type { Sql } from '../sql.js';

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
  fees: number;
  emitted: number;
  first_time: number;
  last_time: number;
  last_difficulty: number;
  certificates: number;
  moe_certificates: number;
  proof_bytes: number;
}

/** The last `days` daily rollup rows up to `tipDay`, oldest first. */
export function selectRecentDays(sql: Sql, tipDay: number, days: number): Promise<DailyStatsQueryRow[]> {
  return sql.query<DailyStatsQueryRow>(
    `SELECT day, blocks, txs, fees, emitted, first_time, last_time, last_difficulty, certificates, moe_certificates, proof_bytes
     FROM daily_stats WHERE day > $1::int4 - $2::int4 ORDER BY day`,
    [tipDay, days],
    'analytics.recent-days',
  );
}

/** Certificate totals over every day. */
export interface CertificateTotalsRow {
  blocks: number;
  certificates: number;
  moe: number;
  v1: number;
  v2: number;
  v3: number;
  v4: number;
  proof_bytes: number;
  proof_min: number | null;
  proof_max: number | null;
}

/** Sums the certificate columns of the daily rollup. */
export async function selectCertificateTotals(sql: Sql): Promise<CertificateTotalsRow> {
  const [r] = await sql.query<CertificateTotalsRow>(
    `SELECT COALESCE(sum(blocks), 0)::int8 AS blocks, COALESCE(sum(certificates), 0)::int8 AS certificates,
            COALESCE(sum(moe_certificates), 0)::int8 AS moe, COALESCE(sum(cert_v1), 0)::int8 AS v1,
            COALESCE(sum(cert_v2), 0)::int8 AS v2, COALESCE(sum(cert_v3), 0)::int8 AS v3, COALESCE(sum(cert_v4), 0)::int8 AS v4,
            COALESCE(sum(proof_bytes), 0)::int8 AS proof_bytes, min(proof_min) AS proof_min, max(proof_max) AS proof_max
     FROM daily_stats`,
    [],
    'analytics.certificate-totals',
  );
  return r!;
}

/** The most recent certificates. */
export function selectLatestCertificates(
  sql: Sql,
  limit: number,
): Promise<
  { height: number; block_hash: string; time: number; version: number; is_moe: boolean; proof_size: number }[]
> {
  return sql.query(
    `SELECT c.height, c.block_hash, b.time, c.version, c.is_moe, c.proof_size
     FROM block_certificates c JOIN blocks b ON b.height = c.height ORDER BY c.height DESC LIMIT $1`,
    [limit],
    'analytics.latest-certificates',
  );
}

/** Running totals at the tip and the balances of burn addresses. */
export async function selectSupply(sql: Sql): Promise<{
  height: number | null;
  hash: string | null;
  emitted: number;
  fees: number;
  op_return: number;
  burn: number;
}> {
  const [r] = await sql.query<{
    height: number | null;
    hash: string | null;
    emitted: number | null;
    fees: number | null;
    op_return: number | null;
    burn: number;
  }>(
    `SELECT t.height, t.hash, t.cum_emitted AS emitted, t.cum_fees AS fees, t.cum_op_return AS op_return,
            (SELECT COALESCE(sum(a.balance), 0)::int8 FROM known_labels l JOIN addresses a ON a.address = l.address
             WHERE l.kind = 'burn') AS burn
     FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT * FROM blocks ORDER BY height DESC LIMIT 1) t ON TRUE`,
    [],
    'analytics.supply',
  );
  return {
    height: r?.height ?? null,
    hash: r?.hash ?? null,
    emitted: r?.emitted ?? 0,
    fees: r?.fees ?? 0,
    op_return: r?.op_return ?? 0,
    burn: r?.burn ?? 0,
  };
}
