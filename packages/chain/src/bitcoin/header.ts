import { ByteWriter } from '../bytes/writer.js';
import { fromDisplayHex } from '../hash.js';

/** Bytes of a Bitcoin Core (and Litecoin) block header. */
export const CORE_HEADER_SIZE = 80;

/** The fields of a Bitcoin Core block header; hashes in display order. */
export interface CoreHeader {
  /** Signed as Core shows it, or unsigned: the same 32 bits are written. */
  version: number;
  /** The all-zero hash for a genesis block. */
  prevHash: string;
  merkleRoot: string;
  time: number;
  bits: number;
  nonce: number;
}

/**
 * Serializes a Bitcoin Core block header (80 bytes): version, previous block, merkle root, time, bits, nonce;
 * its SHA256d, byte-reversed, is the block hash.
 * @example encodeCoreHeader({ version: 1, prevHash: '00'.repeat(32), merkleRoot, time, bits: 0x207fffff, nonce: 2 })
 */
export function encodeCoreHeader(h: CoreHeader): Buffer {
  return new ByteWriter(CORE_HEADER_SIZE)
    .u32(h.version >>> 0)
    .raw(fromDisplayHex(h.prevHash))
    .raw(fromDisplayHex(h.merkleRoot))
    .u32(h.time)
    .u32(h.bits)
    .u32(h.nonce)
    .finish();
}
