import { certificateStatus } from '@explorer/chain';
import type { BlockRecord, ChainIdentity } from '@explorer/core';
import type { BlockQueryRow } from './queries/blocks.js';
import { amountText } from './sql.js';

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
