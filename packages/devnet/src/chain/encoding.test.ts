import { decodeBase58Check, decodeSegwitAddress, pearlScriptType } from '@explorer/chain';
import { describe, expect, it } from 'vitest';
import { bitcoinDialect, pearlDialect } from './dialect.js';
import { KeyRing } from './keys.js';
import {
  addressToScript,
  classify,
  NETWORK,
  p2pkh,
  p2tr,
  p2wpkh,
  pushNumber,
  scriptAddress,
} from './script.js';

describe('the devnet’s addresses', () => {
  it('Bitcoin dialect: round-trips its addresses and rejects corrupted checksums', () => {
    const hash = Buffer.alloc(20, 7);
    const legacy = scriptAddress(p2pkh(hash)) as string;
    expect(legacy.startsWith('d')).toBe(true);
    expect(decodeBase58Check(legacy)?.version).toBe(NETWORK.p2pkhVersion);
    expect(addressToScript(legacy)?.equals(p2pkh(hash))).toBe(true);
    const seg = scriptAddress(p2wpkh(hash)) as string;
    expect(seg.startsWith('dvt1q')).toBe(true);
    expect(Buffer.from(decodeSegwitAddress(seg)!.program).equals(hash)).toBe(true);
    const taproot = scriptAddress(p2tr(Buffer.alloc(32, 9))) as string;
    expect(taproot.startsWith('dvt1p')).toBe(true);
    const flip = (s: string) => s.slice(0, -1) + (s.endsWith('q') ? 'p' : 'q');
    expect(addressToScript(flip(seg))).toBeUndefined();
    expect(classify(p2pkh(Buffer.alloc(20)))).toBe('pubkeyhash');
    expect(classify(Buffer.from([0x52, 0x53, 0x93, 0x55, 0x87]))).toBe('nonstandard');
    expect(pushNumber(500).toString('hex')).toBe('02f401');
    expect(pushNumber(128).toString('hex')).toBe('028000');
  });

  it('Pearl dialect: only P2TR and P2MR keys, on rprl addresses that round-trip', () => {
    const keys = new KeyRing('enc', pearlDialect);
    const kinds = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const k = keys.info(keys.fresh());
      kinds.add(k.kind);
      const address = pearlDialect.address(k.script) as string;
      expect(address).toMatch(k.kind === 'p2tr' ? /^rprl1p/ : /^rprl1z/);
      expect(pearlDialect.addressScript(address)?.equals(k.script)).toBe(true);
      expect(pearlScriptType(k.script)).toBe(
        k.kind === 'p2tr' ? 'witness_v1_taproot' : 'witness_v2_merkleroot',
      );
    }
    expect([...kinds].sort()).toEqual(['p2mr', 'p2tr']);
    expect(keys.info(keys.special('p2pkh')).kind).toBe('p2tr');
    expect(new KeyRing('enc', bitcoinDialect(1000)).info(0).kind).not.toBe('p2mr');
  });
});
