import { unitsToCoins } from '../bitcoin/render.js';
import { toDisplayHex } from '../hash.js';
import { scriptAsm } from '../script-asm.js';
import { type DecodedTx, isCoinbaseInput } from '../tx.js';
import type { DecodedPearlBlock } from './block.js';
import type { PearlHeader } from './header.js';
import { type PearlScriptType, pearlScriptAddress, pearlScriptType } from './script.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Grains as pearld prints amounts: a float of PRL (float64(grains) ÷ 10^8), as Core prints coins. */
export function grainsToPrl(grains: bigint): number {
  return unitsToCoins(grains);
}

/** What a caller may already know of an output script, so it is not worked out twice. */
export interface KnownScript {
  scriptType: string;
  address: string | null;
  scriptHex: string;
}

/** pearld's scriptPubKey object (ScriptPubKeyResult). */
export function renderPearlScriptPubKey(
  script: Uint8Array,
  hrp: string,
  known?: KnownScript,
): Record<string, unknown> {
  const type = known?.scriptType ?? pearlScriptType(script);
  const address = known ? known.address : pearlScriptAddress(script, hrp, type as PearlScriptType);
  const out: Record<string, unknown> = {
    asm: scriptAsm(script, 'btcd'),
    hex: known?.scriptHex ?? hex(script),
  };
  if (address) out.reqSigs = 1;
  out.type = type;
  if (address) {
    out.address = address;
    out.addresses = [address];
  }
  return out;
}

/** Where a transaction was mined, for the fields pearld adds to a confirmed one. */
export interface TxPlacement {
  blockHash: string;
  time: number;
  /** Left out when undefined (stored copies leave it out: it changes with every block). */
  confirmations?: number;
}

/**
 * pearld's transaction object (TxRawResult) as `getrawtransaction <txid> 1` and `getblock <hash> 2` give it.
 * `outputs` may carry each output's type, address and hex when the caller has them.
 */
export function renderPearlTx(
  tx: DecodedTx,
  hrp: string,
  placed?: TxPlacement,
  outputs?: readonly KnownScript[],
): Record<string, unknown> {
  const vin = tx.inputs.map((i) => {
    const witness = i.witness.map(hex);
    if (isCoinbaseInput(i)) {
      const cb: Record<string, unknown> = { coinbase: hex(i.scriptSig), sequence: i.sequence };
      if (witness.length > 0) cb.witness = witness;
      return cb;
    }
    const v: Record<string, unknown> = {
      txid: toDisplayHex(i.prevTxid),
      vout: i.vout,
      scriptSig: { asm: scriptAsm(i.scriptSig, 'btcd'), hex: hex(i.scriptSig) },
    };
    if (tx.hasWitness && witness.length > 0) v.txinwitness = witness;
    v.sequence = i.sequence;
    return v;
  });
  const vout = tx.outputs.map((o, n) => ({
    value: grainsToPrl(o.value),
    n,
    scriptPubKey: renderPearlScriptPubKey(o.script, hrp, outputs?.[n]),
  }));
  const out: Record<string, unknown> = {
    hex: hex(tx.bytes),
    txid: tx.txid,
    hash: tx.wtxid,
    // btcd's TxRawResult declares vsize before size.
    vsize: tx.vsize,
    size: tx.size,
    version: tx.version >>> 0,
    locktime: tx.locktime,
    vin,
    vout,
  };
  if (placed) {
    out.blockhash = placed.blockHash;
    if (placed.confirmations !== undefined) out.confirmations = placed.confirmations;
    out.time = placed.time;
    out.blocktime = placed.time;
  }
  return out;
}

/** What pearld knows about a block beyond its bytes. */
export interface BlockPlacement {
  height: number;
  /** pearld's difficulty (ratioDifficulty against the network's pow limit). */
  difficulty: number;
  /** Left out when undefined (stored copies leave it out). */
  confirmations?: number;
  nextHash?: string | null;
}

/** pearld's header fields shared by getblock and getblockheader. */
function headerFields(h: PearlHeader): Record<string, unknown> {
  return {
    version: h.version,
    versionHex: (h.version >>> 0).toString(16).padStart(8, '0'),
    merkleroot: h.merkleRoot,
  };
}

/**
 * pearld's `getblock <hash> 1|2` object: txids under `tx` (1) or transaction objects under `rawtx` (2); no
 * nonce, chainwork, mediantime, nTx or weight; `bits` in unpadded hex; `previousblockhash` all zeros at genesis.
 */
export function renderPearlBlock(
  block: DecodedPearlBlock,
  hrp: string,
  at: BlockPlacement,
  verbosity: 1 | 2,
): Record<string, unknown> {
  const h = block.header;
  const out: Record<string, unknown> = { hash: h.hash };
  if (at.confirmations !== undefined) out.confirmations = at.confirmations;
  Object.assign(out, {
    size: block.size,
    strippedsize: block.strippedSize,
    vsize: block.vsize,
    height: at.height,
    ...headerFields(h),
  });
  if (verbosity === 1) out.tx = block.txs.map((t) => t.txid);
  else {
    const placed: TxPlacement = { blockHash: h.hash, time: h.time };
    if (at.confirmations !== undefined) placed.confirmations = at.confirmations;
    out.rawtx = block.txs.map((t) => renderPearlTx(t, hrp, placed));
  }
  out.time = h.time;
  out.bits = h.bits.toString(16);
  out.difficulty = at.difficulty;
  out.previousblockhash = h.prevHash;
  if (at.nextHash) out.nextblockhash = at.nextHash;
  out.proofcommitment = h.proofCommitment;
  return out;
}

/** pearld's `getblockheader <hash> true` object. */
export function renderPearlHeader(
  h: PearlHeader & { hash: string },
  at: BlockPlacement,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    hash: h.hash,
    confirmations: at.confirmations ?? 0,
    height: at.height,
    ...headerFields(h),
    time: h.time,
    bits: h.bits.toString(16),
    difficulty: at.difficulty,
  };
  // All zeros at genesis, as getblock gives it (a real pearld's genesis answer): btcd fills both from the header.
  out.previousblockhash = h.prevHash;
  if (at.nextHash) out.nextblockhash = at.nextHash;
  out.proofcommitment = h.proofCommitment;
  return out;
}
