import {
  type CoreOutputNames,
  coreDifficulty,
  decodeTx,
  renderCoreScriptPubKey,
  renderCoreTx,
  unitsToCoins,
} from '@explorer/chain';
import { classify, scriptAddress } from './chain/script.js';
import type { ChainState, StoredBlock } from './chain/state.js';

/** Rendering switches taken from the devnet options. */
export interface RenderOptions {
  legacyAddresses: boolean;
  includeFee: boolean;
}

/** Base units → coins as a JSON number, like Core's ValueFromAmount. */
export function coins(units: number): number {
  return unitsToCoins(units);
}

/** The type and address Core names for a script of the devnet's Bitcoin dialect. */
function outputNames(script: Uint8Array): CoreOutputNames {
  const type = classify(script);
  return { type, address: scriptAddress(script, type) ?? null };
}

/** Core's scriptPubKey object. */
export function renderScriptPubKey(script: Uint8Array, legacy: boolean): Record<string, unknown> {
  return renderCoreScriptPubKey(script, outputNames(script), legacy);
}

/** Core's decoded tx object (txid, hash, version, size, vsize, weight, locktime, vin, vout[, fee], hex). */
export function renderTx(bytes: Buffer, opts: RenderOptions, fee?: number): Record<string, unknown> {
  const tx = decodeTx(bytes);
  return renderCoreTx(
    tx,
    tx.outputs.map((o) => outputNames(o.script)),
    {
      legacyAddresses: opts.legacyAddresses,
      fee: fee !== undefined && opts.includeFee ? BigInt(fee) : null,
      mwebFlags: false,
    },
  );
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
      : block.txids.map((_txid, i) =>
          renderTx(
            block.raw.subarray(block.offsets[i], block.offsets[i + 1]),
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
