import { ExplorerPrivateKeyError } from './errors/private-key-error.js';

// The client's own check, so that a private key is refused before it is sent: the server refuses them too
// (@explorer/chain's refusePrivateKeys), but by then the key has crossed the network. Small and without a
// dependency, to fit the browser bundle: Base58 by hand, no checksum (what a checksum would rule out is no
// public key either, and the server refuses it).

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** A run of Base58 characters as long as a WIF key (51) or longer: what a key in a descriptor looks like. */
const TOKEN = /[1-9A-HJ-NP-Za-km-z]{50,}/g;

/** The version bytes of every extended private key serialization (BIP32, SLIP-132, btcd's simnet; Pearl's). */
const PRIVATE_VERSIONS = new Map<number, string>([
  [0x0488ade4, 'xprv'],
  [0x049d7878, 'yprv'],
  [0x04b2430c, 'zprv'],
  [0x0295b005, 'Yprv'],
  [0x02aa7a99, 'Zprv'],
  [0x04358394, 'tprv'],
  [0x044a4e28, 'uprv'],
  [0x045f18bc, 'vprv'],
  [0x024285b5, 'Uprv'],
  [0x02575048, 'Vprv'],
  [0x0420b900, 'sprv'],
]);

function base58Bytes(text: string): number[] {
  let n = 0n;
  for (const c of text) n = n * 58n + BigInt(ALPHABET.indexOf(c));
  const bytes: number[] = [];
  for (; n > 0n; n >>= 8n) bytes.unshift(Number(n & 0xffn));
  for (let i = 0; i < text.length && text[i] === '1'; i++) bytes.unshift(0);
  return bytes;
}

/**
 * What private key `text` holds (`this tprv`, `this extended key`, `this WIF key`), anywhere in it (a bare key
 * or inside a descriptor), or null: an extended key whose version bytes are a private one's or whose key field
 * starts with the private marker 0x00, or a WIF key (32 bytes after the version, or 33 ending in 0x01).
 */
export function privateKeyIn(text: string): string | null {
  for (const token of text.match(TOKEN) ?? []) {
    // With their 4 checksum bytes: 82 for an extended key, 37 or 38 for WIF.
    const bytes = base58Bytes(token);
    if (bytes.length === 82) {
      const version = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
      const name = PRIVATE_VERSIONS.get(version);
      if (name) return `this ${name}`;
      if (bytes[45] === 0) return 'this extended key';
    } else if (bytes.length === 37 || (bytes.length === 38 && bytes[33] === 1)) {
      return 'this WIF key';
    }
  }
  return null;
}

/** `key` as given, or an ExplorerPrivateKeyError thrown before anything is sent. */
export function publicKeyOnly(key: string): string {
  const what = privateKeyIn(key);
  if (what) throw new ExplorerPrivateKeyError(what);
  return key;
}
