import {
  DEFAULT_BLOCK_SECONDS,
  DEFAULT_BLOCK_VSIZE,
  estimateFees,
  FEE_RECENT_BLOCKS,
} from '../fees/estimate.js';
import { defineRoute } from '../route.js';
import { type FeeEstimates, FeeEstimatesSchema } from '../schemas/events.js';
import type { Store } from '../store.js';

/**
 * The fee estimates every replica serves: those the indexer's mempool watcher stored with its last reading.
 * Before any reading (an API-only process ahead of the indexer's first), the same method over an empty mempool:
 * every target is the floor of recent blocks, on the block interval and size the indexer recorded for the chain.
 */
export async function currentFees(store: Store, now: number): Promise<FeeEstimates> {
  const stored = await store.mempoolState();
  if (stored) return stored.fees;
  const [floors, state] = await Promise.all([
    store.recentBlockFloors(FEE_RECENT_BLOCKS),
    store.indexerState(),
  ]);
  return estimateFees({
    txs: [],
    mempoolRead: false,
    recentFloors: floors,
    minRelayRate: null,
    blockVsize: state.chain?.maxBlockVsize ?? DEFAULT_BLOCK_VSIZE,
    blockSeconds: state.chain?.blockSeconds ?? DEFAULT_BLOCK_SECONDS,
    at: now,
  });
}

/** /v1/fees. */
export const feeRoutes = [
  defineRoute({
    id: 'getFees',
    path: '/v1/fees',
    tag: 'Mempool',
    summary: 'Recommended fee rates',
    description:
      'Fee rates (base units per virtual byte) for the next block, ~30 minutes, ~1 hour and eventually, from the mempool’s fee rates and the lowest rates recent blocks included (method: docs/fees.md). Computed by the indexer at each mempool reading and stored, so every replica answers the same; before the first reading, from recent blocks alone (`basis.mempoolRead` false).',
    response: { fees: FeeEstimatesSchema },
    async handler(ctx) {
      return { body: { fees: await currentFees(ctx.store, ctx.now) } };
    },
  }),
] as const;
