// BIP380's descriptor checksum: a BCH code over the descriptor's characters, in the character set's three
// groups of 32 so that case errors and in-group substitutions each count as one symbol error.
const INPUT_CHARSET =
  '0123456789()[],\'/*abcdefgh@:$%{}IJKLMNOPQRSTUVWXYZ&+-.;<=>?!^_|~ijklmnopqrstuvwxyzABCDEFGH`#"\\ ';
const CHECKSUM_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GENERATOR = [0xf5dee51989n, 0xa9fdca3312n, 0x1bab10e32dn, 0x3706b1677an, 0x644d626ffdn];

function polymod(symbols: readonly number[]): bigint {
  let chk = 1n;
  for (const value of symbols) {
    const top = chk >> 35n;
    chk = ((chk & 0x7ffffffffn) << 5n) ^ BigInt(value);
    for (let i = 0; i < 5; i++) if ((top >> BigInt(i)) & 1n) chk ^= GENERATOR[i] as bigint;
  }
  return chk;
}

function expand(text: string): number[] | undefined {
  const symbols: number[] = [];
  const groups: number[] = [];
  for (const c of text) {
    const v = INPUT_CHARSET.indexOf(c);
    if (v < 0) return undefined;
    symbols.push(v & 31);
    groups.push(v >> 5);
    if (groups.length === 3) {
      symbols.push((groups[0] as number) * 9 + (groups[1] as number) * 3 + (groups[2] as number));
      groups.length = 0;
    }
  }
  if (groups.length === 1) symbols.push(groups[0] as number);
  else if (groups.length === 2) symbols.push((groups[0] as number) * 3 + (groups[1] as number));
  return symbols;
}

/**
 * The 8-character BIP380 checksum of a descriptor (without its `#…`); undefined when the text holds a character
 * outside the descriptor character set.
 * @example descriptorChecksum('raw(deadbeef)') // '89f8spxm'
 */
export function descriptorChecksum(descriptor: string): string | undefined {
  const symbols = expand(descriptor);
  if (!symbols) return undefined;
  const c = polymod([...symbols, 0, 0, 0, 0, 0, 0, 0, 0]) ^ 1n;
  let out = '';
  for (let i = 0; i < 8; i++) out += CHECKSUM_CHARSET[Number((c >> BigInt(5 * (7 - i))) & 31n)];
  return out;
}
