import type { Store } from '@explorer/core';
import type { Sql } from './sql.js';
import { addressStoreMethods } from './store-addresses.js';
import { blockStoreMethods } from './store-blocks.js';
import { marketStoreMethods } from './store-market.js';
import { miningStoreMethods } from './store-mining.js';
import { proofStoreMethods } from './store-proofs.js';
import { createSearchStore } from './store-search.js';
import { stateStoreMethods } from './store-state.js';
import { txStoreMethods } from './store-txs.js';

export { feeRate } from './mappers.js';

/**
 * The Store the API reads, over any Sql (PGlite or PostgreSQL): one set of methods per resource, each in a
 * file of its own (`store-<resource>.ts`), over the named queries of `queries/`.
 * @example const api = createExplorerApi({ store: createSqlStore(sql), routes: v1Routes })
 */
export function createSqlStore(sql: Sql): Store {
  return {
    ...stateStoreMethods(sql),
    ...blockStoreMethods(sql),
    ...txStoreMethods(sql),
    ...addressStoreMethods(sql),
    ...proofStoreMethods(sql),
    ...miningStoreMethods(sql),
    ...createSearchStore(sql),
    ...marketStoreMethods(sql),
  };
}
