import { base58checkDecode, base58checkEncode } from './base58.js';
import { decodeSegwitAddress, encodeSegwitAddress } from './bech32.js';

/** Devnet address parameters: bech32 HRP and Base58Check version bytes (P2PKH 'd…', P2SH 's…'). */
export const NETWORK = { hrp: 'dvt', p2pkhVersion: 90, p2shVersion: 125 } as const;

/** Core's scriptPubKey type names for the shapes the devnet produces. */
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
export function p2tr(key: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([OP_1, 32]), key]);
}
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

/** The address of a scriptPubKey, or undefined for nulldata/nonstandard. */
export function scriptAddress(s: Uint8Array, type: ScriptType = classify(s)): string | undefined {
  switch (type) {
    case 'pubkeyhash':
      return base58checkEncode(NETWORK.p2pkhVersion, s.subarray(3, 23));
    case 'scripthash':
      return base58checkEncode(NETWORK.p2shVersion, s.subarray(2, 22));
    case 'witness_v0_keyhash':
    case 'witness_v0_scripthash':
      return encodeSegwitAddress(NETWORK.hrp, 0, s.subarray(2));
    case 'witness_v1_taproot':
      return encodeSegwitAddress(NETWORK.hrp, 1, s.subarray(2));
    default:
      return undefined;
  }
}

/** The scriptPubKey an address pays to; undefined when the address is not a valid devnet address. */
export function addressToScript(address: string): Buffer | undefined {
  if (address.toLowerCase().startsWith(`${NETWORK.hrp}1`)) {
    const d = decodeSegwitAddress(address);
    if (!d || d.hrp !== NETWORK.hrp) return undefined;
    if (d.version === 0 && d.program.length === 20) return p2wpkh(d.program);
    if (d.version === 0 && d.program.length === 32) return p2wsh(d.program);
    if (d.version === 1 && d.program.length === 32) return p2tr(d.program);
    return undefined;
  }
  const b = base58checkDecode(address);
  if (b?.payload.length !== 20) return undefined;
  if (b.version === NETWORK.p2pkhVersion) return p2pkh(b.payload);
  if (b.version === NETWORK.p2shVersion) return p2sh(b.payload);
  return undefined;
}

const OPCODE_NAMES: Record<number, string> = {
  79: '-1',
  80: 'OP_RESERVED',
  97: 'OP_NOP',
  98: 'OP_VER',
  99: 'OP_IF',
  100: 'OP_NOTIF',
  101: 'OP_VERIF',
  102: 'OP_VERNOTIF',
  103: 'OP_ELSE',
  104: 'OP_ENDIF',
  105: 'OP_VERIFY',
  106: 'OP_RETURN',
  107: 'OP_TOALTSTACK',
  108: 'OP_FROMALTSTACK',
  109: 'OP_2DROP',
  110: 'OP_2DUP',
  111: 'OP_3DUP',
  112: 'OP_2OVER',
  113: 'OP_2ROT',
  114: 'OP_2SWAP',
  115: 'OP_IFDUP',
  116: 'OP_DEPTH',
  117: 'OP_DROP',
  118: 'OP_DUP',
  119: 'OP_NIP',
  120: 'OP_OVER',
  121: 'OP_PICK',
  122: 'OP_ROLL',
  123: 'OP_ROT',
  124: 'OP_SWAP',
  125: 'OP_TUCK',
  126: 'OP_CAT',
  127: 'OP_SUBSTR',
  128: 'OP_LEFT',
  129: 'OP_RIGHT',
  130: 'OP_SIZE',
  131: 'OP_INVERT',
  132: 'OP_AND',
  133: 'OP_OR',
  134: 'OP_XOR',
  135: 'OP_EQUAL',
  136: 'OP_EQUALVERIFY',
  137: 'OP_RESERVED1',
  138: 'OP_RESERVED2',
  139: 'OP_1ADD',
  140: 'OP_1SUB',
  141: 'OP_2MUL',
  142: 'OP_2DIV',
  143: 'OP_NEGATE',
  144: 'OP_ABS',
  145: 'OP_NOT',
  146: 'OP_0NOTEQUAL',
  147: 'OP_ADD',
  148: 'OP_SUB',
  149: 'OP_MUL',
  150: 'OP_DIV',
  151: 'OP_MOD',
  152: 'OP_LSHIFT',
  153: 'OP_RSHIFT',
  154: 'OP_BOOLAND',
  155: 'OP_BOOLOR',
  156: 'OP_NUMEQUAL',
  157: 'OP_NUMEQUALVERIFY',
  158: 'OP_NUMNOTEQUAL',
  159: 'OP_LESSTHAN',
  160: 'OP_GREATERTHAN',
  161: 'OP_LESSTHANOREQUAL',
  162: 'OP_GREATERTHANOREQUAL',
  163: 'OP_MIN',
  164: 'OP_MAX',
  165: 'OP_WITHIN',
  166: 'OP_RIPEMD160',
  167: 'OP_SHA1',
  168: 'OP_SHA256',
  169: 'OP_HASH160',
  170: 'OP_HASH256',
  171: 'OP_CODESEPARATOR',
  172: 'OP_CHECKSIG',
  173: 'OP_CHECKSIGVERIFY',
  174: 'OP_CHECKMULTISIG',
  175: 'OP_CHECKMULTISIGVERIFY',
  176: 'OP_NOP1',
  177: 'OP_CHECKLOCKTIMEVERIFY',
  178: 'OP_CHECKSEQUENCEVERIFY',
  179: 'OP_NOP4',
  180: 'OP_NOP5',
  181: 'OP_NOP6',
  182: 'OP_NOP7',
  183: 'OP_NOP8',
  184: 'OP_NOP9',
  185: 'OP_NOP10',
  186: 'OP_CHECKSIGADD',
};

