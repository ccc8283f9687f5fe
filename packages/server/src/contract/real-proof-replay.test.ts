import {
  ByteReader,
  certificateCommitment,
  type DecodedPearlBlock,
  decodeDensePublicData,
  decodePearlBlock,
  PEARL_HEADER_SIZE,
  PEARL_NETWORKS,
  pearlHeaderHash,
  readCertificate,
} from '@explorer/chain';
import { createReplayFixture, type ReplayFixture } from '@explorer/chain-fixture';
import { createExplorerClient, ExplorerApiError, type ExplorerClient } from '@explorer/client';
import { pearldRealProofBlocks } from '@explorer/test-vectors';
import { serveFetch, type TestServer, testDrivers } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The whole path on a real pearld's bytes: its 22 real-proof regtest blocks replayed by the devnet, indexed
// into the database, served by the API and read through the SDK. The replay first serves genesis to the
// competing block 20, then the other block 20 and block 21 on it: the reorganisation the node went through.
const { blocks: hexes } = pearldRealProofBlocks();
const COMPETING_20 = '1b73ccff83ea2941025b8ba57e798eef2132272e783e780b0160ac4b357875d9';
const ACTIVE_TIP = 'fee440a2719f70a1276e46e5138e50ad5a0f1805ddc3f3783ada2bb5be300716';

function decode(hex: string): DecodedPearlBlock {
  const bytes = Buffer.from(hex, 'hex');
  const r = new ByteReader(bytes);
  readCertificate(r);
  return decodePearlBlock(bytes, pearlHeaderHash(bytes.subarray(r.offset, r.offset + PEARL_HEADER_SIZE)));
}

const decoded = hexes.map(decode);
/** Each block's 108-byte header as the real node wrote it (after the certificate), by block hash. */
const headerHex = new Map(
  hexes.map((hex) => {
    const bytes = Buffer.from(hex, 'hex');
    const r = new ByteReader(bytes);
    readCertificate(r);
    const header = bytes.subarray(r.offset, r.offset + PEARL_HEADER_SIZE);
    return [pearlHeaderHash(header), header.toString('hex')] as const;
  }),
);
/** The chain the node ends on: genesis to block 19, the other block 20, block 21. */
const active = [...decoded.slice(0, 20), decoded[21]!, decoded[22]!];
/** The chain the node had before: genesis to the competing block 20. */
const before = decoded.slice(0, 21);

describe.each(testDrivers())('a real pearld’s real-proof blocks, replayed and indexed (%s)', (driver) => {
  let f: ReplayFixture;
  let server: TestServer;
  let client: ExplorerClient;

  beforeAll(async () => {
    f = await createReplayFixture(driver, { blocks: hexes, revealed: 21 });
    server = await serveFetch((req) => f.api.handle(req));
    client = createExplorerClient({ baseUrl: server.url, validate: true, retry: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await f?.close();
  });

  /** Every block of `chain` as the API serves it: heights, hashes, links, certificates verified. */
  async function expectChain(chain: DecodedPearlBlock[]): Promise<void> {
    const { status } = await client.status();
    expect(status.chain).toMatchObject({ profile: 'pearl', network: 'regtest' });
    for (const [height, d] of chain.entries()) {
      const { block } = await client.blocks.get(height);
      const c = d.certificate!;
      expect(block).toMatchObject({
        height,
        hash: d.header.hash,
        previousHash: height === 0 ? null : d.header.prevHash,
        nextHash: chain[height + 1]?.header.hash ?? null,
        time: d.header.time,
        merkleRoot: d.header.merkleRoot,
        bits: d.header.bits.toString(16),
        size: d.size,
        strippedSize: d.strippedSize,
        txCount: 1,
        certificate: {
          version: c.version,
          readable: true,
          verified: height > 0,
          status: height > 0 ? 'verified' : 'placeholder',
          isMoE: false,
          proofSize: c.proof.length,
          proofCommitment: d.header.proofCommitment,
        },
      });
      // A light client's view: the proof of its one transaction, and the header exactly as the node wrote it.
      const { status: txStatus } = await client.txs.status(d.txs[0]!.txid);
      expect(txStatus).toMatchObject({
        confirmed: true,
        blockHeight: height,
        blockHash: d.header.hash,
        blockIndex: 0,
        merkleProof: { blockHeight: height, pos: 0, merkle: [] },
      });
      expect(txStatus.header).toBe(headerHex.get(d.header.hash));
      if (height === 0) continue;
      const { certificate } = await client.blocks.certificate(d.header.hash, { includeProof: true });
      const config = decodeDensePublicData(c.publicData!);
      expect(certificate).toMatchObject({
        blockHash: d.header.hash,
        height,
        version: 2,
        readable: true,
        layout: 'v2',
        size: c.bytes.length,
        proofCommitment: d.header.proofCommitment,
        computedCommitment: certificateCommitment(c),
        commitmentValid: true,
        namedBlockHash: d.header.hash,
        blockHashMatches: true,
        status: 'verified',
        problems: [],
        publicData: Buffer.from(c.publicData!).toString('hex'),
        publicDataSize: 164,
        isMoE: false,
        config: {
          commonDim: config.config.commonDim,
          rank: config.config.rank,
          mmaType: config.config.mmaType,
          m: config.m,
          n: config.n,
          tRows: config.tRows,
          tCols: config.tCols,
          hashA: config.hashA,
          moe: null,
        },
        proofSize: c.proof.length,
        ancestorHeaderCount: 0,
        proofAvailable: true,
        raw: null,
      });
      expect(certificate.computedCommitment).toBe(d.header.proofCommitment);
      expect(certificate.proof).toBe(Buffer.from(c.proof).toString('hex'));
      const { tx } = await client.txs.get(d.txs[0]!.txid);
      expect(tx).toMatchObject({ txid: d.txs[0]!.txid, blockHash: d.header.hash, blockHeight: height });
    }
    const { pouw } = await client.analytics.pouw();
    expect(pouw).toMatchObject({
      blocks: chain.length,
      certifiedBlocks: chain.length,
      byVersion: { '1': 1, '2': chain.length - 1 },
      commitmentFailures: 0,
      placeholders: 0,
      unreadable: 0,
      proofSize: { min: 4, max: Math.max(...chain.map((d) => d.certificate!.proof.length)) },
    });
    expect(pouw.latest[0]).toMatchObject({
      height: chain.length - 1,
      blockHash: chain.at(-1)!.header.hash,
      verified: true,
      status: 'verified',
    });
  }

  it('serves the branch with the competing block 20 as the node first had it', async () => {
    expect(f.replay.tipHash()).toBe(COMPETING_20);
    expect(before.at(-1)!.header.hash).toBe(COMPETING_20);
    expect(decoded[0]!.header.hash).toBe(PEARL_NETWORKS.regtest.genesisHash);
    await expectChain(before);
  });

  it('follows the reorganisation to the active chain, and forgets the stale block 20', async () => {
    // The other block 20 carries no more work: the node keeps its tip, and so does the index.
    f.replay.step(1);
    await f.sync();
    expect((await client.blocks.get(20)).block.hash).toBe(COMPETING_20);
    f.replay.step(1);
    await f.sync();
    expect(f.replay.tipHash()).toBe(ACTIVE_TIP);
    await expectChain(active);
    const stale = await client.blocks.get(COMPETING_20).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(ExplorerApiError);
    expect((stale as ExplorerApiError).status).toBe(404);
    const { blocks } = await client.blocks.list({ limit: 3 });
    expect(blocks.map((b) => b.hash)).toEqual(
      active
        .slice(-3)
        .reverse()
        .map((d) => d.header.hash),
    );
  });
});
