import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ByteWriter,
  CORE_NETWORKS,
  decodePearlBlock,
  fromDisplayHex,
  PEARL_NETWORKS,
  pearlSubsidy,
} from '@explorer/chain';
import { type Logger, silentLogger } from '@explorer/core';
import { checkInvariants, readIndexerState } from '@explorer/db';
import { createDevnet, type Devnet } from '@explorer/devnet';
import { pearlVectors } from '@explorer/test-vectors';
import { openTestDatabase } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIndexer } from '../indexer.js';
import { createNodeClient, type NodeClient, NodeUnavailableError } from '../node-client.js';
import { devnetDefinitions } from '../test-support/fixtures.js';
import { selfSignedCertificate } from '../test-support/tls.js';
import { bitcoinProfile } from './bitcoin.js';
import { defaultRpcPort, detectChain } from './detect.js';
import { pearlProfile } from './pearl.js';
import { ChainProfileError } from './profile.js';

const VECTORS = pearlVectors;

/** A node that answers only getblockhash 0, getblock <genesis> 0 and getblockchaininfo, from given bytes. */
function genesisNode(hash: string, hex: string, chain?: string): NodeClient {
  const answer = (method: string): unknown => {
    if (method === 'getblockhash') return hash;
    if (method === 'getblock') return hex;
    if (method === 'getblockchaininfo' && chain) return { chain };
    throw new Error(`${method}: not served`);
  };
  return {
    displayUrl: 'stub',
    call: async <T>(method: string) => answer(method) as T,
    batch: async <T>(calls: { method: string }[]) => calls.map((c) => answer(c.method)) as T[],
  };
}

