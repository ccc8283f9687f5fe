import { bech32, bech32m, createBase58check } from '@scure/base';
import { sha256 } from './hash.js';

/** A decoded segwit address (BIP173 / BIP350). */
export interface SegwitAddress {
  hrp: string;
  version: number;
  program: Uint8Array;
}

// BIP173 lets a segwit address run to 90 characters; longer strings are not addresses of any witness version.
const LIMIT = 90;

/**
 * Encodes a witness program: bech32 for witness version 0, bech32m for versions 1–16 (BIP350).
 * @example encodeSegwitAddress('prl', 1, program) // 'prl1p…'
 */
export function encodeSegwitAddress(hrp: string, version: number, program: Uint8Array): string {
  const words = [version, ...bech32.toWords(program)];
  return (version === 0 ? bech32 : bech32m).encode(hrp, words, LIMIT);
}

/**
 * Decodes a segwit address, checking the checksum kind against the witness version and the program length
 * (2–40 bytes; 20 or 32 for version 0). Undefined for anything that is not one.
 */
export function decodeSegwitAddress(address: string): SegwitAddress | undefined {
  const lower = address.toLowerCase();
  if (address !== lower && address !== address.toUpperCase()) return undefined;
  const sep = lower.lastIndexOf('1');
  if (sep < 1) return undefined;
  // The checksum constant says bech32 or bech32m; the version (first data character) says which it must be.
  const version = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'.indexOf(lower[sep + 1] ?? '');
  if (version < 0 || version > 16) return undefined;
  const decoded = (version === 0 ? bech32 : bech32m).decodeUnsafe(lower, LIMIT);
  if (!decoded) return undefined;
  const program = bech32.fromWordsUnsafe(decoded.words.slice(1));
  if (!program || program.length < 2 || program.length > 40) return undefined;
  if (version === 0 && program.length !== 20 && program.length !== 32) return undefined;
  return { hrp: decoded.prefix, version, program };
}

const base58check = createBase58check(sha256);

/** Base58Check of a version byte and a payload. */
export function encodeBase58Check(version: number, payload: Uint8Array): string {
  return base58check.encode(Uint8Array.from([version, ...payload]));
}

/** Version byte and payload of a Base58Check string; undefined when the text or its checksum is invalid. */
export function decodeBase58Check(text: string): { version: number; payload: Uint8Array } | undefined {
  try {
    const bytes = base58check.decode(text);
    if (bytes.length < 1) return undefined;
    return { version: bytes[0] as number, payload: bytes.subarray(1) };
  } catch {
    return undefined;
  }
}

/**
 * True when `text` carries a valid address checksum: bech32 or bech32m under any HRP and at any length (MWEB
 * addresses run far past BIP173's 90 characters), or Base58Check under any version byte. Mixed case is not
 * bech32. Unlike the decoders above, it does not ask whether the payload is a witness program.
 * @example hasValidChecksum('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4') // true
 */
export function hasValidChecksum(text: string): boolean {
  return (
    bech32.decodeUnsafe(text, false) !== undefined ||
    bech32m.decodeUnsafe(text, false) !== undefined ||
    decodeBase58Check(text) !== undefined
  );
}
