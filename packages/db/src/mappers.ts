import { certificateStatus } from '@explorer/chain';
import type {
  AddressSummary,
  BlockRecord,
  ChainIdentity,
  Input,
  Output,
  TxRecord,
  UtxoRecord,
} from '@explorer/core';
import type { AddressQueryRow, UtxoQueryRow } from './queries/addresses.js';
import type { BlockQueryRow } from './queries/blocks.js';
import type { InputQueryRow, OutputQueryRow, TxQueryRow } from './queries/txs.js';
import { amountText, type Int8 } from './sql.js';

/** Fee per virtual byte with two decimals. */
export const feeRate = (fee: Int8, vsize: number) =>
  vsize > 0 ? Math.round((Number(fee) / vsize) * 100) / 100 : 0;

/** A time of the database (a Date, or text) as ISO 8601; null stays null. */
export const iso = (v: Date | string | null) =>
  v === null ? null : v instanceof Date ? v.toISOString() : new Date(v).toISOString();

/** The date (YYYY-MM-DD) of a day number (days since the Unix epoch). */
export const dateOfDay = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

/** Maps a transaction row to the API's transaction record. */
export function toTx(r: TxQueryRow): TxRecord {
  return {
    txid: r.txid,
    blockHeight: r.block_height,
    blockHash: r.block_hash,
    blockIndex: r.block_index,
    time: r.block_time,
    size: r.size,
    vsize: r.vsize,
    weight: r.weight,
    version: r.version,
    locktime: r.locktime,
    inputCount: r.input_count,
    outputCount: r.output_count,
    valueIn: amountText(r.value_in),
    valueOut: amountText(r.value_out),
    fee: amountText(r.fee),
    feeRate: feeRate(r.fee, r.vsize),
    isCoinbase: r.is_coinbase,
    type: r.type as TxRecord['type'],
  };
}

/** Maps an output row to the API's output. */
export function toOutput(r: OutputQueryRow): Output {
  return {
    txid: r.txid,
    vout: r.vout,
    blockHeight: r.block_height,
    blockIndex: r.block_index,
    address: r.address,
    label: r.label,
    value: amountText(r.value),
    scriptType: r.script_type,
    scriptHex: r.script_hex,
    isCoinbase: r.is_coinbase,
    spent: r.spent_txid !== null,
    spentBy:
      r.spent_txid === null
        ? null
        : { txid: r.spent_txid, vin: r.spent_vin ?? 0, height: r.spent_height ?? 0 },
  };
}

/** Maps an input row to the API's input. */
export function toInput(r: InputQueryRow): Input {
  return {
    txid: r.txid,
    vin: r.vin,
    isCoinbase: r.prev_txid === null,
    prevTxid: r.prev_txid,
    prevVout: r.prev_vout,
    address: r.address,
    label: r.label,
    value: amountText(r.value),
    sequence: r.sequence,
  };
}

/** An address's summary from its totals (null: the index has not seen it) and its label (one address or many). */
export function toAddressSummary(
  address: string,
  a: Omit<AddressQueryRow, 'address'> | null,
  label: AddressSummary['label'],
): AddressSummary {
  return {
    address,
    seen: a !== null,
    label,
    balance: amountText(a?.balance),
    received: amountText(a?.received),
    sent: amountText(a?.sent),
    txCount: a?.tx_count ?? 0,
    utxoCount: a?.utxo_count ?? 0,
    firstSeen: a ? { height: a.first_seen_height, time: a.first_seen_time } : null,
    lastSeen: a ? { height: a.last_seen_height, time: a.last_seen_time } : null,
  };
}

/** An unspent output as the API lists it (one address's or many's). */
export function toUtxo(r: UtxoQueryRow): UtxoRecord {
  return {
    txid: r.txid,
    vout: r.vout,
    value: amountText(r.value),
    blockHeight: r.block_height,
    blockHash: r.block_hash,
    blockIndex: r.block_index,
    time: r.time,
    scriptType: r.script_type,
    scriptHex: r.script_hex,
    isCoinbase: r.is_coinbase,
  };
}

/** Maps a block row to the API's block record. */
export function toBlock(r: BlockQueryRow): BlockRecord {
  return {
    height: r.height,
    hash: r.hash,
    previousHash: r.prev_hash,
    nextHash: r.next_hash,
    time: r.time,
    medianTime: r.median_time,
    txCount: r.tx_count,
    inputCount: r.input_count,
    outputCount: r.output_count,
    size: r.size,
    strippedSize: r.stripped_size,
    weight: r.weight,
    version: r.version,
    merkleRoot: r.merkle_root,
    bits: r.bits,
    nonce: r.nonce,
    difficulty: r.difficulty,
    chainwork: r.chainwork,
    subsidy: amountText(r.subsidy),
    fees: amountText(r.fees),
    reward: amountText(r.reward),
    valueOut: amountText(r.value_out),
    miner: { address: r.miner_address, label: r.miner_label },
    pool: {
      id: r.pool_id,
      name: r.pool_name ?? (r.pool_id === 'unknown' ? 'Unknown' : r.pool_id),
      link: r.pool_link,
    },
    coinbaseTag: r.coinbase_tag,
    coinbaseHex: r.coinbase_hex,
    certificate:
      r.cert_version === null
        ? null
        : {
            version: r.cert_version,
            readable: r.cert_readable !== false,
            verified: r.cert_verified,
            status: certificateStatus({
              readable: r.cert_readable !== false,
              binds: r.cert_verified === true,
              proofCommitment: r.cert_proof_commitment ?? '',
            }),
            isMoE: r.cert_is_moe === true,
            proofSize: r.cert_proof_size ?? 0,
            proofCommitment: r.cert_proof_commitment ?? '',
          },
  };
}

/** The chain identity the indexer recorded, as the API shows it (null before it did). */
export function chainIdentity(chain: Record<string, unknown> | null): ChainIdentity | null {
  if (!chain || typeof chain.profile !== 'string') return null;
  const c = chain as Partial<ChainIdentity>;
  return {
    profile: c.profile as string,
    network: c.network ?? null,
    // Recorded since networks are named (addresses too): absent until the indexer records the chain again.
    ...(c.name !== undefined ? { name: c.name } : {}),
    genesisHash: c.genesisHash ?? '',
    knownGenesis: c.knownGenesis === true,
    units: c.units ?? { symbol: null, baseUnit: 'base unit', decimals: 8 },
    ...(c.addresses !== undefined ? { addresses: c.addresses } : {}),
    emissionFormula: c.emissionFormula ?? null,
    maxSupply: c.maxSupply ?? null,
    certificateForks: c.certificateForks ?? null,
    unsupportedCalls: c.unsupportedCalls ?? [],
    // Recorded since the fee estimates: a chain an older indexer recorded has neither until it is recorded again.
    ...(typeof c.blockSeconds === 'number' ? { blockSeconds: c.blockSeconds } : {}),
    ...(typeof c.maxBlockVsize === 'number' ? { maxBlockVsize: c.maxBlockVsize } : {}),
  };
}
