import { z } from 'zod';
import { Amount, Hash64, Height, UnixTime } from './common.js';

/** The certificate summary carried on every block. */
export const CertificateSummarySchema = z
  .object({
    version: z.int().min(1).max(4).describe('Certificate format version (1–4).'),
    isMoE: z.boolean().describe('Whether the useful work was a mixture-of-experts job.'),
    proofSize: z.int().describe('Size of the ZK proof in bytes.'),
    proofCommitment: z.string().describe('Commitment to the proof (hex).'),
  })
  .meta({ id: 'CertificateSummary' });

/** A block with its miner, pool, reward and certificate summary. */
export const BlockSchema = z
  .object({
    height: Height,
    hash: Hash64,
    previousHash: Hash64.nullable().describe(
      'Parent block hash; null for the first indexed block without one.',
    ),
    nextHash: Hash64.nullable().describe('Child block hash on the indexed chain; null at the tip.'),
    time: UnixTime,
    medianTime: UnixTime.describe('Median time of the past 11 blocks.'),
    confirmations: z.int().min(1).describe('1 for the tip, growing by one per block on top.'),
    txCount: z.int(),
    inputCount: z.int(),
    outputCount: z.int(),
    size: z.int().describe('Serialized size in bytes.'),
    strippedSize: z
      .int()
      .nullable()
      .describe('Size without witness data; null when the node does not report it.'),
    weight: z.int().nullable().describe('Block weight; null when the node does not report it.'),
    version: z.int(),
    merkleRoot: z.string(),
    bits: z.string(),
    nonce: z.int(),
    difficulty: z.number(),
    chainwork: z.string().describe('Cumulative work as the node reports it (hex).'),
    subsidy: Amount.describe('New coins the coinbase claimed: reward − fees.'),
    fees: Amount.describe('Sum of the fees of the block’s transactions.'),
    reward: Amount.describe('Sum of the coinbase outputs (subsidy + fees).'),
    valueOut: Amount.describe('Sum of the outputs of the non-coinbase transactions.'),
    miner: z
      .object({
        address: z.string().nullable().describe('Payout address: first coinbase output with an address.'),
        label: z.string().nullable().describe('Known label of the payout address.'),
      })
      .describe('Who was paid the reward.'),
    pool: z
      .object({
        id: z.string().describe('Pool id (slug); `unknown` when no definition matched.'),
        name: z.string(),
        link: z.string().nullable(),
      })
      .describe('Mining pool by payout address, else coinbase tag, else unknown.'),
    coinbaseTag: z.string().describe('Readable text of the coinbase scriptSig.'),
    coinbaseHex: z.string().describe('The coinbase scriptSig (hex).'),
    certificate: CertificateSummarySchema.nullable().describe(
      'Chain-native block certificate, if the block has one.',
    ),
  })
  .meta({ id: 'Block' });

/** A block as the API returns it. */
export type Block = z.infer<typeof BlockSchema>;

/** A block certificate in full. */
export const CertificateSchema = z
  .object({
    blockHash: Hash64,
    height: Height,
    version: z.int().min(1).max(4),
    proofCommitment: z.string(),
    publicData: z.string().describe('Public inputs of the proof (hex).'),
    proofSize: z.int().describe('Size of the proof in bytes.'),
    isMoE: z.boolean(),
    proofAvailable: z
      .boolean()
      .describe('Whether the proof bytes are stored and can be requested with includeProof.'),
    proof: z.string().optional().describe('The proof (hex); only with includeProof=true and when available.'),
  })
  .meta({ id: 'Certificate' });

/** A certificate as the API returns it. */
export type Certificate = z.infer<typeof CertificateSchema>;

/** An output: created by a transaction, maybe spent by another. */
export const OutputSchema = z
  .object({
    txid: Hash64,
    vout: z.int().min(0),
    blockHeight: Height,
    blockIndex: z.int().min(0).describe('Position of the creating transaction in its block.'),
    address: z.string().nullable().describe('Address paid; null for OP_RETURN and non-standard scripts.'),
    label: z.string().nullable().describe('Known label of the address.'),
    value: Amount,
    scriptType: z
      .string()
      .describe('Script type as the node names it (pubkeyhash, witness_v0_keyhash, nulldata…).'),
    scriptHex: z.string(),
    isCoinbase: z.boolean(),
    spent: z.boolean(),
    spentBy: z
      .object({ txid: Hash64, vin: z.int().min(0), height: Height })
      .nullable()
      .describe('The input that spent it, if any.'),
  })
  .meta({ id: 'Output' });

/** An output as the API returns it. */
export type Output = z.infer<typeof OutputSchema>;

/** A transaction input with the value and address of what it spends. */
export const InputSchema = z
  .object({
    txid: Hash64,
    vin: z.int().min(0),
    isCoinbase: z.boolean(),
    prevTxid: Hash64.nullable().describe('Transaction of the spent output; null for a coinbase input.'),
    prevVout: z.int().nullable(),
    address: z.string().nullable().describe('Address of the spent output.'),
    label: z.string().nullable(),
    value: Amount.describe('Value of the spent output (0 for a coinbase input).'),
    sequence: z.int(),
  })
  .meta({ id: 'Input' });

/** An input as the API returns it. */
export type Input = z.infer<typeof InputSchema>;
