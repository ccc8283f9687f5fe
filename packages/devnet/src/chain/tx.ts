import { sha256d, toDisplayHex } from './hash.js';

/** A transaction input; prevTxid is in internal (wire) byte order. */
export interface TxIn {
  prevTxid: Buffer;
  vout: number;
  scriptSig: Buffer;
  sequence: number;
  witness: Buffer[];
}

/** A transaction output; value in base units (always < 2^53). */
export interface TxOut {
  value: number;
  script: Buffer;
}

/** A transaction in structured form. */
export interface Tx {
  version: number;
  inputs: TxIn[];
  outputs: TxOut[];
  locktime: number;
}

/** Sizes as Core computes them. */
export interface TxSizes {
  size: number;
  baseSize: number;
  weight: number;
  vsize: number;
}

/** Byte length of a CompactSize. */
export function varintSize(n: number): number {
  return n < 0xfd ? 1 : n <= 0xffff ? 3 : n <= 0xffffffff ? 5 : 9;
}

/** Writes a CompactSize at off, returning the new offset. */
export function writeVarint(buf: Buffer, off: number, n: number): number {
  if (n < 0xfd) {
    buf[off] = n;
    return off + 1;
  }
  if (n <= 0xffff) {
    buf[off] = 0xfd;
    buf.writeUInt16LE(n, off + 1);
    return off + 3;
  }
  buf[off] = 0xfe;
  buf.writeUInt32LE(n, off + 1);
  return off + 5;
}

/** Whether any input carries witness data (then the tx is serialized with marker+flag). */
export function hasWitness(tx: Tx): boolean {
  for (const i of tx.inputs) if (i.witness.length > 0) return true;
  return false;
}

/** size/baseSize/weight/vsize from the structure, without serializing. */
export function txSizes(tx: Tx): TxSizes {
  let base = 8 + varintSize(tx.inputs.length) + varintSize(tx.outputs.length);
  for (const i of tx.inputs) base += 40 + varintSize(i.scriptSig.length) + i.scriptSig.length;
  for (const o of tx.outputs) base += 8 + varintSize(o.script.length) + o.script.length;
  let size = base;
  if (hasWitness(tx)) {
    size += 2;
    for (const i of tx.inputs) {
      size += varintSize(i.witness.length);
      for (const w of i.witness) size += varintSize(w.length) + w.length;
    }
  }
  const weight = base * 3 + size;
  return { size, baseSize: base, weight, vsize: Math.ceil(weight / 4) };
}

function writeU64(buf: Buffer, off: number, v: number): void {
  buf.writeUInt32LE(v % 4294967296, off);
  buf.writeUInt32LE(Math.floor(v / 4294967296), off + 4);
}

/** Wire serialization; with witness=false the legacy (txid) form. */
export function serializeTx(tx: Tx, witness = true): Buffer {
  const seg = witness && hasWitness(tx);
  const sizes = txSizes(tx);
  const buf = Buffer.allocUnsafe(seg ? sizes.size : sizes.baseSize);
  let o = buf.writeInt32LE(tx.version, 0);
  if (seg) {
    buf[o++] = 0;
    buf[o++] = 1;
  }
  o = writeVarint(buf, o, tx.inputs.length);
  for (const i of tx.inputs) {
    i.prevTxid.copy(buf, o);
    o = buf.writeUInt32LE(i.vout >>> 0, o + 32);
    o = writeVarint(buf, o, i.scriptSig.length);
    o += i.scriptSig.copy(buf, o);
    o = buf.writeUInt32LE(i.sequence >>> 0, o);
  }
  o = writeVarint(buf, o, tx.outputs.length);
  for (const out of tx.outputs) {
    writeU64(buf, o, out.value);
    o = writeVarint(buf, o + 8, out.script.length);
    o += out.script.copy(buf, o);
  }
  if (seg) {
    for (const i of tx.inputs) {
      o = writeVarint(buf, o, i.witness.length);
      for (const w of i.witness) {
        o = writeVarint(buf, o, w.length);
        o += w.copy(buf, o);
      }
    }
  }
  buf.writeUInt32LE(tx.locktime >>> 0, o);
  return buf;
}

/** A serialized tx with its identifiers and sizes. */
export interface EncodedTx extends TxSizes {
  bytes: Buffer;
  txid: string;
  wtxid: string;
  segwit: boolean;
}

/** Serializes a tx and derives txid (legacy form) and wtxid (full form) like Core. */
export function encodeTx(tx: Tx): EncodedTx {
  const bytes = serializeTx(tx, true);
  const segwit = hasWitness(tx);
  const txid = toDisplayHex(sha256d(segwit ? serializeTx(tx, false) : bytes));
  const wtxid = segwit ? toDisplayHex(sha256d(bytes)) : txid;
  return { bytes, txid, wtxid, segwit, ...txSizes(tx) };
}

/** Reads a CompactSize. */
export function readVarint(buf: Uint8Array, off: number): [number, number] {
  const b = buf[off] as number;
  const v = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b < 0xfd) return [b, off + 1];
  if (b === 0xfd) return [v.readUInt16LE(off + 1), off + 3];
  if (b === 0xfe) return [v.readUInt32LE(off + 1), off + 5];
  return [Number(v.readBigUInt64LE(off + 1)), off + 9];
}

/** Parses one wire-format tx starting at off; returns it and the offset after it. */
export function parseTx(buf: Buffer, off = 0): { tx: Tx; end: number } {
  const version = buf.readInt32LE(off);
  let o = off + 4;
  let seg = false;
  if (buf[o] === 0 && buf[o + 1] === 1) {
    seg = true;
    o += 2;
  }
  let n: number;
  [n, o] = readVarint(buf, o);
  const inputs: TxIn[] = [];
  for (let k = 0; k < n; k++) {
    const prevTxid = buf.subarray(o, o + 32);
    const vout = buf.readUInt32LE(o + 32);
    let len: number;
    [len, o] = readVarint(buf, o + 36);
    const scriptSig = buf.subarray(o, o + len);
    o += len;
    const sequence = buf.readUInt32LE(o);
    o += 4;
    inputs.push({ prevTxid, vout, scriptSig, sequence, witness: [] });
  }
  [n, o] = readVarint(buf, o);
  const outputs: TxOut[] = [];
  for (let k = 0; k < n; k++) {
    const value = buf.readUInt32LE(o) + buf.readUInt32LE(o + 4) * 4294967296;
    let len: number;
    [len, o] = readVarint(buf, o + 8);
    outputs.push({ value, script: buf.subarray(o, o + len) });
    o += len;
  }
  if (seg) {
    for (const i of inputs) {
      let items: number;
      [items, o] = readVarint(buf, o);
      for (let k = 0; k < items; k++) {
        let len: number;
        [len, o] = readVarint(buf, o);
        i.witness.push(buf.subarray(o, o + len));
        o += len;
      }
    }
  }
  const locktime = buf.readUInt32LE(o);
  return { tx: { version, inputs, outputs, locktime }, end: o + 4 };
}

/** True for the null prevout of a coinbase input. */
export function isCoinbaseInput(i: TxIn): boolean {
  return i.vout === 0xffffffff && i.prevTxid.every((b) => b === 0);
}
