import { createHash, hash } from 'node:crypto';

/** Single SHA-256. */
export function sha256(...parts: Uint8Array[]): Buffer {
  // One part (every txid and block hash) goes through the one-shot digest, a quarter faster than a Hash object.
  if (parts.length === 1) return hash('sha256', parts[0]!, 'buffer');
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
}

/** Double SHA-256 (block hashes, txids, proof commitments), over the concatenation of the parts. */
export function sha256d(...parts: Uint8Array[]): Buffer {
  return sha256(sha256(...parts));
}

/** RIPEMD-160 of SHA-256, the hash behind P2PKH/P2WPKH/P2SH programs. */
export function hash160(data: Uint8Array): Buffer {
  return createHash('ripemd160').update(sha256(data)).digest();
}

/** BIP340 tagged hash: SHA-256(SHA-256(tag) ‖ SHA-256(tag) ‖ data). */
export function taggedHash(tag: string, ...data: Uint8Array[]): Buffer {
  const t = sha256(Buffer.from(tag, 'utf8'));
  return sha256(t, t, ...data);
}

/** Hex of a hash in display order (hashes are shown byte-reversed). */
export function toDisplayHex(internal: Uint8Array): string {
  return Buffer.from(internal).reverse().toString('hex');
}

/** Internal byte order of a display-order hex hash. */
export function fromDisplayHex(hex: string): Buffer {
  return Buffer.from(hex, 'hex').reverse();
}
