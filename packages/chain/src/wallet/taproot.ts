import { schnorr } from '@noble/curves/secp256k1.js';
import { taggedHash } from '../hash.js';

const { Point, utils } = schnorr;

/**
 * BIP341's output key for a key-path-only output (BIP86): Q = P + int(hash_TapTweak(P))·G, x-only, with P the
 * even-Y point of the 32-byte x-only internal key. No script tree is committed to.
 * @example taprootOutputKey(internalKey) // 32 bytes, the program of a P2TR output
 */
export function taprootOutputKey(internalKey: Uint8Array): Uint8Array {
  if (internalKey.length !== 32) throw new RangeError('a taproot internal key is 32 bytes (x-only)');
  const p = utils.lift_x(BigInt(`0x${Buffer.from(internalKey).toString('hex')}`));
  const t = BigInt(`0x${taggedHash('TapTweak', internalKey).toString('hex')}`);
  // BIP341 fails the tweak past the group order; for a hash output that takes ~2^128 tries to meet.
  if (t >= Point.Fn.ORDER) throw new RangeError('taproot tweak out of range');
  // Nothing here is secret (the key and the tweak are public), so the faster variable-time multiplication is fine.
  const q = p.add(Point.BASE.multiplyUnsafe(t));
  return utils.pointToBytes(q);
}
