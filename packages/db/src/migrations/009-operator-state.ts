/**
 * What an operator needs to see of a running deployment, kept with the index:
 * - `indexer_state.sync_progress`: the figures of a sync's last progress report (heights, pace, ETA), so that
 *   /v1/status in any process shows them; null when no sync runs.
 * - `indexer_state.definitions_source`: where the stored pool and label definitions came from and when they
 *   were loaded, so a restart without the files keeps them and can say so.
 * - `pools.position`: the order of the pool definitions, which decides attribution when two pools match, so
 *   definitions read back from the database attribute exactly as the file did.
 * - `market_health.configured`: false when the indexer runs beside a chain node with no market-data provider
 *   configured (the API then says so instead of serving made-up prices); true once a refresher recorded its
 *   provider; null before either.
 */
export const operatorStateSchema = `
ALTER TABLE indexer_state ADD COLUMN sync_progress json;
ALTER TABLE indexer_state ADD COLUMN definitions_source json;
ALTER TABLE pools ADD COLUMN position integer;
ALTER TABLE market_health ADD COLUMN configured boolean;
UPDATE market_health SET configured = true WHERE provider IS NOT NULL;
`;
