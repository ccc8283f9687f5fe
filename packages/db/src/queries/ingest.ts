import type { Sql } from '../sql.js';
import { bulkInsert } from './bulk.js';

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

/**
 * An output row: [txid, vout, block_height, block_index, address, value, script_type, script_hex, is_coinbase,
 * spent_txid, spent_vin, spent_height]. An output created and spent in the same batch is written spent.
 */
export type OutputRow = [
  string,
  number,
  number,
  number,
  string | null,
  bigint,
  string,
  string,
  boolean,
  string | null,
  number | null,
  number | null,
];

/** Writes new outputs. */
export function insertOutputs(tx: Sql, rows: OutputRow[]): Promise<void> {
  return bulkInsert(
    tx,
    'ingest.insert-outputs',
    'outputs',
    [
      ['txid', 'text'],
      ['vout', 'int4'],
      ['block_height', 'int4'],
      ['block_index', 'int4'],
      ['address', 'text'],
      ['value', 'int8'],
      ['script_type', 'text'],
      ['script_hex', 'text'],
      ['is_coinbase', 'bool'],
      ['spent_txid', 'text'],
      ['spent_vin', 'int4'],
      ['spent_height', 'int4'],
    ],
    rows,
  );
}

/** An outpoint being spent: [prev_txid, prev_vout, spending txid, vin, height]. */
export type SpendRow = [string, number, string, number, number];

/**
 * Marks outputs spent and returns how many it marked. Only unspent outputs match, so a missing or double
 * spend comes back short and the caller refuses the batch.
 */
