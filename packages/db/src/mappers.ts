import type { BlockRecord } from '@explorer/core';
import type { BlockQueryRow } from './queries/blocks.js';

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
    subsidy: r.subsidy,
    fees: r.fees,
    reward: r.reward,
    valueOut: r.value_out,
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
            isMoE: r.cert_is_moe === true,
            proofSize: r.cert_proof_size ?? 0,
            proofCommitment: r.cert_proof_commitment ?? '',
          },
  };
}
