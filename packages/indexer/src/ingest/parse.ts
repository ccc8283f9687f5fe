import type { DensePublicData, MiningConfig } from '@explorer/chain';
import type { KeptTxJson } from '@explorer/db';
import { MalformedBlockError } from './errors.js';

/** One output as the indexer stores it; `value` in base units. */
export interface ParsedOutput {
  vout: number;
  value: bigint;
  address: string | null;
  scriptType: string;
  scriptHex: string;
}

/** One input: the outpoint it spends (null for a coinbase). */
export interface ParsedInput {
  vin: number;
  prevTxid: string | null;
  prevVout: number | null;
  sequence: number;
}

/** A transaction in a block. */
export interface ParsedTx {
  txid: string;
  index: number;
  version: number;
  locktime: number;
  size: number;
  vsize: number;
  weight: number;
  isCoinbase: boolean;
  inputs: ParsedInput[];
  outputs: ParsedOutput[];
  /** The node's JSON of the transaction (Core): kept as it is, or as its `hex` and a recipe that renders it back. */
  raw: unknown;
  /** The transaction's bytes as hex, for a chain decoded from bytes: stored instead of its JSON, which is rendered from them on read. */
  hex?: string;
  /**
   * How its JSON is kept, decided where the block was decoded (off the writer's thread) rather than from `raw`,
   * which is then null: the bytes and a recipe, or the node's JSON as text (see `keepCoreTxJson`).
   */
  kept?: KeptTxJson;
  /**
   * The fee the kept recipe renders (the node's own); null when the rendering does not depend on it. The writer
   * keeps the node's JSON as text instead when the fee it computes differs.
   */
  keptFee?: bigint | null;
}

/** The decoded mining configuration of a certificate's public data (versions 1–3), as the API serves it. */
export type CertificateConfig = MiningConfig & Omit<DensePublicData, 'config'>;

/**
 * A block's proof certificate (Pearl). A certificate the decoder cannot read keeps its bytes in `raw`, its
 * `error` says why, and every decoded field is null: never a field guessed from bytes that did not decode.
 */
export interface ParsedCertificate {
  /** The version the bytes declare (their first 4 bytes), even when the rest could not be read. */
  version: number;
  readable: boolean;
  error: string | null;
  /** The header's proof commitment (display hex). */
  proofCommitment: string;
  /** SHA256d(LE32(version) ‖ public data) (v5: over the proof); null when unreadable. */
  computedCommitment: string | null;
  /** What verification against the header found (empty: the certificate binds to its block). */
  problems: string[];
  /** The block hash the certificate names; null when unreadable. */
  blockHash: string | null;
  layout: string | null;
  /** Bytes of the whole certificate, version included. */
  size: number;
  publicData: Uint8Array | null;
  proof: Uint8Array | null;
  proofSize: number;
  ancestorHashes: string[];
  isMoE: boolean;
  config: CertificateConfig | null;
  /** Why readable public data of versions 1–3 could not be decoded as their layout (then served as hex). */
  configError: string | null;
  /** The certificate's bytes when they could not be decoded. */
  raw: Uint8Array | null;
}

/** A block, ready to be written. */
export interface ParsedBlock {
  hash: string;
  height: number;
  prevHash: string | null;
  time: number;
  /** Median time of the past 11 blocks; null when the node does not report it (the indexer computes it). */
  medianTime: number | null;
  version: number;
  merkleRoot: string;
  /** Compact target as hex (Core pads it to 8 digits, pearld does not). */
  bits: string;
  /** null where the header has none (Pearl). */
  nonce: number | null;
  difficulty: number;
  /** The node's cumulative work (hex); null when it does not report it: the indexer sums the work of the bits. */
  chainwork: string | null;
  size: number;
  strippedSize: number | null;
  weight: number | null;
  txs: ParsedTx[];
  coinbaseHex: string;
  /** The subsidy the chain's emission schedule allows at this height; null when the profile does not know it. */
  scheduledSubsidy: bigint | null;
  certificate: ParsedCertificate | null;
  /**
   * The node's block JSON with `tx` reduced to txids, the certificate proof and the fields that change later left
   * out; as text once a chain profile rendered it (off the writer's thread).
   */
  raw: Record<string, unknown> | string;
}

const HEX = /^[0-9a-fA-F]*$/;

/** Converts a coin amount as JSON-RPC gives it (8 decimals) to integer base units. */
export function toBaseUnits(coins: unknown): bigint {
  const n = typeof coins === 'number' ? coins : Number(coins);
  if (!Number.isFinite(n) || n < 0) return 0n;
  return BigInt(Math.round(n * 1e8));
}

