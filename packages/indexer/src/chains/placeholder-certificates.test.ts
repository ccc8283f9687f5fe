import { decodePearlBlock, PEARL_NETWORKS, PLACEHOLDER_COMMITMENT } from '@explorer/chain';
import { silentLogger } from '@explorer/core';
import { createSqlStore } from '@explorer/db';
import { pearldSimnetSample } from '@explorer/test-vectors';
import { openTestDatabase, type TestDatabase, testDrivers } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyBlocks } from '../ingest/apply.js';
import type { ParsedBlock } from '../ingest/parse.js';
import type { NodeClient } from '../node-client.js';
import { createDefinitions } from '../pools.js';
import { parseCertificate, pearlProfile } from './pearl.js';

// simnet skips proof of work by design: a real pearld's simnet blocks carry placeholder certificates (version 2,
// all-zero named hash and header commitment, no public data, a 1-byte proof). They decode, they do not commit
// to their header, and they are not failures of the chain.
const GENESIS = PEARL_NETWORKS.simnet.genesisHash;
const genesisHex = String(pearldSimnetSample('getblock_genesis_v0.hex')).trim();
const h20Hex = String(pearldSimnetSample('getblock_h20_v0.hex')).trim();
const h20 = pearldSimnetSample('getblock_h20_v2.json');
const h131 = pearldSimnetSample('getblock_h131_5tx_v1.json');

describe("simnet's placeholder certificates (a real pearld's blocks)", () => {
  it('decode as version 2 with no public data and a 1-byte proof, and say they do not bind to the header', () => {
    for (const [hex, json] of [
      [h20Hex, h20],
      [String(pearldSimnetSample('getblock_h131_5tx_v0.hex')).trim(), h131],
    ]) {
      const block = decodePearlBlock(Buffer.from(hex, 'hex'), json.hash);
      expect(block.header.proofCommitment).toBe(PLACEHOLDER_COMMITMENT);
      expect(block.header.proofCommitment).toBe(json.proofcommitment);
      const c = parseCertificate(block)!;
      expect(c).toMatchObject({
        version: 2,
        readable: true,
        layout: 'v2',
        size: 45,
        blockHash: PLACEHOLDER_COMMITMENT,
        proofSize: 1,
        config: null,
      });
      expect(c.publicData).toHaveLength(0);
      expect(c.problems.length).toBeGreaterThan(0);
    }
  });
});

describe.each(testDrivers())('placeholder certificates through the database (%s)', (driver) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase(driver);
    const node: NodeClient = {
      displayUrl: 'simnet samples',
      call: async () => {
        throw new Error('not served');
      },
      batch: async <T>(calls: { params?: unknown[] }[]) =>
        calls.map((c) => (c.params?.[0] === GENESIS ? genesisHex : h20Hex)) as T[],
    };
    const profile = pearlProfile({
      network: PEARL_NETWORKS.simnet,
      genesisHash: GENESIS,
      knownGenesis: true,
      log: silentLogger,
    });
    const [genesis, block] = await profile.fetchBlocks(node, [0, 20], [GENESIS, h20.hash], null);
    // The sampled block 20 stands on genesis here: its certificate, not its history, is what is checked.
    const placed: ParsedBlock = { ...block!, height: 1, prevHash: GENESIS };
    await applyBlocks(db.sql, [genesis!, placed], createDefinitions([], []));
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("the block's certificate summary and certificate say `placeholder`, not verified", async () => {
    const store = createSqlStore(db.sql);
    const block = await store.getBlock({ height: 1 });
    expect(block?.certificate).toEqual({
      version: 2,
      readable: true,
      verified: false,
      status: 'placeholder',
      isMoE: false,
      proofSize: 1,
      proofCommitment: PLACEHOLDER_COMMITMENT,
    });
    const cert = await store.getCertificate({ height: 1 }, true);
    expect(cert).toMatchObject({
      status: 'placeholder',
      readable: true,
      version: 2,
      size: 45,
      publicDataSize: 0,
      namedBlockHash: PLACEHOLDER_COMMITMENT,
      commitmentValid: false,
      blockHashMatches: false,
      proofSize: 1,
      proof: '00',
    });
    // Pearl's genesis literal commits to nothing either.
    expect((await store.getBlock({ height: 0 }))?.certificate?.status).toBe('placeholder');
  });

  it('PoUW analytics count it as a placeholder, not as a commitment failure', async () => {
    const pouw = await createSqlStore(db.sql).pouw();
    expect(pouw).toMatchObject({ certifiedBlocks: 2, commitmentFailures: 0, placeholders: 1, unreadable: 0 });
    expect(pouw.latest[0]).toMatchObject({ height: 1, verified: false, status: 'placeholder' });
  });
});
