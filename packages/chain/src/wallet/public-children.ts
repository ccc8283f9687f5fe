import { createHmac } from 'node:crypto';
import type { HDKey } from '@scure/bip32';
import { addScalar, isBelowOrder } from './secp256k1.js';

/** One unhardened child of a node: its child number and compressed public key. */
export interface PublicChild {
  index: number;
  publicKey: Uint8Array;
}

/**
 * BIP32's CKDpub for consecutive children of one node: each child is one HMAC-SHA512 (native) and one point
 * addition of I_L·G (libsecp256k1), with no HDKey per child. @scure/bip32 remains the reference: the tests hold
 * this to its `deriveChild`. A child number BIP32 calls invalid (I_L ≥ n or the point at infinity; odds about
 * 2^-127) has no key and is left out, as BIP32 says.
 */
export function publicChildren(node: HDKey, from: number, count: number): PublicChild[] {
  const publicKey = node.publicKey as Uint8Array;
  const chainCode = node.chainCode as Uint8Array;
  const data = Buffer.alloc(37);
  data.set(publicKey);
  const out: PublicChild[] = [];
  for (let index = from; index < from + count; index++) {
    data.writeUInt32BE(index, 33);
    const il = createHmac('sha512', chainCode).update(data).digest().subarray(0, 32);
    if (!isBelowOrder(il)) continue;
    const child = addScalar(publicKey, il);
    if (child) out.push({ index, publicKey: child });
  }
  return out;
}
