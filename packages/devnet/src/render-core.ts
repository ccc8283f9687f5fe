import { coreDifficulty, decodeTx, isCoinbaseInput, scriptAsm, toDisplayHex } from '@explorer/chain';
import { classify, scriptAddress } from './chain/script.js';
import type { ChainState, StoredBlock } from './chain/state.js';

/** Rendering switches taken from the devnet options. */
export interface RenderOptions {
  legacyAddresses: boolean;
  includeFee: boolean;
}

/** Base units → coins as a JSON number, like Core's ValueFromAmount. */
export function coins(units: number): number {
  return units / 1e8;
}

/** Core's scriptPubKey object. */
export function renderScriptPubKey(script: Uint8Array, legacy: boolean): Record<string, unknown> {
  const type = classify(script);
  const address = scriptAddress(script, type);
  const asm = scriptAsm(script, 'core');
  const hex = Buffer.from(script).toString('hex');
  if (address === undefined) return { asm, hex, type };
  if (legacy) return { asm, hex, reqSigs: 1, type, addresses: [address] };
  return { asm, hex, address, type };
}

/** Core's decoded tx object (txid, hash, version, size, vsize, weight, locktime, vin, vout[, fee], hex). */
export function renderTx(
  bytes: Buffer,
  txid: string,
  opts: RenderOptions,
  fee?: number,
): Record<string, unknown> {
  const tx = decodeTx(bytes);
  const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
  const vin = tx.inputs.map((i) => {
    const witness = i.witness.length > 0 ? { txinwitness: i.witness.map(hex) } : {};
    if (isCoinbaseInput(i)) return { coinbase: hex(i.scriptSig), ...witness, sequence: i.sequence };
    return {
      txid: toDisplayHex(i.prevTxid),
      vout: i.vout,
      scriptSig: { asm: scriptAsm(i.scriptSig, 'core', true), hex: hex(i.scriptSig) },
      ...witness,
      sequence: i.sequence,
    };
  });
  const vout = tx.outputs.map((o, n) => ({
    value: coins(Number(o.value)),
    n,
    scriptPubKey: renderScriptPubKey(o.script, opts.legacyAddresses),
  }));
  const out: Record<string, unknown> = {
    txid,
    hash: tx.wtxid,
    version: tx.version,
    size: tx.size,
    vsize: tx.vsize,
    weight: tx.weight,
    locktime: tx.locktime,
    vin,
    vout,
  };
  if (fee !== undefined && opts.includeFee) out.fee = coins(fee);
  out.hex = bytes.toString('hex');
  return out;
}

/** Confirmations as Core reports them: -1 for blocks not on the best chain. */
export function confirmations(state: ChainState, block: StoredBlock): number {
  return state.best[block.height] === block ? state.height - block.height + 1 : -1;
}

/** Core's getblockheader (verbose) object. */
export function renderHeader(state: ChainState, block: StoredBlock): Record<string, unknown> {
  const onBest = state.best[block.height] === block;
  const next = onBest ? state.best[block.height + 1] : undefined;
  const out: Record<string, unknown> = {
    hash: block.hash,
    confirmations: confirmations(state, block),
    height: block.height,
    version: block.version,
    versionHex: (block.version >>> 0).toString(16).padStart(8, '0'),
    merkleroot: block.merkleRoot,
    time: block.time,
    mediantime: block.mediantime,
    nonce: block.nonce,
    bits: block.bits.toString(16).padStart(8, '0'),
    difficulty: coreDifficulty(block.bits),
    chainwork: block.chainwork.toString(16).padStart(64, '0'),
    nTx: block.txids.length,
  };
  if (block.prevHash) out.previousblockhash = block.prevHash;
  if (next) out.nextblockhash = next.hash;
  return out;
}

/** Core's getblock verbosity 1 or 2 object. */
export function renderBlock(
  state: ChainState,
  block: StoredBlock,
  verbosity: 1 | 2,
  opts: RenderOptions,
): Record<string, unknown> {
  const h = renderHeader(state, block);
  const tx =
    verbosity === 1
      ? block.txids
      : block.txids.map((txid, i) =>
          renderTx(
            block.raw.subarray(block.offsets[i], block.offsets[i + 1]),
            txid,
            opts,
            i === 0 ? undefined : block.fees[i],
          ),
        );
  const out: Record<string, unknown> = {
    hash: h.hash,
    confirmations: h.confirmations,
    size: block.size,
    strippedsize: block.strippedSize,
    weight: block.weight,
    height: h.height,
    version: h.version,
    versionHex: h.versionHex,
    merkleroot: h.merkleroot,
    tx,
    time: h.time,
    mediantime: h.mediantime,
    nonce: h.nonce,
    bits: h.bits,
    difficulty: h.difficulty,
    chainwork: h.chainwork,
    nTx: h.nTx,
  };
  if (h.previousblockhash) out.previousblockhash = h.previousblockhash;
  if (h.nextblockhash) out.nextblockhash = h.nextblockhash;
  return out;
}
