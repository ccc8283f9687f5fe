import { CERTIFICATE_STATUSES } from '@explorer/chain';
import { z } from 'zod';
import { Amount, Count, Hash64, Height, UnixTime } from './common.js';

/** How a certificate stands against its header. */
export const CertificateStatusSchema = z
  .enum(CERTIFICATE_STATUSES)
  .describe(
    'verified: it binds to its header. placeholder: it does not, and the header commits to no certificate (an all-zero proof commitment: simnet, which skips proof of work by design, and Pearl’s genesis literal) — not a failure. failed: it does not bind to a header that commits to one. unreadable: its bytes did not decode.',
  )
  .meta({ id: 'CertificateStatus' });

/** The certificate summary carried on every block. */
export const CertificateSummarySchema = z
  .object({
    version: Count.describe(
      'Certificate format version (Pearl: 1–4 allowed by consensus, 5 decodable); for bytes that did not decode, the version they declare.',
    ),
    readable: z
      .boolean()
      .describe('Whether the certificate bytes decoded (else they are served as hex on /certificate).'),
    verified: z
      .boolean()
      .nullable()
      .describe(
        'Whether it binds to its header: the proof commitment and the block hash it names match; null when unreadable.',
      ),
    status: CertificateStatusSchema,
    isMoE: z.boolean().describe('Whether the useful work was a mixture-of-experts job.'),
    proofSize: Count.describe('Size of the ZK proof in bytes (0 when unreadable).'),
    proofCommitment: z.string().describe('The proof commitment the block header carries (display hex).'),
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
    txCount: Count,
    inputCount: Count,
    outputCount: Count,
    size: Count.describe('Serialized size in bytes.'),
    strippedSize: Count.nullable().describe(
      'Size without witness data; null when the node does not report it.',
    ),
    weight: Count.nullable().describe('Block weight; null when the node does not report it.'),
    version: z.int().meta({ examples: [536870912] }),
    merkleRoot: z.string(),
    bits: z.string().describe('Compact target (hex), as the node prints it.'),
    nonce: Count.nullable().describe('Header nonce; null on chains whose header has none (Pearl).'),
    difficulty: z
      .number()
      .describe('As the node computes it (Pearl: the network’s pow-limit target ÷ this block’s).'),
    chainwork: z
      .string()
      .describe(
        'Cumulative work (hex): as the node reports it, else Σ 2^256 ÷ (target + 1) over the chain (Pearl).',
      ),
    subsidy: Amount.describe(
      'New coins the coinbase claimed: reward − fees (may be less than the schedule allows).',
    ),
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

const PatternSchema = z
  .object({
    hex: z.string().describe('The 6 pattern bytes: 3 × (factor − 1, length − 1).'),
    dims: z.array(z.object({ factor: Count, length: Count })).describe('Its non-trivial dimensions.'),
    size: Count.describe('How many indices it selects.'),
  })
  .meta({ id: 'PeriodicPattern' });

/** The mining configuration decoded from a version 1–3 certificate's public data. */
export const MiningConfigSchema = z
  .object({
    commonDim: Count.describe('k: the inner dimension of the matrix product.'),
    rank: Count,
    mmaType: Count.describe('0 = Int7×Int7→Int32 (the only type pearld accepts).'),
    rowsPattern: PatternSchema,
    colsPattern: PatternSchema,
    experts: Count.describe('Experts of a mixture-of-experts job; 0 for a dense job.'),
    topK: Count,
    hashA: z.string().describe('Commitment to matrix A (hex, as on the wire).'),
    hashB: z.string().describe('Commitment to matrix B (hex, as on the wire).'),
    hashJackpot: z
      .string()
      .describe('The jackpot hash (hex, as on the wire; compared as a little-endian integer).'),
    m: Count,
    n: Count,
    tRows: Count.describe('Row base of the proved tile.'),
    tCols: Count.describe('Column base of the proved tile.'),
    moe: z
      .object({
        expertIndex: Count,
        routingOffsets: z.array(Count).describe('Exclusive cumulative ends of each expert’s rows.'),
        hashRouting: z.string(),
        outerIndices: z.array(Count),
      })
      .nullable()
      .describe('The mixture-of-experts tail; null for a dense job.'),
  })
  .meta({ id: 'MiningConfig' });

/** A block certificate in full, as decoded from the block bytes and verified against the header. */
export const CertificateSchema = z
  .object({
    blockHash: Hash64,
    height: Height,
    version: Count.describe('Certificate format version; for unreadable bytes, the version they declare.'),
    readable: z
      .boolean()
      .describe('Whether the bytes decoded under the rules of pearld (older v4 layouts included).'),
    error: z.string().nullable().describe('Why the bytes did not decode; null when they did.'),
    layout: z
      .string()
      .nullable()
      .describe('v1, v2 (also version 3), v4, v4-large-blobs, v4-no-ancestors or v5; null when unreadable.'),
    size: Count.describe('Bytes of the whole certificate, its version included.'),
    proofCommitment: z.string().describe('The commitment the header carries (display hex).'),
    computedCommitment: z
      .string()
      .nullable()
      .describe(
        'SHA256d(LE32(version) ‖ public data) — version 5: over the proof — (display hex); null when unreadable.',
      ),
    commitmentValid: z
      .boolean()
      .nullable()
      .describe('computedCommitment = proofCommitment; null when unreadable.'),
    namedBlockHash: z
      .string()
      .nullable()
      .describe('The block hash the certificate names; null when unreadable.'),
    blockHashMatches: z.boolean().nullable().describe('namedBlockHash = blockHash; null when unreadable.'),
    status: CertificateStatusSchema,
    problems: z
      .array(z.string())
      .describe(
        'What verification against the header found; empty when the certificate binds to its block. Pearl’s genesis literal carries no commitment: pearld never validates genesis.',
      ),
    publicData: z
      .string()
      .nullable()
      .describe('Public inputs of the proof (hex); null for version 5 and unreadable bytes.'),
    publicDataSize: Count.nullable(),
    isMoE: z.boolean(),
    config: MiningConfigSchema.nullable().describe(
      'The mining configuration, where its layout is certain (versions 1–3); null otherwise — see configNote.',
    ),
    configNote: z
      .string()
      .nullable()
      .describe(
        'Why config is null (version 4’s layout is not certain, version 5 has no public data, bytes that do not follow the layout); null when decoded.',
      ),
    proofSize: Count.describe('Size of the proof in bytes.'),
    ancestorHeaderCount: Count.describe(
      'Ancestor headers a version 4/5 certificate carries (outside the commitment).',
    ),
    ancestorHashes: z.array(Hash64).describe('Their block hashes, parent first.'),
    proofAvailable: z
      .boolean()
      .describe('Whether the proof bytes are stored and can be requested with includeProof.'),
    proof: z.string().optional().describe('The proof (hex); only with includeProof=true and when available.'),
    raw: z
      .string()
      .nullable()
      .describe('The certificate bytes (hex) when they did not decode; null otherwise.'),
  })
  .meta({ id: 'Certificate' });

/** A certificate as the API returns it. */
export type Certificate = z.infer<typeof CertificateSchema>;

/** An output: created by a transaction, maybe spent by another. */
export const OutputSchema = z
  .object({
    txid: Hash64,
    vout: Count,
    blockHeight: Height,
    blockIndex: Count.describe('Position of the creating transaction in its block.'),
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
      .object({ txid: Hash64, vin: Count, height: Height })
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
    vin: Count,
    isCoinbase: z.boolean(),
    prevTxid: Hash64.nullable().describe('Transaction of the spent output; null for a coinbase input.'),
    prevVout: Count.nullable(),
    address: z.string().nullable().describe('Address of the spent output.'),
    label: z.string().nullable(),
    value: Amount.describe('Value of the spent output (0 for a coinbase input).'),
    sequence: Count.meta({ examples: [4294967295] }),
  })
  .meta({ id: 'Input' });

/** An input as the API returns it. */
export type Input = z.infer<typeof InputSchema>;
