const OP_PUSHDATA1 = 0x4c;
const OP_PUSHDATA2 = 0x4d;
const OP_PUSHDATA4 = 0x4e;
const OP_1 = 0x51;

/** Names of the opcodes that are neither data pushes nor small integers (Bitcoin Core's and btcd's names). */
export const OPCODE_NAMES: Record<number, string> = {
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

/** How a node prints scripts: Bitcoin Core (pushes of ≤ 4 bytes as numbers) or btcd/pearld (every push as hex). */
export type AsmStyle = 'core' | 'btcd';

/** One instruction of a script: an opcode with the bytes it pushes (none for other opcodes), or a push cut short. */
export type ScriptOp =
  | { op: number; data: Uint8Array | null; truncated?: undefined }
  | { op: number; data?: undefined; truncated: 'length' | 'data' };

const NO_DATA = new Uint8Array(0);

/**
 * The instructions of a script, in order: each push opcode (`OP_0` pushing nothing, 1–75 bytes, PUSHDATA1/2/4)
 * with its bytes, other opcodes alone; a push whose length bytes or data run past the end ends it, marked.
 * @example [...scriptOps(Buffer.from('0014' + 'ab'.repeat(20), 'hex'))].length // 2
 */
export function* scriptOps(s: Uint8Array): Generator<ScriptOp> {
  let i = 0;
  while (i < s.length) {
    const op = s[i] as number;
    i++;
    if (op === 0) {
      yield { op, data: NO_DATA };
      continue;
    }
    if (op > OP_PUSHDATA4) {
      yield { op, data: null };
      continue;
    }
    let len = op;
    const width = op === OP_PUSHDATA1 ? 1 : op === OP_PUSHDATA2 ? 2 : op === OP_PUSHDATA4 ? 4 : 0;
    if (width > 0) {
      if (i + width > s.length) {
        yield { op, truncated: 'length' };
        return;
      }
      len = 0;
      for (let k = width - 1; k >= 0; k--) len = len * 256 + (s[i + k] as number);
      i += width;
    }
    if (i + len > s.length) {
      yield { op, truncated: 'data' };
      return;
    }
    yield { op, data: s.subarray(i, i + len) };
    i += len;
  }
}

/**
 * A script as text the way the node of `style` prints it (Core's ScriptToAsmStr, btcd's DisasmString). With
 * `decodeSighash` (Core, scriptSig), strict-DER signatures show their sighash type as `<hex>[ALL]`.
 * @example scriptAsm(Buffer.from('6a0568656c6c6f', 'hex'), 'btcd') // 'OP_RETURN 68656c6c6f'
 */
export function scriptAsm(s: Uint8Array, style: AsmStyle = 'core', decodeSighash = false): string {
  const parts: string[] = [];
  for (const { op, data, truncated } of scriptOps(s)) {
    if (truncated) {
      parts.push('[error]');
      break;
    }
    if (op === 0) parts.push('0');
    else if (data) {
      const len = data.length;
      if (style === 'core' && len <= 4) parts.push(String(scriptNum(data)));
      else if (style === 'core' && decodeSighash && isDerSignature(data)) {
        const name = SIGHASH_NAMES[data[len - 1] as number];
        parts.push(
          name
            ? `${Buffer.from(data.subarray(0, len - 1)).toString('hex')}[${name}]`
            : Buffer.from(data).toString('hex'),
        );
      } else parts.push(Buffer.from(data).toString('hex'));
    } else if (op >= OP_1 && op <= 0x60) parts.push(String(op - OP_1 + 1));
    else parts.push(OPCODE_NAMES[op] ?? (style === 'btcd' ? `OP_UNKNOWN${op}` : 'OP_UNKNOWN'));
  }
  return parts.join(' ');
}

/** rust-bitcoin's names where they differ from Bitcoin Core's (the rest are Core's, `OP_RETURN_<n>` past them). */
const RUST_NAMES: Record<number, string> = {
  79: 'OP_PUSHNUM_NEG1',
  177: 'OP_CLTV',
  178: 'OP_CSV',
  186: 'OP_CHECKSIGADD',
  255: 'OP_INVALIDOPCODE',
};

/** rust-bitcoin's name of a push opcode: by the width of its length. */
const pushName = (op: number) =>
  op === OP_PUSHDATA1
    ? 'OP_PUSHDATA1'
    : op === OP_PUSHDATA2
      ? 'OP_PUSHDATA2'
      : op === OP_PUSHDATA4
        ? 'OP_PUSHDATA4'
        : `OP_PUSHBYTES_${op}`;

/**
 * A script as Esplora (electrs, through rust-bitcoin) prints it: every push named with its width
 * (`OP_PUSHBYTES_20 <hex>`, `OP_PUSHDATA1 <hex>`, `OP_0`), small integers as `OP_PUSHNUM_<n>`, opcodes past
 * the defined ones as `OP_RETURN_<n>`, a push running past the end as `<push past end>`, and missing length
 * bytes as `<unexpected end>` (written without the opcode or a space, as rust-bitcoin does).
 * @example esploraAsm(Buffer.from('0014' + '00'.repeat(20), 'hex')) // 'OP_0 OP_PUSHBYTES_20 0000…'
 */
export function esploraAsm(s: Uint8Array): string {
  const parts: string[] = [];
  for (const { op, data, truncated } of scriptOps(s)) {
    if (truncated === 'length') {
      if (parts.length > 0) parts[parts.length - 1] += '<unexpected end>';
      else parts.push('<unexpected end>');
      break;
    }
    if (truncated === 'data') {
      parts.push(pushName(op), '<push past end>');
      break;
    }
    if (op === 0) parts.push('OP_0');
    else if (data) parts.push(pushName(op), Buffer.from(data).toString('hex'));
    else if (op >= OP_1 && op <= 0x60) parts.push(`OP_PUSHNUM_${op - OP_1 + 1}`);
    else parts.push(RUST_NAMES[op] ?? OPCODE_NAMES[op] ?? `OP_RETURN_${op}`);
  }
  return parts.join(' ');
}
