import { ByteWriter, varintSize } from '@explorer/chain';

/** The 80-byte header fields of the Bitcoin dialect; hashes in internal byte order. */
export interface HeaderFields {
  version: number;
  prev: Buffer;
  merkleRoot: Buffer;
  time: number;
  bits: number;
  nonce: number;
}

/** Serializes Bitcoin's 80-byte block header. */
export function serializeHeader(h: HeaderFields): Buffer {
  return new ByteWriter(80)
    .i32(h.version)
    .raw(h.prev)
    .raw(h.merkleRoot)
    .u32(h.time)
    .u32(h.bits)
    .u32(h.nonce)
    .finish();
}

/**
 * A block's serialization: `prefix` (Pearl's certificate; empty for Bitcoin), header, tx count, txs; with the
 * offset of every tx.
 */
export function serializeBlock(
  prefix: Uint8Array,
  header: Uint8Array,
  txs: Uint8Array[],
): { raw: Buffer; offsets: Uint32Array } {
  let total = prefix.length + header.length + varintSize(txs.length);
  for (const t of txs) total += t.length;
  const w = new ByteWriter(total).raw(prefix).raw(header).varint(txs.length);
  const offsets = new Uint32Array(txs.length + 1);
  txs.forEach((t, i) => {
    offsets[i] = w.offset;
    w.raw(t);
  });
  offsets[txs.length] = w.offset;
  return { raw: w.finish(), offsets };
}

/** Difficulty-1 bits of the Bitcoin dialect, also its easiest allowed target. */
export const POW_LIMIT_BITS = 0x1d00ffff;
