import { z } from 'zod';
import { Amount, Count, Hash64, Height, UnixTime } from './common.js';

const PoolRef = z.object({ id: z.string(), name: z.string() }).meta({ id: 'PoolRef' });

/** A payout address ranked by mined blocks. */
export const MinerSchema = z
  .object({
    address: z.string(),
    label: z.string().nullable().describe('Known label of the payout address.'),
    seen: z.boolean().describe('False when the address has mined no indexed block (all figures 0).'),
    blocks: Count.describe('Blocks whose first coinbase payout went to this address.'),
    share: z.number().describe('blocks ÷ all indexed blocks (0–1).'),
    reward: Amount.describe('Σ coinbase outputs of those blocks (all payouts, not only this address’s).'),
    firstHeight: Height.nullable(),
    lastHeight: Height.nullable(),
    lastBlockTime: UnixTime.nullable(),
    pool: PoolRef.nullable().describe('Pool of its most recent block.'),
  })
  .meta({ id: 'Miner' });

/** A miner as the API returns it. */
export type Miner = z.infer<typeof MinerSchema>;

/** Blocks per UTC day. */
export const DailyBlocksSchema = z
  .object({ date: z.string().describe('UTC day, YYYY-MM-DD.'), blocks: Count })
  .meta({ id: 'DailyBlocks' });

/** A daily count. */
export type DailyBlocks = z.infer<typeof DailyBlocksSchema>;

/** A pool's share of blocks in a window. */
export const PoolShareSchema = z
  .object({
    id: z.string().describe('Pool id (slug); `unknown` for blocks no definition matched.'),
    name: z.string(),
    link: z.string().nullable(),
    blocks: Count,
    share: z.number().describe('blocks ÷ blocks in the window (0–1).'),
  })
  .meta({ id: 'PoolShare' });

/** A pool share. */
export type PoolShare = z.infer<typeof PoolShareSchema>;

/** Pool windows: `24h` ends at the tip's block time; `7d` and `30d` are the last 7/30 UTC days up to the tip's day. */
export const PoolWindowSchema = z.enum(['24h', '7d', '30d', 'all']);

/** A pool window. */
export type PoolWindow = z.infer<typeof PoolWindowSchema>;

/** A coinbase output paid by a pool's block. */
export const PayoutOutputSchema = z
  .object({
    txid: Hash64,
    vout: Count,
    blockHeight: Height,
    blockHash: Hash64,
    time: UnixTime,
    address: z.string().nullable(),
    value: Amount,
    scriptType: z.string(),
    spent: z.boolean(),
  })
  .meta({ id: 'PayoutOutput' });

/** A payout output. */
export type PayoutOutput = z.infer<typeof PayoutOutputSchema>;

/** A pool with its totals and payout addresses. */
export const PoolSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    link: z.string().nullable(),
    defined: z.boolean().describe('Whether the pool comes from the definitions file (`unknown` does not).'),
    seen: z
      .boolean()
      .describe(
        'False for an id that no pool definition names and no indexed block is attributed to (all totals 0, lists empty).',
      ),
    tags: z.array(z.string()).describe('Coinbase-tag regexes of the definition.'),
    definedAddresses: z.array(z.string()).describe('Payout addresses of the definition.'),
    blocks: Count.describe('All indexed blocks attributed to the pool.'),
    share: z.number().describe('blocks ÷ all indexed blocks.'),
    reward: Amount,
    firstHeight: Height.nullable(),
    lastHeight: Height.nullable(),
    payoutAddresses: z
      .array(z.object({ address: z.string(), label: z.string().nullable(), blocks: Count }))
      .describe(
        'Addresses its last 1,000 blocks paid (first payout output), most blocks first (at most 20).',
      ),
    recentPayoutOutputs: z
      .array(PayoutOutputSchema)
      .describe('Coinbase outputs of its 10 most recent blocks.'),
  })
  .meta({ id: 'Pool' });

/** A pool as the API returns it. */
export type Pool = z.infer<typeof PoolSchema>;
