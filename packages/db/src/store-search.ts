import type { SearchStore } from '@explorer/core';
import {
  type HashMatchesQueryRow,
  selectBlocksAtHeights,
  selectHashMatches,
  selectHexPrefixMatches,
  selectKnownLabels,
  selectKnownPools,
  selectNameMatches,
  selectSearchAddresses,
  selectSuggestAddresses,
  selectSuggestPools,
} from './queries/search.js';
import type { Sql } from './sql.js';

/** Blocks and transactions of one hash or prefix lookup, each in the order the statement gave them. */
function splitHexMatches(rows: readonly HashMatchesQueryRow[]) {
  return {
    blocks: rows.flatMap((r) => (r.kind === 'block' ? [{ height: r.height, hash: r.id }] : [])),
    txs: rows.flatMap((r) => (r.kind === 'tx' ? [{ txid: r.id, blockHeight: r.height }] : [])),
  };
}

/**
 * The search, suggest and known-address reads over SQL. Every lookup is served by a primary or unique key
 * (prefixes as key ranges); pools and labels are the small definition tables. createSqlStore includes these.
 * @example const matches = await createSearchStore(sql).suggestTxs('9b1a', 10)
 */
export function createSearchStore(sql: Sql): SearchStore {
  return {
    searchBlocksAtHeights: (heights) =>
      heights.length === 0 ? Promise.resolve([]) : selectBlocksAtHeights(sql, heights),
    async searchHash(hash) {
      const { blocks, txs } = splitHexMatches(await selectHashMatches(sql, hash));
      return { block: blocks[0] ?? null, tx: txs[0] ?? null };
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
    async searchNames(text, labelLimit) {
      const rows = await selectNameMatches(sql, text, labelLimit);
      return {
        pools: rows.flatMap((r) =>
          r.kind === 'pool' ? [{ id: r.id, name: r.name, blocks: r.blocks ?? 0 }] : [],
        ),
        labels: rows.flatMap((r) =>
          r.kind === 'label' ? [{ address: r.id, label: r.name, kind: r.label_kind ?? '' }] : [],
        ),
      };
    },
    async suggestHex(prefix, limit) {
      return splitHexMatches(await selectHexPrefixMatches(sql, prefix, limit));
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
