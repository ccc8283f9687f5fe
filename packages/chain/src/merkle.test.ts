import { describe, expect, it } from 'vitest';
import { encodeCoreHeader } from './bitcoin/header.js';
import { fromDisplayHex, sha256, toDisplayHex } from './hash.js';
import { merkleBranch, merkleRootFromBranch } from './merkle.js';
import { merkleRoot } from './tx.js';

const leaves = (n: number) => Array.from({ length: n }, (_, i) => sha256(Buffer.from([i, n])));

describe('merkleBranch', () => {
  it('hashes every leaf up to the root merkleRoot computes, for even and odd counts', () => {
    for (let n = 1; n <= 17; n++) {
      const hashes = leaves(n);
      const root = merkleRoot(hashes);
      for (let i = 0; i < n; i++) {
        const branch = merkleBranch(hashes, i);
        expect(branch).toHaveLength(Math.ceil(Math.log2(n)));
        expect(merkleRootFromBranch(hashes[i]!, branch, i).equals(root)).toBe(true);
      }
    }
  });

  it('pairs the last hash of an odd level with itself', () => {
    const hashes = leaves(3);
    expect(merkleBranch(hashes, 2)[0]!.equals(hashes[2]!)).toBe(true);
  });

  it('fails to verify at another position or with another leaf', () => {
    const hashes = leaves(6);
    const root = merkleRoot(hashes);
    const branch = merkleBranch(hashes, 4);
    expect(merkleRootFromBranch(hashes[4]!, branch, 5).equals(root)).toBe(false);
    expect(merkleRootFromBranch(hashes[3]!, branch, 4).equals(root)).toBe(false);
  });

  it('refuses a position outside the hashes', () => {
    expect(() => merkleBranch(leaves(2), 2)).toThrow(RangeError);
  });

  it('proves Bitcoin block 100000 (4 transactions) against its merkle root', () => {
    const txids = [
      '8c14f0db3df150123e6f3dbbf30f8b955a8249b62ac1d1ff16284aefa3d06d87',
      'fff2525b8931402dd09222c50775608f75787bd2b87e56995a7bdd30f79702c4',
      '6359f0868171b1d194cbee1af2f16ea598ae8fad666d9b012c8ed2b79a236ec4',
      'e9a66845e05d5abc0ad04ec80f774a7e585c6e8db975962d069a522137b80c1d',
    ].map(fromDisplayHex);
    const root = 'f3e94742aca4b5ef85488dc37c06c3282295ffec960994b2c0d5ac2a25a95766';
    for (let i = 0; i < 4; i++)
      expect(toDisplayHex(merkleRootFromBranch(txids[i]!, merkleBranch(txids, i), i))).toBe(root);
    const header = encodeCoreHeader({
      version: 1,
      prevHash: '000000000002d01c1fccc21636b607dfd930d31d01c3a62104612a1719011250',
      merkleRoot: root,
      time: 1293623863,
      bits: 0x1b04864c,
      nonce: 274148111,
    });
    expect(header).toHaveLength(80);
    expect(toDisplayHex(sha256(sha256(header)))).toBe(
      '000000000003ba27aa200b1cecaad478d2b00432346c3f1f3986da1afd33e506',
    );
  });
});
