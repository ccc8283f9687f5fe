/** The miner ranking index in the list's keyset order, and case-insensitive label search. */
export const analyticsIndexes = `
DROP INDEX IF EXISTS miner_stats_rank;
CREATE INDEX miner_stats_rank ON miner_stats (blocks DESC, address DESC);
CREATE INDEX known_labels_label ON known_labels (lower(label));
`;
