import { createHash } from 'node:crypto';

/** Single SHA-256. */
export function sha256(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

/** Double SHA-256, Bitcoin's txid/block hash function. */
export function sha256d(data: Uint8Array): Buffer {
  return sha256(sha256(data));
}

/** RIPEMD-160 of SHA-256, the hash behind P2PKH/P2WPKH/P2SH programs. */
export function hash160(data: Uint8Array): Buffer {
  return createHash('ripemd160').update(sha256(data)).digest();
}

/** Hex of a hash in display order (Bitcoin shows hashes byte-reversed). */
export function toDisplayHex(internal: Buffer): string {
  return Buffer.from(internal).reverse().toString('hex');
}

/** Internal byte order of a display-order hex hash. */
export function fromDisplayHex(hex: string): Buffer {
  return Buffer.from(hex, 'hex').reverse();
}
