import type { ChainEvent } from '@explorer/core';
import { DERIVED_TABLES } from '../derived/index.js';
import type { Sql } from '../sql.js';
import { appendEvents } from './events.js';
import { lockTip } from './ingest.js';

/** A block named by height and hash. */
export interface BlockRef {
  height: number;
  hash: string;
}

/** What a rollback removed, and the `reorg` event it appended (none when nothing was removed). */
export interface RollbackResult {
  removedBlocks: number;
  newTip: { height: number; hash: string | null };
  events: ChainEvent[];
}

/** What the `reorg` event of a rollback says beyond what the database knows. */
export interface RollbackOptions {
  /** The new branch above the fork as the node has it now, lowest first (the event keeps at most 100). */
  added?: readonly BlockRef[];
  /** Events the log keeps (default 10,000). */
  retain?: number;
}

/** Blocks a `reorg` event names on each side at most; the fork point says the rest. */
export const REORG_EVENT_BLOCKS = 100;

/**
 * Removes every block above `forkHeight` and everything derived from it, inside the caller's transaction,
 * table by table as each derived table describes its rollback, and appends the `reorg` event (webhook
 * deliveries included) in the same transaction: whoever rolls back, whenever, a subscriber hears of it.
 * Afterwards the database is exactly what indexing the chain up to `forkHeight` would have produced.
 */
export async function rollbackTo(
  tx: Sql,
  forkHeight: number,
  opts: RollbackOptions = {},
): Promise<RollbackResult> {
  // The tip row first, as every write of the index takes it: the mempool watcher's reading (which takes it in
  // share mode) then never interleaves with a rollback.
  await lockTip(tx);
  const removed = await tx.query<BlockRef>(
    'SELECT height, hash FROM blocks WHERE height > $1 ORDER BY height',
    [forkHeight],
    'rollback.removed',
  );
  const removedBlocks = removed.length;
  if (removedBlocks > 0) {
    const undone: unknown[] = [];
    for (const t of DERIVED_TABLES) undone.push(await t.rollback.undo?.(tx, forkHeight));
    for (const t of DERIVED_TABLES) await t.rollback.remove?.(tx, forkHeight);
    for (const [i, t] of DERIVED_TABLES.entries()) await t.rollback.settle?.(tx, forkHeight, undone[i]);
  }
  const [tip] = await tx.query<{ hash: string | null }>(
    'SELECT hash FROM blocks WHERE height = $1',
    [forkHeight],
    'rollback.tip',
  );
  const hash = tip?.hash ?? null;
  if (removedBlocks === 0) return { removedBlocks, newTip: { height: forkHeight, hash }, events: [] };
  const height = hash ? forkHeight : -1;
  await tx.query(
    `UPDATE indexer_state SET tip_height = $1, tip_hash = $2, tx_tip_height = $1, reorgs = reorgs + 1,
       last_reorg_depth = $3, last_reorg_at = now(), updated_at = now() WHERE id = 1`,
    [height, hash, removedBlocks],
    'rollback.set-tip',
  );
  const events = await appendEvents(
    tx,
    [
      {
        type: 'reorg',
        data: {
          forkHeight: height,
          forkHash: hash,
          removed: removed.slice(0, REORG_EVENT_BLOCKS).map((b) => ({ height: b.height, hash: b.hash })),
          added: (opts.added ?? [])
            .filter((b) => b.height > height)
            .slice(0, REORG_EVENT_BLOCKS)
            .map((b) => ({ height: b.height, hash: b.hash })),
        },
      },
    ],
    { retain: opts.retain },
  );
  return { removedBlocks, newTip: { height, hash }, events };
}
