import type { DerivedTable } from './table.js';

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

/** Block certificates (Pearl): one statement each, being few per batch and carrying bytea and text[] values. */
export const certificates: DerivedTable<{ certificates: readonly CertificateRow[] }> = {
  name: 'certificates',
  dump: { table: 'block_certificates', order: 'height' },
  async write(tx, batch) {
    for (const c of batch.certificates) {
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
        'ingest.certificates',
      );
    }
  },
  rollback: {
    async remove(tx, forkHeight) {
      await tx.query(
        'DELETE FROM block_certificates WHERE height > $1',
        [forkHeight],
        'rollback.certificates',
      );
    },
  },
  checks: [
    {
      name: 'certificates belong to their blocks, and a recorded commitment mismatch is exactly a differing commitment',
      sql: `SELECT b.height FROM blocks b LEFT JOIN block_certificates c ON c.block_hash = b.hash
            WHERE b.has_certificate <> (c.block_hash IS NOT NULL) OR c.height <> b.height
            UNION ALL
            SELECT height FROM block_certificates
            WHERE readable AND (computed_commitment = proof_commitment)
                  = EXISTS (SELECT 1 FROM unnest(problems) AS p WHERE p LIKE 'proof commitment mismatch%')
            LIMIT 5`,
    },
  ],
};
