import type { SearchStore } from '@explorer/core';
import {
  type HexMatchQueryRow,
  type SearchQueryRow,
  selectBlocksAtHeights,
  selectHexPrefixMatches,
  selectKnownLabels,
  selectKnownPools,
  selectSearch,
  selectSuggestAddresses,
  selectSuggestPools,
} from './queries/search.js';
import type { Sql } from './sql.js';

/** Blocks and transactions of one hash or prefix lookup, each in the order the statement gave them. */
function splitHexMatches(rows: readonly HexMatchQueryRow[]) {
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
    async search(query) {
      const rows = await selectSearch(sql, query);
      const of = (kind: SearchQueryRow['kind']) => rows.filter((r) => r.kind === kind);
      const block = (r: SearchQueryRow | undefined) => (r ? { height: r.height!, hash: r.id } : null);
      const tx = of('tx')[0];
      return {
        height: block(of('height')[0]),
        block: block(of('block')[0]),
        tx: tx ? { txid: tx.id, blockHeight: tx.height! } : null,
        addresses: of('address').map((r) => ({
          address: r.id,
          seen: r.seen === true,
          label: r.name,
          minerBlocks: r.blocks,
        })),
        pools: of('pool').map((r) => ({ id: r.id, name: r.name!, blocks: r.blocks ?? 0 })),
        labels: of('label').map((r) => ({ address: r.id, label: r.name!, kind: r.label_kind ?? '' })),
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
