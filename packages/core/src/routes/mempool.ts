import { ServiceUnavailableError } from '../errors.js';
import { defineRoute, type RouteContext } from '../route.js';
import { FeeEstimatesSchema } from '../schemas/events.js';
import { type MempoolSummary, MempoolSummarySchema } from '../schemas/search.js';
import { currentFees } from './fees.js';

/** How long one mempool summary is reused, in milliseconds. */
export const MEMPOOL_CACHE_MS = 2_000;
/** Lower edges of the mempool fee-rate buckets, base units per vbyte; the last bucket is open. */
export const FEE_RATE_EDGES = [0, 1, 2, 3, 5, 8, 12, 20, 30, 50, 80, 120, 200] as const;
const MEMPOOL_UNAVAILABLE = 'the chain node is unreachable; mempool data is unavailable';

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const coinsToUnits = (coins: number) => Math.round(coins * 1e8);

/** One entry of `getrawmempool true`: fee in base units, virtual size in vbytes. */
export interface MempoolEntry {
  txid: string;
  fee: number;
  vsize: number;
  /** When the node first saw it (`time`, Unix seconds); null when the node does not say. */
  time: number | null;
}

/**
 * The entries of a `getrawmempool true` answer, in the node's order: the fee from `fees.base` (Core ≥ 0.19) or
 * `fee` (older Core, pearld), in coins, as base units; the size from `vsize`, else `size`; the entry time from `time`.
 */
export function mempoolEntries(verbose: unknown): MempoolEntry[] {
  const entries = Object.entries((verbose ?? {}) as Record<string, Record<string, unknown> | null>);
  return entries.map(([txid, e]) => {
    const fees = e?.fees as Record<string, unknown> | undefined;
    return {
      txid,
      fee: coinsToUnits(num(fees?.base) ?? num(e?.fee) ?? 0),
      vsize: Math.round(num(e?.vsize) ?? num(e?.size) ?? 0),
      time: num(e?.time) === null ? null : Math.max(0, Math.trunc(num(e?.time)!)),
    };
  });
}

/**
 * The node's minimum relay fee rate from `getmempoolinfo`, base units per vbyte: `mempoolminfee` (which rises
 * when the mempool is full), else `minrelaytxfee`; null when it reports neither (pearld).
 */
export function nodeMinFeeRate(info: unknown): number | null {
  const i = (info ?? {}) as Record<string, unknown>;
  const minFee = num(i.mempoolminfee) ?? num(i.minrelaytxfee);
  // In coins per 1,000 vbytes.
  return minFee === null ? null : coinsToUnits(minFee) / 1000;
}

/** Summarises `getmempoolinfo` and `getrawmempool true` (fees as `fees.base`, Core ≥ 0.19, or `fee`). */
export function summarizeMempool(info: unknown, verbose: unknown, now: number): MempoolSummary {
  const entries = mempoolEntries(verbose);
  const buckets = FEE_RATE_EDGES.map((min, i) => ({
    minFeeRate: min,
    maxFeeRate: FEE_RATE_EDGES[i + 1] ?? null,
    count: 0,
    vsize: 0,
  }));
  let bytes = 0;
  let totalFee = 0;
  const rated: { txid: string; rate: number }[] = [];
  for (const { txid, fee, vsize } of entries) {
    const rate = vsize > 0 ? fee / vsize : 0;
    bytes += vsize;
    totalFee += fee;
    let i = buckets.length - 1;
    while (i > 0 && rate < FEE_RATE_EDGES[i]!) i--;
    const bucket = buckets[i]!;
    bucket.count++;
    bucket.vsize += vsize;
    rated.push({ txid, rate });
  }
  rated.sort((a, b) => b.rate - a.rate || (a.txid < b.txid ? -1 : a.txid > b.txid ? 1 : 0));
  const usage = num(((info ?? {}) as Record<string, unknown>).usage);
  return {
    count: entries.length,
    bytes,
    ...(usage !== null ? { usage: Math.round(usage) } : {}),
    totalFee: String(totalFee),
    minFeeRate: nodeMinFeeRate(info) ?? 0,
    feeRateBuckets: buckets,
    sampleTxids: rated
      .filter((r) => /^[0-9a-f]{64}$/.test(r.txid))
      .slice(0, 10)
      .map((r) => r.txid),
    updatedAt: new Date(now).toISOString(),
  };
}

/** The node's mempool as read once: `getmempoolinfo`, `getrawmempool true` and its entries, and when. */
export interface NodeMempool {
  info: unknown;
  verbose: unknown;
  entries: MempoolEntry[];
  /** When the node was asked (milliseconds since the epoch). */
  at: number;
}

/**
 * The node's mempool, asked at most once per MEMPOOL_CACHE_MS and shared by every route that reads it (/v1's
 * summary, the adapters' lists); a failure is not kept, so the next request asks again. 503 without a node
 * that answers.
 */
export function nodeMempool(ctx: RouteContext<unknown, unknown>): Promise<NodeMempool> {
  const node = ctx.node;
  if (node === null) return Promise.reject(new ServiceUnavailableError(MEMPOOL_UNAVAILABLE));
  const at = ctx.now;
  return ctx
    .live(
      'mempool-node',
      async () => {
        const [info, verbose] = await Promise.all([
          node.call('getmempoolinfo', []),
          node.call('getrawmempool', [true]),
        ]);
        return { info, verbose, entries: mempoolEntries(verbose), at };
      },
      { ttlMs: MEMPOOL_CACHE_MS },
    )
    .catch(() => {
      throw new ServiceUnavailableError(MEMPOOL_UNAVAILABLE);
    });
}

/** /v1/mempool. */
export const mempoolRoutes = [
  defineRoute({
    id: 'getMempool',
    path: '/v1/mempool',
    tag: 'Mempool',
    summary: 'Mempool summary',
    description:
      'Asked from the chain node (reused for 2 s): count, virtual size, total fee, minimum fee rate, a fee-rate histogram and the 10 highest-fee-rate txids; with the fee estimates of /v1/fees. 503 when the node cannot answer.',
    response: {
      mempool: MempoolSummarySchema,
      fees: FeeEstimatesSchema.describe('Recommended fee rates, as /v1/fees serves them.'),
    },
    async handler(ctx) {
      // One reading of the node serves every request of MEMPOOL_CACHE_MS, summarised once.
      const mempool = await ctx.live(
        'mempool',
        async () => {
          const m = await nodeMempool(ctx);
          return summarizeMempool(m.info, m.verbose, m.at);
        },
        { ttlMs: MEMPOOL_CACHE_MS },
      );
      return { body: { mempool, fees: await currentFees(ctx.store, ctx.now) } };
    },
  }),
] as const;
