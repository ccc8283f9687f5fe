import { z } from 'zod';
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

/** The most blocks a target may name: Bitcoin Core's `estimatesmartfee` limit (a week of 10-minute blocks). */
export const MAX_FEE_TARGET_BLOCKS = 1_008;

/**
 * The rate (base units per virtual byte) of the estimate standing for a confirmation target of `blocks`: the
 * next block for 1, then the ~30 minute and ~1 hour targets for up to their block counts, `economy` beyond.
 */
export function feeRateForBlocks(fees: FeeEstimates, blocks: number): number {
  if (blocks <= 1) return fees.nextBlock;
  if (blocks <= fees.blockTargets.halfHour) return fees.halfHour;
  if (blocks <= fees.blockTargets.hour) return fees.hour;
  return fees.economy;
}

/**
 * Base units as a decimal string of coins as Blockbook writes amounts: no trailing zeros, no decimal point for a
 * whole number (`1000` → `0.00001`, `100000000` → `1`).
 */
export function coinsText(units: bigint, decimals: number): string {
  const digits = units.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

const blocksParam = z.object({
  blocks: z
    .string()
    .regex(/^\d{1,4}$/, `blocks must be a number of blocks from 1 to ${MAX_FEE_TARGET_BLOCKS}`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= MAX_FEE_TARGET_BLOCKS, {
      message: `blocks must be a number of blocks from 1 to ${MAX_FEE_TARGET_BLOCKS}`,
    })
    .describe('Confirmation target in blocks (1 to 1,008).')
    .meta({ examples: ['2'] }),
});

/** Go's strconv.ParseBool spellings, which Blockbook accepts for `conservative`. */
const GO_BOOLEANS = [
  '1',
  't',
  'T',
  'TRUE',
  'true',
  'True',
  '0',
  'f',
  'F',
  'FALSE',
  'false',
  'False',
] as const;

const blockbookQuery = z.object({
  conservative: z
    .enum(GO_BOOLEANS, { error: 'conservative must be true or false' })
    .optional()
    .transform((v) => v === undefined || GO_BOOLEANS.indexOf(v) < 6)
    .describe(
      'Accepted for compatibility (Blockbook’s spellings of a boolean) and ignored: the estimate is the same either way.',
    )
    // Parsed from the query text; documented as the boolean it means.
    .meta({ type: 'boolean', default: true }),
});

/**
 * Blockbook's `estimatefee` (its legacy v1 path, and v2's): `{"result": "<coins per 1,000 virtual bytes>"}`, the
 * form wallets built on Blockbook read (Pearl's desktop wallet among them). Served from the same estimates as
 * /v1/fees.
 */
const blockbookEstimateFee = <const I extends string>(id: I, path: string) =>
  defineRoute({
    id,
    path,
    tag: 'Mempool',
    summary: `Fee estimate in Blockbook's form (${path.startsWith('/api/v2') ? 'v2' : 'legacy v1'} path)`,
    description:
      'For wallets that read fees from Blockbook: the fee rate for a confirmation target, in coins per 1,000 virtual bytes as a decimal string (`{"result": "0.00001"}`), served as is, without the envelope; refusals are error envelopes. The same estimates as /v1/fees: the next block for 1 block, the ~30 minute and ~1 hour rates up to their block counts (`blockTargets`), `economy` beyond. Rounded up to a whole base unit per 1,000 virtual bytes.',
    params: blocksParam,
    query: blockbookQuery,
    response: { result: z.string().describe('Coins per 1,000 virtual bytes, as a decimal string.') },
    raw: true,
    async handler(ctx) {
      const [fees, state] = await Promise.all([currentFees(ctx.store, ctx.now), ctx.store.indexerState()]);
      const perVbyte = feeRateForBlocks(fees, ctx.params.blocks);
      const perKvb = BigInt(Math.ceil(Math.round(perVbyte * 1_000_000) / 1_000));
      return { body: { result: coinsText(perKvb, state.chain?.units.decimals ?? 8) } };
    },
  });

/** /v1/fees, and Blockbook's estimatefee for wallets that read it. */
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
  blockbookEstimateFee('getBlockbookEstimateFee', '/api/v1/estimatefee/{blocks}'),
  blockbookEstimateFee('getBlockbookV2EstimateFee', '/api/v2/estimatefee/{blocks}'),
] as const;
