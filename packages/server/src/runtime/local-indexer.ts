import type { Store } from '@explorer/core';
import { DatabaseError } from '@explorer/db';
import type { Indexer } from '@explorer/indexer';

/**
 * The store the API reads, told about an indexer running in this process: while the database cannot be read,
 * /v1/status reports that indexer's own state (database-unreachable or disk-full, its tip) instead of nothing.
 */
export function withLocalIndexer(store: Store, indexer: Indexer | null): Store {
  if (!indexer) return store;
  return {
    ...store,
    indexerState: () =>
      store.indexerState().then(
        (stored) => {
          // A full disk keeps the indexer from recording why it stopped: this process's indexer says it.
          const s = indexer.status();
          if (!stored || s.state !== 'disk-full') return stored;
          return { ...stored, state: s.state, error: s.error, progress: null };
        },
        (err) => {
          // Only a database that cannot be reached, or one whose full disk ends new connections: a bad
          // statement stays the error it is.
          if (!(err instanceof DatabaseError && (err.unavailable || err.diskFull))) throw err;
          const s = indexer.status();
          return {
            state: s.state,
            error: s.error,
            tipHeight: s.tipHeight,
            tipHash: s.tipHash,
            txTipHeight: s.tipHeight,
            nodeHeight: s.nodeHeight,
            reorgs: s.reorgs,
            lastReorgDepth: null,
            lastReorgAt: null,
            updatedAt: new Date().toISOString(),
            chain: s.chain,
            progress: s.state === 'syncing' ? s.progress : null,
          };
        },
      ),
  };
}
