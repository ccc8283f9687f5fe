import type { FeeEstimates } from '../schemas/events.js';

/** Recent blocks whose lowest included fee rates make the floor. */
export const FEE_RECENT_BLOCKS = 10;
/**
 * The minimum relay fee rate assumed when the node reports none (pearld's getmempoolinfo has no
 * `mempoolminfee`): 1 base unit per vbyte, the default of Bitcoin Core and of btcd, which pearld inherits.
 */
export const DEFAULT_MIN_RELAY_RATE = 1;
/** Target seconds between blocks when the chain's are not known (Bitcoin's). */
export const DEFAULT_BLOCK_SECONDS = 600;
/** Virtual bytes a block holds when the chain's limit is not known (Bitcoin's and Pearl's). */
export const DEFAULT_BLOCK_VSIZE = 1_000_000;

/** One mempool transaction as the estimate reads it: its fee (base units) and virtual size. */
export interface FeeTx {
  fee: number;
  vsize: number;
}

/** What a fee estimate is computed from. */
export interface FeeEstimateInput {
  /** The mempool's transactions; an empty list stands for an empty (or unread) mempool. */
  txs: readonly FeeTx[];
  /** Whether `txs` is a mempool reading (false: the estimate stands on recent blocks alone). */
  mempoolRead?: boolean;
  /** The lowest fee rate each recent block included (base units per vbyte), any order. */
  recentFloors: readonly number[];
  /** The node's minimum relay fee rate; null when it reports none ({@link DEFAULT_MIN_RELAY_RATE}). */
  minRelayRate: number | null;
  /** Virtual bytes one block holds. */
  blockVsize: number;
  /** Target seconds between blocks. */
  blockSeconds: number;
  /** When the mempool was read (milliseconds since the epoch). */
  at: number;
}

// Rates are handled as integers of 0.001 base unit per vbyte ("milli-rates"), so every comparison and every
// rounding is exact: a rate is rounded up once, where it is first computed, and never again.
const MILLI = 1000;

/** fee ÷ vsize in milli-rates, rounded up (exact for fees below 2^53 ÷ 1000). */
const milliRateOf = (fee: number, vsize: number) => Math.ceil((fee * MILLI) / vsize);
/** A rate given in base units per vbyte, in milli-rates, rounded up (tolerating float noise). */
const toMilli = (rate: number) => Math.max(0, Math.ceil(rate * MILLI - 1e-6));
const fromMilli = (milli: number) => milli / MILLI;

/** Blocks to be confirmed within `seconds`, at `blockSeconds` a block: ⌈seconds ÷ blockSeconds⌉, at least 1. */
export function blocksWithin(seconds: number, blockSeconds: number): number {
  return Math.max(1, Math.ceil(seconds / Math.max(1, blockSeconds)));
}

/**
 * The median of rates in milli-rates: the middle one, or for an even count the mean of the two middle ones
 * rounded up; null for none.
 */
function medianMilli(milli: number[]): number | null {
  if (milli.length === 0) return null;
  const sorted = [...milli].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : Math.ceil((sorted[mid - 1]! + sorted[mid]!) / 2);
}

/**
 * Recommended fee rates from a mempool and recent blocks (docs/fees.md states the method with a worked
 * example). The mempool, sorted by fee rate highest first, is cut into projected blocks of `blockVsize`
 * vbytes; the target for n blocks is the fee rate at the mempool's (n × blockVsize)-th vbyte — the lowest
 * rate of projected block n — when the mempool fills n blocks, else the floor; no target is below the floor.
 * The floor (`economy`) is the median of recent blocks' lowest included fee rates, never below the node's
 * minimum relay rate. Every rate is rounded up to 0.001. A pure function: the same input, the same answer.
 * @example estimateFees({ txs, recentFloors: [1, 1.5, 2], minRelayRate: 1, blockVsize: 1_000_000, blockSeconds: 194, at: Date.now() })
 */
export function estimateFees(input: FeeEstimateInput): FeeEstimates {
  const blockVsize = Math.max(1, Math.floor(input.blockVsize));
  const blockSeconds = Math.max(1, Math.floor(input.blockSeconds));
  const rated: { milli: number; vsize: number }[] = [];
  let mempoolVsize = 0;
  for (const tx of input.txs) {
    const vsize = Math.max(0, Math.floor(tx.vsize));
    if (vsize === 0) continue;
    mempoolVsize += vsize;
    rated.push({ milli: milliRateOf(Math.max(0, tx.fee), vsize), vsize });
  }
  // Ties need no order of their own: the rate at a given vbyte does not depend on how equal rates are ordered.
  rated.sort((a, b) => b.milli - a.milli);

  const minimum = toMilli(input.minRelayRate ?? DEFAULT_MIN_RELAY_RATE);
  const recentFloor = medianMilli(input.recentFloors.map(toMilli));
  const economy = Math.max(recentFloor ?? 0, minimum);

  const halfHour = blocksWithin(1800, blockSeconds);
  const hour = blocksWithin(3600, blockSeconds);
  const wanted = [1, halfHour, hour];
  // One pass over the sorted mempool finds the rate at each boundary n × blockVsize.
  const atBoundary = new Map<number, number>();
  let i = 0;
  let filled = 0;
  for (const n of wanted) {
    const boundary = n * blockVsize;
    while (i < rated.length && filled + rated[i]!.vsize < boundary) filled += rated[i++]!.vsize;
    if (i < rated.length) atBoundary.set(n, rated[i]!.milli);
  }
  const target = (n: number) => Math.max(atBoundary.get(n) ?? economy, economy);

  return {
    nextBlock: fromMilli(target(1)),
    halfHour: fromMilli(target(halfHour)),
    hour: fromMilli(target(hour)),
    economy: fromMilli(economy),
    minimum: fromMilli(minimum),
    blockTargets: { halfHour, hour },
    basis: {
      mempoolRead: input.mempoolRead ?? true,
      mempoolTxs: input.txs.length,
      mempoolVsize,
      blockVsize,
      blockSeconds,
      projectedBlocks: Math.ceil(mempoolVsize / blockVsize),
      recentBlocks: input.recentFloors.length,
      recentFloor: recentFloor === null ? null : fromMilli(recentFloor),
    },
    updatedAt: new Date(input.at).toISOString(),
  };
}
