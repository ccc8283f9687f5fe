import { toDisplayHex } from '../hash.js';
import { scriptAsm } from '../script-asm.js';
import { type DecodedTx, isCoinbaseInput } from '../tx.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Base units as Core prints amounts (ValueFromAmount): a JSON number of coins. */
export function unitsToCoins(units: bigint | number): number {
  return Number(units) / 1e8;
}

/** What the node said of one output script: its type name and the address it pays, if one. */
export interface CoreOutputNames {
  type: string;
  address: string | null;
}

/** How a node of the bitcoin profile writes a transaction in `getblock <hash> 2`. */
export interface CoreTxStyle {
  /**
   * Core ≤ 0.21 and Litecoin Core write `reqSigs` and an `addresses` list in a scriptPubKey; Core ≥ 22 writes
   * one `address`.
   */
  legacyAddresses: boolean;
  /** The fee in base units, for nodes that write `fee` (never on a coinbase); null to leave it out. */
  fee: bigint | null;
  /**
   * Litecoin Core writes `"ismweb": false` first in every input and output (an MWEB input or output is written
   * otherwise, and is not rendered here).
   */
  mwebFlags: boolean;
}

/** Core's scriptPubKey object, its type and address as the node named them. */
export function renderCoreScriptPubKey(
  script: Uint8Array,
  names: CoreOutputNames,
  legacyAddresses: boolean,
): Record<string, unknown> {
  const asm = scriptAsm(script, 'core');
  const scriptHex = hex(script);
  const { type, address } = names;
  if (address === null) return { asm, hex: scriptHex, type };
  if (legacyAddresses) return { asm, hex: scriptHex, reqSigs: 1, type, addresses: [address] };
  return { asm, hex: scriptHex, address, type };
}

function namesAt(outputs: readonly CoreOutputNames[], n: number): CoreOutputNames {
  const names = outputs[n];
  if (!names) throw new Error(`no type and address given for output ${n}`);
  return names;
}

/**
 * A transaction as Core's `getblock <hash> 2` writes it (TxToUniv: txid, hash, version, size, vsize, weight,
 * locktime, vin, vout[, fee], hex), from its bytes and the names the node gave its outputs. What Core derives
 * from the bytes alone is derived here; a caller that must reproduce a node's JSON exactly compares the two.
 */
export function renderCoreTx(
  tx: DecodedTx,
  outputs: readonly CoreOutputNames[],
  style: CoreTxStyle,
): Record<string, unknown> {
  const flags = style.mwebFlags ? { ismweb: false } : {};
  const vin = tx.inputs.map((i) => {
    const witness = i.witness.length > 0 ? { txinwitness: i.witness.map(hex) } : {};
    if (isCoinbaseInput(i)) return { ...flags, coinbase: hex(i.scriptSig), ...witness, sequence: i.sequence };
    return {
      ...flags,
      txid: toDisplayHex(i.prevTxid),
      vout: i.vout,
      scriptSig: { asm: scriptAsm(i.scriptSig, 'core', true), hex: hex(i.scriptSig) },
      ...witness,
      sequence: i.sequence,
    };
  });
  const vout = tx.outputs.map((o, n) => ({
    ...flags,
    value: unitsToCoins(o.value),
    n,
    scriptPubKey: renderCoreScriptPubKey(o.script, namesAt(outputs, n), style.legacyAddresses),
  }));
  const out: Record<string, unknown> = {
    txid: tx.txid,
    hash: tx.wtxid,
    version: tx.version,
    size: tx.size,
    vsize: tx.vsize,
    weight: tx.weight,
    locktime: tx.locktime,
    vin,
    vout,
  };
  if (style.fee !== null) out.fee = unitsToCoins(style.fee);
  out.hex = hex(tx.bytes);
  return out;
}
