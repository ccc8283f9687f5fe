import { createHash } from 'node:crypto';

// Address checksums: a valid address never used still resolves (to its empty address page); junk does not.

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3] as const;

/** True for a bech32 or bech32m string with a valid checksum (any HRP, no length cap: MWEB addresses are long). */
export function isBech32(text: string): boolean {
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) return false;
  const s = text.toLowerCase();
  const sep = s.lastIndexOf('1');
  if (sep < 1 || sep + 7 > s.length) return false;
  let chk = 1;
  const feed = (v: number) => {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= BECH32_GEN[i]!;
  };
  const hrp = s.slice(0, sep);
  for (const c of hrp) feed(c.charCodeAt(0) >> 5);
  feed(0);
  for (const c of hrp) feed(c.charCodeAt(0) & 31);
  for (const c of s.slice(sep + 1)) {
    const v = BECH32_CHARSET.indexOf(c);
    if (v < 0) return false;
    feed(v);
  }
  return chk === 1 || chk === 0x2bc830a3;
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest();

/** True for a Base58Check string whose 4-byte checksum matches (any version byte). */
export function isBase58Check(text: string): boolean {
  let n = 0n;
  for (const c of text) {
    const v = BASE58.indexOf(c);
    if (v < 0) return false;
    n = n * 58n + BigInt(v);
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  for (const c of text) {
    if (c !== '1') break;
    bytes.unshift(0);
  }
  if (bytes.length < 5) return false;
  const payload = Uint8Array.from(bytes.slice(0, -4));
  const check = sha256(sha256(payload));
  return bytes.slice(-4).every((b, i) => b === check[i]);
}

/** What an address looks like before its checksum is checked: 14–130 letters and digits. */
export const ADDRESS_SHAPE = /^[A-Za-z0-9]{14,130}$/;

/** True when `text` is an address by its own checksum (bech32/bech32m or Base58Check). */
export const hasValidAddressChecksum = (text: string) =>
  ADDRESS_SHAPE.test(text) && (isBech32(text) || isBase58Check(text));
