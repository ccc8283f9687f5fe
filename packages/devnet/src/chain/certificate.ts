import { certificateCommitment, encodeCertificate, isMoePublicData } from '@explorer/chain';
import { fastBytes, type Rng } from './rng.js';

/** Heights from which the devnet's Pearl blocks carry certificate versions 2, 3 and 4 (version 1 before). */
export interface CertificateForks {
  moe: number;
  saltedSeed: number;
  fp8: number;
}

/** What a block's certificate is made of; the proof bytes are regenerated from the seed (never stored). */
export interface CertificatePlan {
  version: number;
  publicData: Buffer;
  proofLength: number;
  proofSeed: number;
  /** Headers of this many ancestors (parent first) travel with a version 4 certificate. */
  ancestors: number;
  isMoE: boolean;
  /** The matrix product the job proved (versions 1–3; the v4 layout is not decoded by the explorer). */
  shape: { m: number; n: number; k: number; rank: number } | null;
  /** Genesis keeps Pearl's literal: zero public data, proof `deadbeef`, no commitment in its header. */
  genesis: boolean;
}

const GENESIS_PROOF = Buffer.from('deadbeef', 'hex');
// Canonical periodic patterns (3 × (factor − 1, length − 1)): 4 rows {0,8,64,72}; 8 columns {0,1,8,9,32,33,40,41}; …
const ROW_PATTERNS = ['070103010000', '000300000000', '0f0101010000'];
const COL_PATTERNS = ['000103010101', '000700000000', '000101030000'];

/** The certificate version a block at `height` carries. */
export function certificateVersion(forks: CertificateForks, height: number): number {
  if (height >= forks.fp8) return 4;
  if (height >= forks.saltedSeed) return 3;
  if (height >= forks.moe) return 2;
  return 1;
}

/** Pearl's genesis certificate. */
export function genesisCertificate(): CertificatePlan {
  return {
    version: 1,
    publicData: Buffer.alloc(164),
    proofLength: GENESIS_PROOF.length,
    proofSeed: 0,
    ancestors: 0,
    isMoE: false,
    shape: null,
    genesis: true,
  };
}

/**
 * Plans the certificate of a block: dense public data of versions 1–3 (mining configuration, matrix hashes,
 * shape) with a mixture-of-experts tail on about 30% of v2+ jobs, or version 4's public data, whose first 108
 * bytes are the parent's header.
 */
export function planCertificate(
  rng: Rng,
  version: number,
  proofSize: [number, number],
  parentHeader: Uint8Array | null,
  ancestorsAvailable: number,
): CertificatePlan {
  const moe = version >= 2 && rng.chance(0.3);
  const m = rng.pick([2048, 4096, 8192]);
  const n = rng.pick([2048, 4096, 8192]);
  const k = rng.pick([1024, 2048, 4096]);
  const rank = rng.pick([16, 32, 64]);
  const experts = moe ? rng.pick([8, 16, 32]) : 0;
  const topK = moe ? rng.pick([1, 2]) : 0;
  let publicData: Buffer;
  if (version <= 3) {
    const head = Buffer.alloc(164);
    head.writeUInt32LE(k, 0);
    head.writeUInt16LE(rank, 4);
    head.writeUInt16LE(0, 6);
    Buffer.from(rng.pick(ROW_PATTERNS), 'hex').copy(head, 8);
    Buffer.from(rng.pick(COL_PATTERNS), 'hex').copy(head, 14);
    head.writeUInt16LE(experts, 20);
    head.writeUInt16LE(topK, 22);
    rng.bytes(96).copy(head, 52);
    head.writeUInt32LE(m, 148);
    head.writeUInt32LE(n, 152);
    head.writeUInt32LE(rng.int(m / 64) * 64, 156);
    head.writeUInt32LE(rng.int(n / 64) * 64, 160);
    publicData = moe ? Buffer.concat([head, moeTail(rng, experts, m * topK)]) : head;
  } else {
    publicData = v4PublicData(rng, parentHeader ?? Buffer.alloc(108), { m, n, k, moe, experts });
  }
  const [min, max] = proofSize;
  return {
    version,
    publicData,
    proofLength: rng.range(min, max),
    proofSeed: rng.u32(),
    ancestors: version === 4 ? Math.min(ancestorsAvailable, rng.range(1, 2)) : 0,
    isMoE: isMoePublicData(version, publicData.length),
    shape: version <= 3 ? { m, n, k, rank } : null,
    genesis: false,
  };
}

function moeTail(rng: Rng, experts: number, rows: number): Buffer {
  const outer = rng.range(1, 16);
  const tail = Buffer.alloc(2 + 4 * experts + 32 + 1 + 4 * outer);
  let o = tail.writeUInt16LE(rng.int(experts), 0);
  // Exclusive cumulative ends of each expert's rows; the last is m × top_k.
  const cuts = Array.from({ length: experts - 1 }, () => rng.int(rows + 1)).sort((a, b) => a - b);
  for (const end of [...cuts, rows]) o = tail.writeUInt32LE(end, o);
  o += rng.bytes(32).copy(tail, o);
  o = tail.writeUInt8(outer, o);
  for (let i = 0; i < outer; i++) o = tail.writeUInt32LE(rng.int(rows), o);
  return tail;
}

