import { describe, expect, it } from 'vitest';
import {
  decodeBase58Check,
  decodeSegwitAddress,
  encodeBase58Check,
  encodeSegwitAddress,
  hasValidChecksum,
} from './address.js';
import {
  blockWork,
  compactToTarget,
  coreDifficulty,
  ratioDifficulty,
  targetToCompact,
} from './difficulty.js';
import { scriptAsm } from './script-asm.js';

describe('address encodings', () => {
  it('match known Bitcoin vectors for base58check and bech32/bech32m', () => {
    // Mainnet P2PKH of hash160 0x00…00 is the well-known burn address.
    expect(encodeBase58Check(0, Buffer.alloc(20))).toBe('1111111111111111111114oLvT2');
    const h = Buffer.from('751e76e8199196d454941c45d1b3a323f1433bd6', 'hex');
    expect(encodeSegwitAddress('bc', 0, h)).toBe('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
    const tr = Buffer.from('79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798', 'hex');
    expect(encodeSegwitAddress('bc', 1, tr)).toBe(
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
    );
  });

  it('refuse a checksum of the wrong kind for the witness version, and corrupted checksums', () => {
    const tr = Buffer.alloc(32, 9);
    const good = encodeSegwitAddress('prl', 1, tr);
    expect(decodeSegwitAddress(good)?.program).toEqual(new Uint8Array(tr));
    // Version 1 checksummed as bech32 (BIP173) instead of bech32m is not a valid address.
    const v0Style = encodeSegwitAddress('prl', 0, tr).replace(/^prl1q/, 'prl1p');
    expect(decodeSegwitAddress(v0Style)).toBeUndefined();
    expect(decodeSegwitAddress(`${good.slice(0, -1)}${good.endsWith('q') ? 'p' : 'q'}`)).toBeUndefined();
    expect(decodeSegwitAddress('PRL1' + good.slice(4).toUpperCase())?.hrp).toBe('prl');
    expect(decodeSegwitAddress(`prl1${good.slice(4, 8).toUpperCase()}${good.slice(8)}`)).toBeUndefined();
    const legacy = encodeBase58Check(90, Buffer.alloc(20, 7));
    expect(decodeBase58Check(legacy)).toMatchObject({ version: 90 });
    expect(decodeBase58Check(`${legacy.slice(0, -1)}${legacy.endsWith('2') ? '3' : '2'}`)).toBeUndefined();
  });
});

describe('hasValidChecksum', () => {
  // A Litecoin MWEB address: 121 characters, past the 90 BIP173 allows segwit addresses.
  const mweb =
    'ltcmweb1qq20e2arnhvxw97katjkmsd35agw3capxjkrkh7dk8d30rczm8ypxuq329nwh2twmchhqn3jqh7ua4ps539f6aazh79jy76urqht4qa59ts3at6gf';

  it('accepts bech32 and bech32m under any HRP and at any length, in one case', () => {
    // BIP173's and BIP350's valid strings, which are not segwit addresses.
    expect(hasValidChecksum('A12UEL5L')).toBe(true);
    expect(hasValidChecksum('a12uel5l')).toBe(true);
    expect(hasValidChecksum('abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx')).toBe(true);
    expect(hasValidChecksum(mweb)).toBe(true);
    expect(hasValidChecksum(mweb.toUpperCase())).toBe(true);
    expect(hasValidChecksum('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0')).toBe(true);
  });

  it('refuses mixed case, corrupted checksums and strings with no data part', () => {
    expect(hasValidChecksum(`${mweb.slice(0, 20).toUpperCase()}${mweb.slice(20)}`)).toBe(false);
    expect(hasValidChecksum(`${mweb.slice(0, -1)}${mweb.endsWith('q') ? 'p' : 'q'}`)).toBe(false);
    // Checksum computed over the upper-case HRP (BIP173's invalid list), no HRP, a checksum too short.
    expect(hasValidChecksum('A1G7SGD8')).toBe(false);
    expect(hasValidChecksum('1qzzfhee')).toBe(false);
    expect(hasValidChecksum('li1dgmt3')).toBe(false);
    expect(hasValidChecksum('')).toBe(false);
  });

  it('accepts Base58Check under any version byte, and refuses a corrupted one', () => {
    expect(hasValidChecksum('1111111111111111111114oLvT2')).toBe(true);
    expect(hasValidChecksum('LYhttvnKawAv6RcHQ4eBkNtifuiEA99PFe')).toBe(true);
    for (const version of [0, 5, 48, 90, 255]) {
      const text = encodeBase58Check(version, Buffer.alloc(20, version));
      expect(hasValidChecksum(text), text).toBe(true);
      expect(hasValidChecksum(`${text.slice(0, -1)}${text.endsWith('2') ? '3' : '2'}`), text).toBe(false);
    }
    // Base58 has no 0, O, I or l.
    expect(hasValidChecksum('0111111111111111111114oLvT2')).toBe(false);
  });
});

describe('scripts and targets', () => {
  it('disassemble scripts as Core and btcd do', () => {
    expect(scriptAsm(Buffer.from([0x52, 0x53, 0x93, 0x55, 0x87]))).toBe('2 3 OP_ADD 5 OP_EQUAL');
    expect(scriptAsm(Buffer.from('6a0401020304', 'hex'))).toBe('OP_RETURN 67305985');
    expect(scriptAsm(Buffer.from('6a0401020304', 'hex'), 'btcd')).toBe('OP_RETURN 01020304');
    expect(scriptAsm(Buffer.from('6a4c', 'hex'), 'btcd')).toBe('OP_RETURN [error]');
  });

  it('convert compact bits like Core, and compute pearld’s difficulty ratio', () => {
    expect(coreDifficulty(0x1d00ffff)).toBe(1);
    expect(targetToCompact(compactToTarget(0x1b0404cb))).toBe(0x1b0404cb);
    expect(compactToTarget(0x01810000)).toBe(0n);
    expect(blockWork(0x1d00ffff)).toBe(4295032833n);
    // Half the pow-limit target is twice the difficulty; rounding is to 8 decimals.
    expect(ratioDifficulty(0x1e010000, 0x1e008000)).toBe(2);
    expect(ratioDifficulty(0x1e010000, 0x1e00ffff)).toBe(1.00001526);
  });
});
