/** Chain data: blocks, certificates, transactions, inputs, outputs, address history and totals, rollups, indexer state. */
export const chainSchema = `
CREATE TABLE blocks (
  height          integer PRIMARY KEY,
  hash            text COLLATE "C" NOT NULL UNIQUE,
  prev_hash       text COLLATE "C",
  time            bigint NOT NULL,
  median_time     bigint NOT NULL,
  day             integer NOT NULL,
  version         bigint NOT NULL,
  merkle_root     text NOT NULL,
  bits            text NOT NULL,
  nonce           bigint NOT NULL,
  difficulty      double precision NOT NULL,
  chainwork       text NOT NULL,
  size            integer NOT NULL,
  stripped_size   integer,
  weight          integer,
  tx_count        integer NOT NULL,
  input_count     integer NOT NULL,
  output_count    integer NOT NULL,
  subsidy         bigint NOT NULL,
  fees            bigint NOT NULL,
  reward          bigint NOT NULL,
  value_out       bigint NOT NULL,
  op_return_value bigint NOT NULL,
  miner_address   text COLLATE "C",
  pool_id         text NOT NULL,
  coinbase_hex    text NOT NULL,
  coinbase_tag    text NOT NULL,
  has_certificate boolean NOT NULL,
  cum_tx_count    bigint NOT NULL,
  cum_emitted     bigint NOT NULL,
  cum_fees        bigint NOT NULL,
  cum_op_return   bigint NOT NULL,
  raw             json NOT NULL
);
CREATE INDEX blocks_miner ON blocks (miner_address, height DESC) WHERE miner_address IS NOT NULL;
CREATE INDEX blocks_pool ON blocks (pool_id, height DESC);
CREATE INDEX blocks_day ON blocks (day);
CREATE INDEX blocks_time ON blocks (time);

CREATE TABLE block_certificates (
  block_hash       text COLLATE "C" PRIMARY KEY,
  height           integer NOT NULL UNIQUE,
  day              integer NOT NULL,
  version          smallint NOT NULL,
  proof_commitment text NOT NULL,
  public_data      text NOT NULL,
  proof            bytea,
  proof_size       integer NOT NULL,
  is_moe           boolean NOT NULL
);

CREATE TABLE txs (
  txid         text COLLATE "C" PRIMARY KEY,
  block_height integer NOT NULL,
  block_index  integer NOT NULL,
  block_time   bigint NOT NULL,
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
  is_coinbase  boolean NOT NULL,
  type         text NOT NULL,
  raw          json NOT NULL
);
CREATE UNIQUE INDEX txs_position ON txs (block_height, block_index);

CREATE TABLE outputs (
  txid         text COLLATE "C" NOT NULL,
  vout         integer NOT NULL,
  block_height integer NOT NULL,
  block_index  integer NOT NULL,
  address      text COLLATE "C",
  value        bigint NOT NULL,
  script_type  text NOT NULL,
  script_hex   text NOT NULL,
  is_coinbase  boolean NOT NULL,
  spent_txid   text COLLATE "C",
  spent_vin    integer,
  spent_height integer,
  PRIMARY KEY (txid, vout)
);
CREATE INDEX outputs_block ON outputs (block_height, block_index, vout);
CREATE INDEX outputs_spent_height ON outputs (spent_height) WHERE spent_height IS NOT NULL;
CREATE INDEX outputs_unspent_address ON outputs (address, block_height DESC, block_index DESC, vout DESC)
  WHERE spent_txid IS NULL AND address IS NOT NULL;

CREATE TABLE inputs (
  txid         text COLLATE "C" NOT NULL,
  vin          integer NOT NULL,
  block_height integer NOT NULL,
  prev_txid    text COLLATE "C",
  prev_vout    integer,
  address      text COLLATE "C",
  value        bigint NOT NULL,
  sequence     bigint NOT NULL,
  PRIMARY KEY (txid, vin)
);
CREATE INDEX inputs_block ON inputs (block_height);

CREATE TABLE address_txs (
  address      text COLLATE "C" NOT NULL,
  block_height integer NOT NULL,
  block_index  integer NOT NULL,
  txid         text COLLATE "C" NOT NULL,
  block_time   bigint NOT NULL,
  received     bigint NOT NULL,
  sent         bigint NOT NULL,
  balance      bigint NOT NULL,
  PRIMARY KEY (address, block_height, block_index)
);
CREATE INDEX address_txs_height ON address_txs (block_height);

CREATE TABLE addresses (
  address           text COLLATE "C" PRIMARY KEY,
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

CREATE TABLE pools (
  id        text PRIMARY KEY,
  source_id integer,
  name      text NOT NULL,
  link      text,
  tags      text[] NOT NULL,
  addresses text[] NOT NULL
);
CREATE INDEX pools_name ON pools (lower(name) text_pattern_ops);

CREATE TABLE known_labels (
  address text COLLATE "C" PRIMARY KEY,
  label   text NOT NULL,
  kind    text NOT NULL,
  pool_id text
);

CREATE TABLE miner_stats (
  address      text COLLATE "C" PRIMARY KEY,
  blocks       integer NOT NULL,
  reward       bigint NOT NULL,
  first_height integer NOT NULL,
  last_height  integer NOT NULL
);
CREATE INDEX miner_stats_rank ON miner_stats (blocks DESC, address);

CREATE TABLE pool_stats (
  pool_id      text PRIMARY KEY,
  blocks       integer NOT NULL,
  reward       bigint NOT NULL,
  first_height integer NOT NULL,
  last_height  integer NOT NULL
);

CREATE TABLE daily_stats (
  day              integer PRIMARY KEY,
  blocks           integer NOT NULL,
  txs              bigint NOT NULL,
  size             bigint NOT NULL,
  fees             bigint NOT NULL,
  emitted          bigint NOT NULL,
  op_return_value  bigint NOT NULL,
  last_height      integer NOT NULL,
  last_difficulty  double precision NOT NULL,
  first_time       bigint NOT NULL,
  last_time        bigint NOT NULL,
  certificates     integer NOT NULL,
  moe_certificates integer NOT NULL,
  cert_v1          integer NOT NULL,
  cert_v2          integer NOT NULL,
  cert_v3          integer NOT NULL,
  cert_v4          integer NOT NULL,
  proof_bytes      bigint NOT NULL,
  proof_min        integer,
  proof_max        integer
);

CREATE TABLE daily_pool_blocks (
  day     integer NOT NULL,
  pool_id text NOT NULL,
  blocks  integer NOT NULL,
  reward  bigint NOT NULL,
  PRIMARY KEY (day, pool_id)
);
CREATE INDEX daily_pool_blocks_pool ON daily_pool_blocks (pool_id, day);

CREATE TABLE daily_miner_blocks (
  day     integer NOT NULL,
  address text COLLATE "C" NOT NULL,
  blocks  integer NOT NULL,
  PRIMARY KEY (address, day)
);
CREATE INDEX daily_miner_blocks_day ON daily_miner_blocks (day);

CREATE TABLE indexer_state (
  id               smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  tip_height       integer NOT NULL DEFAULT -1,
  tip_hash         text,
  tx_tip_height    integer NOT NULL DEFAULT -1,
  node_height      integer,
  status           text NOT NULL DEFAULT 'starting',
  error            text,
  definitions_hash text,
  reorgs           integer NOT NULL DEFAULT 0,
  last_reorg_depth integer,
  last_reorg_at    timestamptz,
  started_at       timestamptz,
  updated_at       timestamptz NOT NULL DEFAULT now()
);
INSERT INTO indexer_state (id) VALUES (1);
`;