// Version 4 (FP8) public data in its later layout: σ_d (an ancestor header) ‖ pB ‖ HB ‖ pA ‖ HA ‖ tile bases ‖ J
// [‖ MoE tail]; 244 bytes dense, 324 + 4h with experts.
function v4PublicData(
  rng: Rng,
  ancestor: Uint8Array,
  p: { m: number; n: number; k: number; moe: boolean; experts: number },
): Buffer {
  const rowTile = 4;
  const axis = (len: number) => Buffer.from([((len - 1) << 2) | 2, 3, 3, 3, 3, 3]);
  const pB = Buffer.alloc(21);
  pB.writeUInt32LE(p.n, 0);
  pB.writeUInt32LE(p.k, 4);
  pB.writeUInt16LE(32, 8);
  pB.writeUInt8(0, 10);
  pB.writeUInt8(rng.int(2), 11);
  pB.writeUInt8(rng.int(4), 12);
  axis(8).copy(pB, 13);
  pB.writeUInt16LE(p.moe ? p.experts : 0, 19);
  const pA = Buffer.alloc(p.moe ? 13 : 11);
  pA.writeUInt32LE(p.m, 0);
  pA.writeUInt8(rng.int(4), 4);
  axis(rowTile).copy(pA, 5);
  if (p.moe) {
    pA.writeUInt8(rng.int(4), 11);
    pA.writeUInt8(rng.int(4), 12);
  }
  const tiles = Buffer.alloc(8);
  tiles.writeUInt32LE(rng.int(p.m / 64) * 64, 0);
  tiles.writeUInt32LE(rng.int(p.n / 64) * 64, 4);
  const parts = [Buffer.from(ancestor), pB, rng.bytes(32), pA, rng.bytes(32), tiles, rng.bytes(32)];
  if (p.moe) {
    const tail = Buffer.alloc(2 + 12);
    const w = rng.int(p.experts);
    tail.writeUInt16LE(w, 0);
    tail.writeUInt32LE(w * 64, 2);
    tail.writeUInt32LE((w + 1) * 64, 6);
    tail.writeUInt32LE(p.experts * 64, 10);
    const rows = Buffer.alloc(4 * rowTile);
    for (let i = 0; i < rowTile; i++) rows.writeUInt32LE(rng.int(p.m), 4 * i);
    parts.push(tail, rng.bytes(64), rows);
  }
  return Buffer.concat(parts);
}

/** Bytes of the certificate of the block at `height` (its ancestors are those that exist). */
export function certificateSize(c: CertificatePlan, height: number): number {
  const pub = c.version === 1 ? 164 : 4 + c.publicData.length;
  const ancestors = c.version === 4 ? 1 + 108 * Math.min(c.ancestors, height) : 0;
  return 4 + 32 + pub + 4 + c.proofLength + ancestors;
}

/** The proof bytes of a planned certificate. */
export function certificateProof(c: CertificatePlan): Buffer {
  return c.genesis ? GENESIS_PROOF : fastBytes(c.proofSeed, c.proofLength);
}

/** The proof commitment the block header carries (none for genesis), display order. */
export function headerCommitment(c: CertificatePlan): string {
  return c.genesis
    ? '0'.repeat(64)
    : certificateCommitment({ version: c.version, publicData: c.publicData, proof: Buffer.alloc(0) });
}

/** The certificate's wire bytes for the block of `blockHash`, with its ancestors' headers (parent first). */
export function certificateBytes(
  c: CertificatePlan,
  blockHash: string,
  ancestorHeaders: Uint8Array[],
): Buffer {
  return encodeCertificate({
    version: c.version,
    blockHash,
    publicData: c.publicData,
    proof: certificateProof(c),
    ancestorHeaders: ancestorHeaders.slice(0, c.ancestors),
  });
}

/** What blockBytes needs of the chain: blocks by hash. */
interface BlockSource {
  blocks: ReadonlyMap<string, { prevHash: string | undefined; raw: Buffer; headerSize: number }>;
}

/** A stored block's full serialization: its certificate (rebuilt, with its ancestors' headers) before its bytes. */
export function blockBytes(
  source: BlockSource,
  block: {
    hash: string;
    prevHash: string | undefined;
    raw: Buffer;
    certificate: CertificatePlan | undefined;
  },
): Buffer {
  const c = block.certificate;
  if (!c) return block.raw;
  const ancestors: Buffer[] = [];
  let p = block.prevHash ? source.blocks.get(block.prevHash) : undefined;
  while (p && ancestors.length < c.ancestors) {
    ancestors.push(p.raw.subarray(0, p.headerSize));
    p = p.prevHash ? source.blocks.get(p.prevHash) : undefined;
  }
  return Buffer.concat([certificateBytes(c, block.hash, ancestors), block.raw]);
}