function scriptNum(data: Uint8Array): number {
  if (data.length === 0) return 0;
  let v = 0;
  for (let i = 0; i < data.length; i++) v += (data[i] as number) * 2 ** (8 * i);
  const last = data[data.length - 1] as number;
  if (last & 0x80) return -(v - 0x80 * 2 ** (8 * (data.length - 1)));
  return v;
}

// Core's IsValidSignatureEncoding (BIP66 strict DER) followed by a sighash byte.
function isDerSignature(sig: Uint8Array): boolean {
  const n = sig.length;
  if (n < 9 || n > 73 || sig[0] !== 0x30 || sig[1] !== n - 3) return false;
  const lenR = sig[3] as number;
  if (5 + lenR >= n) return false;
  const lenS = sig[5 + lenR] as number;
  if (lenR + lenS + 7 !== n || sig[2] !== 0x02 || lenR === 0 || ((sig[4] as number) & 0x80) !== 0)
    return false;
  if (lenR > 1 && sig[4] === 0 && !((sig[5] as number) & 0x80)) return false;
  if (sig[lenR + 4] !== 0x02 || lenS === 0 || ((sig[lenR + 6] as number) & 0x80) !== 0) return false;
  if (lenS > 1 && sig[lenR + 6] === 0 && !((sig[lenR + 7] as number) & 0x80)) return false;
  return true;
}

const SIGHASH_NAMES: Record<number, string> = {
  1: 'ALL',
  2: 'NONE',
  3: 'SINGLE',
  129: 'ALL|ANYONECANPAY',
  130: 'NONE|ANYONECANPAY',
  131: 'SINGLE|ANYONECANPAY',
};

/** Core's ScriptToAsmStr; with decodeSighash, DER signatures render as `<hex>[ALL]` like scriptSig asm in Core. */
export function scriptAsm(s: Uint8Array, decodeSighash = false): string {
  const parts: string[] = [];
  let i = 0;
  while (i < s.length) {
    const op = s[i] as number;
    i++;
    if (op <= OP_PUSHDATA4) {
      let len = op;
      if (op === OP_PUSHDATA1) {
        len = s[i] ?? 0;
        i += 1;
      } else if (op === OP_PUSHDATA2) {
        len = (s[i] ?? 0) | ((s[i + 1] ?? 0) << 8);
        i += 2;
      } else if (op === OP_PUSHDATA4) {
        len = ((s[i] ?? 0) | ((s[i + 1] ?? 0) << 8) | ((s[i + 2] ?? 0) << 16)) + (s[i + 3] ?? 0) * 2 ** 24;
        i += 4;
      }
      if (i + len > s.length) {
        parts.push('[error]');
        break;
      }
      const data = s.subarray(i, i + len);
      i += len;
      if (len <= 4) parts.push(String(scriptNum(data)));
      else if (decodeSighash && isDerSignature(data)) {
        const name = SIGHASH_NAMES[data[len - 1] as number];
        parts.push(
          name
            ? `${Buffer.from(data.subarray(0, len - 1)).toString('hex')}[${name}]`
            : Buffer.from(data).toString('hex'),
        );
      } else parts.push(Buffer.from(data).toString('hex'));
    } else if (op >= OP_1 && op <= 0x60) parts.push(String(op - OP_1 + 1));
    else parts.push(OPCODE_NAMES[op] ?? 'OP_UNKNOWN');
  }
  return parts.join(' ');
}
