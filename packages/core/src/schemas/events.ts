import { z } from 'zod';
import { BlockSchema } from './block.js';
import { Amount, Count, Hash64, Height } from './common.js';
import { FeeRateBucketSchema } from './search.js';

/** The kinds of live event, as `topics` names them. */
export const EVENT_TOPICS = ['block', 'reorg', 'mempool', 'address'] as const;

/** One kind of live event. */
export const EventTopicSchema = z.enum(EVENT_TOPICS).meta({ id: 'EventTopic' });

/** A kind of live event. */
export type EventTopic = z.infer<typeof EventTopicSchema>;

/** A fee rate, base units per virtual byte, rounded up to 0.001. */
const FeeRate = z.number().min(0);

/** Recommended fee rates, base units per virtual byte (see docs/fees.md for the method). */
export const FeeEstimatesSchema = z
  .object({
    nextBlock: FeeRate.describe(
      'To be included in the next block: the lowest fee rate of the first projected block when the mempool fills it, else `economy`.',
    ),
    halfHour: FeeRate.describe(
      'Within about 30 minutes: the lowest fee rate of projected block `blockTargets.halfHour` when the mempool fills that many blocks, else `economy`.',
    ),
    hour: FeeRate.describe(
      'Within about an hour: the lowest fee rate of projected block `blockTargets.hour` when the mempool fills that many blocks, else `economy`.',
    ),
    economy: FeeRate.describe(
      'Eventually: the median of the lowest fee rates recent blocks included, never below `minimum`.',
    ),
    minimum: FeeRate.describe(
      'The node’s minimum relay fee rate (1 when the node does not report one, the default of Bitcoin Core and of pearld).',
    ),
    blockTargets: z
      .object({ halfHour: Count, hour: Count })
      .describe(
        'Blocks the ~30 min and ~1 h targets stand for: ⌈1800 ÷ blockSeconds⌉ and ⌈3600 ÷ blockSeconds⌉.',
      ),
    basis: z
      .object({
        mempoolRead: z
          .boolean()
          .describe(
            'False when no mempool reading is stored yet (no indexer has read the node): the estimate stands on recent blocks alone.',
          ),
        mempoolTxs: Count.describe('Mempool transactions the estimate read.'),
        mempoolVsize: Count.describe('Their virtual size.'),
        blockVsize: Count.describe('Virtual size one projected block holds (the chain’s block limit).'),
        blockSeconds: Count.describe('The chain’s target seconds between blocks.'),
        projectedBlocks: Count.describe('Blocks the mempool fills, the last one possibly in part.'),
        recentBlocks: Count.describe(
          'Recent blocks whose lowest included fee rate was read (blocks with only a coinbase are left out).',
        ),
        recentFloor: FeeRate.nullable().describe(
          'Median of those blocks’ lowest included fee rates; null without any.',
        ),
      })
      .describe('What the estimate was computed from.'),
    updatedAt: z
      .string()
      .describe('When the mempool was read (ISO 8601); the moment of the request without a reading.'),
  })
  .meta({ id: 'FeeEstimates' });

/** Recommended fee rates as the API returns them. */
export type FeeEstimates = z.infer<typeof FeeEstimatesSchema>;

/** A block on the indexed chain, by height and hash. */
const BlockRefSchema = z.object({ height: Height, hash: Hash64 }).meta({ id: 'BlockRef' });

/** `reorg`: the chain switched branches at `forkHeight`. */
export const ReorgEventDataSchema = z
  .object({
    forkHeight: z.int().min(-1).describe('Highest height both branches share (-1: none).'),
    forkHash: Hash64.nullable().describe('Hash of the shared block; null when none is shared.'),
    removed: z
      .array(BlockRefSchema)
      .describe('Blocks rolled back, lowest first (at most 100; everything above forkHeight is gone).'),
    added: z
      .array(BlockRefSchema)
      .describe(
        'Blocks of the new branch the node had when the rollback ran, lowest first (at most 100); each follows as a `block` event.',
      ),
  })
  .meta({ id: 'ReorgEventData' });

/** `mempool`: transactions entered or left the mempool. */
export const MempoolEventDataSchema = z
  .object({
    added: z.array(Hash64).describe('Txids that entered (at most 1,000; see addedCount).'),
    removed: z.array(Hash64).describe('Txids that left: mined, replaced or evicted (at most 1,000).'),
    addedCount: Count,
    removedCount: Count,
    count: Count.describe('Transactions in the mempool now.'),
    vsize: Count.describe('Their total virtual size.'),
    feeRateBuckets: z.array(FeeRateBucketSchema).describe('Fee-rate histogram of the mempool now.'),
    fees: FeeEstimatesSchema,
  })
  .meta({ id: 'MempoolEventData' });

/** One address's part in an `address` event. */
export const AddressActivitySchema = z
  .object({
    address: z.string(),
    txids: z.array(Hash64).describe('Transactions of this block (or mempool change) that touch it.'),
    received: Amount.describe('Sum it received in them.'),
    sent: Amount.describe('Sum it sent in them.'),
    balance: Amount.describe('Its confirmed balance (after the block, for a confirmed event).'),
    mempoolDelta: z
      .string()
      .nullable()
      .describe('Unconfirmed events: received − sent of these transactions (signed); null when confirmed.'),
  })
  .meta({ id: 'AddressActivity' });

/** `address`: tracked addresses received or sent, in a block or in the mempool. */
export const AddressEventDataSchema = z
  .object({
    confirmed: z.boolean(),
    height: Height.nullable().describe('The block’s height; null in the mempool.'),
    blockHash: Hash64.nullable(),
    activity: z
      .array(AddressActivitySchema)
      .describe('One entry per address, only those the subscription tracks.'),
  })
  .meta({ id: 'AddressEventData' });

const base = {
  id: z
    .string()
    .regex(/^[0-9]+$/)
    .describe('Position in the event log (decimal): larger is later.'),
  at: z.string().describe('When the event was recorded (ISO 8601).'),
};

/** A live event, as SSE `data`, WebSocket messages and webhook bodies carry it. */
export const ChainEventSchema = z
  .discriminatedUnion('type', [
    z.object({ ...base, type: z.literal('block'), data: BlockSchema }),
    z.object({ ...base, type: z.literal('reorg'), data: ReorgEventDataSchema }),
    z.object({ ...base, type: z.literal('mempool'), data: MempoolEventDataSchema }),
    z.object({ ...base, type: z.literal('address'), data: AddressEventDataSchema }),
  ])
  .meta({ id: 'ChainEvent' });

/** A live event. */
export type ChainEvent = z.infer<typeof ChainEventSchema>;
/** The data of one kind of event. */
export type EventData<T extends EventTopic> = Extract<ChainEvent, { type: T }>['data'];
/** What a writer appends to the log: an event without its id and time. */
export type EventDraft = { [T in EventTopic]: { type: T; data: EventData<T> } }[EventTopic];
