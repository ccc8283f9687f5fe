/**
 * Each address's script hash: SHA-256 of the output script that pays it, the key Esplora's `/scripthash/:hash`
 * paths (BDK, Electrum-style wallets) look addresses up by. Written with the address's first output (the
 * indexer sets it for the addresses of each batch that have none, from the batch's outputs, preferring a script
 * of the address's own kind to a bare pubkey or multisig one a node also names it for); filled here for an index
 * built before it, from each address's first output.
 */
export const addressScriptHashSchema = `
ALTER TABLE addresses ADD COLUMN script_hash bytea;
UPDATE addresses a SET script_hash = sha256(o.script)
FROM (SELECT DISTINCT ON (address_id) address_id, script FROM outputs
      WHERE address_id IS NOT NULL ORDER BY address_id, script_type IN ('pubkey', 'multisig'), tx_no, vout) o
WHERE a.id = o.address_id;
CREATE INDEX addresses_script_hash ON addresses (script_hash);
`;
