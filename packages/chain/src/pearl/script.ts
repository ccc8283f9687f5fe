import { decodeSegwitAddress, encodeSegwitAddress } from '../address.js';

/** pearld's scriptPubKey type names; consensus accepts only the first three in outputs. */
export type PearlScriptType = 'witness_v1_taproot' | 'witness_v2_merkleroot' | 'nulldata' | 'nonstandard';

const OP_1 = 0x51;
const OP_2 = 0x52;
const OP_RETURN = 0x6a;

/**
 * Classifies an output script as pearld does: P2TR (OP_1 <32>), P2MR (OP_2 <32>), nulldata (anything starting
 * with OP_RETURN), else nonstandard.
 */
export function pearlScriptType(s: Uint8Array): PearlScriptType {
  if (s.length === 34 && s[1] === 0x20) {
    if (s[0] === OP_1) return 'witness_v1_taproot';
    if (s[0] === OP_2) return 'witness_v2_merkleroot';
  }
  if (s.length >= 1 && s[0] === OP_RETURN) return 'nulldata';
  return 'nonstandard';
}

/** The bech32m address a script pays to on a network of this HRP; null for nulldata and nonstandard. */
export function pearlScriptAddress(s: Uint8Array, hrp: string, type = pearlScriptType(s)): string | null {
  if (type === 'witness_v1_taproot') return encodeSegwitAddress(hrp, 1, s.subarray(2));
  if (type === 'witness_v2_merkleroot') return encodeSegwitAddress(hrp, 2, s.subarray(2));
  return null;
}

/** P2TR output script of a 32-byte x-only key. */
export function p2trScript(key: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([OP_1, 32]), key]);
}

/** P2MR (BIP360 pay-to-merkle-root) output script of a 32-byte script-tree root. */
export function p2mrScript(root: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([OP_2, 32]), root]);
}

/**
 * The output script of a Pearl address (witness v1 or v2, 32-byte program) on the network of `hrp`;
 * undefined for anything else.
 * @example pearlAddressScript('prl1p…', 'prl')
 */
export function pearlAddressScript(address: string, hrp: string): Buffer | undefined {
  const d = decodeSegwitAddress(address);
  if (!d || d.hrp !== hrp || d.program.length !== 32) return undefined;
  if (d.version === 1) return p2trScript(d.program);
  if (d.version === 2) return p2mrScript(d.program);
  return undefined;
}
