import { describe, expect, it } from 'vitest';
import { base58checkDecode, base58checkEncode } from './base58.js';
import { decodeSegwitAddress, encodeSegwitAddress } from './bech32.js';
import { bitsToDifficulty, bitsToTarget, targetToBits } from './block.js';
import {
  addressToScript,
  classify,
  NETWORK,
  p2pkh,
  p2tr,
  p2wpkh,
  pushNumber,
  scriptAddress,
  scriptAsm,
} from './script.js';

describe('address encodings', () => {
  it('matches known Bitcoin vectors for base58check and bech32/bech32m', () => {
    // Mainnet P2PKH of hash160 0x00…00 is the well-known burn address.
    expect(base58checkEncode(0, Buffer.alloc(20))).toBe('1111111111111111111114oLvT2');
    const h = Buffer.from('751e76e8199196d454941c45d1b3a323f1433bd6', 'hex');
    expect(encodeSegwitAddress('bc', 0, h)).toBe('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
    const tr = Buffer.from('79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798', 'hex');
    expect(encodeSegwitAddress('bc', 1, tr)).toBe(
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
    );
  });

  it('round-trips devnet addresses and rejects corrupted checksums', () => {
    const hash = Buffer.alloc(20, 7);
    const legacy = scriptAddress(p2pkh(hash)) as string;
    expect(legacy.startsWith('d')).toBe(true);
    expect(base58checkDecode(legacy)?.version).toBe(NETWORK.p2pkhVersion);
    expect(addressToScript(legacy)?.equals(p2pkh(hash))).toBe(true);
    const seg = scriptAddress(p2wpkh(hash)) as string;
    expect(seg.startsWith('dvt1q')).toBe(true);
    expect(decodeSegwitAddress(seg)?.program.equals(hash)).toBe(true);
    const taproot = scriptAddress(p2tr(Buffer.alloc(32, 9))) as string;
    expect(taproot.startsWith('dvt1p')).toBe(true);
    const flip = (s: string) => s.slice(0, -1) + (s.endsWith('q') ? 'p' : 'q');
    expect(decodeSegwitAddress(flip(seg))).toBeUndefined();
    expect(base58checkDecode(`${legacy.slice(0, -1)}${legacy.endsWith('2') ? '3' : '2'}`)).toBeUndefined();
  });

  it('classifies scripts and renders asm like Core', () => {
    expect(classify(p2pkh(Buffer.alloc(20)))).toBe('pubkeyhash');
    expect(classify(Buffer.from('6a0401020304', 'hex'))).toBe('nulldata');
    expect(classify(Buffer.from([0x52, 0x53, 0x93, 0x55, 0x87]))).toBe('nonstandard');
    expect(scriptAsm(Buffer.from([0x52, 0x53, 0x93, 0x55, 0x87]))).toBe('2 3 OP_ADD 5 OP_EQUAL');
    expect(scriptAsm(Buffer.from('6a0401020304', 'hex'))).toBe('OP_RETURN 67305985');
    expect(pushNumber(500).toString('hex')).toBe('02f401');
    expect(pushNumber(128).toString('hex')).toBe('028000');
  });

  it('converts compact bits like Core', () => {
    expect(bitsToDifficulty(0x1d00ffff)).toBe(1);
    expect(targetToBits(bitsToTarget(0x1b0404cb))).toBe(0x1b0404cb);
  });
});
