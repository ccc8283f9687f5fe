import { ByteReader, DecodeError } from '../bytes/reader.js';

/** One dimension of a periodic index pattern: `length` steps, the stride scaled by `factor`. */
export interface PatternDim {
  factor: number;
  length: number;
}

/** A 6-byte periodic pattern of row or column indices (3 dimensions of `(factor − 1, length − 1)`). */
export interface PeriodicPattern {
  hex: string;
  /** The dimensions that are not trivial (factor 1, length 1). */
  dims: PatternDim[];
  /** How many indices the pattern selects (the product of the lengths). */
  size: number;
}

/** The mining configuration at the head of the public data (52 bytes). */
export interface MiningConfig {
  /** k: the inner dimension of the matrix product. */
  commonDim: number;
  rank: number;
  /** 0 = Int7×Int7→Int32, the only type pearld accepts. */
  mmaType: number;
  rowsPattern: PeriodicPattern;
  colsPattern: PeriodicPattern;
  /** Experts of a mixture-of-experts job; 0 for a dense job. */
  experts: number;
  topK: number;
}

/** The mixture-of-experts tail appended to the dense public data. */
export interface MoeRouting {
  expertIndex: number;
  /** Exclusive cumulative ends of each expert's rows; the last equals m × topK. */
  routingOffsets: number[];
  hashRouting: string;
  outerIndices: number[];
}

/** Public data of certificate versions 1–3, decoded. */
export interface DensePublicData {
  config: MiningConfig;
  hashA: string;
  hashB: string;
  hashJackpot: string;
  m: number;
  n: number;
  tRows: number;
  tCols: number;
  moe: MoeRouting | null;
}

/** Bytes of the dense (non-MoE) public data of versions 1–3. */
export const DENSE_PUBLIC_DATA_SIZE = 164;
/** Smallest MoE public data: dense 164 + expert index 2 + hash 32 + outer count 1. */
export const MIN_MOE_PUBLIC_DATA_SIZE = 199;

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

function pattern(r: ByteReader, what: string): PeriodicPattern {
  const bytes = r.take(6, what);
  const dims: PatternDim[] = [];
  let size = 1;
  for (let i = 0; i < 3; i++) {
    const factor = (bytes[2 * i] as number) + 1;
    const length = (bytes[2 * i + 1] as number) + 1;
    size *= length;
    dims.push({ factor, length });
  }
  while (dims.length > 0 && dims[dims.length - 1]!.factor === 1 && dims[dims.length - 1]!.length === 1)
    dims.pop();
  return { hex: hex(bytes), dims, size };
}

/** The indices a pattern selects, in increasing stride order (a 3-D arithmetic progression). */
export function patternIndices(p: PeriodicPattern): number[] {
  let out = [0];
  let span = 1;
  for (const d of p.dims) {
    const stride = d.factor * span;
    const next: number[] = [];
    for (let a = 0; a < d.length; a++) for (const i of out) next.push(i + a * stride);
    out = next.sort((x, y) => x - y);
    span = stride * d.length;
  }
  return out;
}

/**
 * Decodes the public data of a version 1–3 certificate: the mining configuration, the matrix hashes, the
 * shape, and the MoE routing when the configuration names experts. Refuses bytes whose length does not match
 * the layout their own fields imply (then the caller serves them as hex only).
 * @throws DecodeError
 */
export function decodeDensePublicData(bytes: Uint8Array): DensePublicData {
  const r = new ByteReader(bytes);
  const commonDim = r.u32('common_dim');
  const rank = r.u16('rank');
  const mmaType = r.u16('mma_type');
  const rowsPattern = pattern(r, 'rows pattern');
  const colsPattern = pattern(r, 'cols pattern');
  const experts = r.u16('experts');
  const topK = r.u16('top_k');
  r.take(28, 'reserved trailer');
  const hashA = hex(r.take(32, 'hash_a'));
  const hashB = hex(r.take(32, 'hash_b'));
  const hashJackpot = hex(r.take(32, 'hash_jackpot'));
  const m = r.u32('m');
  const n = r.u32('n');
  const tRows = r.u32('t_rows');
  const tCols = r.u32('t_cols');
  const config: MiningConfig = { commonDim, rank, mmaType, rowsPattern, colsPattern, experts, topK };
  let moe: MoeRouting | null = null;
  if (experts > 0) {
    const expertIndex = r.u16('expert index');
    const routingOffsets: number[] = [];
    for (let i = 0; i < experts; i++) routingOffsets.push(r.u32(`routing offset ${i}`));
    const hashRouting = hex(r.take(32, 'hash_routing'));
    const outerCount = r.u8('outer count');
    const outerIndices: number[] = [];
    for (let i = 0; i < outerCount; i++) outerIndices.push(r.u32(`outer index ${i}`));
    moe = { expertIndex, routingOffsets, hashRouting, outerIndices };
  }
  if (r.remaining !== 0) {
    throw new DecodeError(
      `${r.remaining} bytes after the ${experts > 0 ? 'MoE' : 'dense'} public data (${bytes.length} bytes in all)`,
      r.offset,
    );
  }
  return { config, hashA, hashB, hashJackpot, m, n, tRows, tCols, moe };
}

/**
 * Whether a certificate's job was a mixture of experts, from what is certain: v2/v3 public data longer than
 * the dense 164 bytes; v4 public data longer than 244 bytes (longer than the dense size of both v4 layouts
 * seen, shorter than the MoE size of either). Version 1 and 5 certificates never are.
 */
export function isMoePublicData(version: number, publicDataLength: number): boolean {
  if (version === 2 || version === 3) return publicDataLength > DENSE_PUBLIC_DATA_SIZE;
  if (version === 4) return publicDataLength > 244;
  return false;
}
