import type { ByteReader } from '../bytes/reader.js';
import { ByteWriter } from '../bytes/writer.js';
import { fromDisplayHex, sha256d, toDisplayHex } from '../hash.js';

/** Bytes of a Pearl block header: version, previous block, merkle root, time, bits, proof commitment. No nonce. */
export const PEARL_HEADER_SIZE = 108;
/** The header without its proof commitment (what the proof is bound to). */
export const PEARL_INCOMPLETE_HEADER_SIZE = 76;

/** A Pearl block header; hashes in display order. */
export interface PearlHeader {
  version: number;
  prevHash: string;
  merkleRoot: string;
  time: number;
  bits: number;
  /** SHA256d(LE32(certificate version) ‖ public data) (v5: over the proof), display order. */
  proofCommitment: string;
}

/** A decoded header with its hash and bytes. */
export interface DecodedPearlHeader extends PearlHeader {
  /** SHA256d of the 108 bytes, display order. */
  hash: string;
  bytes: Uint8Array;
}

/** Reads a 108-byte header at the reader's offset. */
export function readPearlHeader(r: ByteReader): DecodedPearlHeader {
  const start = r.offset;
  const version = r.i32('header version');
  const prev = r.take(32, 'header previous block hash');
  const merkle = r.take(32, 'header merkle root');
  const time = r.u32('header time');
  const bits = r.u32('header bits');
  const commitment = r.take(32, 'header proof commitment');
  const bytes = r.bytes.subarray(start, r.offset);
  return {
    version,
    prevHash: toDisplayHex(prev),
    merkleRoot: toDisplayHex(merkle),
    time,
    bits,
    proofCommitment: toDisplayHex(commitment),
    hash: toDisplayHex(sha256d(bytes)),
    bytes,
  };
}

/** Serializes a header (108 bytes). */
export function encodePearlHeader(h: PearlHeader): Buffer {
  return new ByteWriter(PEARL_HEADER_SIZE)
    .i32(h.version)
    .raw(fromDisplayHex(h.prevHash))
    .raw(fromDisplayHex(h.merkleRoot))
    .u32(h.time)
    .u32(h.bits)
    .raw(fromDisplayHex(h.proofCommitment))
    .finish();
}

/** The block hash of a serialized header, display order. */
export function pearlHeaderHash(header: Uint8Array): string {
  return toDisplayHex(sha256d(header));
}
