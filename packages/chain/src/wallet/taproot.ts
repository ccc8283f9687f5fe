import { taggedHash } from '../hash.js';
import { addTweakXOnly, isBelowOrder } from './secp256k1.js';

/**
 * BIP341's key-path-only output key (BIP86) of a 32-byte x-only internal key: Q = P + int(hash_TapTweak(x(P)))·G,
 * with P = lift_x(x) (even Y); the x-only bytes of Q, the program of its P2TR output. No script tree is committed
 * to. Throws a RangeError for bytes that are not a point's x coordinate.
 * @example taprootOutputKey(internalKey) // 32 bytes
 */
export function taprootOutputKey(internalKey: Uint8Array): Uint8Array {
  if (internalKey.length !== 32) throw new RangeError('a taproot internal key is 32 bytes (x-only)');
  const t = taggedHash('TapTweak', internalKey);
  // BIP341 fails the tweak past the group order; a hash output takes ~2^128 tries to meet it.
  if (!isBelowOrder(t)) throw new RangeError('taproot tweak out of range');
  const q = addTweakXOnly(internalKey, t);
  if (!q) throw new RangeError('taproot output key at infinity');
  return q;
}
