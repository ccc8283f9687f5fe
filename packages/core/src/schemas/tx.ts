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

/**
 * A merkle proof of inclusion in esplora's `merkle-proof` shape: the branch from the transaction up to the
 * block's merkle root.
 */
export const MerkleProofSchema = z
  .object({
    blockHeight: Height,
    pos: Count.describe(
      'Position of the transaction in its block (0 = coinbase): bit k says which side level k is on.',
    ),
    merkle: z
      .array(Hash64)
      .describe(
        'Sibling hashes, leaf level first, each in display order (byte-reversed, like txids). Reverse each to internal order; at level k, parent = SHA256d(node ‖ sibling) when bit k of pos is 0, else SHA256d(sibling ‖ node). The last hash of an odd level is paired with itself. Empty for a block of one transaction (the txid is the root).',
      ),
  })
  .meta({ id: 'MerkleProof' });

/** A merkle proof as the API returns it. */
export type MerkleProof = z.infer<typeof MerkleProofSchema>;

/** Where a confirmed transaction is, with what proves it: the merkle branch and the block header's bytes. */
export const TxProofSchema = z.object({
  blockHeight: Height,
  blockHash: Hash64,
  blockIndex: Count.describe('Position in the block (0 = coinbase); the proof’s pos.'),
  blockTime: UnixTime,
  blockTxCount: Count.describe('Transactions in the block.'),
  merkleProof: MerkleProofSchema,
  header: z
    .string()
    .regex(/^([0-9a-f]{160}|[0-9a-f]{216})$/)
    .describe(
      'The block header’s bytes as hex, as the chain serializes it: 80 bytes on Bitcoin Core and Litecoin (version, previous block, merkle root, time, bits, nonce), 108 on Pearl (version, previous block, merkle root, time, bits, proof commitment; no nonce). Bytes 36–68 are the merkle root (internal order); SHA256d of the bytes, byte-reversed, is blockHash.',
    )
    .meta({
      examples: [
        '0100000050120119172a610421a6c3011dd330d9df07b63616c2cc1f1cd00200000000006657a9252aacd5c0b2940996ecff952228c3067cc38d4885efb5a4ac4247e9f337221b4d4c86041b0f2b5710',
      ],
    }),
});

/** What proves a confirmed transaction, as the store finds it (confirmations are added per request). */
export type TxProof = z.infer<typeof TxProofSchema>;

const nullable = <T extends z.ZodType>(s: T, what: string) =>
  s.nullable().describe(`${what}; null while the transaction is in the mempool.`);

/** A transaction's status: confirmed (with its proof) or waiting in the mempool. */
export const TxStatusSchema = z
  .object({
    txid: Hash64,
    confirmed: z.boolean().describe('In an indexed block.'),
    inMempool: z.boolean().describe('Not in an indexed block, but in the chain node’s mempool.'),
    confirmations: Count.describe('Indexed tip − block height + 1; 0 in the mempool.'),
    blockHeight: nullable(Height, 'Height of the block'),
    blockHash: nullable(Hash64, 'Hash of the block'),
    blockIndex: nullable(Count, 'Position in the block (0 = coinbase)'),
    blockTime: nullable(UnixTime, 'Block header time'),
    blockTxCount: nullable(Count, 'Transactions in the block'),
    merkleProof: nullable(MerkleProofSchema, 'The merkle branch from the txid to the header’s merkle root'),
    header: nullable(TxProofSchema.shape.header, 'The block header’s bytes as hex'),
  })
  .meta({ id: 'TxStatus' });

/** A transaction status as the API returns it. */
export type TxStatus = z.infer<typeof TxStatusSchema>;

/** Whether one output of a transaction is spent, and by which input. */
export const OutspendSchema = z
  .object({
    vout: Count,
    spent: z.boolean().describe('Spent by a transaction of an indexed block (mempool spends are not shown).'),
    spentBy: z
      .object({ txid: Hash64, vin: Count, height: Height })
      .nullable()
      .describe('The input that spent it and the height of its block; null while unspent.'),
  })
  .meta({ id: 'Outspend' });

/** An outspend as the API returns it. */
export type Outspend = z.infer<typeof OutspendSchema>;
