import { blockWork } from '@explorer/chain';
import type { BlockRow, CertificateRow, TipState } from '@explorer/db';
import { coinbaseTag, type Definitions } from '../pools.js';
import { dayOf } from './classify.js';
import type { ParsedBlock } from './parse.js';
import type { BlockSums } from './transactions.js';

/** A batch's block and certificate rows, and the tip they leave the chain at. */
export interface BlockRows {
  blocks: BlockRow[];
  certificates: CertificateRow[];
  tip: TipState;
}

/**
 * Step 4 of a batch: block rows with their attribution and the chain's running totals, which continue from
 * `tip`; and the certificate rows.
 */
export function blockRows(
  tip: TipState,
  blocks: readonly ParsedBlock[],
  sums: readonly BlockSums[],
  defs: Definitions,
): BlockRows {
  const rows: BlockRow[] = [];
  const certificates: CertificateRow[] = [];
  let { cumTxCount, cumEmitted, cumUnclaimed, cumFees, cumOpReturn } = tip;
  // Median time past and cumulative work, for nodes that report neither (pearld).
  const times = [...tip.recentTimes];
  let work = tip.chainwork === null ? 0n : BigInt(`0x${tip.chainwork || '0'}`);

  blocks.forEach((b, k) => {
    const s = sums[k]!;
    const day = dayOf(b.time);
    const coinbase = b.txs[0]!;
    const payouts = coinbase.isCoinbase
      ? coinbase.outputs.flatMap((o) => (o.address ? [o.address] : []))
      : [];
    const subsidy = s.reward - s.fees;
    // What the schedule allowed; a coinbase claiming less leaves the rest unclaimed, never to be spent.
    const emission = b.scheduledSubsidy ?? subsidy;
    cumTxCount += b.txs.length;
    cumEmitted += emission;
    cumUnclaimed += emission - subsidy;
    cumFees += s.fees;
    cumOpReturn += s.opReturn;
    times.push(b.time);
    if (times.length > 11) times.shift();
    work += blockWork(Number.parseInt(b.bits, 16));
    const cert = b.certificate;
    rows.push({
      height: b.height,
      hash: b.hash,
      prevHash: b.prevHash,
      time: b.time,
      medianTime: b.medianTime ?? medianOf(times),
      day,
      version: b.version,
      merkleRoot: b.merkleRoot,
      bits: b.bits,
      nonce: b.nonce,
      difficulty: b.difficulty,
      chainwork: b.chainwork ?? work.toString(16).padStart(64, '0'),
      size: b.size,
      strippedSize: b.strippedSize,
      weight: b.weight,
      txCount: b.txs.length,
      inputCount: s.inputCount,
      outputCount: s.outputCount,
      subsidy,
      emission,
      fees: s.fees,
      reward: s.reward,
      valueOut: s.valueOut,
      opReturnValue: s.opReturn,
      minerAddress: payouts[0] ?? null,
      poolId: defs.attribute(b.coinbaseHex, payouts),
      coinbaseHex: b.coinbaseHex,
      coinbaseTag: coinbaseTag(b.coinbaseHex),
      hasCertificate: cert !== null,
      cumTxCount,
      cumEmitted,
      cumUnclaimed,
      cumFees,
      cumOpReturn,
      raw: typeof b.raw === 'string' ? b.raw : JSON.stringify(b.raw),
    });
    if (cert) {
      const c = cert.config;
      certificates.push({
        blockHash: b.hash,
        height: b.height,
        day,
        version: cert.version,
        readable: cert.readable,
        error: cert.error,
        proofCommitment: cert.proofCommitment,
        computedCommitment: cert.computedCommitment,
        problems: cert.problems,
        namedHash: cert.blockHash,
        layout: cert.layout,
        size: cert.size,
        publicData: cert.publicData ? Buffer.from(cert.publicData).toString('hex') : null,
        proof: cert.proof,
        proofSize: cert.proofSize,
        ancestorHashes: cert.ancestorHashes,
        isMoE: cert.isMoE,
        config: c ? JSON.stringify(c) : null,
        configError: cert.configError,
        shape: c ? { m: c.m, n: c.n, k: c.commonDim, rank: c.rank } : null,
        raw: cert.raw,
      });
    }
  });

  const last = rows[rows.length - 1]!;
  return {
    blocks: rows,
    certificates,
    tip: {
      height: last.height,
      hash: last.hash,
      cumTxCount,
      cumEmitted,
      cumUnclaimed,
      cumFees,
      cumOpReturn,
      chainwork: last.chainwork,
      recentTimes: times.slice(-10),
    },
  };
}

/** The median of up to 11 block times (Core's and btcd's median time past). */
function medianOf(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}
