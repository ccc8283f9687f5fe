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

/** Recommended fee rates, base units per virtual byte (see docs/fees.md for the method). */
export const FeeEstimatesSchema = z
  .object({
    nextBlock: z.number().min(0).describe('To be included in the next block.'),
    halfHour: z.number().min(0).describe('Within about 30 minutes.'),
    hour: z.number().min(0).describe('Within about an hour.'),
    economy: z.number().min(0).describe('Eventually: the lowest rate recent blocks still included.'),
    minimum: z.number().min(0).describe('The node’s minimum relay fee rate.'),
    blockTargets: z
      .object({ halfHour: Count, hour: Count })
      .describe('Blocks the ~30 min and ~1 h targets stand for, from the chain’s block interval.'),
    basis: z
      .object({
        mempoolTxs: Count.describe('Mempool transactions the estimate read.'),
        mempoolVsize: Count.describe('Their virtual size.'),
        blockVsize: Count.describe('Virtual size one block holds.'),
        recentBlocks: Count.describe('Recent blocks whose lowest included fee rate was read.'),
        recentFloor: z
          .number()
          .min(0)
          .nullable()
          .describe('Median of those blocks’ lowest included fee rates; null without any.'),
      })
      .describe('What the estimate was computed from.'),
    updatedAt: z.string().describe('When the mempool was read (ISO 8601).'),
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
    removed: z.array(BlockRefSchema).describe('Blocks rolled back, lowest first.'),
    added: z
      .array(BlockRefSchema)
      .describe(
        'Blocks of the new branch the node had when the rollback ran, lowest first; each follows as a `block` event.',
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
