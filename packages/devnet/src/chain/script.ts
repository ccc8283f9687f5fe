import {
  decodeBase58Check,
  decodeSegwitAddress,
  encodeBase58Check,
  encodeSegwitAddress,
  p2trScript,
} from '@explorer/chain';

/** Address parameters of the devnet's Bitcoin dialect: bech32 HRP and Base58Check version bytes (P2PKH 'd…', P2SH 's…'). */
export const NETWORK = { hrp: 'dvt', p2pkhVersion: 90, p2shVersion: 125 } as const;

/** Core's scriptPubKey type names for the shapes the devnet's Bitcoin dialect produces. */
export type ScriptType =
  | 'pubkeyhash'
  | 'scripthash'
  | 'witness_v0_keyhash'
  | 'witness_v0_scripthash'
  | 'witness_v1_taproot'
  | 'nulldata'
  | 'nonstandard';

const OP_0 = 0x00;
const OP_PUSHDATA1 = 0x4c;
const OP_PUSHDATA2 = 0x4d;
const OP_PUSHDATA4 = 0x4e;
const OP_1 = 0x51;
const OP_RETURN = 0x6a;
const OP_DUP = 0x76;
const OP_EQUAL = 0x87;
const OP_EQUALVERIFY = 0x88;
const OP_HASH160 = 0xa9;
const OP_CHECKSIG = 0xac;

/** Minimal push of arbitrary data. */
export function pushData(data: Uint8Array): Buffer {
  const n = data.length;
  if (n < OP_PUSHDATA1) return Buffer.concat([Buffer.from([n]), data]);
  if (n <= 0xff) return Buffer.concat([Buffer.from([OP_PUSHDATA1, n]), data]);
  const head = Buffer.alloc(3);
  head[0] = OP_PUSHDATA2;
  head.writeUInt16LE(n, 1);
  return Buffer.concat([head, data]);
}

/** BIP34-style script number push, as Core's `CScript() << n` (OP_0/OP_1..OP_16 for small values). */
export function pushNumber(n: number): Buffer {
  if (n === 0) return Buffer.from([OP_0]);
  if (n >= 1 && n <= 16) return Buffer.from([OP_1 + n - 1]);
  const bytes: number[] = [];
  let v = n;
  while (v > 0) {
    bytes.push(v & 0xff);
    v = Math.floor(v / 256);
  }
  if (((bytes[bytes.length - 1] as number) & 0x80) !== 0) bytes.push(0);
  return pushData(Buffer.from(bytes));
}

/** P2PKH scriptPubKey. */
export function p2pkh(hash: Uint8Array): Buffer {
  return Buffer.concat([
    Buffer.from([OP_DUP, OP_HASH160, 20]),
    hash,
    Buffer.from([OP_EQUALVERIFY, OP_CHECKSIG]),
  ]);
}
/** P2SH scriptPubKey. */
export function p2sh(hash: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([OP_HASH160, 20]), hash, Buffer.from([OP_EQUAL])]);
}
/** P2WPKH scriptPubKey. */
export function p2wpkh(hash: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([OP_0, 20]), hash]);
}
/** P2WSH scriptPubKey. */
export function p2wsh(hash: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([OP_0, 32]), hash]);
}
/** P2TR scriptPubKey. */
export const p2tr = p2trScript;
/** OP_RETURN output script carrying one data push. */
export function nullData(data: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([OP_RETURN]), pushData(data)]);
}

function isPushOnly(s: Uint8Array, from: number): boolean {
  let i = from;
  while (i < s.length) {
    const op = s[i] as number;
    i++;
    if (op > 0x60) return false;
    if (op >= 1 && op < OP_PUSHDATA1) i += op;
    else if (op === OP_PUSHDATA1) i += 1 + (s[i] ?? 0);
    else if (op === OP_PUSHDATA2) i += 2 + ((s[i] ?? 0) | ((s[i + 1] ?? 0) << 8));
    else if (op === OP_PUSHDATA4) return false;
    if (i > s.length) return false;
  }
  return true;
}

/** Classifies a scriptPubKey like Core's Solver, for the templates the devnet uses. */
export function classify(s: Uint8Array): ScriptType {
  const n = s.length;
  if (
    n === 25 &&
    s[0] === OP_DUP &&
    s[1] === OP_HASH160 &&
    s[2] === 20 &&
    s[23] === OP_EQUALVERIFY &&
    s[24] === OP_CHECKSIG
  )
    return 'pubkeyhash';
  if (n === 23 && s[0] === OP_HASH160 && s[1] === 20 && s[22] === OP_EQUAL) return 'scripthash';
  if (n === 22 && s[0] === OP_0 && s[1] === 20) return 'witness_v0_keyhash';
  if (n === 34 && s[0] === OP_0 && s[1] === 32) return 'witness_v0_scripthash';
  if (n === 34 && s[0] === OP_1 && s[1] === 32) return 'witness_v1_taproot';
  if (n >= 1 && s[0] === OP_RETURN && isPushOnly(s, 1)) return 'nulldata';
  return 'nonstandard';
}

/** The address of a scriptPubKey in the Bitcoin dialect, or undefined for nulldata/nonstandard. */
export function scriptAddress(s: Uint8Array, type: ScriptType = classify(s)): string | undefined {
  switch (type) {
    case 'pubkeyhash':
      return encodeBase58Check(NETWORK.p2pkhVersion, s.subarray(3, 23));
    case 'scripthash':
      return encodeBase58Check(NETWORK.p2shVersion, s.subarray(2, 22));
    case 'witness_v0_keyhash':
    case 'witness_v0_scripthash':
      return encodeSegwitAddress(NETWORK.hrp, 0, s.subarray(2));
    case 'witness_v1_taproot':
      return encodeSegwitAddress(NETWORK.hrp, 1, s.subarray(2));
    default:
      return undefined;
  }
}

/** The scriptPubKey a Bitcoin-dialect address pays to; undefined when it is not a valid devnet address. */
export function addressToScript(address: string): Buffer | undefined {
  if (address.toLowerCase().startsWith(`${NETWORK.hrp}1`)) {
    const d = decodeSegwitAddress(address);
    if (!d || d.hrp !== NETWORK.hrp) return undefined;
    if (d.version === 0 && d.program.length === 20) return p2wpkh(d.program);
    if (d.version === 0 && d.program.length === 32) return p2wsh(d.program);
    if (d.version === 1 && d.program.length === 32) return p2tr(d.program);
    return undefined;
  }
  const b = decodeBase58Check(address);
  if (b?.payload.length !== 20) return undefined;
  if (b.version === NETWORK.p2pkhVersion) return p2pkh(b.payload);
  if (b.version === NETWORK.p2shVersion) return p2sh(b.payload);
  return undefined;
}
