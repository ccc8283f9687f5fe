/** Byte length of a CompactSize integer. */
export function varintSize(n: number): number {
  return n < 0xfd ? 1 : n <= 0xffff ? 3 : n <= 0xffffffff ? 5 : 9;
}

/**
 * Writes into a buffer of a size computed beforehand, so an encoder makes one allocation; `finish()` checks
 * that the size was right.
 * @example const w = new ByteWriter(4); w.u32(1); const bytes = w.finish();
 */
export class ByteWriter {
  readonly bytes: Buffer;
  offset = 0;

  constructor(size: number) {
    // Not from Node's shared pool: long-lived small buffers would pin whole 8 kB slabs.
    this.bytes = Buffer.allocUnsafeSlow(size);
  }

  u8(v: number): this {
    this.bytes[this.offset++] = v;
    return this;
  }

  u16(v: number): this {
    this.offset = this.bytes.writeUInt16LE(v, this.offset);
    return this;
  }

  u32(v: number): this {
    this.offset = this.bytes.writeUInt32LE(v >>> 0, this.offset);
    return this;
  }

  i32(v: number): this {
    this.offset = this.bytes.writeInt32LE(v | 0, this.offset);
    return this;
  }

  u64(v: bigint): this {
    this.offset = this.bytes.writeBigUInt64LE(v, this.offset);
    return this;
  }

  /** A CompactSize integer in its canonical (shortest) form. */
  varint(n: number): this {
    if (n < 0xfd) return this.u8(n);
    if (n <= 0xffff) return this.u8(0xfd).u16(n);
    if (n <= 0xffffffff) return this.u8(0xfe).u32(n);
    return this.u8(0xff).u64(BigInt(n));
  }

  raw(b: Uint8Array): this {
    this.bytes.set(b, this.offset);
    this.offset += b.length;
    return this;
  }

  /** A CompactSize length, then the bytes. */
  varbytes(b: Uint8Array): this {
    return this.varint(b.length).raw(b);
  }

  /** The written bytes; throws when fewer or more were written than allocated. */
  finish(): Buffer {
    if (this.offset !== this.bytes.length) {
      throw new Error(`encoder wrote ${this.offset} bytes into a buffer of ${this.bytes.length}`);
    }
    return this.bytes;
  }
}
