import {
  encodeCoreHeader,
  encodePearlHeader,
  merkleBranch,
  merkleRoot,
  sha256d,
  toDisplayHex,
} from '@explorer/chain';
import type { Store, TxProof } from '@explorer/core';
import { selectTxOutspends, selectTxProof, type TxProofQueryRow } from './queries/txs.js';
import type { Sql } from './sql.js';

const ZERO_HASH = '0'.repeat(64);

/**
 * The block header's bytes, rebuilt from the stored fields as the chain serializes it: Pearl's 108 bytes (a
 * proof commitment, no nonce) or Bitcoin Core's 80; checked against the stored block hash.
 */
function headerBytes(r: TxProofQueryRow): Buffer {
  const fields = {
    version: Number(r.version),
    prevHash: r.prev_hash ?? ZERO_HASH,
    merkleRoot: r.merkle_root,
    time: Number(r.time),
    bits: Number.parseInt(r.bits, 16),
  };
  const pearl = r.profile === 'pearl' || (r.profile === null && r.nonce === null);
  if (pearl && r.proof_commitment === null)
    throw new Error(`block ${r.block_height} has no stored proof commitment to rebuild its header from`);
  const bytes = pearl
    ? encodePearlHeader({ ...fields, proofCommitment: r.proof_commitment! })
    : encodeCoreHeader({ ...fields, nonce: Number(r.nonce ?? 0) });
  // What the proof is checked against must be the block itself, not a near miss rebuilt from its fields.
  const hash = toDisplayHex(sha256d(bytes));
  if (hash !== r.block_hash)
    throw new Error(`block ${r.block_height}: the header rebuilt from its fields hashes to ${hash}`);
  return bytes;
}

/** The merkle proof of a transaction and its block's header, from one row of `selectTxProof`. */
export function toTxProof(r: TxProofQueryRow): TxProof {
  const all = Buffer.from(r.txids);
  const leaves: Buffer[] = [];
  for (let at = 0; at < all.length; at += 32) leaves.push(Buffer.from(all.subarray(at, at + 32)).reverse());
  if (leaves.length !== r.tx_count)
    throw new Error(`block ${r.block_height} holds ${leaves.length} of its ${r.tx_count} transactions`);
  const root = toDisplayHex(merkleRoot(leaves));
  if (root !== r.merkle_root)
    throw new Error(`block ${r.block_height}: its transactions hash to ${root}, not to its merkle root`);
  return {
    blockHeight: r.block_height,
    blockHash: r.block_hash,
    blockIndex: r.block_index,
    blockTime: Number(r.time),
    blockTxCount: r.tx_count,
    merkleProof: {
      blockHeight: r.block_height,
      pos: r.block_index,
      merkle: merkleBranch(leaves, r.block_index).map(toDisplayHex),
    },
    header: headerBytes(r).toString('hex'),
  };
}

/** The Store's proof and spend-state reads: one statement each. */
export function proofStoreMethods(sql: Sql): Pick<Store, 'getTxProof' | 'listTxOutspends'> {
  return {
    async getTxProof(txid) {
      const r = await selectTxProof(sql, txid);
      return r ? toTxProof(r) : null;
    },
    async listTxOutspends(txid, page) {
      const rows = await selectTxOutspends(sql, txid, page);
      return (
        rows?.map((r) => ({
          vout: r.vout!,
          spent: r.spent_txid !== null,
          spentBy:
            r.spent_txid === null
              ? null
              : { txid: r.spent_txid, vin: r.spent_vin ?? 0, height: r.spent_height ?? 0 },
        })) ?? null
      );
    },
  };
}
