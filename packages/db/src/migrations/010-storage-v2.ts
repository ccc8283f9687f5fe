/**
 * Storage v2: the chain's bulk tables keyed by small sequential numbers, hashes kept once as bytes.
 * - A transaction's number (`tx_no`) is its place in the chain: `height × 2^24 + index in block`. It keys
 *   `txs`, `outputs (tx_no, vout)`, `inputs (tx_no, vin)` and the address history, so every append lands at
 *   the right edge of its B-tree, and a block's rows are one key range. Height and index are read back from it.
 * - A txid is stored once, as its 32 bytes in display order, in `txs`; one index on its first 8 bytes finds
 *   a transaction by txid (the full txid rechecked) and serves prefix suggestions.
 * - An address is stored once, in `addresses`, which is both the dictionary (a sequential `id`) and the
 *   totals; outputs and history rows name it by id.
 * - Spends rewrite nothing: an input names the output it spends by `(prev_tx_no, prev_vout)`, and `utxos`
 *   holds the outputs not yet spent (a spend deletes its row). Which input spent an output is found through
 *   the inputs' index on what they spend.
 * - What can be read from elsewhere is not stored twice: an output's height, index and coinbase flag come
 *   from its `tx_no`, an input's address and value from the output it spends, a history row's time and txid
 *   from its block and transaction. Script bytes and Pearl's raw transactions are `bytea`; raw JSON stays
 *   compressed with lz4 where the server has it (as migration 7 set it for v1).
 *
 * The v1 tables cannot be converted without holding both layouts on disk at once, and the index is derived
 * from the node: the chain tables are dropped and rebuilt by the indexer (see docs/operations.md#upgrading).
 * `migrate` refuses to run this on a database holding a v1 index unless told to rebuild.
 */
export const storageV2 = `
DROP TABLE IF EXISTS address_txs, addresses, inputs, outputs, txs;

CREATE TABLE txs (
  tx_no        bigint PRIMARY KEY,
  txid         bytea NOT NULL,
  version      bigint NOT NULL,
  locktime     bigint NOT NULL,
  size         integer NOT NULL,
  vsize        integer NOT NULL,
  weight       integer NOT NULL,
  input_count  integer NOT NULL,
  output_count integer NOT NULL,
  value_in     bigint NOT NULL,
  value_out    bigint NOT NULL,
  fee          bigint NOT NULL,
  type         text NOT NULL,
  raw          json,
  raw_bytes    bytea,
  CONSTRAINT txs_raw_kept CHECK (raw IS NOT NULL OR raw_bytes IS NOT NULL)
);
CREATE INDEX txs_txid ON txs (substring(txid FROM 1 FOR 8));
DO $$
BEGIN
  ALTER TABLE txs ALTER COLUMN raw SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available on this server: raw JSON stays compressed with pglz';
END
$$;

CREATE TABLE addresses (
  id                bigint PRIMARY KEY,
  address           text COLLATE "C" NOT NULL UNIQUE,
  balance           bigint NOT NULL,
  received          bigint NOT NULL,
  sent              bigint NOT NULL,
  tx_count          integer NOT NULL,
  utxo_count        integer NOT NULL,
  first_seen_height integer NOT NULL,
  first_seen_time   bigint NOT NULL,
  last_seen_height  integer NOT NULL,
  last_seen_time    bigint NOT NULL
);
CREATE SEQUENCE addresses_id AS bigint;

CREATE TABLE outputs (
  tx_no       bigint NOT NULL,
  vout        integer NOT NULL,
  address_id  bigint,
  value       bigint NOT NULL,
  script_type text NOT NULL,
  script      bytea NOT NULL,
  PRIMARY KEY (tx_no, vout)
);

CREATE TABLE utxos (
  tx_no      bigint NOT NULL,
  vout       integer NOT NULL,
  address_id bigint,
  PRIMARY KEY (tx_no, vout)
);
CREATE INDEX utxos_address ON utxos (address_id, tx_no DESC, vout DESC) WHERE address_id IS NOT NULL;

CREATE TABLE inputs (
  tx_no      bigint NOT NULL,
  vin        integer NOT NULL,
  prev_tx_no bigint,
  prev_vout  integer,
  sequence   bigint NOT NULL,
  PRIMARY KEY (tx_no, vin)
);
CREATE INDEX inputs_prev ON inputs (prev_tx_no, prev_vout) WHERE prev_tx_no IS NOT NULL;

CREATE TABLE address_txs (
  address_id bigint NOT NULL,
  tx_no      bigint NOT NULL,
  received   bigint NOT NULL,
  sent       bigint NOT NULL,
  balance    bigint NOT NULL,
  PRIMARY KEY (address_id, tx_no)
);
CREATE INDEX address_txs_tx ON address_txs (tx_no);

TRUNCATE blocks, block_certificates, miner_stats, pool_stats, daily_stats, daily_pool_blocks, daily_miner_blocks;
UPDATE indexer_state SET tip_height = -1, tip_hash = NULL, tx_tip_height = -1, status = 'starting', error = NULL,
  sync_progress = NULL, updated_at = now();
`;
