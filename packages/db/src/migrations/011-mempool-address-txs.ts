/**
 * An address's unconfirmed activity, kept by the indexer's mempool watcher so every API replica serves it
 * from the database (docs/fees.md#unconfirmed-activity-per-address).
 * - `mempool_address_txs`: one row per mempool transaction and address it pays or spends from: what the
 *   address received and sent in it, when the node first saw it, and the transaction's fee and virtual size.
 *   The address is its text, not the `addresses` id: an address first seen in the mempool has no id yet, and
 *   the id is the indexer's to give. The watcher changes it in the transaction that stores its reading (rows
 *   added for entering transactions, removed for leaving ones; replaced whole at its first reading), and a
 *   block write deletes the rows of the transactions it confirms, in the block's transaction.
 * - Its key serves an address's list newest first and its totals; the txid index serves the deletes.
 */
export const mempoolAddressTxsSchema = `
CREATE TABLE mempool_address_txs (
  address    text COLLATE "C" NOT NULL,
  first_seen bigint NOT NULL,
  txid       bytea NOT NULL,
  received   bigint NOT NULL,
  sent       bigint NOT NULL,
  fee        bigint NOT NULL,
  vsize      integer NOT NULL,
  PRIMARY KEY (address, first_seen, txid)
);
CREATE INDEX mempool_address_txs_txid ON mempool_address_txs (txid);
`;
