import type { WeierstrassPoint } from '@noble/curves/abstract/weierstrass.js';
import { schnorr } from '@noble/curves/secp256k1.js';
import { taggedHash } from '../hash.js';

const { Point, utils } = schnorr;

const toBigInt = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).toString('hex')}`);

/**
 * BIP341's key-path-only output key (BIP86) of a point: Q = P + int(hash_TapTweak(x(P)))·G, with P taken with
 * even Y; the x-only bytes of Q. No script tree is committed to.
 */
export function taprootOutputKeyOf(point: WeierstrassPoint<bigint>): Uint8Array {
  const p = point.toAffine().y & 1n ? point.negate() : point;
  const x = utils.pointToBytes(p);
  const t = toBigInt(taggedHash('TapTweak', x));
  // BIP341 fails the tweak past the group order; a hash output takes ~2^128 tries to meet it.
  if (t >= Point.Fn.ORDER) throw new RangeError('taproot tweak out of range');
  // Nothing here is secret (the key and the tweak are public): the faster variable-time multiplication is fine.
  return utils.pointToBytes(p.add(Point.BASE.multiplyUnsafe(t)));
}

/**
 * BIP341's key-path-only output key (BIP86) of a 32-byte x-only internal key: the program of its P2TR output.
 * @example taprootOutputKey(internalKey) // 32 bytes
 */
export function taprootOutputKey(internalKey: Uint8Array): Uint8Array {
  if (internalKey.length !== 32) throw new RangeError('a taproot internal key is 32 bytes (x-only)');
  return taprootOutputKeyOf(utils.lift_x(toBigInt(internalKey)));
}
