import { createHmac } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { taggedHash } from '../hash.js';
import { isBelowOrder, nativeBackend, secp256k1Backend, wasmBackend } from './secp256k1.js';

/** Where secp256k1 ships a prebuilt addon: there it must load. */
const PREBUILT = ['linux-x64', 'darwin-arm64', 'win32-x64'];
const platform = `${process.platform}-${process.arch}`;

describe('the libsecp256k1 builds behind address derivation', () => {
  const native = nativeBackend();

  it.skipIf(!PREBUILT.includes(platform))('load the native addon where it is prebuilt, and use it', () => {
    expect(native?.name).toBe('native');
    expect(secp256k1Backend()).toBe('native');
  });

  it('agree with each other and with @scure/bip32 on child keys and taproot tweaks', () => {
    const node = HDKey.fromMasterSeed(Buffer.alloc(32, 9)).derive("m/86'/1'/0'/0");
    const parent = node.publicKey as Uint8Array;
    for (let index = 0; index < 40; index++) {
      const data = Buffer.concat([parent, Buffer.from([0, 0, 0, index])]);
      const il = createHmac('sha512', node.chainCode as Uint8Array)
        .update(data)
        .digest()
        .subarray(0, 32);
      expect(isBelowOrder(il)).toBe(true);
      const child = wasmBackend.addScalar(parent, il)!;
      expect(Buffer.from(child).toString('hex')).toBe(
        Buffer.from(node.deriveChild(index).publicKey as Uint8Array).toString('hex'),
      );
      const x = child.subarray(1);
      const t = taggedHash('TapTweak', x);
      const q = wasmBackend.addTweakXOnly(x, t)!;
      expect(q).toHaveLength(32);
      if (native) {
        expect(native.addScalar(parent, il)).toEqual(child);
        expect(native.addTweakXOnly(x, t)).toEqual(q);
      }
    }
  });

  it('say the same of bytes that are no point, and of a sum at infinity', () => {
    const G = Buffer.from('0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798', 'hex');
    const minusOne = Buffer.from('fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140', 'hex');
    for (const b of [wasmBackend, native].filter((x) => x !== null)) {
      // No point has x = 0 (7 is not a square modulo p).
      expect(b.isXOnlyPoint(Buffer.alloc(32)), b.name).toBe(false);
      expect(b.isXOnlyPoint(G.subarray(1)), b.name).toBe(true);
      // G + (n - 1)·G is the point at infinity.
      expect(b.addScalar(G, minusOne), b.name).toBeNull();
    }
  });
});
