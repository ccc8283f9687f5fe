import { ByteReader, DecodeError } from './bytes/reader.js';
import { ByteWriter, varintSize } from './bytes/writer.js';
import { sha256d, toDisplayHex } from './hash.js';

/** A transaction input; `prevTxid` is in internal (wire) byte order. */
export interface TxInput {
  prevTxid: Uint8Array;
  vout: number;
  scriptSig: Uint8Array;
  sequence: number;
  witness: Uint8Array[];
}

/** A transaction output; `value` in base units. */
export interface TxOutput {
  value: bigint;
  script: Uint8Array;
}

/** A transaction in structured form. */
export interface Tx {
  version: number;
  inputs: TxInput[];
  outputs: TxOutput[];
  locktime: number;
}

/** Sizes as Bitcoin Core and btcd compute them (BIP141). */
export interface TxSizes {
  /** Serialized size with witness data. */
  size: number;
  /** Serialized size without witness data. */
  baseSize: number;
  weight: number;
  /** ⌈weight ÷ 4⌉ = baseSize + ⌈witness bytes ÷ 4⌉. */
  vsize: number;
}

/** A decoded transaction with its identifiers and sizes. */
export interface DecodedTx extends Tx, TxSizes {
  /** SHA256d of the serialization without witness data, display order. */
  txid: string;
  /** SHA256d of the full serialization, display order (equals txid without witness data). */
  wtxid: string;
  hasWitness: boolean;
  /** The serialized bytes (a view into the decoded buffer). */
  bytes: Uint8Array;
}

const COINBASE_VOUT = 0xffffffff;

/** True for the null prevout of a coinbase input. */
export function isCoinbaseInput(i: Pick<TxInput, 'prevTxid' | 'vout'>): boolean {
  return i.vout === COINBASE_VOUT && i.prevTxid.every((b) => b === 0);
}

/**
 * Reads one transaction (BIP144 witness serialization when the marker is present) at the reader's offset.
 * Counts are bounded by the bytes left, so a forged count can neither allocate nor loop without end.
 */
export function readTx(r: ByteReader): DecodedTx {
  const start = r.offset;
  const version = r.i32('tx version');
  // Inputs take at least 41 bytes, outputs 9, witness items 1: a count the remaining bytes cannot hold is refused
  // before anything is allocated.
  let inputCount = r.varint('tx input count', Math.floor(r.remaining / 41));
  let segwit = false;
  if (inputCount === 0) {
    const flag = r.u8('tx witness flag');
    if (flag !== 1) throw new DecodeError(`tx witness flag is ${flag}, expected 1`, r.offset - 1);
    segwit = true;
    inputCount = r.varint('tx input count', Math.floor(r.remaining / 41));
    if (inputCount === 0) throw new DecodeError('transaction has no inputs', r.offset - 1);
  }
  const inputs: TxInput[] = new Array(inputCount);
  for (let i = 0; i < inputCount; i++) {
    const prevTxid = r.take(32, `tx input ${i} prevout hash`);
    const vout = r.u32(`tx input ${i} prevout index`);
    const scriptSig = r.varbytes(`tx input ${i} scriptSig`, r.remaining);
    const sequence = r.u32(`tx input ${i} sequence`);
    inputs[i] = { prevTxid, vout, scriptSig, sequence, witness: [] };
  }
  const outputCount = r.varint('tx output count', Math.floor(r.remaining / 9));
  const outputs: TxOutput[] = new Array(outputCount);
  for (let i = 0; i < outputCount; i++) {
    const value = r.u64(`tx output ${i} value`);
    const script = r.varbytes(`tx output ${i} script`, r.remaining);
    outputs[i] = { value, script };
  }
  const witnessStart = r.offset;
  if (segwit) {
    for (let i = 0; i < inputCount; i++) {
      const items = r.varint(`tx input ${i} witness count`, r.remaining);
      const witness: Uint8Array[] = new Array(items);
      for (let k = 0; k < items; k++) witness[k] = r.varbytes(`tx input ${i} witness item ${k}`, r.remaining);
      (inputs[i] as TxInput).witness = witness;
    }
  }
  const witnessEnd = r.offset;
  // As Bitcoin Core: the marker promises witness data, so a transaction without any is malformed.
  if (segwit && witnessEnd - witnessStart === inputCount) {
    throw new DecodeError(
      'superfluous witness record: the witness flag is set but no input has witness data',
      witnessStart,
    );
  }
  const locktime = r.u32('tx locktime');
  const end = r.offset;
  const bytes = r.bytes.subarray(start, end);
  const b = r.bytes;
  const txidHash = segwit
    ? sha256d(b.subarray(start, start + 4), b.subarray(start + 6, witnessStart), b.subarray(witnessEnd, end))
    : sha256d(bytes);
  const txid = toDisplayHex(txidHash);
  const size = end - start;
  const baseSize = segwit ? size - 2 - (witnessEnd - witnessStart) : size;
  const weight = baseSize * 3 + size;
  return {
    version,
    inputs,
    outputs,
    locktime,
    txid,
    wtxid: segwit ? toDisplayHex(sha256d(bytes)) : txid,
    hasWitness: segwit,
    bytes,
    size,
    baseSize,
    weight,
    vsize: Math.ceil(weight / 4),
  };
}

