/**
 * Each address's output count (outputs ever paid to it, spent or not: with its UTXO count, Esplora's funded and
 * spent output counts in one row) and its script hash: SHA-256 of the output script that pays it, the key Esplora's `/scripthash/:hash`
 * paths (BDK, Electrum-style wallets) look addresses up by. Written with the address's first output (the
 * indexer sets it for the addresses of each batch that have none, from the batch's outputs, preferring a script
 * of the address's own kind to a bare pubkey or multisig one a node also names it for); filled here for an index
 * built before it, from each address's first output.
 */
export const addressOutputsSchema = `
ALTER TABLE addresses ADD COLUMN output_count integer NOT NULL DEFAULT 0;
UPDATE addresses a SET output_count = o.n
FROM (SELECT address_id, count(*)::int AS n FROM outputs WHERE address_id IS NOT NULL GROUP BY address_id) o
WHERE a.id = o.address_id;
ALTER TABLE addresses ADD COLUMN script_hash bytea;
UPDATE addresses a SET script_hash = sha256(o.script)
FROM (SELECT DISTINCT ON (address_id) address_id, script FROM outputs
      WHERE address_id IS NOT NULL ORDER BY address_id, script_type IN ('pubkey', 'multisig'), tx_no, vout) o
WHERE a.id = o.address_id;
CREATE INDEX addresses_script_hash ON addresses (script_hash);
`;
