import { type PageOf, poolPayoutsKey, topMinersKey } from '@explorer/core';
import type { Int8, Sql } from '../sql.js';
import { firstTxNoOf } from '../tx-no.js';
import { keyset } from './keyset.js';

/** Indexed blocks (heights are contiguous from the first indexed one), read from the primary key's ends. */
export async function selectBlockCount(sql: Sql): Promise<number> {
  const [r] = await sql.query<{ n: number | null }>(
    'SELECT (max(height) - min(height) + 1) AS n FROM blocks',
    [],
    'mining.block-count',
  );
  return r?.n ?? 0;
}

/** The tip block's height, time and UTC day. */
export async function selectTipBlock(
  sql: Sql,
): Promise<{ height: number; hash: string; time: number; day: number; difficulty: number } | null> {
  const [r] = await sql.query<{
    height: number;
    hash: string;
    time: number;
    day: number;
    difficulty: number;
  }>(
    'SELECT height, hash, time, day, difficulty FROM blocks ORDER BY height DESC LIMIT 1',
    [],
    'mining.tip-block',
  );
  return r ?? null;
}

/** A miner row with its label and the pool of its latest block. */
export interface MinerQueryRow {
  address: string;
  label: string | null;
  blocks: number;
  reward: Int8;
  first_height: number;
  last_height: number;
  last_time: number;
  pool_id: string | null;
  pool_name: string | null;
}

const MINER_SELECT = `SELECT m.address, l.label, m.blocks, m.reward, m.first_height, m.last_height, b.time AS last_time,
  b.pool_id, p.name AS pool_name
  FROM miner_stats m JOIN blocks b ON b.height = m.last_height
  LEFT JOIN known_labels l ON l.address = m.address LEFT JOIN pools p ON p.id = b.pool_id`;

/** Miners by mined blocks (ranking index). */
export function selectTopMiners(sql: Sql, page: PageOf<typeof topMinersKey>): Promise<MinerQueryRow[]> {
  const params: unknown[] = [];
  const k = keyset(topMinersKey, page, params, 'm');
  return sql.query<MinerQueryRow>(`${MINER_SELECT} WHERE ${k.where} ${k.tail}`, params, 'mining.top-miners');
}

/** One miner. */
export async function selectMiner(sql: Sql, address: string): Promise<MinerQueryRow | null> {
  const [r] = await sql.query<MinerQueryRow>(
    `${MINER_SELECT} WHERE m.address = $1`,
    [address],
    'mining.miner',
  );
  return r ?? null;
}

/** Blocks per day of a miner. */
export function selectMinerDaily(sql: Sql, address: string): Promise<{ day: number; blocks: number }[]> {
  return sql.query(
    'SELECT day, blocks FROM daily_miner_blocks WHERE address = $1 ORDER BY day',
    [address],
    'mining.miner-daily',
  );
}

/** Blocks per day of a pool. */
export function selectPoolDaily(sql: Sql, poolId: string): Promise<{ day: number; blocks: number }[]> {
  return sql.query(
    'SELECT day, blocks FROM daily_pool_blocks WHERE pool_id = $1 ORDER BY day',
    [poolId],
    'mining.pool-daily',
  );
}

/** A pool's share row. */
export interface PoolShareRow {
  pool_id: string;
  name: string | null;
  link: string | null;
  blocks: number;
}

/** Blocks per pool in the 24 hours before `tipTime` (bounded by the window, through the time index). */
export function selectPoolShares24h(sql: Sql, tipTime: number): Promise<PoolShareRow[]> {
  return sql.query<PoolShareRow>(
    `SELECT b.pool_id, p.name, p.link, count(*)::int4 AS blocks FROM blocks b LEFT JOIN pools p ON p.id = b.pool_id
     WHERE b.time > $1::int8 - 86400 GROUP BY b.pool_id, p.name, p.link ORDER BY blocks DESC, b.pool_id`,
    [tipTime],
    'mining.pool-shares-24h',
  );
}

