import { blocksKey, type PageOf } from '@explorer/core';
import type { Int8, Sql } from '../sql.js';
import { firstTxNoAbove, firstTxNoOf } from '../tx-no.js';
import { keyset } from './keyset.js';

/** How a block is addressed. */
export type BlockRef = { height: number } | { hash: string };

/** SQL: `b` is the block `ref` names (its parameter appended to `params`). */
export const refWhere = (ref: BlockRef, params: unknown[]) => {
  if ('height' in ref) {
    params.push(ref.height);
    return `b.height = $${params.length}`;
  }
  params.push(ref.hash);
  return `b.hash = $${params.length}`;
};

const BLOCK_SELECT = `
  SELECT b.height, b.hash, b.prev_hash, n.hash AS next_hash, b.time, b.median_time, b.tx_count, b.input_count,
         b.output_count, b.size, b.stripped_size, b.weight, b.version, b.merkle_root, b.bits, b.nonce, b.difficulty,
         b.chainwork, b.subsidy, b.fees, b.reward, b.value_out, b.miner_address, ml.label AS miner_label, b.pool_id,
         p.name AS pool_name, p.link AS pool_link, b.coinbase_tag, b.coinbase_hex,
         c.version AS cert_version, c.is_moe AS cert_is_moe, c.proof_size AS cert_proof_size,
         c.proof_commitment AS cert_proof_commitment, c.readable AS cert_readable,
         CASE WHEN c.readable THEN cardinality(c.problems) = 0 END AS cert_verified
  FROM blocks b
  LEFT JOIN blocks n ON n.height = b.height + 1
  LEFT JOIN known_labels ml ON ml.address = b.miner_address
  LEFT JOIN pools p ON p.id = b.pool_id
  LEFT JOIN block_certificates c ON c.block_hash = b.hash`;

/** A block row with its joins. */
export interface BlockQueryRow {
  height: number;
  hash: string;
  prev_hash: string | null;
  next_hash: string | null;
  time: number;
  median_time: number;
  tx_count: number;
  input_count: number;
  output_count: number;
  size: number;
  stripped_size: number | null;
  weight: number | null;
  version: number;
  merkle_root: string;
  bits: string;
  nonce: number | null;
  difficulty: number;
  chainwork: string;
  subsidy: Int8;
  fees: Int8;
  reward: Int8;
  value_out: Int8;
  miner_address: string | null;
  miner_label: string | null;
  pool_id: string;
  pool_name: string | null;
  pool_link: string | null;
  coinbase_tag: string;
  coinbase_hex: string;
  cert_version: number | null;
  cert_is_moe: boolean | null;
  cert_proof_size: number | null;
  cert_proof_commitment: string | null;
  cert_readable: boolean | null;
  cert_verified: boolean | null;
}

/** One block by height or hash. */
export async function selectBlock(sql: Sql, ref: BlockRef): Promise<BlockQueryRow | null> {
  const params: unknown[] = [];
  const [row] = await sql.query<BlockQueryRow>(
    `${BLOCK_SELECT} WHERE ${refWhere(ref, params)}`,
    params,
    'blocks.one',
  );
  return row ?? null;
}

/** Blocks, newest first. */
export function selectBlocks(sql: Sql, page: PageOf<typeof blocksKey>): Promise<BlockQueryRow[]> {
  const params: unknown[] = [];
  const k = keyset(blocksKey, page, params, 'b');
  return sql.query<BlockQueryRow>(`${BLOCK_SELECT} WHERE ${k.where} ${k.tail}`, params, 'blocks.list');
}

/** Blocks a payout address mined, newest first (served by the miner index). */
export function selectMinerBlocks(
  sql: Sql,
  address: string,
  page: PageOf<typeof blocksKey>,
): Promise<BlockQueryRow[]> {
  const params: unknown[] = [address];
  const k = keyset(blocksKey, page, params, 'b');
  return sql.query<BlockQueryRow>(
    `${BLOCK_SELECT} WHERE b.miner_address = $1 AND ${k.where} ${k.tail}`,
    params,
    'blocks.of-miner',
  );
}

/** A certificate row. */
export interface CertificateQueryRow {
  block_hash: string;
  height: number;
  version: number;
  readable: boolean;
  error: string | null;
  layout: string | null;
  size: number;
  proof_commitment: string;
  computed_commitment: string | null;
  named_hash: string | null;
  problems: string[];
  public_data: string | null;
  public_data_size: number | null;
  is_moe: boolean;
  config: Record<string, unknown> | null;
  config_error: string | null;
  proof_size: number;
  ancestor_hashes: string[];
  proof_available: boolean;
  proof_hex: string | null;
  raw_hex: string | null;
}

/** The certificate of a block, with the proof as hex when asked for. */
export async function selectCertificate(
  sql: Sql,
  ref: BlockRef,
  includeProof: boolean,
): Promise<CertificateQueryRow | null> {
  const params: unknown[] = [includeProof];
  const [row] = await sql.query<CertificateQueryRow>(
    `SELECT c.block_hash, c.height, c.version, c.readable, c.error, c.layout, c.size, c.proof_commitment,
            c.computed_commitment, c.named_hash, c.problems, c.public_data, c.public_data_size, c.is_moe, c.config,
            c.config_error, c.proof_size, c.ancestor_hashes, c.proof IS NOT NULL AS proof_available,
            CASE WHEN $1 THEN encode(c.proof, 'hex') END AS proof_hex, encode(c.raw, 'hex') AS raw_hex
     FROM block_certificates c JOIN blocks b ON b.hash = c.block_hash WHERE ${refWhere(ref, params)}`,
    params,
    'blocks.certificate',
  );
  return row ?? null;
}

/** The stored raw JSON of a block. */
export async function selectBlockRaw(sql: Sql, ref: BlockRef): Promise<unknown | null> {
  const params: unknown[] = [];
  const [row] = await sql.query<{ raw: unknown }>(
    `SELECT b.raw FROM blocks b WHERE ${refWhere(ref, params)}`,
    params,
    'blocks.raw',
  );
  return row ? row.raw : null;
}

/** The txids of a block in block order (null when it has none: never for an indexed block); no row: no block. */
export async function selectBlockTxids(sql: Sql, ref: BlockRef): Promise<string[] | null> {
  const params: unknown[] = [];
  const [row] = await sql.query<{ txids: string[] | null }>(
    `SELECT (SELECT array_agg(encode(t.txid, 'hex') ORDER BY t.tx_no) FROM txs t
             WHERE t.tx_no >= ${firstTxNoOf('b.height')} AND t.tx_no < ${firstTxNoAbove('b.height')}) AS txids
     FROM blocks b WHERE ${refWhere(ref, params)}`,
    params,
    'blocks.txids',
  );
  return row ? (row.txids ?? []) : null;
}
