// The point arithmetic of a taproot wallet address (a BIP32 child key, then BIP341's tweak), in the three
// secp256k1 libraries the choice in @explorer/chain (src/wallet/secp256k1.ts) was made between: @noble/curves
// (pure JavaScript, what derived addresses before), tiny-secp256k1 (libsecp256k1 compiled to WebAssembly) and
// secp256k1 (libsecp256k1's native addon, prebuilt). Each derives the same 200 addresses (checked equal), in
// rounds taken in turn; the best and the median round are printed per address.
//   node bench/secp256k1.mjs [--rounds 40]
import { createHash, createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';
import * as wasm from 'tiny-secp256k1';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '40' } } });
const ROUNDS = Number(values.rounds);
const ADDRESSES = 200;
const native = createRequire(import.meta.url)('secp256k1/bindings');
const { Point } = secp256k1;

const tag = createHash('sha256').update('TapTweak').digest();
const tapTweak = (x) => createHash('sha256').update(tag).update(tag).update(x).digest();
const toBig = (b) => BigInt(`0x${Buffer.from(b).toString('hex')}`);
const parent = Point.BASE.multiply(123456789n).toBytes(true);
const chainCode = Buffer.alloc(32, 7);
const tweaks = Array.from({ length: ADDRESSES }, (_, i) => {
  const data = Buffer.alloc(37);
  data.set(parent);
  data.writeUInt32BE(i, 33);
  return createHmac('sha512', chainCode).update(data).digest().subarray(0, 32);
});
const evenY = (x) => Buffer.concat([Buffer.from([2]), x]);

const libraries = {
  '@noble/curves': () =>
    tweaks.map((il) => {
      const p = Point.fromBytes(parent).add(Point.BASE.multiplyUnsafe(toBig(il)));
      const even = p.toAffine().y & 1n ? p.negate() : p;
      const x = schnorr.utils.pointToBytes(even);
      return schnorr.utils.pointToBytes(even.add(Point.BASE.multiplyUnsafe(toBig(tapTweak(x)))));
    }),
  'tiny-secp256k1 (WebAssembly)': () =>
    tweaks.map((il) => {
      const x = wasm.pointAddScalar(parent, il, true).subarray(1);
      return wasm.xOnlyPointAddTweak(x, tapTweak(x)).xOnlyPubkey;
    }),
  'secp256k1 (native addon)': () =>
    tweaks.map((il) => {
      const x = native.publicKeyTweakAdd(new Uint8Array(parent), il, true).subarray(1);
      return native.publicKeyTweakAdd(evenY(x), tapTweak(x), true).subarray(1);
    }),
};

const hex = (keys) => keys.map((k) => Buffer.from(k).toString('hex')).join();
const reference = hex(libraries['@noble/curves']());
for (const [name, derive] of Object.entries(libraries)) {
  if (hex(derive()) !== reference) throw new Error(`${name} derives other keys`);
}
const times = Object.fromEntries(Object.keys(libraries).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, derive] of Object.entries(libraries)) {
    const started = performance.now();
    derive();
    times[name].push(((performance.now() - started) / ADDRESSES) * 1000);
  }
}
console.log(`per taproot address (child key and tweak), ${ROUNDS} rounds of ${ADDRESSES}:`);
for (const [name, t] of Object.entries(times)) {
  t.sort((a, b) => a - b);
  console.log(
    `  ${name.padEnd(30)} best ${t[0].toFixed(0).padStart(5)} µs   median ${t[Math.floor(t.length / 2)].toFixed(0).padStart(5)} µs`,
  );
}
