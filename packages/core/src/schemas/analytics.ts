import { z } from 'zod';
import { CertificateStatusSchema } from './block.js';
import { Amount, Count, Hash64, Height, TipHeight, UnixTime } from './common.js';
import { PoolShareSchema } from './mining.js';

const HashrateWindow = z
  .object({
    blocks: Count,
    averageBlockInterval: z.number().nullable().describe('Seconds between blocks in the window.'),
    hashrate: z.number().nullable().describe('Estimated hashes per second: Σ difficulty × 2^32 ÷ seconds.'),
  })
  .meta({ id: 'HashrateWindow' });

/** Difficulty, hashrate estimates, node height and indexer lag. */
export const NetworkSchema = z
  .object({
    height: TipHeight.describe('Indexed tip height (-1 before the first block).'),
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
    nodeHeight: Height.nullable(),
    indexerLagBlocks: Count.nullable(),
    indexerLagSeconds: Count.nullable().describe('Seconds between the tip block’s time and now.'),
  })
  .meta({ id: 'Network' });

/** Network analytics. */
export type Network = z.infer<typeof NetworkSchema>;

const VersionCounts = z
  .object({
    '1': Count,
    '2': Count,
    '3': Count,
    '4': Count,
    '5': Count,
    other: Count.describe('Unreadable certificates, and versions outside 1–5.'),
  })
  .meta({ id: 'CertificateVersionCounts' });

/** PoUW certificate analytics. */
export const PouwSchema = z
  .object({
    blocks: Count.describe('Indexed blocks.'),
    certifiedBlocks: Count.describe('Blocks with a certificate (every Pearl block; none on Bitcoin).'),
    certifiedShare: z.number().describe('certifiedBlocks ÷ blocks.'),
    byVersion: VersionCounts,
    moe: Count.describe('Certificates of mixture-of-experts jobs.'),
    moeShare: z.number().describe('moe ÷ certifiedBlocks.'),
    commitmentFailures: Count.describe(
      'Certificates above genesis that do not bind to their header (commitment or block hash), placeholders aside; 0 on a valid chain.',
    ),
    placeholders: Count.describe(
      'Certificates above genesis whose header commits to none (an all-zero proof commitment: simnet skips proof of work by design); not failures.',
    ),
    unreadable: Count.describe('Certificates whose bytes did not decode.'),
    proofSize: z
      .object({
        min: Count.nullable(),
        avg: z.number().nullable(),
        max: Count.nullable(),
        histogram: z
          .array(z.object({ minBytes: Count, maxBytes: Count.nullable(), certificates: Count }))
          .describe('Certificates per proof-size bucket (bytes; the last bucket is open).'),
      })
      .describe('Bytes, over the certificates that decoded.'),
    shapes: z
      .array(z.object({ m: Count, n: Count, k: Count, certificates: Count }))
      .describe(
        'Matrix product shapes (m×k by k×n) of the decoded configurations, most frequent first (at most 20; genesis, Pearl’s literal zero public data, left out).',
      ),
    ranks: z
      .array(z.object({ rank: Count, certificates: Count }))
      .describe('Ranks of the decoded configurations (genesis left out).'),
    forks: z
      .array(
        z.object({
          version: Count.describe('The certificate version the fork requires.'),
          name: z.string(),
          activationHeight: Height.nullable().describe(
            'Where the network’s parameters put it; null when off or not known (an unknown genesis).',
          ),
          firstSeenHeight: Height.nullable().describe(
            'The first indexed block with a certificate of this version.',
          ),
          crossed: z.boolean().describe('Whether the indexed chain has reached it.'),
        }),
      )
      .describe('Certificate-version forks: v2 (MoE), v3 (salted seed), v4 (FP8), v5 (FP16).'),
    daily: z
      .array(
        z.object({
          date: z.string(),
          blocks: Count,
          certificates: Count,
          share: z.number(),
          moe: Count,
          avgProofSize: z.number().nullable(),
          byVersion: VersionCounts,
        }),
      )
      .describe('The last 30 UTC days with blocks, oldest first.'),
    latest: z
      .array(
        z.object({
          height: Height,
          blockHash: Hash64,
          time: UnixTime,
          version: Count,
          isMoE: z.boolean(),
          proofSize: Count,
          verified: z.boolean().nullable(),
          status: CertificateStatusSchema,
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
    height: TipHeight.describe('Height the figures are computed at (the indexed tip).'),
    blockHash: Hash64.nullable(),
    emitted: Amount.describe(
      'Σ subsidy the emission schedule allows for blocks 0…height (Pearl’s formula); where the chain’s schedule is not known (Bitcoin forks), Σ what coinbases claimed.',
    ),
    claimed: Amount.describe('Σ subsidy coinbases claimed: Σ coinbase outputs − Σ fees.'),
    fees: Amount.describe('Σ transaction fees paid.'),
    unspendable: z
      .object({
        total: Amount,
        opReturn: Amount.describe('Σ value locked in OP_RETURN outputs.'),
        unclaimedSubsidy: Amount.describe(
          'Σ subsidy coinbases did not claim (emitted − claimed): never spendable.',
        ),
        burnAddresses: Amount.describe(
          'Σ balances of addresses labelled as burn addresses (labels are the operator’s).',
        ),
      })
      .describe('Coins no one can spend.'),
    circulating: Amount.describe('emitted − unspendable.total.'),
    maxSupply: Amount.nullable().describe('What the schedule will ever emit; null when not known.'),
    formula: z
      .string()
      .describe('How emitted and circulating are computed, naming the emission formula used.'),
  })
  .meta({ id: 'Supply' });

/** Supply figures. */
export type Supply = z.infer<typeof SupplySchema>;

/** One window of pool shares. */
export const PoolWindowSharesSchema = z
  .object({ blocks: Count, pools: z.array(PoolShareSchema) })
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
      .array(z.object({ date: z.string(), blocks: Count, difficulty: z.number(), hashrate: z.number() }))
      .describe('Per UTC day of the last 30: blocks, the day’s last difficulty, and the hashrate estimate.'),
  })
  .meta({ id: 'PoolAnalytics' });

/** Pool analytics. */
export type PoolAnalytics = z.infer<typeof PoolAnalyticsSchema>;
