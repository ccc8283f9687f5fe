/**
 * Pearl: blocks whose header has no nonce; the subsidy the emission schedule allows beside the one the coinbase
 * claimed (the difference is never emitted); certificates as decoded from the block bytes, verified against
 * their header, or kept as raw bytes when unreadable; the chain the database holds.
 */
export const pearlSchema = `
ALTER TABLE blocks ALTER COLUMN nonce DROP NOT NULL;
ALTER TABLE blocks ADD COLUMN emission bigint;
UPDATE blocks SET emission = subsidy;
ALTER TABLE blocks ALTER COLUMN emission SET NOT NULL;
ALTER TABLE blocks ADD COLUMN cum_unclaimed bigint NOT NULL DEFAULT 0;

ALTER TABLE block_certificates ALTER COLUMN public_data DROP NOT NULL;
ALTER TABLE block_certificates
  ADD COLUMN readable boolean NOT NULL DEFAULT true,
  ADD COLUMN error text,
  ADD COLUMN computed_commitment text,
  ADD COLUMN problems text[] NOT NULL DEFAULT '{}',
  ADD COLUMN named_hash text,
  ADD COLUMN layout text,
  ADD COLUMN size integer NOT NULL DEFAULT 0,
  ADD COLUMN public_data_size integer,
  ADD COLUMN ancestor_hashes text[] NOT NULL DEFAULT '{}',
  ADD COLUMN config json,
  ADD COLUMN config_error text,
  ADD COLUMN m integer,
  ADD COLUMN n integer,
  ADD COLUMN k integer,
  ADD COLUMN rank integer,
  ADD COLUMN raw bytea;
CREATE INDEX block_certificates_version ON block_certificates (version, height);

ALTER TABLE daily_stats
  ADD COLUMN cert_v5 integer NOT NULL DEFAULT 0,
  ADD COLUMN cert_other integer NOT NULL DEFAULT 0;

ALTER TABLE indexer_state ADD COLUMN chain json;
`;
