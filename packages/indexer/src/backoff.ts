/** How a polling loop backs off while its attempts fail. */
export interface Backoff {
  /** The wait after the first failure. */
  firstMs: number;
  /** The longest wait, however many failures follow. */
  maxMs: number;
}

/**
 * How long a polling loop waits after its `failures`-th failure in a row: `firstMs` after the first, doubling
 * with each one after it, never more than `maxMs`. The indexer, the mempool watcher and the market refresher
 * back off by it.
 * @example await sleep(backoffMs(failures, { firstMs: 2 * pollMs, maxMs: 30_000 }), signal)
 */
export function backoffMs(failures: number, { firstMs, maxMs }: Backoff): number {
  if (failures < 1) return 0;
  return Math.min(maxMs, firstMs * 2 ** Math.min(failures - 1, 40));
}
