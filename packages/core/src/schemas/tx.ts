import { z } from 'zod';
import { Amount, Count, Hash64, Height, SignedAmount, UnixTime } from './common.js';

/** The transaction kinds the indexer assigns. */
export const TxTypeSchema = z
  .enum(['coinbase', 'transfer', 'consolidation', 'fan-out', 'burn'])
  .describe(
    'coinbase; burn (value into OP_RETURN or a labelled burn address); consolidation (≥ 3 inputs into one output); fan-out (≥ 5 outputs); transfer.',
  );

/** A transaction summary. */
export const TxSchema = z
  .object({
    txid: Hash64,
    blockHeight: Height,
    blockHash: Hash64,
    blockIndex: Count.describe('Position in the block (0 = coinbase).'),
    time: UnixTime,
    confirmations: z.int().min(1),
    size: Count,
    vsize: Count,
    weight: Count,
    version: z.int().meta({ examples: [2] }),
    locktime: Count,
    inputCount: Count,
    outputCount: Count,
    valueIn: Amount,
    valueOut: Amount,
    fee: Amount,
    feeRate: z.number().describe('Fee per virtual byte, in base units (two decimals).'),
    isCoinbase: z.boolean(),
    type: TxTypeSchema,
  })
  .meta({ id: 'Tx' });

/** A transaction as the API returns it. */
export type Tx = z.infer<typeof TxSchema>;

/** The addresses on each side of a transaction (at most 10 each). */
export const CounterpartiesSchema = z
  .object({
    senders: z.array(z.string()).describe('Distinct input addresses, largest value first.'),
    receivers: z.array(z.string()).describe('Distinct output addresses, largest value first.'),
    moreSenders: z.boolean(),
    moreReceivers: z.boolean(),
  })
  .meta({ id: 'Counterparties' });

/** A transaction with its counterparties, for lists of recent activity. */
export const TxWithCounterpartiesSchema = TxSchema.extend({ counterparties: CounterpartiesSchema }).meta({
  id: 'TxWithCounterparties',
});

/** A transaction with counterparties. */
export type TxWithCounterparties = z.infer<typeof TxWithCounterpartiesSchema>;

/** The value an address gained or lost in one transaction. */
export const NetFlowSchema = z
  .object({
    address: z.string(),
    label: z.string().nullable(),
    received: Amount,
    sent: Amount,
    net: SignedAmount.describe('received − sent, in base units (negative when the address paid).'),
  })
  .meta({ id: 'NetFlow' });

/** A transaction's flow: what came in, what went out, who gained and lost. */
export const TxFlowSchema = z
  .object({
    txid: Hash64,
    blockHeight: Height,
    time: UnixTime,
    type: TxTypeSchema,
    fee: Amount,
    feeRate: z.number(),
    valueIn: Amount,
    valueOut: Amount,
    inputs: z
      .array(
        z.object({
          address: z.string().nullable(),
          value: Amount,
          prevTxid: Hash64.nullable(),
          prevVout: Count.nullable(),
        }),
      )
      .describe('The first 250 inputs; see inputsTruncated and /inputs for all.'),
    outputs: z
      .array(
        z.object({
          address: z.string().nullable(),
          value: Amount,
          vout: Count,
          scriptType: z.string(),
          spent: z.boolean(),
        }),
      )
      .describe('The first 250 outputs; see outputsTruncated and /outputs for all.'),
    inputsTruncated: z.boolean(),
    outputsTruncated: z.boolean(),
    netFlows: z
      .array(NetFlowSchema)
      .describe('Per address, net of change; largest movement first (at most 250).'),
    counterparties: CounterpartiesSchema,
  })
  .meta({ id: 'TxFlow' });

/** A transaction flow as the API returns it. */
export type TxFlow = z.infer<typeof TxFlowSchema>;
