import { certificateStatus } from '@explorer/chain';
import type { BlockKey, Certificate, Store } from '@explorer/core';
import { toBlock, toOutput, toTx } from './mappers.js';
import {
  type CertificateQueryRow,
  selectBlock,
  selectBlockRaw,
  selectBlocks,
  selectBlockTxids,
  selectCertificate,
} from './queries/blocks.js';
import {
  type OutputQueryRow,
  type OwnerColumns,
  selectBlockOutputs,
  selectBlockTxs,
  selectCoinbaseOutputs,
  type TxQueryRow,
} from './queries/txs.js';
import type { Sql } from './sql.js';

/** The block a page of its rows was read with; null when the index does not hold it (no row at all). */
const ownerBlock = (rows: readonly OwnerColumns[]): BlockKey | null =>
  rows[0] ? { height: rows[0].owner_height, hash: rows[0].owner_hash! } : null;

/** Why a certificate's mining configuration is not shown, where it is not. */
function configNoteOf(r: CertificateQueryRow): string | null {
  if (r.config) return null;
  if (!r.readable) return 'the certificate bytes did not decode';
  if (r.config_error) return r.config_error;
  if (r.version === 4) return 'the layout of version 4 public data is not certain: served as hex only';
  if (r.version === 5) return 'version 5 certificates carry no public data';
  return null;
}

/** The block reads of the Store over SQL. createSqlStore includes these. */
export function blockStoreMethods(
  sql: Sql,
): Pick<
  Store,
  | 'getBlock'
  | 'listBlocks'
  | 'getCertificate'
  | 'coinbaseOutputs'
  | 'listBlockOutputs'
  | 'getBlockRaw'
  | 'blockTxids'
  | 'listBlockTxs'
> {
  return {
    async getBlock(ref) {
      const r = await selectBlock(sql, ref);
      return r ? toBlock(r) : null;
    },
    async listBlocks(page) {
      return (await selectBlocks(sql, page)).map(toBlock);
    },
    async getCertificate(ref, includeProof): Promise<Certificate | null> {
      const r = await selectCertificate(sql, ref, includeProof);
      if (!r) return null;
      return {
        blockHash: r.block_hash,
        height: r.height,
        version: r.version,
        readable: r.readable,
        error: r.error,
        layout: r.layout,
        size: r.size,
        proofCommitment: r.proof_commitment,
        computedCommitment: r.computed_commitment,
        commitmentValid: r.readable ? r.computed_commitment === r.proof_commitment : null,
        namedBlockHash: r.named_hash,
        blockHashMatches: r.readable ? r.named_hash === r.block_hash : null,
        status: certificateStatus({
          readable: r.readable,
          binds: r.readable && r.problems.length === 0,
          proofCommitment: r.proof_commitment,
        }),
        problems: r.problems,
        publicData: r.public_data,
        publicDataSize: r.public_data_size,
        isMoE: r.is_moe,
        config: (r.config as Certificate['config']) ?? null,
        configNote: configNoteOf(r),
        proofSize: r.proof_size,
        ancestorHeaderCount: r.ancestor_hashes.length,
        ancestorHashes: r.ancestor_hashes,
        proofAvailable: r.proof_available,
        ...(includeProof && r.proof_hex !== null ? { proof: r.proof_hex } : {}),
        raw: r.raw_hex,
      };
    },
    async coinbaseOutputs(height) {
      return (await selectCoinbaseOutputs(sql, height)).map(toOutput);
    },
    async listBlockOutputs(ref, page) {
      const rows = await selectBlockOutputs(sql, ref, page);
      return {
        block: ownerBlock(rows),
        outputs: rows.flatMap((r) => (r.txid == null ? [] : [toOutput(r as OutputQueryRow)])),
      };
    },
    getBlockRaw: (ref) => selectBlockRaw(sql, ref),
    blockTxids: (ref) => selectBlockTxids(sql, ref),
    async listBlockTxs(ref, page) {
      const rows = await selectBlockTxs(sql, ref, page);
      return {
        block: ownerBlock(rows),
        txs: rows.flatMap((r) => (r.txid == null ? [] : [toTx(r as TxQueryRow)])),
      };
    },
  };
}
