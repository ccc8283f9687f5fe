import { sha256d } from './hash.js';
import { varintSize, writeVarint } from './tx.js';

/** The 80-byte header fields; hashes in internal byte order. */
export interface HeaderFields {
  version: number;
  prev: Buffer;
  merkleRoot: Buffer;
  time: number;
  bits: number;
  nonce: number;
}

/** Serializes the 80-byte block header. */
export function serializeHeader(h: HeaderFields): Buffer {
  const buf = Buffer.allocUnsafe(80);
  buf.writeInt32LE(h.version | 0, 0);
  h.prev.copy(buf, 4);
  h.merkleRoot.copy(buf, 36);
  buf.writeUInt32LE(h.time >>> 0, 68);
  buf.writeUInt32LE(h.bits >>> 0, 72);
  buf.writeUInt32LE(h.nonce >>> 0, 76);
  return buf;
}

/** Bitcoin merkle root (duplicating the last hash on odd levels) over internal-order hashes. */
export function merkleRoot(hashes: Buffer[]): Buffer {
  if (hashes.length === 0) return Buffer.alloc(32);
  let level = hashes;
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const a = level[i] as Buffer;
      const b = level[i + 1] ?? a;
      next.push(sha256d(Buffer.concat([a, b])));
    }
    level = next;
  }
  return level[0] as Buffer;
}

/** Full block serialization: header, tx count, txs. */
export function serializeBlock(header: Buffer, txs: Buffer[]): { raw: Buffer; offsets: Uint32Array } {
  let total = 80 + varintSize(txs.length);
  for (const t of txs) total += t.length;
  // Not from Node's shared pool: a small pooled block would pin a whole 8 kB slab for the life of the chain.
  const raw = Buffer.allocUnsafeSlow(total);
  header.copy(raw, 0);
  let o = writeVarint(raw, 80, txs.length);
  const offsets = new Uint32Array(txs.length + 1);
  txs.forEach((t, i) => {
    offsets[i] = o;
    o += t.copy(raw, o);
  });
  offsets[txs.length] = o;
  return { raw, offsets };
}

/** Expands compact bits to the 256-bit target. */
export function bitsToTarget(bits: number): bigint {
  const exp = bits >>> 24;
  const mant = BigInt(bits & 0x007fffff);
  return exp <= 3 ? mant >> BigInt(8 * (3 - exp)) : mant << BigInt(8 * (exp - 3));
}

/** Core's GetCompact for a target. */
export function targetToBits(target: bigint): number {
  let size = Math.ceil(target.toString(16).length / 2);
  let compact =
    size <= 3 ? Number(target << BigInt(8 * (3 - size))) : Number(target >> BigInt(8 * (size - 3)));
  if (compact & 0x00800000) {
    compact >>>= 8;
    size++;
  }
  return ((size << 24) | compact) >>> 0;
}

/** Core's GetDifficulty from bits. */
export function bitsToDifficulty(bits: number): number {
  let shift = (bits >>> 24) & 0xff;
  let diff = 0x0000ffff / (bits & 0x00ffffff);
  while (shift < 29) {
    diff *= 256;
    shift++;
  }
  while (shift > 29) {
    diff /= 256;
    shift--;
  }
  return diff;
}

/** Expected hashes for one block at these bits (Core's GetBlockProof). */
export function blockWork(bits: number): bigint {
  const target = bitsToTarget(bits);
  return (1n << 256n) / (target + 1n);
}

/** Difficulty-1 bits, also the easiest allowed target. */
export const POW_LIMIT_BITS = 0x1d00ffff;
