import { sha256d } from './hash.js';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX = new Map<string, number>([...ALPHABET].map((c, i) => [c, i]));

/** Base58Check encoding of a version byte and payload. */
export function base58checkEncode(version: number, payload: Uint8Array): string {
  const body = Buffer.concat([Buffer.from([version]), payload]);
  const data = Buffer.concat([body, sha256d(body).subarray(0, 4)]);
  const digits: number[] = [];
  for (const byte of data) {
    let carry = byte;
    for (let j = 0; j < digits.length; j++) {
      carry += (digits[j] as number) << 8;
      digits[j] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = Math.floor(carry / 58);
    }
  }
  let out = '';
  for (let i = 0; i < data.length && data[i] === 0; i++) out += '1';
  for (let i = digits.length - 1; i >= 0; i--) out += ALPHABET[digits[i] as number];
  return out;
}

/** Decodes Base58Check, verifying the checksum; returns undefined when invalid. */
export function base58checkDecode(text: string): { version: number; payload: Buffer } | undefined {
  const bytes: number[] = [];
  for (const ch of text) {
    const v = INDEX.get(ch);
    if (v === undefined) return undefined;
    let carry = v;
    for (let j = 0; j < bytes.length; j++) {
      carry += (bytes[j] as number) * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  let zeros = 0;
  while (zeros < text.length && text[zeros] === '1') zeros++;
  const trimmed = bytes.reverse();
  while (trimmed.length > 0 && trimmed[0] === 0) trimmed.shift();
  const data = Buffer.concat([Buffer.alloc(zeros), Buffer.from(trimmed)]);
  if (data.length < 5) return undefined;
  const body = data.subarray(0, data.length - 4);
  if (
    !sha256d(body)
      .subarray(0, 4)
      .equals(data.subarray(data.length - 4))
  )
    return undefined;
  return { version: body[0] as number, payload: Buffer.from(body.subarray(1)) };
}
