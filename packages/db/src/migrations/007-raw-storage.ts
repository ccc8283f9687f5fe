/**
 * Leaner raw transactions, the bulk of what the initial sync writes.
 * - A chain whose blocks the indexer decodes from their bytes (Pearl) stores each transaction's bytes as hex in
 *   `raw_hex` and no JSON: the node's JSON is rendered from them when asked for (a fifth of the size, and
 *   nothing to render or escape while syncing). A chain read as the node's JSON (Bitcoin Core) keeps `raw`.
 * - Raw JSON (blocks, and transactions that keep it) is compressed with lz4 instead of PostgreSQL's default
 *   pglz: about twice as fast to write and a little smaller. Rows written before keep their compression until
 *   rewritten. A server built without lz4 (PGlite) keeps pglz.
 */
export const rawStorage = `
ALTER TABLE txs ALTER COLUMN raw DROP NOT NULL;
ALTER TABLE txs ADD COLUMN raw_hex text;
ALTER TABLE txs ADD CONSTRAINT txs_raw_kept CHECK (raw IS NOT NULL OR raw_hex IS NOT NULL);
DO $$
BEGIN
  ALTER TABLE txs ALTER COLUMN raw SET COMPRESSION lz4;
  ALTER TABLE blocks ALTER COLUMN raw SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available on this server: raw JSON stays compressed with pglz';
END
$$;
`;
