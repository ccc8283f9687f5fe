const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_CONST = 1;
const BECH32M_CONST = 0x2bc830a3;

function polymod(values: number[]): number {
  const gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = (((chk & 0x1ffffff) << 5) ^ v) >>> 0;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk = (chk ^ (gen[i] as number)) >>> 0;
  }
  return chk;
}

function hrpExpand(hrp: string): number[] {
  const out: number[] = [];
  for (const c of hrp) out.push(c.charCodeAt(0) >> 5);
  out.push(0);
  for (const c of hrp) out.push(c.charCodeAt(0) & 31);
  return out;
}

function convertBits(
  data: Uint8Array | number[],
  from: number,
  to: number,
  pad: boolean,
): number[] | undefined {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  const maxv = (1 << to) - 1;
  for (const v of data) {
    acc = (acc << from) | v;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >> bits) & maxv);
    }
  }
  if (pad) {
    if (bits > 0) out.push((acc << (to - bits)) & maxv);
  } else if (bits >= from || ((acc << (to - bits)) & maxv) !== 0) {
    return undefined;
  }
  return out;
}

/** Segwit address: bech32 for witness v0, bech32m for v1+ (BIP173/BIP350). */
export function encodeSegwitAddress(hrp: string, version: number, program: Uint8Array): string {
  const data = [version, ...(convertBits(program, 8, 5, true) as number[])];
  const constant = version === 0 ? BECH32_CONST : BECH32M_CONST;
  const mod = polymod([...hrpExpand(hrp), ...data, 0, 0, 0, 0, 0, 0]) ^ constant;
  let out = `${hrp}1`;
  for (const d of data) out += CHARSET[d];
  for (let i = 0; i < 6; i++) out += CHARSET[(mod >>> (5 * (5 - i))) & 31];
  return out;
}

/** Decodes and checksum-verifies a segwit address; undefined when invalid. */
export function decodeSegwitAddress(
  address: string,
): { hrp: string; version: number; program: Buffer } | undefined {
  const lower = address.toLowerCase();
  if (lower !== address && address.toUpperCase() !== address) return undefined;
  const pos = lower.lastIndexOf('1');
  if (pos < 1 || pos + 7 > lower.length) return undefined;
  const hrp = lower.slice(0, pos);
  const data: number[] = [];
  for (const c of lower.slice(pos + 1)) {
    const v = CHARSET.indexOf(c);
    if (v < 0) return undefined;
    data.push(v);
  }
  const version = data[0];
  if (version === undefined || version > 16) return undefined;
  const constant = version === 0 ? BECH32_CONST : BECH32M_CONST;
  if (polymod([...hrpExpand(hrp), ...data]) !== constant) return undefined;
  const program = convertBits(data.slice(1, -6), 5, 8, false);
  if (!program || program.length < 2 || program.length > 40) return undefined;
  return { hrp, version, program: Buffer.from(program) };
}