describe('chain detection', () => {
  it('tells Pearl from Bitcoin by the genesis block, and names the Pearl network', async () => {
    const g = VECTORS['4_genesis'].networks;
    const mainnet = await detectChain(
      genesisNode(g.mainnet.expected_genesis_hash_display, g.mainnet.block_hex),
    );
    expect(mainnet.info).toMatchObject({
      profile: 'pearl',
      network: 'mainnet',
      name: 'Pearl mainnet',
      addresses: { bech32Hrp: 'prl', mwebHrp: null, base58: null },
      knownGenesis: true,
      units: { symbol: 'PRL', baseUnit: 'grain', decimals: 8 },
      certificateForks: PEARL_NETWORKS.mainnet.forks,
      maxSupply: '210000000000000000',
    });
    expect(mainnet.checkpoint(10_000)).toBe(PEARL_NETWORKS.mainnet.checkpoints[0]!.hash);
    // regtest and simnet share a genesis block: the node's chain name tells them apart.
    const r = g.regtest;
    expect(
      (await detectChain(genesisNode(r.expected_genesis_hash_display, r.block_hex, 'simnet'))).info.network,
    ).toBe('simnet');
    expect((await detectChain(genesisNode(r.expected_genesis_hash_display, r.block_hex))).info.network).toBe(
      'regtest',
    );
    const t = g.testnet;
    await expect(
      detectChain(genesisNode(t.expected_genesis_hash_display, t.block_hex), { network: 'mainnet' }),
    ).rejects.toThrow(/CHAIN_NETWORK=mainnet, but the node's genesis block is testnet's/);
    await expect(
      detectChain(genesisNode(t.expected_genesis_hash_display, t.block_hex), { chain: 'bitcoin' }),
    ).rejects.toThrow(/CHAIN=bitcoin, but the node's genesis block .* is a pearl block/);
    await expect(detectChain(genesisNode('ab'.repeat(32), '00'.repeat(300)))).rejects.toThrow(
      /cannot tell the node's chain .* set CHAIN=pearl or CHAIN=bitcoin/,
    );
  });

  it('names each known network of the bitcoin profile from its genesis hash: unit, prefixes, interval', () => {
    for (const n of CORE_NETWORKS) {
      // The node's chain name is not what decides: the genesis block is.
      expect(bitcoinProfile(n.genesisHash, null).info, n.name).toMatchObject({
        profile: 'bitcoin',
        network: n.chain,
        name: n.name,
        knownGenesis: true,
        units: { symbol: n.units.symbol, baseUnit: n.units.baseUnit, decimals: 8 },
        addresses: { bech32Hrp: n.bech32Hrp, mwebHrp: n.mwebHrp, base58: n.base58 },
        blockSeconds: n.blockSeconds,
      });
    }
    const ltc = CORE_NETWORKS.find((n) => n.name === 'Litecoin regtest')!;
    expect(bitcoinProfile(ltc.genesisHash, 'regtest').info).toMatchObject({
      units: { symbol: 'tLTC', baseUnit: 'litoshi' },
      addresses: { bech32Hrp: 'rltc', mwebHrp: 'tmweb', base58: { pubkeyHash: 111, scriptHash: 58 } },
    });
    // A fork of a genesis of its own keeps the node's chain name and claims nothing else.
    expect(bitcoinProfile('ab'.repeat(32), 'regtest').info).toMatchObject({
      network: 'regtest',
      name: null,
      knownGenesis: false,
      units: { symbol: null, baseUnit: 'satoshi' },
      addresses: null,
      blockSeconds: 600,
    });
  });

  it('detects Litecoin regtest from its genesis header, and refuses a CHAIN_NETWORK it is not', async () => {
    // Litecoin Core's regtest genesis header (chainparams: time 1296688602, nonce 0, bits 0x207fffff).
    const header = new ByteWriter(80)
      .u32(1)
      .raw(new Uint8Array(32))
      .raw(fromDisplayHex('97ddfbbae6be97fd6cdf3e7ca13232a3afff2353e29badfab7f73011edd4ced9'))
      .u32(1296688602)
      .u32(0x207fffff)
      .u32(0)
      .finish();
    const hash = '530827f38f93b43ed12af0b3ad25a288dc02ed74d6d7857862df51fc56c416f9';
    const p = await detectChain(genesisNode(hash, header.toString('hex'), 'regtest'));
    expect(p.info).toMatchObject({ profile: 'bitcoin', network: 'regtest', name: 'Litecoin regtest' });
    expect(
      (await detectChain(genesisNode(hash, header.toString('hex')), { network: 'regtest' })).info.name,
    ).toBe('Litecoin regtest');
    await expect(
      detectChain(genesisNode(hash, header.toString('hex')), { network: 'mainnet' }),
    ).rejects.toThrow(
      /CHAIN_NETWORK=mainnet, but the node's genesis block is Litecoin regtest's \(chain regtest\)/,
    );
  });

  it('the devnet: pearld’s dialect on a genesis of its own (fork heights unknown); Core’s on option', async () => {
    for (const dialect of ['pearl', 'bitcoin'] as const) {
      const d = createDevnet({ dialect, blocks: 3 });
      const node = {
        displayUrl: 'devnet',
        call: d.rpc,
        batch: async (c: { method: string; params?: unknown[] }[]) =>
          Promise.all(c.map((x) => d.rpc(x.method, x.params))),
      } as NodeClient;
      const p = await detectChain(node);
      expect(p.info.profile).toBe(dialect);
      expect(p.info.genesisHash).toBe(await d.rpc('getblockhash', [0]));
      if (dialect === 'pearl')
        expect(p.info).toMatchObject({ network: 'regtest', knownGenesis: false, certificateForks: null });
    }
  });

  it('knows each chain’s block interval and size: Pearl 194 s, Bitcoin 600 s, Litecoin 150 s, 1,000,000 vB', () => {
    const pearl = {
      network: PEARL_NETWORKS.mainnet,
      genesisHash: 'x',
      knownGenesis: true,
      log: silentLogger,
    };
    expect(pearlProfile(pearl).info).toMatchObject({ blockSeconds: 194, maxBlockVsize: 1_000_000 });
    const litecoin = '12a765e31ffd4059bada1e25190f6e98c99d9714d334efa41a195a7e7e04bfe2';
    expect(bitcoinProfile(litecoin, 'main').info).toMatchObject({
      blockSeconds: 150,
      maxBlockVsize: 1_000_000,
    });
    expect(bitcoinProfile('0'.repeat(64), 'main').info).toMatchObject({
      blockSeconds: 600,
      maxBlockVsize: 1_000_000,
    });
  });

  it('fetches mempool transactions as each profile decodes them; one the node no longer has is null', async () => {
    for (const dialect of ['pearl', 'bitcoin'] as const) {
      const d = createDevnet({ dialect, blocks: 20, coinbaseMaturity: 5, mempoolSize: 0, seed: 'fetch-txs' });
      const server = await d.listen({ port: 0 });
      try {
        const node = createNodeClient({ url: server.url, attempts: 1 });
        const p = await detectChain(node);
        const [a, b] = d.addTxs(2, { feeRate: 2 });
        const got = await p.fetchTxs(node, [a!.txid, '0'.repeat(64), b!.txid]);
        expect(got.map((t) => t?.txid ?? null)).toEqual([a!.txid, null, b!.txid]);
        expect(got[0]).toMatchObject({ vsize: a!.vsize, isCoinbase: false });
        // What the node itself renders of the transaction.
        const shown = await node.call<any>('getrawtransaction', [a!.txid, true]);
        expect(got[0]!.outputs.map((o) => [o.address, o.value])).toEqual(
          shown.vout.map((o: any) => [o.scriptPubKey.address ?? null, BigInt(Math.round(o.value * 1e8))]),
        );
        expect(got[0]!.inputs.map((i) => [i.prevTxid, i.prevVout])).toEqual(
          shown.vin.map((v: any) => [v.txid, v.vout]),
        );
      } finally {
        await server.close();
      }
    }
  });

  it('knows each network’s default JSON-RPC port', () => {
    expect(defaultRpcPort('pearl')).toBe(44107);
    expect(defaultRpcPort('pearl', 'testnet2')).toBe(44111);
    expect(defaultRpcPort('pearl', 'regtest')).toBe(18334);
    expect(defaultRpcPort('bitcoin', 'regtest')).toBe(18443);
    expect(defaultRpcPort('bitcoin')).toBe(8332);
    expect(defaultRpcPort('bitcoin', 'testnet')).toBe(18332);
    expect(defaultRpcPort('bitcoin', 'testnet4')).toBe(48332);
    expect(defaultRpcPort('pearl', 'nowhere')).toBeUndefined();
  });
});

describe('indexing pearld’s dialect (pglite)', () => {
  let devnet: Devnet;
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    devnet = createDevnet({ seed: 'chains', blocks: 40, coinbaseMaturity: 5, proofSize: [100, 400] });
    const s = await devnet.listen();
    url = s.url;
    close = s.close;
  });
  afterAll(() => close?.());

  it('keeps a certificate it cannot read as its bytes, flagged and logged, and indexes the block', async () => {
    const target = (await devnet.rpc('getblockhash', [20])) as string;
    const base = createNodeClient({ url });
    // The node serves block 20 with a certificate of a version no pearld knows in place of its own.
    const rewrite = (hash: string, hex: unknown) => {
      if (hash !== target || typeof hex !== 'string') return hex;
      const certificateLength = decodePearlBlock(Buffer.from(hex, 'hex'), hash).certificateBytes.length;
      return `07000000${'ee'.repeat(50)}${hex.slice(certificateLength * 2)}`;
    };
    const node: NodeClient = {
      displayUrl: base.displayUrl,
      call: async <T>(method: string, params?: unknown[]) =>
        rewrite(String(params?.[0]), await base.call(method, params)) as T,
      batch: async <T>(calls: { method: string; params?: unknown[] }[]) =>
        (await base.batch(calls)).map((r, i) =>
          calls[i]!.method === 'getblock' && calls[i]!.params?.[1] === 0
            ? rewrite(String(calls[i]!.params![0]), r)
            : r,
        ) as T[],
    };
    const warnings: string[] = [];
    const log: Logger = { debug() {}, info() {}, warn: (_f, m) => warnings.push(m), error() {} };
    const db = await openTestDatabase('pglite');
    const indexer = createIndexer({ sql: db.sql, node, definitions: devnetDefinitions(devnet), log });
    try {
      await indexer.syncOnce();
      expect(await checkInvariants(db.sql)).toEqual([]);
      const [c] = await db.sql.query<any>(
        "SELECT version, readable, error, encode(raw, 'hex') AS raw, proof_size FROM block_certificates WHERE height = 20",
      );
      expect(c).toMatchObject({ version: 7, readable: false, proof_size: 0 });
      expect(c.error).toMatch(/unsupported certificate version: 7/);
      expect(c.raw).toBe(`07000000${'ee'.repeat(50)}`);
      expect(warnings).toContain('certificate could not be decoded; its bytes are kept as they are');
      const [b] = await db.sql.query<any>(
        'SELECT hash, emission::text AS emission FROM blocks WHERE height = 20',
      );
      expect(b).toEqual({ hash: target, emission: String(pearlSubsidy(20)) });
    } finally {
      await indexer.stop();
      await db.drop();
    }
  });

  it('refuses a block whose bytes are not the block the node named, and writes nothing of it', async () => {
    const base = createNodeClient({ url });
    const [h20, h21] = [
      (await devnet.rpc('getblockhash', [20])) as string,
      (await devnet.rpc('getblockhash', [21])) as string,
    ];
    // The node answers block 20's hash with block 21's bytes.
    const node: NodeClient = {
      displayUrl: base.displayUrl,
      call: base.call,
      batch: async <T>(calls: { method: string; params?: unknown[] }[]) =>
        base.batch(
          calls.map((c) =>
            c.method === 'getblock' && c.params?.[0] === h20 ? { ...c, params: [h21, 0] } : c,
          ),
        ) as Promise<T[]>,
    };
    const db = await openTestDatabase('pglite');
    const indexer = createIndexer({
      sql: db.sql,
      node,
      definitions: devnetDefinitions(devnet),
      rpcBatchBlocks: 5,
    });
    try {
      await expect(indexer.syncOnce()).rejects.toThrow(
        new RegExp(`block 20 \\(${h20}\\): no 108-byte header hashing to ${h20}`),
      );
      expect((await readIndexerState(db.sql)).tip_height).toBeLessThan(20);
      expect(await checkInvariants(db.sql)).toEqual([]);
    } finally {
      await indexer.stop();
      await db.drop();
    }
  });

  it('refuses a node of another chain than the database holds, and says so', async () => {
    const other = createDevnet({ seed: 'another', blocks: 5 });
    const s = await other.listen();
    const db = await openTestDatabase('pglite');
    try {
      const first = createIndexer({
        sql: db.sql,
        node: createNodeClient({ url }),
        definitions: devnetDefinitions(devnet),
      });
      await first.syncOnce();
      await first.stop();
      expect((await readIndexerState(db.sql)).chain).toMatchObject({ profile: 'pearl', network: 'regtest' });
      const second = createIndexer({
        sql: db.sql,
        node: createNodeClient({ url: s.url }),
        definitions: devnetDefinitions(other),
      });
      const err = await second.syncOnce().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ChainProfileError);
      expect((err as Error).message).toMatch(
        /this database holds the chain whose genesis block is .* but the node serves/,
      );
      await second.stop();
    } finally {
      await s.close();
      await db.drop();
    }
  });

  it('reads a node over TLS with its own certificate (pearld’s default), and refuses one it cannot trust', async (ctx) => {
    const dir = mkdtempSync(join(tmpdir(), 'pearld-tls-'));
    try {
      let made: { key: Buffer; cert: Buffer };
      try {
        made = selfSignedCertificate(dir, 'localhost', 'DNS:localhost,IP:127.0.0.1');
      } catch {
        console.log('[chains] openssl is not available: the TLS case is skipped');
        return ctx.skip();
      }
      const { cert } = made;
      const s = await devnet.listen({
        tls: { key: made.key, cert },
        user: 'u',
        password: 'p',
      });
      const tlsUrl = s.url.replace('https://', 'https://u:p@');
      const db = await openTestDatabase('pglite');
      try {
        const indexer = createIndexer({
          sql: db.sql,
          node: createNodeClient({ url: tlsUrl, tlsCa: cert }),
          definitions: devnetDefinitions(devnet),
        });
        await indexer.syncOnce();
        await indexer.stop();
        expect((await readIndexerState(db.sql)).tip_height).toBe(devnet.height());
        const untrusted = createNodeClient({ url: tlsUrl, attempts: 1 });
        await expect(untrusted.call('getblockcount')).rejects.toBeInstanceOf(NodeUnavailableError);
      } finally {
        await s.close();
        await db.drop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
