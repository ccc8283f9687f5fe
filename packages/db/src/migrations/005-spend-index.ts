/**
 * Spends are undone through the inputs that made them (indexed by block height), so outputs need no index of
 * their own on spent_height: one index fewer to maintain for every output spent.
 */
export const dropSpentHeightIndex = `
DROP INDEX IF EXISTS outputs_spent_height;
`;
