import { z } from 'zod';
import { Amount, Hash64, Height, UnixTime } from './common.js';
import { PoolShareSchema } from './mining.js';

const HashrateWindow = z
  .object({
    blocks: z.int(),
    averageBlockInterval: z.number().nullable().describe('Seconds between blocks in the window.'),
    hashrate: z.number().nullable().describe('Estimated hashes per second: Σ difficulty × 2^32 ÷ seconds.'),
  })
  .meta({ id: 'HashrateWindow' });

/** Difficulty, hashrate estimates, node height and indexer lag. */
export const NetworkSchema = z
  .object({
    height: z.int().describe('Indexed tip height (-1 before the first block).'),
    tipTime: UnixTime.nullable(),
    difficulty: z.number().nullable().describe('Difficulty of the tip block.'),
    hashrate: z
      .object({ '1d': HashrateWindow, '7d': HashrateWindow, '30d': HashrateWindow })
      .describe(
        '1d from the blocks of the last 24 h; 7d and 30d from the daily rollups (blocks × the day’s last difficulty).',
      ),
    nodeHashrate: z
      .number()
      .nullable()
      .describe('The node’s own estimate (getnetworkhashps); null when unavailable.'),
    nodeHeight: z.int().nullable(),
    indexerLagBlocks: z.int().nullable(),
    indexerLagSeconds: z.int().nullable().describe('Seconds between the tip block’s time and now.'),
  })
  .meta({ id: 'Network' });

/** Network analytics. */
export type Network = z.infer<typeof NetworkSchema>;

/** PoUW certificate analytics. */
export const PouwSchema = z
  .object({
    blocks: z.int().describe('Indexed blocks.'),
    certifiedBlocks: z.int(),
    certifiedShare: z.number().describe('certifiedBlocks ÷ blocks.'),
    byVersion: z.object({ '1': z.int(), '2': z.int(), '3': z.int(), '4': z.int() }),
    moe: z.int().describe('Certificates of mixture-of-experts jobs.'),
    moeShare: z.number().describe('moe ÷ certifiedBlocks.'),
    proofSize: z
      .object({ min: z.int().nullable(), avg: z.number().nullable(), max: z.int().nullable() })
      .describe('Bytes.'),
    daily: z
      .array(
        z.object({
          date: z.string(),
          blocks: z.int(),
          certificates: z.int(),
          share: z.number(),
          moe: z.int(),
          avgProofSize: z.number().nullable(),
        }),
      )
      .describe('The last 30 UTC days with blocks, oldest first.'),
    latest: z
      .array(
        z.object({
          height: Height,
          blockHash: Hash64,
          time: UnixTime,
          version: z.int(),
          isMoE: z.boolean(),
          proofSize: z.int(),
        }),
      )
      .describe('The 10 most recent certificates.'),
  })
  .meta({ id: 'Pouw' });

/** PoUW analytics. */
export type Pouw = z.infer<typeof PouwSchema>;

/** Chain-derived supply. */
export const SupplySchema = z
  .object({
    height: z.int().describe('Height the figures are computed at (the indexed tip).'),
    blockHash: Hash64.nullable(),
    emitted: Amount.describe('Σ subsidies claimed by coinbases (Σ coinbase outputs − Σ fees).'),
    fees: Amount.describe('Σ transaction fees paid.'),
    unspendable: z
      .object({
        total: Amount,
        opReturn: Amount.describe('Σ value locked in OP_RETURN outputs.'),
        burnAddresses: Amount.describe('Σ balances of addresses labelled as burn addresses.'),
      })
      .describe('Provably unspendable coins.'),
    circulating: Amount.describe('emitted − unspendable.total.'),
    formula: z.string(),
  })
  .meta({ id: 'Supply' });

/** Supply figures. */
export type Supply = z.infer<typeof SupplySchema>;

/** One window of pool shares. */
export const PoolWindowSharesSchema = z
  .object({ blocks: z.int(), pools: z.array(PoolShareSchema) })
  .meta({ id: 'PoolWindowShares' });

/** Pool share windows with a difficulty/hashrate overlay. */
export const PoolAnalyticsSchema = z
  .object({
    windows: z.object({
      '24h': PoolWindowSharesSchema,
      '7d': PoolWindowSharesSchema,
      '30d': PoolWindowSharesSchema,
    }),
    overlay: z
      .array(z.object({ date: z.string(), blocks: z.int(), difficulty: z.number(), hashrate: z.number() }))
      .describe('Per UTC day of the last 30: blocks, the day’s last difficulty, and the hashrate estimate.'),
  })
  .meta({ id: 'PoolAnalytics' });

/** Pool analytics. */
export type PoolAnalytics = z.infer<typeof PoolAnalyticsSchema>;
