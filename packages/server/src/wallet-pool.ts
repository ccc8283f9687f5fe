import { availableParallelism } from 'node:os';
import {
  deriveInThread,
  ServiceUnavailableError,
  type WalletDeriveJob,
  type WalletDeriver,
} from '@explorer/core';
import { Piscina } from 'piscina';

/** Derivations each thread may have queued before a request that needs one is refused. */
export const WALLET_QUEUE_PER_THREAD = 64;

/** A wallet deriver and what stops it. */
export interface WalletPool {
  derive: WalletDeriver;
  /** Threads deriving (0: the request thread derives). */
  threads: number;
  close(): Promise<void>;
}

/** The default thread count: one fewer than the cores, so the request thread keeps one, and at least one. */
export const defaultWalletThreads = (): number => Math.max(1, availableParallelism() - 1);

/**
 * Wallet key derivation off the request thread: a bounded pool of worker threads (piscina), each deriving one
 * window of addresses at a time, with up to WALLET_QUEUE_PER_THREAD jobs per thread queued behind them; past
 * that, a job is refused with a 503 and `Retry-After: 1`, so a burst of fresh keys waits or is told to retry,
 * and never holds up the requests that need no derivation. `threads` 0 derives in the request thread.
 * @example const pool = createWalletPool(config.walletThreads ?? defaultWalletThreads()); createExplorerApi({ …, walletDeriver: pool.derive })
 */
export function createWalletPool(threads: number, opts: { queuePerThread?: number } = {}): WalletPool {
  if (threads === 0) return { derive: deriveInThread, threads, close: async () => {} };
  const maxQueue = threads * (opts.queuePerThread ?? WALLET_QUEUE_PER_THREAD);
  const pool = new Piscina<WalletDeriveJob, string[]>({
    filename: new URL('./wallet-worker.js', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    maxQueue,
    // Threads stay: starting one costs more than most derivations.
    idleTimeout: Number.POSITIVE_INFINITY,
  });
  return {
    threads,
    async derive(job) {
      if (pool.queueSize >= maxQueue) {
        throw new ServiceUnavailableError(
          `wallet key derivation is busy (${maxQueue} derivations queued); retry in a second`,
          1,
        );
      }
      return pool.run(job);
    },
    close: () => pool.destroy(),
  };
}