const num = (v: unknown, fallback = 0): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : fallback;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The single address a scriptPubKey pays to, from `address` (Core ≥ 22) or a one-element `addresses` (older). */
export function outputAddress(spk: Record<string, unknown> | undefined): string | null {
  if (!spk) return null;
  const a = str(spk.address);
  if (a) return a;
  const list = spk.addresses;
  if (Array.isArray(list) && list.length === 1 && typeof list[0] === 'string') return list[0];
  return null;
}

/**
 * Reads one transaction as Core's JSON-RPC renders it (`getblock <hash> 2`, `getrawtransaction <txid> true`);
 * `index` is its place in its block (-1 outside one).
 * @throws MalformedBlockError when it has no valid txid.
 */
export function parseTxJson(tx: unknown, index: number): ParsedTx {
  if (!tx || typeof tx !== 'object') throw new MalformedBlockError(`transaction ${index} is not an object`);
  return parseTx(tx as Record<string, unknown>, index);
}

function parseTx(t: Record<string, unknown>, index: number): ParsedTx {
  const txid = str(t.txid);
  if (txid?.length !== 64 || !HEX.test(txid))
    throw new MalformedBlockError(`transaction ${index} has no valid txid`);
  const vin = Array.isArray(t.vin) ? (t.vin as Record<string, unknown>[]) : [];
  const vout = Array.isArray(t.vout) ? (t.vout as Record<string, unknown>[]) : [];
  const isCoinbase = vin.length > 0 && typeof vin[0]?.coinbase === 'string';
  const inputs: ParsedInput[] = [];
  vin.forEach((i, n) => {
    const prev = str(i.txid);
    inputs.push({
      vin: n,
      prevTxid: isCoinbase || !prev ? null : prev,
      prevVout: isCoinbase || !prev ? null : num(i.vout),
      sequence: num(i.sequence),
    });
  });
  const outputs = vout.map((o, n): ParsedOutput => {
    const spk = (o.scriptPubKey ?? {}) as Record<string, unknown>;
    return {
      vout: typeof o.n === 'number' ? o.n : n,
      value: toBaseUnits(o.value),
      address: outputAddress(spk),
      scriptType: str(spk.type) ?? 'unknown',
      scriptHex: str(spk.hex) ?? '',
    };
  });
  const size = num(t.size);
  const weight = num(t.weight, size * 4);
  return {
    txid,
    index,
    version: num(t.version),
    locktime: num(t.locktime),
    size,
    vsize: num(t.vsize, Math.ceil(weight / 4)),
    weight,
    isCoinbase,
    inputs,
    outputs,
    raw: t,
  };
}

/**
 * Reads a `getblock <hash> 2` answer of Bitcoin Core or a fork of it. Fields it does not know are kept in
 * `raw` and otherwise ignored; only a block without hash, height or transactions is refused.
 */
export function parseBlock(b: unknown): ParsedBlock & { raw: Record<string, unknown> } {
  if (!b || typeof b !== 'object') throw new MalformedBlockError('block is not an object');
  const o = b as Record<string, unknown>;
  const hash = str(o.hash);
  if (hash?.length !== 64 || !HEX.test(hash)) throw new MalformedBlockError('block has no valid hash');
  if (typeof o.height !== 'number') throw new MalformedBlockError(`block ${hash} has no height`);
  if (!Array.isArray(o.tx) || o.tx.length === 0)
    throw new MalformedBlockError(`block ${hash} has no transactions`);
  if (typeof o.tx[0] !== 'object')
    throw new MalformedBlockError(`block ${hash} was not fetched with verbosity 2`);
  const txs = (o.tx as Record<string, unknown>[]).map(parseTx);
  const coinbase = txs[0]!.isCoinbase
    ? (((o.tx as Record<string, unknown>[])[0]!.vin as Record<string, unknown>[])[0]!.coinbase as string)
    : '';
  // confirmations and nextblockhash change after the block is stored; the API derives them from the tip.
  const { tx: _tx, confirmations: _c, nextblockhash: _n, ...header } = o;
  const raw: Record<string, unknown> = { ...header, tx: txs.map((t) => t.txid) };
  const time = num(o.time);
  return {
    hash,
    height: o.height,
    prevHash: str(o.previousblockhash),
    time,
    medianTime: num(o.mediantime, time),
    version: num(o.version),
    merkleRoot: str(o.merkleroot) ?? '',
    bits: str(o.bits) ?? '',
    nonce: num(o.nonce),
    difficulty: num(o.difficulty),
    chainwork: str(o.chainwork),
    size: num(o.size),
    strippedSize: typeof o.strippedsize === 'number' ? o.strippedsize : null,
    weight: typeof o.weight === 'number' ? o.weight : null,
    txs,
    coinbaseHex: coinbase,
    scheduledSubsidy: null,
    certificate: null,
    raw,
  };
}
