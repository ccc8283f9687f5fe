import { type StoredBlock, type TxEntry, UNDO_WINDOW } from '../chain/state.js';
import type { DevnetNode } from '../node.js';
import { RpcError } from '../rpc-error.js';

/** Options of a scripted reorg. */
export interface ReorgOptions {
  /** Blocks beyond `depth` in the competing branch (≥ 1, so it has more work). Default 1. */
  extra?: number;
  /** Re-mine some removed txs in other blocks of the new branch (the rest return to the mempool). Default true. */
  moveTxs?: boolean;
  /**
   * Default true: the new branch has new coinbases, so txs spending removed coinbase outputs are dropped
   * (recursively). false: the replaced heights are re-mined with the same coinbase and txs (only headers
   * change), so nothing is dropped; moveTxs is then ignored.
   */
  dropCoinbaseSpends?: boolean;
}

/** What a reorg did: the fork point, the blocks taken off the best chain and the ones added, in height order. */
export interface ReorgResult {
  forkHeight: number;
  removed: string[];
  added: string[];
  /** Txids that did not survive (spent outputs that no longer exist). */
  dropped: string[];
}

/** Replaces the top `depth` blocks with a longer competing branch built on block height-depth. */
export function reorg(node: DevnetNode, depth: number, opts: ReorgOptions = {}): ReorgResult {
  const state = node.state;
  const extra = opts.extra ?? 1;
  if (!Number.isInteger(depth) || depth < 1 || depth > state.height || depth > UNDO_WINDOW)
    throw new RpcError(-8, `Invalid reorg depth ${depth} (1..${Math.min(state.height, UNDO_WINDOW)})`);
  if (!Number.isInteger(extra) || extra < 1) throw new RpcError(-8, 'extra must be an integer >= 1');
  const rng = node.rng;
  const forkHeight = state.height - depth;
  const oldMempool = state.drainMempool();
  const removedBlocks: StoredBlock[] = [];
  const removedEntries: TxEntry[][] = [];
  for (let i = 0; i < depth; i++) {
    removedBlocks.unshift(state.tip() as StoredBlock);
    removedEntries.unshift(state.disconnectTip());
  }
  const added: string[] = [];
  const dropped: string[] = [];
  const total = depth + extra;
  if (opts.dropCoinbaseSpends === false) {
    removedEntries.forEach((entries) => {
      for (const e of entries.slice(1)) if (!state.accept(e)) throw new Error('re-mined tx failed to apply');
      added.push(node.maker.mine(entries.slice(1), { coinbase: entries[0] }).hash);
    });
    for (const e of oldMempool) if (!state.accept(e)) dropped.push(e.txid);
    for (let i = 0; i < extra; i++) added.push(node.mineBlock().hash);
    return { forkHeight, removed: removedBlocks.map((b) => b.hash), added, dropped };
  }
  const moveTo = new Map<TxEntry, number>();
  removedEntries.forEach((entries, blockIndex) => {
    for (const e of entries.slice(1)) {
      if (opts.moveTxs === false || !rng.chance(0.6)) continue;
      // A different block of the new branch: same height never reuses the old position.
      moveTo.set(e, Math.min(total - 1, blockIndex + 1 + rng.int(2)));
    }
  });
  const candidates = [...removedEntries.flatMap((entries) => entries.slice(1)), ...oldMempool];
  for (const e of candidates) if (!state.accept(e)) dropped.push(e.txid);
  for (let k = 0; k < total; k++) {
    const chosen = new Set<TxEntry>();
    for (const [e, dest] of moveTo)
      if (dest <= k && state.mempoolIndex.get(e.txid) === e) {
        chosen.add(e);
        moveTo.delete(e);
      }
    const fresh = node.addTxs(Math.max(0, node.blockTarget() - chosen.size));
    for (const e of fresh) chosen.add(e);
    added.push(node.mineSelected(chosen).hash);
  }
  node.topUp();
  return { forkHeight, removed: removedBlocks.map((b) => b.hash), added, dropped };
}