export async function markSpent(tx: Sql, spends: SpendRow[]): Promise<number> {
  let marked = 0;
  for (let start = 0; start < spends.length; start += 10_000) {
    const chunk = spends.slice(start, start + 10_000);
    const [row] = await tx.query<{ n: number }>(
      `WITH marked AS (
         UPDATE outputs o SET spent_txid = s.txid, spent_vin = s.vin, spent_height = s.h
         FROM unnest($1::text[], $2::int4[], $3::text[], $4::int4[], $5::int4[]) AS s(prev_txid, prev_vout, txid, vin, h)
         WHERE o.txid = s.prev_txid AND o.vout = s.prev_vout AND o.spent_txid IS NULL
         RETURNING 1)
       SELECT count(*)::int4 AS n FROM marked`,
      [
        chunk.map((s) => s[0]),
        chunk.map((s) => s[1]),
        chunk.map((s) => s[2]),
        chunk.map((s) => s[3]),
        chunk.map((s) => s[4]),
      ],
      'ingest.mark-spent',
    );
    marked += row?.n ?? 0;
  }
  return marked;
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
  outpoints: readonly (readonly [txid: string, vout: number])[],
): Promise<(StoredPrevout | undefined)[]> {
  const out: (StoredPrevout | undefined)[] = new Array(outpoints.length);
  for (let start = 0; start < outpoints.length; start += 10_000) {
    const chunk = outpoints.slice(start, start + 10_000);
    const rows = await sql.query<{ i: number; address: string | null; value: string; spent: boolean }>(
      `SELECT s.i::int4 AS i, o.address, o.value::text AS value, o.spent_txid IS NOT NULL AS spent
       FROM unnest($1::text[], $2::int4[]) WITH ORDINALITY AS s(txid, vout, i)
       JOIN outputs o ON o.txid = s.txid AND o.vout = s.vout`,
      [chunk.map((o) => o[0]), chunk.map((o) => o[1])],
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

/** A transaction row, in the column order of `insertTxs`. */
export type TxRow = [
  txid: string,
  blockHeight: number,
  blockIndex: number,
  blockTime: number,
  version: number,
  locktime: number,
  size: number,
  vsize: number,
  weight: number,
  inputCount: number,
  outputCount: number,
  valueIn: bigint,
  valueOut: bigint,
  fee: bigint,
  isCoinbase: boolean,
  type: string,
  raw: string,
];

/** Writes transactions. */
export function insertTxs(tx: Sql, rows: TxRow[]): Promise<void> {
  return bulkInsert(
    tx,
    'ingest.insert-txs',
    'txs',
    [
      ['txid', 'text'],
      ['block_height', 'int4'],
      ['block_index', 'int4'],
      ['block_time', 'int8'],
      ['version', 'int8'],
      ['locktime', 'int8'],
      ['size', 'int4'],
      ['vsize', 'int4'],
      ['weight', 'int4'],
      ['input_count', 'int4'],
      ['output_count', 'int4'],
      ['value_in', 'int8'],
      ['value_out', 'int8'],
      ['fee', 'int8'],
      ['is_coinbase', 'bool'],
      ['type', 'text'],
      ['raw', 'json'],
    ],
    rows,
  );
}

/** An input row: [txid, vin, block_height, prev_txid, prev_vout, address, value, sequence]. */
export type InputRow = [string, number, number, string | null, number | null, string | null, bigint, number];

/** Writes inputs. */
export function insertInputs(tx: Sql, rows: InputRow[]): Promise<void> {
  return bulkInsert(
    tx,
    'ingest.insert-inputs',
    'inputs',
    [
      ['txid', 'text'],
      ['vin', 'int4'],
      ['block_height', 'int4'],
      ['prev_txid', 'text'],
      ['prev_vout', 'int4'],
      ['address', 'text'],
      ['value', 'int8'],
      ['sequence', 'int8'],
    ],
    rows,
  );
}

/** An address history row: [address, block_height, block_index, txid, block_time, received, sent, balance after]. */
export type AddressTxRow = [string, number, number, string, number, bigint, bigint, bigint];

/** Writes address history rows. */
export function insertAddressTxs(tx: Sql, rows: AddressTxRow[]): Promise<void> {
  return bulkInsert(
    tx,
    'ingest.insert-address-txs',
    'address_txs',
    [
      ['address', 'text'],
      ['block_height', 'int4'],
      ['block_index', 'int4'],
      ['txid', 'text'],
      ['block_time', 'int8'],
      ['received', 'int8'],
      ['sent', 'int8'],
      ['balance', 'int8'],
    ],
    rows,
  );
}

/** Per-address changes of a batch: [address, Δbalance, Δreceived, Δsent, Δtx_count, Δutxo_count, first h, first t, last h, last t]. */
export type AddressDeltaRow = [
  string,
  bigint,
  bigint,
  bigint,
  number,
  number,
  number,
  number,
  number,
  number,
];

/** Adds a batch's changes to the address totals. */
export function upsertAddresses(tx: Sql, rows: AddressDeltaRow[]): Promise<void> {
  return bulkInsert(
    tx,
    'ingest.upsert-addresses',
    'addresses',
    [
      ['address', 'text'],
      ['balance', 'int8'],
      ['received', 'int8'],
      ['sent', 'int8'],
      ['tx_count', 'int4'],
      ['utxo_count', 'int4'],
      ['first_seen_height', 'int4'],
      ['first_seen_time', 'int8'],
      ['last_seen_height', 'int4'],
      ['last_seen_time', 'int8'],
    ],
    rows,
    `ON CONFLICT (address) DO UPDATE SET
       balance = addresses.balance + EXCLUDED.balance,
       received = addresses.received + EXCLUDED.received,
       sent = addresses.sent + EXCLUDED.sent,
       tx_count = addresses.tx_count + EXCLUDED.tx_count,
       utxo_count = addresses.utxo_count + EXCLUDED.utxo_count,
       last_seen_height = EXCLUDED.last_seen_height,
       last_seen_time = EXCLUDED.last_seen_time`,
  );
}

/** A block row, in the column order of `insertBlocks`. */
export interface BlockRow {
  height: number;
  hash: string;
  prevHash: string | null;
  time: number;
  medianTime: number;
  day: number;
  version: number;
  merkleRoot: string;
  bits: string;
  nonce: number | null;
  difficulty: number;
  chainwork: string;
  size: number;
  strippedSize: number | null;
  weight: number | null;
  txCount: number;
  inputCount: number;
  outputCount: number;
  /** What the coinbase claimed: reward − fees. */
  subsidy: bigint;
  /** What the emission schedule allows at this height (= subsidy when the chain's schedule is not known). */
  emission: bigint;
  fees: bigint;
  reward: bigint;
  valueOut: bigint;
  opReturnValue: bigint;
  minerAddress: string | null;
  poolId: string;
  coinbaseHex: string;
  coinbaseTag: string;
  hasCertificate: boolean;
  cumTxCount: number;
  cumEmitted: bigint;
  cumUnclaimed: bigint;
  cumFees: bigint;
  cumOpReturn: bigint;
  raw: string;
}

const BLOCK_COLUMNS = [
  ['height', 'int4'],
  ['hash', 'text'],
  ['prev_hash', 'text'],
  ['time', 'int8'],
  ['median_time', 'int8'],
  ['day', 'int4'],
  ['version', 'int8'],
  ['merkle_root', 'text'],
  ['bits', 'text'],
  ['nonce', 'int8'],
  ['difficulty', 'float8'],
  ['chainwork', 'text'],
  ['size', 'int4'],
  ['stripped_size', 'int4'],
  ['weight', 'int4'],
  ['tx_count', 'int4'],
  ['input_count', 'int4'],
  ['output_count', 'int4'],
  ['subsidy', 'int8'],
  ['fees', 'int8'],
  ['reward', 'int8'],
  ['value_out', 'int8'],
  ['op_return_value', 'int8'],
  ['miner_address', 'text'],
  ['pool_id', 'text'],
  ['coinbase_hex', 'text'],
  ['coinbase_tag', 'text'],
  ['has_certificate', 'bool'],
  ['cum_tx_count', 'int8'],
  ['cum_emitted', 'int8'],
  ['cum_fees', 'int8'],
  ['cum_op_return', 'int8'],
  ['raw', 'json'],
  ['emission', 'int8'],
  ['cum_unclaimed', 'int8'],
] as const;

/** Writes blocks. */
export function insertBlocks(tx: Sql, rows: BlockRow[]): Promise<void> {
  return bulkInsert(
    tx,
    'ingest.insert-blocks',
    'blocks',
    BLOCK_COLUMNS,
    rows.map((b) => [
      b.height,
      b.hash,
      b.prevHash,
      b.time,
      b.medianTime,
      b.day,
      b.version,
      b.merkleRoot,
      b.bits,
      b.nonce,
      b.difficulty,
      b.chainwork,
      b.size,
      b.strippedSize,
      b.weight,
      b.txCount,
      b.inputCount,
      b.outputCount,
      b.subsidy,
      b.fees,
      b.reward,
      b.valueOut,
      b.opReturnValue,
      b.minerAddress,
      b.poolId,
      b.coinbaseHex,
      b.coinbaseTag,
      b.hasCertificate,
      b.cumTxCount,
      b.cumEmitted,
      b.cumFees,
      b.cumOpReturn,
      b.raw,
      b.emission,
      b.cumUnclaimed,
    ]),
  );
}

/** A certificate row: what decoding and verifying a block's certificate found. */
export interface CertificateRow {
  blockHash: string;
  height: number;
  day: number;
  version: number;
  readable: boolean;
  error: string | null;
  /** The header's proof commitment. */
  proofCommitment: string;
  computedCommitment: string | null;
  problems: string[];
  /** The block hash the certificate names. */
  namedHash: string | null;
  layout: string | null;
  size: number;
  publicData: string | null;
  proof: Uint8Array | null;
  proofSize: number;
  ancestorHashes: string[];
  isMoE: boolean;
  config: string | null;
  configError: string | null;
  shape: { m: number; n: number; k: number; rank: number } | null;
  raw: Uint8Array | null;
}

/** Writes certificates one statement each (few per batch; bytea parameters stay simple). */
export async function insertCertificates(tx: Sql, rows: CertificateRow[]): Promise<void> {
  for (const c of rows) {
    await tx.query(
      `INSERT INTO block_certificates (block_hash, height, day, version, proof_commitment, public_data, proof, proof_size,
         is_moe, readable, error, computed_commitment, problems, named_hash, layout, size, public_data_size,
         ancestor_hashes, config, config_error, m, n, k, rank, raw)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::text[], $14, $15, $16, $17, $18::text[], $19::json,
         $20, $21, $22, $23, $24, $25)`,
      [
        c.blockHash,
        c.height,
        c.day,
        c.version,
        c.proofCommitment,
        c.publicData,
        c.proof,
        c.proofSize,
        c.isMoE,
        c.readable,
        c.error,
        c.computedCommitment,
        c.problems,
        c.namedHash,
        c.layout,
        c.size,
        c.publicData === null ? null : c.publicData.length / 2,
        c.ancestorHashes,
        c.config,
        c.configError,
        c.shape?.m ?? null,
        c.shape?.n ?? null,
        c.shape?.k ?? null,
        c.shape?.rank ?? null,
        c.raw,
      ],
      'ingest.insert-certificate',
    );
  }
}

/** Per-miner or per-pool changes: [key, Δblocks, Δreward, first height, last height]. */
export type MiningStatRow = [string, number, bigint, number, number];

const MINING_SUFFIX = (
  table: string,
) => `ON CONFLICT (${table === 'miner_stats' ? 'address' : 'pool_id'}) DO UPDATE SET
  blocks = ${table}.blocks + EXCLUDED.blocks,
  reward = ${table}.reward + EXCLUDED.reward,
  first_height = LEAST(${table}.first_height, EXCLUDED.first_height),
  last_height = GREATEST(${table}.last_height, EXCLUDED.last_height)`;

/** Adds mined blocks to the per-miner totals. */
export function upsertMinerStats(tx: Sql, rows: MiningStatRow[]): Promise<void> {
  return bulkInsert(
    tx,
    'ingest.upsert-miner-stats',
    'miner_stats',
    [
      ['address', 'text'],
      ['blocks', 'int4'],
      ['reward', 'int8'],
      ['first_height', 'int4'],
      ['last_height', 'int4'],
    ],
    rows,
    MINING_SUFFIX('miner_stats'),
  );
}

/** Adds mined blocks to the per-pool totals. */
export function upsertPoolStats(tx: Sql, rows: MiningStatRow[]): Promise<void> {
  return bulkInsert(
    tx,
    'ingest.upsert-pool-stats',
    'pool_stats',
    [
      ['pool_id', 'text'],
      ['blocks', 'int4'],
      ['reward', 'int8'],
      ['first_height', 'int4'],
      ['last_height', 'int4'],
    ],
    rows,
    MINING_SUFFIX('pool_stats'),
  );
}

/** One day's additions to the daily rollup. */
export interface DailyStatRow {
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
  /** Certificates of versions 1–5, then any other (unreadable or unknown). */
  certByVersion: [number, number, number, number, number, number];
  proofBytes: number;
  proofMin: number | null;
  proofMax: number | null;
}

/** Adds a batch to the daily rollups (chain-wide, per pool, per miner). */
export async function upsertDaily(
  tx: Sql,
  stats: DailyStatRow[],
  pools: [day: number, poolId: string, blocks: number, reward: bigint][],
  miners: [day: number, address: string, blocks: number][],
): Promise<void> {
  await bulkInsert(
    tx,
    'ingest.upsert-daily-stats',
    'daily_stats',
    [
      ['day', 'int4'],
      ['blocks', 'int4'],
      ['txs', 'int8'],
      ['size', 'int8'],
      ['fees', 'int8'],
      ['emitted', 'int8'],
      ['op_return_value', 'int8'],
      ['last_height', 'int4'],
      ['last_difficulty', 'float8'],
      ['first_time', 'int8'],
      ['last_time', 'int8'],
      ['certificates', 'int4'],
      ['moe_certificates', 'int4'],
      ['cert_v1', 'int4'],
      ['cert_v2', 'int4'],
      ['cert_v3', 'int4'],
      ['cert_v4', 'int4'],
      ['cert_v5', 'int4'],
      ['cert_other', 'int4'],
      ['proof_bytes', 'int8'],
      ['proof_min', 'int4'],
      ['proof_max', 'int4'],
    ],
    stats.map((s) => [
      s.day,
      s.blocks,
      s.txs,
      s.size,
      s.fees,
      s.emitted,
      s.opReturnValue,
      s.lastHeight,
      s.lastDifficulty,
      s.firstTime,
      s.lastTime,
      s.certificates,
      s.moeCertificates,
      ...s.certByVersion,
      s.proofBytes,
      s.proofMin,
      s.proofMax,
    ]),
    `ON CONFLICT (day) DO UPDATE SET
       blocks = daily_stats.blocks + EXCLUDED.blocks,
       txs = daily_stats.txs + EXCLUDED.txs,
       size = daily_stats.size + EXCLUDED.size,
       fees = daily_stats.fees + EXCLUDED.fees,
       emitted = daily_stats.emitted + EXCLUDED.emitted,
       op_return_value = daily_stats.op_return_value + EXCLUDED.op_return_value,
       last_difficulty = CASE WHEN EXCLUDED.last_height > daily_stats.last_height
         THEN EXCLUDED.last_difficulty ELSE daily_stats.last_difficulty END,
       last_height = GREATEST(daily_stats.last_height, EXCLUDED.last_height),
       first_time = LEAST(daily_stats.first_time, EXCLUDED.first_time),
       last_time = GREATEST(daily_stats.last_time, EXCLUDED.last_time),
       certificates = daily_stats.certificates + EXCLUDED.certificates,
       moe_certificates = daily_stats.moe_certificates + EXCLUDED.moe_certificates,
       cert_v1 = daily_stats.cert_v1 + EXCLUDED.cert_v1,
       cert_v2 = daily_stats.cert_v2 + EXCLUDED.cert_v2,
       cert_v3 = daily_stats.cert_v3 + EXCLUDED.cert_v3,
       cert_v4 = daily_stats.cert_v4 + EXCLUDED.cert_v4,
       cert_v5 = daily_stats.cert_v5 + EXCLUDED.cert_v5,
       cert_other = daily_stats.cert_other + EXCLUDED.cert_other,
       proof_bytes = daily_stats.proof_bytes + EXCLUDED.proof_bytes,
       proof_min = LEAST(daily_stats.proof_min, EXCLUDED.proof_min),
       proof_max = GREATEST(daily_stats.proof_max, EXCLUDED.proof_max)`,
  );
  await bulkInsert(
    tx,
    'ingest.upsert-daily-pool-blocks',
    'daily_pool_blocks',
    [
      ['day', 'int4'],
      ['pool_id', 'text'],
      ['blocks', 'int4'],
      ['reward', 'int8'],
    ],
    pools,
    `ON CONFLICT (day, pool_id) DO UPDATE SET blocks = daily_pool_blocks.blocks + EXCLUDED.blocks,
       reward = daily_pool_blocks.reward + EXCLUDED.reward`,
  );
  await bulkInsert(
    tx,
    'ingest.upsert-daily-miner-blocks',
    'daily_miner_blocks',
    [
      ['day', 'int4'],
      ['address', 'text'],
      ['blocks', 'int4'],
    ],
    miners,
    `ON CONFLICT (address, day) DO UPDATE SET blocks = daily_miner_blocks.blocks + EXCLUDED.blocks`,
  );
}

/** Moves the indexed tip (blocks and transactions are written together, so both tips move as one). */
export async function setTip(tx: Sql, height: number, hash: string | null): Promise<void> {
  await tx.query(
    'UPDATE indexer_state SET tip_height = $1, tip_hash = $2, tx_tip_height = $1, updated_at = now() WHERE id = 1',
    [height, hash],
    'ingest.set-tip',
  );
}