/**
 * Decodes a serialized transaction that must fill `bytes` exactly.
 * @example const tx = decodeTx(Buffer.from(hex, 'hex')); tx.txid
 */
export function decodeTx(bytes: Uint8Array): DecodedTx {
  const r = new ByteReader(bytes);
  const tx = readTx(r);
  if (r.remaining !== 0) throw new DecodeError(`${r.remaining} bytes after the transaction`, r.offset);
  return tx;
}

/** Whether any input carries witness data (then the tx is serialized with marker and flag). */
export function hasWitness(tx: Tx): boolean {
  for (const i of tx.inputs) if (i.witness.length > 0) return true;
  return false;
}

/** Sizes from the structure, without serializing. */
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

/** Wire serialization; with `witness = false` the legacy form the txid is computed over. */
export function serializeTx(tx: Tx, witness = true): Buffer {
  const seg = witness && hasWitness(tx);
  const sizes = txSizes(tx);
  const w = new ByteWriter(seg ? sizes.size : sizes.baseSize);
  w.i32(tx.version);
  if (seg) w.u8(0).u8(1);
  w.varint(tx.inputs.length);
  for (const i of tx.inputs) w.raw(i.prevTxid).u32(i.vout).varbytes(i.scriptSig).u32(i.sequence);
  w.varint(tx.outputs.length);
  for (const o of tx.outputs) w.u64(o.value).varbytes(o.script);
  if (seg) {
    for (const i of tx.inputs) {
      w.varint(i.witness.length);
      for (const item of i.witness) w.varbytes(item);
    }
  }
  w.u32(tx.locktime);
  return w.finish();
}

/** A serialized transaction with its identifiers and sizes. */
export interface EncodedTx extends TxSizes {
  bytes: Buffer;
  txid: string;
  wtxid: string;
  hasWitness: boolean;
}

/** Serializes a transaction and derives its txid and wtxid. */
export function encodeTx(tx: Tx): EncodedTx {
  const bytes = serializeTx(tx, true);
  const seg = hasWitness(tx);
  const txid = toDisplayHex(sha256d(seg ? serializeTx(tx, false) : bytes));
  return { bytes, txid, wtxid: seg ? toDisplayHex(sha256d(bytes)) : txid, hasWitness: seg, ...txSizes(tx) };
}

/** Bitcoin's merkle root (the last hash of an odd level is paired with itself) over internal-order hashes. */
export function merkleRoot(hashes: readonly Uint8Array[]): Buffer {
  if (hashes.length === 0) return Buffer.alloc(32);
  let level = hashes;
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const a = level[i] as Uint8Array;
      next.push(sha256d(a, level[i + 1] ?? a));
    }
    level = next;
  }
  return Buffer.from(level[0] as Uint8Array);
}
