import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { publicChildren } from './public-children.js';

describe('publicChildren', () => {
  it('equals @scure/bip32’s deriveChild for every child, at both ends of the unhardened range', () => {
    for (const seed of [1, 2, 3]) {
      const node = HDKey.fromMasterSeed(Buffer.alloc(32, seed)).derive("m/86'/0'/0'/0");
      const pub = new HDKey({
        chainCode: node.chainCode as Uint8Array,
        publicKey: node.publicKey as Uint8Array,
      });
      for (const [from, count] of [
        [0, 64],
        [0x7fffffff - 7, 8],
      ] as const) {
        const mine = publicChildren(pub, from, count);
        expect(mine.length).toBe(count);
        for (const c of mine) {
          const ref = pub.deriveChild(c.index);
          expect(Buffer.from(c.publicKey).toString('hex')).toBe(
            Buffer.from(ref.publicKey as Uint8Array).toString('hex'),
          );
        }
      }
    }
  });
});