/** Blocks per pool over the last `days` UTC days up to `tipDay` (daily rollup). */
export function selectPoolSharesDays(sql: Sql, tipDay: number, days: number): Promise<PoolShareRow[]> {
  return sql.query<PoolShareRow>(
    `SELECT d.pool_id, p.name, p.link, sum(d.blocks)::int4 AS blocks FROM daily_pool_blocks d LEFT JOIN pools p ON p.id = d.pool_id
     WHERE d.day > $1::int4 - $2::int4 GROUP BY d.pool_id, p.name, p.link ORDER BY blocks DESC, d.pool_id`,
    [tipDay, days],
    'mining.pool-shares-days',
  );
}

/** Blocks per pool over the whole chain (per-pool totals). */
export function selectPoolSharesAll(sql: Sql): Promise<PoolShareRow[]> {
  return sql.query<PoolShareRow>(
    `SELECT s.pool_id, p.name, p.link, s.blocks FROM pool_stats s LEFT JOIN pools p ON p.id = s.pool_id
     ORDER BY s.blocks DESC, s.pool_id`,
    [],
    'mining.pool-shares-all',
  );
}

/** A pool's definition and totals. */
export interface PoolQueryRow {
  id: string;
  name: string | null;
  link: string | null;
  tags: string[] | null;
  addresses: string[] | null;
  defined: boolean;
  blocks: number | null;
  reward: Int8 | null;
  first_height: number | null;
  last_height: number | null;
}

/** One pool: definition and totals, either of which may be absent. */
export async function selectPool(sql: Sql, poolId: string): Promise<PoolQueryRow | null> {
  const [r] = await sql.query<PoolQueryRow>(
    `SELECT $1::text AS id, p.name, p.link, p.tags, p.addresses, p.id IS NOT NULL AS defined,
            s.blocks, s.reward, s.first_height, s.last_height
     FROM (SELECT 1) one LEFT JOIN pools p ON p.id = $1 LEFT JOIN pool_stats s ON s.pool_id = $1
     WHERE p.id IS NOT NULL OR s.pool_id IS NOT NULL`,
    [poolId],
    'mining.pool',
  );
  return r ?? null;
}

/** Payout addresses of a pool's last 1,000 blocks. */
export function selectPoolPayoutAddresses(
  sql: Sql,
  poolId: string,
): Promise<{ address: string; label: string | null; blocks: number }[]> {
  return sql.query(
    `SELECT r.miner_address AS address, l.label, count(*)::int4 AS blocks
     FROM (SELECT miner_address FROM blocks WHERE pool_id = $1 ORDER BY height DESC LIMIT 1000) r
     LEFT JOIN known_labels l ON l.address = r.miner_address
     WHERE r.miner_address IS NOT NULL GROUP BY r.miner_address, l.label ORDER BY blocks DESC, address LIMIT 20`,
    [poolId],
    'mining.pool-payout-addresses',
  );
}

/** A coinbase output of a pool's block. */
export interface PayoutQueryRow {
  txid: string;
  vout: number;
  height: number;
  hash: string;
  time: number;
  address: string | null;
  value: Int8;
  script_type: string;
  spent: boolean;
}

/** Coinbase outputs of a pool's blocks, newest first (pool index, then the block's coinbase outputs). */
export function selectPoolPayouts(
  sql: Sql,
  poolId: string,
  page: PageOf<typeof poolPayoutsKey>,
): Promise<PayoutQueryRow[]> {
  const params: unknown[] = [poolId];
  // The height is read from the pool's blocks (their pool index gives the order), not from the outputs.
  const k = keyset(poolPayoutsKey, page, params, 'o', { blockHeight: 'b.height' });
  return sql.query<PayoutQueryRow>(
    `SELECT encode(t.txid, 'hex') AS txid, o.vout, b.height, b.hash, b.time, a.address, o.value, o.script_type,
            NOT EXISTS (SELECT 1 FROM utxos u WHERE u.tx_no = o.tx_no AND u.vout = o.vout) AS spent
     FROM blocks b JOIN outputs o ON o.tx_no = ${firstTxNoOf('b.height')}
     JOIN txs t ON t.tx_no = o.tx_no
     LEFT JOIN addresses a ON a.id = o.address_id
     WHERE b.pool_id = $1 AND ${k.where} ${k.tail}`,
    params,
    'mining.pool-payouts',
  );
}
