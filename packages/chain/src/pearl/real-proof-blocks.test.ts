import { pearldRealProofBlocks } from '@explorer/test-vectors';
import { describe, expect, it } from 'vitest';
import { ByteReader } from '../bytes/reader.js';
import { sha256d, toDisplayHex } from '../hash.js';
import { isCoinbaseInput } from '../tx.js';
import { type DecodedPearlBlock, decodePearlBlock } from './block.js';
import { certificateCommitment, certificateProblems, readCertificate } from './certificate.js';
import { PEARL_HEADER_SIZE, pearlHeaderHash } from './header.js';
import { PEARL_NETWORKS } from './params.js';
import { DENSE_PUBLIC_DATA_SIZE, decodeDensePublicData } from './public-data.js';

// 23 regtest blocks a real pearld 1.1.5 mined with its real prover: genesis, then heights 1–21 with a competing
// block at height 20 (the file holds one reorganisation). Decoder vectors for real certificates.
const file = pearldRealProofBlocks();
const ACTIVE_TIP = 'fee440a2719f70a1276e46e5138e50ad5a0f1805ddc3f3783ada2bb5be300716';
const COMPETING_20 = '1b73ccff83ea2941025b8ba57e798eef2132272e783e780b0160ac4b357875d9';

/** The hash of a block's header, found after its certificate (what a node's getblockhash would name). */
function headerHash(bytes: Uint8Array): string {
  const r = new ByteReader(bytes);
  readCertificate(r);
  return pearlHeaderHash(bytes.subarray(r.offset, r.offset + PEARL_HEADER_SIZE));
}

const blocks: DecodedPearlBlock[] = file.blocks.map((hex) => {
  const bytes = Buffer.from(hex, 'hex');
  return decodePearlBlock(bytes, headerHash(bytes));
});
const byHash = new Map(blocks.map((b) => [b.header.hash, b]));

/** Height by walking the parent links down to genesis. */
function heightOf(b: DecodedPearlBlock): number {
  let h = 0;
  for (let p = byHash.get(b.header.prevHash); p; p = byHash.get(p.header.prevHash)) h++;
  return h;
}

describe('real-proof regtest blocks of a real pearld', () => {
  it('are 23 blocks of regtest, starting with its genesis', () => {
    expect(file.network).toBe('regtest');
    expect(blocks).toHaveLength(23);
    expect(blocks[0]!.header.hash).toBe(PEARL_NETWORKS.regtest.genesisHash);
    expect(blocks[0]!.header.prevHash).toBe('0'.repeat(64));
  });

  it('decode whole: certificate v2 with 164 bytes of public data and a ~59.6 kB proof, header, one coinbase', () => {
    for (const [i, b] of blocks.entries()) {
      if (i === 0) continue;
      const c = b.certificate!;
      expect(b.certificateError).toBeNull();
      expect(c.version).toBe(2);
      expect(c.layout).toBe('v2');
      expect(c.publicData).toHaveLength(DENSE_PUBLIC_DATA_SIZE);
      expect(c.proof.length).toBeGreaterThan(59_000);
      expect(c.proof.length).toBeLessThanOrEqual(60_000);
      expect(c.bytes.length).toBe(4 + 32 + 4 + 164 + 4 + c.proof.length);
      expect(Buffer.compare(b.certificateBytes, c.bytes)).toBe(0);
      expect(b.txs).toHaveLength(1);
      expect(isCoinbaseInput(b.txs[0]!.inputs[0]!)).toBe(true);
      // The certificate counts in size, not in weight: size ≈ 60 kB, vsize ≈ 276 (as pearld reports them).
      expect(b.size).toBe(c.bytes.length + b.strippedSize + (b.txs[0]!.size - b.txs[0]!.baseSize));
      expect(b.strippedSize).toBeGreaterThanOrEqual(266);
      expect(b.vsize).toBeLessThanOrEqual(276);
      expect(b.header.bits).toBe(PEARL_NETWORKS.regtest.powLimitBits);
    }
  });

  it("commit in the header to SHA256d(LE32(2) ‖ public data), as the project's verification checks", () => {
    for (const b of blocks.slice(1)) {
      const c = b.certificate!;
      const le32 = Buffer.alloc(4);
      le32.writeUInt32LE(2);
      const expected = toDisplayHex(sha256d(le32, c.publicData!));
      expect(b.header.proofCommitment).toBe(expected);
      expect(certificateCommitment(c)).toBe(expected);
      expect(c.blockHash).toBe(b.header.hash);
      expect(certificateProblems(c, b.header)).toEqual([]);
    }
  });

  it('carry mining configurations that decode as the dense layout', () => {
    for (const b of blocks.slice(1)) {
      const d = decodeDensePublicData(b.certificate!.publicData!);
      expect(d.moe).toBeNull();
      expect(d.config.commonDim).toBeGreaterThan(0);
      expect(d.config.mmaType).toBe(0);
      expect(d.m).toBeGreaterThan(0);
      expect(d.n).toBeGreaterThan(0);
    }
  });

  it('link to their parents in file order, with a competing block at height 20 and the active tip on the other', () => {
    const hashes = blocks.map((b) => b.header.hash);
    for (let i = 1; i <= 20; i++) expect(blocks[i]!.header.prevHash).toBe(hashes[i - 1]);
    expect(hashes[20]).toBe(COMPETING_20);
    // Block 21 is the other height 20: same parent as the competing one; block 22 builds on it.
    expect(blocks[21]!.header.prevHash).toBe(hashes[19]);
    expect(blocks[22]!.header.prevHash).toBe(hashes[21]);
    expect(hashes[22]).toBe(ACTIVE_TIP);
    expect(blocks.map(heightOf)).toEqual([...Array.from({ length: 21 }, (_, h) => h), 20, 21]);
    expect(new Set(hashes).size).toBe(23);
  });

  it('carry the BIP34 height in each coinbase and time after the parent', () => {
    for (const b of blocks.slice(1)) {
      const script = b.txs[0]!.inputs[0]!.scriptSig;
      const n = script[0]!;
      const height =
        n >= 0x51 && n <= 0x60 ? n - 0x50 : Buffer.from(script.subarray(1, 1 + n)).readUIntLE(0, n);
      expect(height).toBe(heightOf(b));
      expect(b.header.time).toBeGreaterThan(byHash.get(b.header.prevHash)!.header.time);
    }
  });
});
