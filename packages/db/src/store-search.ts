import type { SearchStore } from '@explorer/core';
import {
  selectBlockByHash,
  selectBlocksAtHeights,
  selectKnownLabels,
  selectKnownPools,
  selectSearchAddresses,
  selectSearchLabels,
  selectSearchPools,
  selectSuggestAddresses,
  selectSuggestBlocks,
  selectSuggestPools,
  selectSuggestTxs,
  selectTxById,
} from './queries/search.js';
import type { Sql } from './sql.js';

/**
 * The search, suggest and known-address reads over SQL. Every lookup is served by a primary or unique key
 * (prefixes as key ranges); pools and labels are the small definition tables. createSqlStore includes these.
 * @example const matches = await createSearchStore(sql).suggestTxs('9b1a', 10)
 */
export function createSearchStore(sql: Sql): SearchStore {
  return {
    searchBlocksAtHeights: (heights) =>
      heights.length === 0 ? Promise.resolve([]) : selectBlocksAtHeights(sql, heights),
    searchBlockByHash: (hash) => selectBlockByHash(sql, hash),
    async searchTx(txid) {
      const row = await selectTxById(sql, txid);
      return row && { txid: row.txid, blockHeight: row.block_height };
    },
    async searchAddresses(addresses) {
      if (addresses.length === 0) return [];
      const rows = await selectSearchAddresses(sql, addresses);
      return rows.map((r) => ({
        address: r.address,
        seen: r.seen,
        label: r.label,
        minerBlocks: r.miner_blocks,
      }));
    },
    searchPools: (text) => selectSearchPools(sql, text),
    searchLabels: (text, limit) => selectSearchLabels(sql, text, limit),
    suggestBlocks: (prefix, limit) => selectSuggestBlocks(sql, prefix, limit),
    async suggestTxs(prefix, limit) {
      const rows = await selectSuggestTxs(sql, prefix, limit);
      return rows.map((r) => ({ txid: r.txid, blockHeight: r.block_height }));
    },
    suggestAddresses: (prefix, limit) => selectSuggestAddresses(sql, prefix, limit),
    suggestPools: (prefix, limit) => selectSuggestPools(sql, prefix, limit),
    async knownLabels() {
      const rows = await selectKnownLabels(sql);
      return rows.map((r) => ({
        address: r.address,
        label: r.label,
        kind: r.kind,
        poolId: r.pool_id,
        poolName: r.pool_name,
      }));
    },
    async knownPools() {
      const rows = await selectKnownPools(sql);
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        link: r.link,
        addresses: r.addresses,
        tags: r.tags,
      }));
    },
  };
}
