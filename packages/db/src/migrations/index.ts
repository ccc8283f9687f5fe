import { chainSchema } from './001-chain.js';
import { analyticsIndexes } from './002-analytics.js';
import { apiKeysSchema } from './003-api-keys.js';
import { marketSchema } from './004-market.js';
import { dropSpentHeightIndex } from './005-spend-index.js';
import { pearlSchema } from './006-pearl.js';
import { rawStorage } from './007-raw-storage.js';
import { eventsSchema } from './008-events.js';
import { operatorStateSchema } from './009-operator-state.js';
import { storageV2 } from './010-storage-v2.js';
import { mempoolAddressTxsSchema } from './011-mempool-address-txs.js';
import { addressOutputsSchema } from './012-address-outputs.js';

/** One versioned schema change. Versions only ever grow; an applied migration is never edited. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /**
   * The migration drops the chain index and the indexer rebuilds it from the node: `migrate` applies it to a
   * database holding indexed blocks only when told to rebuild. What it may drop and must keep is INDEX_REBUILD
   * (migrate.ts), which operators are told before they agree.
   */
  rebuildsIndex?: boolean;
}

/** Every migration of the schema, in order. */
export const migrations: readonly Migration[] = [
  { version: 1, name: 'chain', sql: chainSchema },
  { version: 2, name: 'analytics-indexes', sql: analyticsIndexes },
  { version: 3, name: 'api-keys', sql: apiKeysSchema },
  { version: 4, name: 'market', sql: marketSchema },
  { version: 5, name: 'drop-spent-height-index', sql: dropSpentHeightIndex },
  { version: 6, name: 'pearl', sql: pearlSchema },
  { version: 7, name: 'raw-storage', sql: rawStorage },
  { version: 8, name: 'events', sql: eventsSchema },
  { version: 9, name: 'operator-state', sql: operatorStateSchema },
  { version: 10, name: 'storage-v2', sql: storageV2, rebuildsIndex: true },
  { version: 11, name: 'mempool-address-txs', sql: mempoolAddressTxsSchema },
  { version: 12, name: 'address-outputs', sql: addressOutputsSchema },
];
