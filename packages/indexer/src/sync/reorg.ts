import type { ChainEvent } from '@explorer/core';
import { blockHashesAt, REORG_EVENT_BLOCKS, rollbackTo, type Sql } from '@explorer/db';
import type { NodeClient } from '../node-client.js';

/** The chain reorganised deeper than the configured limit. */
export class ReorgTooDeepError extends Error {
  override readonly name = 'ReorgTooDeepError';
}

/**
 * The deepest reorg rolled back automatically: the configured limit, else 100, and none on regtest and simnet,
 * whose nodes start their chain anew by design (pearld deletes its regtest database at every start).
 */
export function maxReorgDepth(configured: number | null | undefined, network: string | null): number {
  return configured ?? (network === 'regtest' || network === 'simnet' ? Number.POSITIVE_INFINITY : 100);
}

/**
 * Finds the highest height where the index and the node agree, looking at most `maxDepth + 1` blocks below the
 * indexed tip, 20 heights per round trip; -1 when they agree on nothing down to genesis.
 * @throws ReorgTooDeepError when they disagree deeper than that.
 */
export async function findFork(
  sql: Sql,
  node: NodeClient,
  tipHeight: number,
  nodeHeight: number,
  maxDepth: number,
): Promise<number> {
  let h = Math.min(tipHeight, nodeHeight);
  const floor = Math.max(-1, tipHeight - maxDepth - 1);
  while (h > floor) {
    const heights: number[] = [];
    for (let x = h; x > floor && heights.length < 20; x--) heights.push(x);
    const [ours, theirs] = await Promise.all([
      blockHashesAt(sql, heights),
      node.batch<string>(heights.map((x) => ({ method: 'getblockhash', params: [x] }))),
    ]);
    for (let i = 0; i < heights.length; i++) {
      if (ours.get(heights[i]!) === theirs[i]) return heights[i]!;
    }
    h = heights[heights.length - 1]! - 1;
  }
  if (floor < 0) return -1;
  throw new ReorgTooDeepError(
    `the node's chain diverges more than ${maxDepth} blocks below the indexed tip ${tipHeight}; refusing to roll back`,
  );
}

/** What rolling back a reorg did. */
export interface ReorgRollback {
  fork: number;
  /** The node's height the new branch was read up to. */
  branchTop: number;
  removedBlocks: number;
  /** The blocks of the new branch the reorg event names (at most REORG_EVENT_BLOCKS above the fork). */
  added: { height: number; hash: string }[];
  newTip: { height: number; hash: string | null };
  /** The events appended with the rollback (the `reorg` event). */
  events: ChainEvent[];
}

/**
 * Rolls the index back to where it and the node agree, in one transaction run by `write` (the writer's, under
 * its lock), appending a `reorg` event that names the new branch's first blocks as the node has them now.
 * @example const r = await rollBackToFork({ sql, node, tipHeight, nodeHeight, maxDepth, write, retain });
 */
export async function rollBackToFork(o: {
  sql: Sql;
  node: NodeClient;
  tipHeight: number;
  nodeHeight: number;
  maxDepth: number;
  write: <T>(fn: (tx: Sql) => Promise<T>) => Promise<T>;
  retain?: number;
}): Promise<ReorgRollback> {
  const fork = await findFork(o.sql, o.node, o.tipHeight, o.nodeHeight, o.maxDepth);
  // The new branch as the node has it now (the node may have moved on since its height was read).
  const branchTop = Math.max(o.nodeHeight, await o.node.call<number>('getblockcount'));
  const addedHeights = Array.from(
    { length: Math.max(0, Math.min(branchTop - fork, REORG_EVENT_BLOCKS)) },
    (_, i) => fork + 1 + i,
  );
  const addedHashes =
    addedHeights.length > 0
      ? await o.node.batch<string>(addedHeights.map((x) => ({ method: 'getblockhash', params: [x] })))
      : [];
  const added = addedHeights.map((height, i) => ({ height, hash: addedHashes[i]! }));
  const r = await o.write((tx) => rollbackTo(tx, fork, { added, retain: o.retain }));
  return { fork, branchTop, removedBlocks: r.removedBlocks, added, newTip: r.newTip, events: r.events };
}
