import { createRequire } from 'node:module';
import * as wasm from 'tiny-secp256k1';

/**
 * The point arithmetic of address derivation, on libsecp256k1. Measured per taproot address (a child key and its
 * tweak) on a 2-core machine busy with other work, best of 40 runs of 200: @noble/curves 585 µs, libsecp256k1
 * compiled to WebAssembly (tiny-secp256k1) 342 µs, its native addon (secp256k1, prebuilt for linux-x64 glibc
 * and musl, darwin-arm64, win32-x64) 82 µs. So the native addon where one loads, else the WebAssembly build,
 * which runs wherever Node does and needs nothing built. Every operation here is on public data.
 */
interface Backend {
  name: 'native' | 'wasm';
  /** P + t·G of a compressed point and a scalar below the order, compressed; null at infinity. */
  addScalar(point: Uint8Array, tweak: Uint8Array): Uint8Array | null;
  /** True when 32 bytes are the x coordinate of a point. */
  isXOnlyPoint(x: Uint8Array): boolean;
  /** x(lift_x(x) + t·G) for a point's x and a scalar below the order; null at infinity. */
  addTweakXOnly(x: Uint8Array, tweak: Uint8Array): Uint8Array | null;
}

/** The WebAssembly build (tiny-secp256k1, the bitcoinjs library). */
export const wasmBackend: Backend = {
  name: 'wasm',
  addScalar: (point, tweak) => wasm.pointAddScalar(point, tweak, true),
  isXOnlyPoint: (x) => wasm.isXOnlyPoint(x),
  addTweakXOnly: (x, tweak) => wasm.xOnlyPointAddTweak(x, tweak)?.xOnlyPubkey ?? null,
};

interface NativeSecp256k1 {
  publicKeyVerify(publicKey: Uint8Array): boolean;
  publicKeyTweakAdd(publicKey: Uint8Array, tweak: Uint8Array, compressed?: boolean): Uint8Array;
}

/** The even-Y compressed encoding of an x coordinate: lift_x as a public key. */
const evenY = (x: Uint8Array) => {
  const key = new Uint8Array(33);
  key[0] = 2;
  key.set(x, 1);
  return key;
};

/** The native addon (secp256k1's bindings, never its pure-JavaScript fallback), or null where none loads. */
export function nativeBackend(): Backend | null {
  let addon: NativeSecp256k1;
  try {
    addon = createRequire(import.meta.url)('secp256k1/bindings') as NativeSecp256k1;
  } catch {
    return null;
  }
  // The addon throws where the result is the point at infinity (the tweak is checked below the order first).
  const tweakAdd = (key: Uint8Array, tweak: Uint8Array) => {
    try {
      return addon.publicKeyTweakAdd(key, tweak, true);
    } catch {
      return null;
    }
  };
  return {
    name: 'native',
    addScalar: (point, tweak) => tweakAdd(point, tweak),
    isXOnlyPoint: (x) => x.length === 32 && addon.publicKeyVerify(evenY(x)),
    addTweakXOnly: (x, tweak) => tweakAdd(evenY(x), tweak)?.subarray(1) ?? null,
  };
}

const backend: Backend = nativeBackend() ?? wasmBackend;

/** Which libsecp256k1 build derives addresses in this process: `native` (the addon) or `wasm`. */
export const secp256k1Backend = (): Backend['name'] => backend.name;

/** secp256k1's group order n, big-endian. */
const ORDER = Buffer.from('fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141', 'hex');

/** True when 32 big-endian bytes are a scalar below the group order (BIP32's and BIP341's range check). */
export const isBelowOrder = (scalar: Uint8Array): boolean => Buffer.compare(scalar, ORDER) < 0;

/** P + t·G of a compressed point and a scalar below the order, compressed; null at the point at infinity. */
export const addScalar = (point: Uint8Array, tweak: Uint8Array): Uint8Array | null =>
  backend.addScalar(point, tweak);

/**
 * BIP341's tweak of an x-only key: the x coordinate of lift_x(x) + t·G, or null at infinity. Throws a RangeError
 * when `x` is not a point's x coordinate.
 */
export function addTweakXOnly(x: Uint8Array, tweak: Uint8Array): Uint8Array | null {
  if (!backend.isXOnlyPoint(x)) throw new RangeError('not the x coordinate of a point on secp256k1');
  return backend.addTweakXOnly(x, tweak);
}
