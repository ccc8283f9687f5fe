import { type Indexer, progressLine } from '@explorer/indexer';

/** How often the terminal's progress line is looked for; the indexer renews its figures every 5 s. */
const LOOK_MS = 1_000;

/**
 * Writes the sync's progress for a person at a terminal, where the log's level hides the indexer's own
 * `syncing: …` lines (`npm start` runs the server at `warn`): each new report of the indexer as one line,
 * then one line when the index reaches the node. Returns the function that stops it.
 * @example const stop = followSyncProgress(indexer, (line) => process.stderr.write(`${line}\n`))
 */
export function followSyncProgress(indexer: Indexer, write: (line: string) => void): () => void {
  let last: string | null = null;
  let syncing = false;
  const look = () => {
    const s = indexer.status();
    const p = s.progress;
    if (p && p.updatedAt !== last) {
      last = p.updatedAt;
      syncing = true;
      write(`explorer-server: ${progressLine(p)}`);
    } else if (syncing && s.state === 'synced') {
      syncing = false;
      write(`explorer-server: synced: the index reached the node at height ${s.tipHeight}`);
    }
  };
  const timer = setInterval(look, LOOK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
