import { describe, expect, it } from 'vitest';
import { esploraAsm } from './script-asm.js';

const asm = (hex: string) => esploraAsm(Buffer.from(hex, 'hex'));

// rust-bitcoin's asm (what electrs writes in every *_asm field), by its rules and examples.
describe('esploraAsm', () => {
  it('names every push with its width and small numbers as OP_PUSHNUM', () => {
    expect(asm('76a91462e907b15cbf27d5425399ebf6f0fb50ebb88f1888ac')).toBe(
      'OP_DUP OP_HASH160 OP_PUSHBYTES_20 62e907b15cbf27d5425399ebf6f0fb50ebb88f18 OP_EQUALVERIFY OP_CHECKSIG',
    );
    expect(asm(`0014${'ab'.repeat(20)}`)).toBe(`OP_0 OP_PUSHBYTES_20 ${'ab'.repeat(20)}`);
    expect(asm(`5120${'cd'.repeat(32)}`)).toBe(`OP_PUSHNUM_1 OP_PUSHBYTES_32 ${'cd'.repeat(32)}`);
    expect(asm('6a0b68656c6c6f20776f726c64')).toBe('OP_RETURN OP_PUSHBYTES_11 68656c6c6f20776f726c64');
    expect(asm('4f60')).toBe('OP_PUSHNUM_NEG1 OP_PUSHNUM_16');
    expect(asm('4c0201ff')).toBe('OP_PUSHDATA1 01ff');
    expect(asm('')).toBe('');
  });

  it("uses rust-bitcoin's names where they differ from Core's", () => {
    expect(asm('b1b2ba')).toBe('OP_CLTV OP_CSV OP_CHECKSIGADD');
    expect(asm('bbfeff')).toBe('OP_RETURN_187 OP_RETURN_254 OP_INVALIDOPCODE');
  });

  it('marks a push past the end', () => {
    expect(asm('01')).toBe('OP_PUSHBYTES_1 <push past end>');
    expect(asm('4c0201')).toBe('OP_PUSHDATA1 <push past end>');
    expect(asm('4c')).toBe('<unexpected end>');
    expect(asm('514c')).toBe('OP_PUSHNUM_1<unexpected end>');
  });
});
