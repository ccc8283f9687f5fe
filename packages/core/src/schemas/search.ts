import { z } from 'zod';
import { Amount, Count, Hash64, Height } from './common.js';

/** What a search match or suggestion points at. */
export const SearchKindSchema = z
  .enum(['block', 'transaction', 'address', 'miner', 'pool', 'label'])
  .describe(
    'block (by height or hash), transaction (by txid), address, miner (a payout address of mined blocks), pool (by id or name), label (a known address label).',
  )
  .meta({ id: 'SearchKind' });

/** One thing a search query resolved to. */
export const SearchMatchSchema = z
  .object({
    kind: SearchKindSchema,
    id: z
      .string()
      .describe(
        'Identifier of the match: block hash, txid, address (also for miner and label matches) or pool id.',
      ),
    label: z
      .string()
      .nullable()
      .describe(
        'Display text: the known label of an address or miner, the label text of a label match, the pool name; null when there is none.',
      ),
    path: z
      .string()
      .describe('API path that returns the matched resource, e.g. /v1/blocks/{hash} or /v1/pools/{poolId}.'),
    height: Height.optional().describe(
      'Block height (block matches) or height of the containing block (transaction matches).',
    ),
    seen: z
      .boolean()
      .optional()
      .describe(
        'Address matches only: whether an indexed transaction touches the address (false for a valid address never used).',
      ),
    blocks: Count.optional().describe(
      'Miner and pool matches only: blocks mined by the payout address or attributed to the pool.',
    ),
  })
  .meta({ id: 'SearchMatch' });

/** A search match as the API returns it. */
export type SearchMatch = z.infer<typeof SearchMatchSchema>;

/** The kinds a suggestion can have. */
export const SuggestionKindSchema = z
  .enum(['block', 'transaction', 'address', 'pool'])
  .describe(
    'block (height or hash prefix), transaction (txid prefix), address (prefix), pool (id or name prefix).',
  )
  .meta({ id: 'SuggestionKind' });

/** One autocomplete suggestion. */
export const SuggestionSchema = z
  .object({
    kind: SuggestionKindSchema,
    id: z.string().describe('The completed identifier: block hash, txid, address or pool id.'),
    label: z
      .string()
      .nullable()
      .describe('Display text: the pool name or the known label of an address; null when there is none.'),
    path: z.string().describe('API path that returns the suggested resource.'),
    height: Height.optional().describe(
      'Block height (blocks) or height of the containing block (transactions).',
    ),
  })
  .meta({ id: 'Suggestion' });

/** A suggestion as the API returns it. */
export type Suggestion = z.infer<typeof SuggestionSchema>;

/** A labelled address, as the definitions list it. */
export const KnownLabelSchema = z
  .object({
    address: z.string().describe('The labelled address.'),
    label: z.string().describe('Display name, e.g. an exchange or pool name.'),
    kind: z.string().describe('exchange, burn, service, pool, faucet…'),
    poolId: z.string().nullable().describe('Pool the address belongs to, when the label names one.'),
    poolName: z
      .string()
      .nullable()
      .describe('Name of that pool; null without poolId or when it is not defined.'),
  })
  .meta({ id: 'KnownLabel' });

/** A known label as the API returns it. */
export type KnownLabel = z.infer<typeof KnownLabelSchema>;

/** A mining pool definition. */
export const KnownPoolSchema = z
  .object({
    id: z.string().describe('Pool id (slug), as used by /v1/pools/{poolId}.'),
    name: z.string().describe('Display name.'),
    link: z.string().nullable().describe('Pool website, when known.'),
    addresses: z.array(z.string()).describe('Payout addresses that attribute a block to the pool.'),
    tags: z
      .array(z.string())
      .describe('Coinbase tag patterns (regular expressions, matched case-insensitively).'),
  })
  .meta({ id: 'KnownPool' });

/** A pool definition as the API returns it. */
export type KnownPool = z.infer<typeof KnownPoolSchema>;

/** A fee-rate bucket of the mempool histogram. */
export const FeeRateBucketSchema = z
  .object({
    minFeeRate: z.number().min(0).describe('Lower edge (inclusive), base units per virtual byte.'),
    maxFeeRate: z
      .number()
      .nullable()
      .describe('Upper edge (exclusive), base units per virtual byte; null for the open top bucket.'),
    count: Count.describe('Transactions whose fee rate falls in the bucket.'),
    vsize: Count.describe('Their total virtual size in vbytes.'),
  })
  .meta({ id: 'FeeRateBucket' });

/** The node's mempool, summarised. */
export const MempoolSummarySchema = z
  .object({
    count: Count.describe('Unconfirmed transactions.'),
    bytes: Count.describe('Sum of their virtual sizes (vbytes).'),
    usage: Count.optional().describe(
      'Memory the node uses for the mempool, in bytes; absent when the node does not report it.',
    ),
    totalFee: Amount.describe('Sum of their base fees, in base units.'),
    minFeeRate: z
      .number()
      .min(0)
      .describe('Minimum fee rate the node accepts into its mempool, base units per virtual byte.'),
    feeRateBuckets: z
      .array(FeeRateBucketSchema)
      .describe(
        'Histogram by fee rate, lowest first; always the same 13 buckets (edges 1, 2, 3, 5, 8, 12, 20, 30, 50, 80, 120, 200). Counts add up to count.',
      ),
    sampleTxids: z.array(Hash64).max(10).describe('Up to 10 txids with the highest fee rate, highest first.'),
    updatedAt: z.string().describe('When the node was asked (ISO 8601, UTC); the summary is reused for 2 s.'),
  })
  .meta({ id: 'MempoolSummary' });

/** A mempool summary as the API returns it. */
export type MempoolSummary = z.infer<typeof MempoolSummarySchema>;
