/** Bytes that are not what a decoder expects: truncated, oversized, non-canonical or of an unknown kind. */
export class DecodeError extends Error {
  override readonly name = 'DecodeError';
  constructor(
    message: string,
    /** Offset in the decoded bytes where the problem was found. */
    readonly offset: number,
    /** True when the bytes ended early (rather than holding something invalid). */
    readonly truncated = false,
  ) {
    super(message);
  }
}

/**
 * A cursor over bytes whose every read is bounds-checked: a read past `end` throws a DecodeError that says
 * what was being read, never returns a short or zero-filled field.
 * @example const r = new ByteReader(bytes); const version = r.u32('version');
 */
export class ByteReader {
  private readonly view: DataView;
  /** Next byte to read. */
  offset: number;
  /** One past the last readable byte. */
  readonly end: number;

  constructor(
    readonly bytes: Uint8Array,
    offset = 0,
    end = bytes.length,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.offset = offset;
    this.end = Math.min(end, bytes.length);
  }

  /** Bytes left before `end`. */
  get remaining(): number {
    return this.end - this.offset;
  }

  /** Throws unless `n` more bytes can be read. */
  need(n: number, what: string): void {
    if (n > this.end - this.offset) {
      throw new DecodeError(
        `unexpected end of data reading ${what}: needs ${n} bytes at offset ${this.offset}, ${Math.max(0, this.end - this.offset)} left`,
        this.offset,
        true,
      );
    }
  }

  /** One unsigned byte. */
  u8(what: string): number {
    this.need(1, what);
    return this.bytes[this.offset++] as number;
  }

  /** Little-endian unsigned 16-bit integer. */
  u16(what: string): number {
    this.need(2, what);
    const v = this.view.getUint16(this.offset, true);
    this.offset += 2;
    return v;
  }

  /** Little-endian unsigned 32-bit integer. */
  u32(what: string): number {
    this.need(4, what);
    const v = this.view.getUint32(this.offset, true);
    this.offset += 4;
    return v;
  }

  /** Little-endian signed 32-bit integer. */
  i32(what: string): number {
    this.need(4, what);
    const v = this.view.getInt32(this.offset, true);
    this.offset += 4;
    return v;
  }

  /** Little-endian unsigned 64-bit integer. */
  u64(what: string): bigint {
    this.need(8, what);
    const v = this.view.getBigUint64(this.offset, true);
    this.offset += 8;
    return v;
  }

  /**
   * A CompactSize integer. Non-canonical encodings (a wider form than the value needs) are refused, as
   * Bitcoin Core and btcd refuse them; so is any value above `max`.
   */
  varint(what: string, max = Number.MAX_SAFE_INTEGER): number {
    const start = this.offset;
    const first = this.u8(what);
    let v: number;
    let min: number;
    if (first < 0xfd) {
      v = first;
      min = 0;
    } else if (first === 0xfd) {
      v = this.u16(what);
      min = 0xfd;
    } else if (first === 0xfe) {
      v = this.u32(what);
      min = 0x10000;
    } else {
      const big = this.u64(what);
      min = 0x100000000;
      if (big > BigInt(max)) {
        throw new DecodeError(`${what} ${big} exceeds the maximum of ${max}`, start);
      }
      v = Number(big);
    }
    if (v < min) {
      throw new DecodeError(
        `non-canonical varint for ${what}: ${v} written in ${this.offset - start} bytes`,
        start,
      );
    }
    if (v > max) throw new DecodeError(`${what} ${v} exceeds the maximum of ${max}`, start);
    return v;
  }

  /** `n` bytes, as a view into the underlying bytes (no copy). */
  take(n: number, what: string): Uint8Array {
    this.need(n, what);
    const out = this.bytes.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }

  /** A CompactSize length followed by that many bytes, the length bounded by `max`. */
  varbytes(what: string, max = Number.MAX_SAFE_INTEGER): Uint8Array {
    const n = this.varint(`${what} length`, max);
    return this.take(n, what);
  }
}
