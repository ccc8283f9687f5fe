import { DERIVED_TABLES } from '../derived/index.js';
import type { Sql } from '../sql.js';

/** What a rollback removed. */
export interface RollbackResult {
  removedBlocks: number;
  newTip: { height: number; hash: string | null };
}

/**
 * Removes every block above `forkHeight` and everything derived from it, inside the caller's transaction,
 * table by table as each derived table describes its rollback. Afterwards the database is exactly what
 * indexing the chain up to `forkHeight` would have produced.
 */
export async function rollbackTo(tx: Sql, forkHeight: number): Promise<RollbackResult> {
  const [{ n: removedBlocks } = { n: 0 }] = await tx.query<{ n: number }>(
    'SELECT count(*)::int4 AS n FROM blocks WHERE height > $1',
    [forkHeight],
    'rollback.count',
  );
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
  if (removedBlocks === 0) return { removedBlocks, newTip: { height: forkHeight, hash } };
  const height = hash ? forkHeight : -1;
  await tx.query(
    `UPDATE indexer_state SET tip_height = $1, tip_hash = $2, tx_tip_height = $1, reorgs = reorgs + 1,
       last_reorg_depth = $3, last_reorg_at = now(), updated_at = now() WHERE id = 1`,
    [height, hash, removedBlocks],
    'rollback.set-tip',
  );
  return { removedBlocks, newTip: { height, hash } };
}
