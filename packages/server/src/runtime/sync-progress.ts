import { type IndexerObserver, progressLine } from '@explorer/indexer';

/**
 * Writes the sync's progress for a person at a terminal, where the log's level hides the indexer's own
 * `syncing: …` lines (`npm start` runs the server at `warn`): each report of the indexer as one line, as it
 * is made, then one line when the index reaches the node. A sync of one batch reports nothing, and says
 * nothing. The indexer's observer that does it (createIndexer's `observe`).
 * @example createIndexer({ ..., observe: syncProgressWriter((line) => process.stderr.write(`${line}\n`)) })
 */
export function syncProgressWriter(write: (line: string) => void): IndexerObserver {
  let syncing = false;
  return {
    progress(report) {
      syncing = true;
      write(`explorer-server: ${progressLine(report)}`);
    },
    synced(height) {
      if (!syncing) return;
      syncing = false;
      write(`explorer-server: synced: the index reached the node at height ${height}`);
    },
  };
}

/** One observer that tells each of `observers` (the absent ones left out) what the indexer reports. */
export function observeAll(...observers: (IndexerObserver | undefined)[]): IndexerObserver {
  const all = observers.filter((o): o is IndexerObserver => o !== undefined);
  return {
    committed: (blocks, txs) => {
      for (const o of all) o.committed?.(blocks, txs);
    },
    reorg: (depth) => {
      for (const o of all) o.reorg?.(depth);
    },
    progress: (report) => {
      for (const o of all) o.progress?.(report);
    },
    synced: (height) => {
      for (const o of all) o.synced?.(height);
    },
  };
}
