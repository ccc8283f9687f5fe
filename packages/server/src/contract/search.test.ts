import { encodeSegwitAddress } from '@explorer/chain';
import { type ChainFixture, createChainFixture, directChainNode } from '@explorer/chain-fixture';
import { type ChainNode, createExplorerApi, type ExplorerApi, v1Routes } from '@explorer/core';
import { createSqlStore } from '@explorer/db';
import { createNodeClient } from '@explorer/indexer';
import {
  apiGetter,
  contractReader,
  createResponseValidator,
  pgSkipReason,
  type ResponseValidator,
  testDrivers,
} from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const skip = pgSkipReason();
if (skip) console.log(`[search] ${skip}`);

const CONFIG = { finalityDepth: 20, publicBaseUrl: 'http://127.0.0.1:3000', tipCacheMs: 0 };

/** A ChainNode that counts its calls per method. */
function countingNode(inner: ChainNode): ChainNode & { calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  return {
    calls,
    lastHeight: () => inner.lastHeight(),
    probe: () => inner.probe(),
    call<T>(method: string, params?: unknown[]) {
      calls[method] = (calls[method] ?? 0) + 1;
      return inner.call<T>(method, params);
    },
  };
}

describe.each(testDrivers())('search, suggest, known addresses, mempool (%s)', (driver) => {
  let f: ChainFixture;
  let node: ReturnType<typeof countingNode>;
  let validator: ResponseValidator;
  const apis: ExplorerApi[] = [];
  let txid: string;
  let block: { height: number; hash: string };
  let address: string;

  /** An API over the fixture's database on any node (to count or cut its calls). */
  const makeApi = (n: ChainNode | null, clock?: () => number) => {
    const api = createExplorerApi({
      store: createSqlStore(f.db.sql),
      routes: v1Routes,
      node: n,
      config: CONFIG,
      ...(clock ? { clock } : {}),
    });
    apis.push(api);
    return api;
  };

  /** GETs through `api` and checks the body against the served document for `operationId`. */
  const get = (operationId: string, path: string, api = apis[0]!) =>
    contractReader(apiGetter(api), validator).answer(path, operationId);

  beforeAll(async () => {
    f = await createChainFixture(driver);
    node = countingNode(directChainNode(f.node, () => f.devnet.height()));
    const api = makeApi(node);
    validator = createResponseValidator(
      await (await api.handle(new Request('http://x/v1/openapi.json'))).json(),
    );
    const height = f.devnet.height() - 30;
    const b = await f.node.call<any>('getblock', [await f.node.call('getblockhash', [height]), 2]);
    block = { height, hash: b.hash };
    const tx = (b.rawtx ?? b.tx).find((t: any) => !t.vin[0].coinbase);
    txid = tx.txid;
    address = tx.vout.find((o: any) => o.scriptPubKey.address).scriptPubKey.address;
  });
  afterAll(async () => {
    await f?.close();
  });

  it('serves the four operations in the document', () => {
    for (const id of ['search', 'suggest', 'listKnownAddresses', 'getMempool'])
      expect(validator.operationIds()).toContain(id);
    expect(validator.pathOf('suggest')).toBe('/v1/search/suggest');
    expect(validator.pathOf('getMempool')).toBe('/v1/mempool');
  });

  describe('GET /v1/search', () => {
    const search = async (q: string) => {
      const r = await get('search', `/v1/search?q=${encodeURIComponent(q)}`);
      expect(r.status).toBe(200);
      return r.body as { query: string; matches: any[] };
    };

    it('finds a block by height and by hash (any case, trimmed)', async () => {
      const byHeight = await search(` ${block.height} `);
      expect(byHeight.query).toBe(String(block.height));
      expect(byHeight.matches).toEqual([
        {
          kind: 'block',
          id: block.hash,
          label: null,
          path: `/v1/blocks/${block.hash}`,
          height: block.height,
        },
      ]);
      const byHash = await search(block.hash.toUpperCase());
      expect(byHash.matches).toEqual(byHeight.matches);
      // The path answers.
      expect((await get('getBlock', byHash.matches[0].path)).status).toBe(200);
    });

    it('finds a transaction by txid', async () => {
      const { matches } = await search(txid);
      expect(matches).toEqual([
        { kind: 'transaction', id: txid, label: null, path: `/v1/txs/${txid}`, height: block.height },
      ]);
    });

    it('answers an empty list for a 64-hex string that is neither a block nor a transaction', async () => {
      expect((await search('0'.repeat(64))).matches).toEqual([]);
      expect((await search('ab'.repeat(32))).matches).toEqual([]);
      expect((await search('no such thing at all')).matches).toEqual([]);
    });

    it('finds an address, says whether it is seen, and ignores malformed look-alikes', async () => {
      const { matches } = await search(address);
      expect(matches[0]).toMatchObject({
        kind: 'address',
        id: address,
        path: `/v1/addresses/${address}`,
        seen: true,
      });
      // A valid address no transaction touches still resolves, to its (empty) address page.
      const fresh = encodeSegwitAddress('dvt', 0, Buffer.alloc(20, 7));
      expect((await search(fresh)).matches).toEqual([
        { kind: 'address', id: fresh, label: null, path: `/v1/addresses/${fresh}`, seen: false },
      ]);
      // Upper-case bech32 is the same address.
      expect((await search(fresh.toUpperCase())).matches[0]).toMatchObject({ id: fresh, seen: false });
      // Well-formed but with a wrong checksum, and never seen: nothing.
      expect((await search('dvt1qneverseenaddress000000000000000')).matches).toEqual([]);
    });

    it('finds miners: pool payout addresses that mined blocks, with their block counts', async () => {
      const truth = f.devnet.truth();
      const payouts = f.devnet.definitions().pools.flatMap((p) => p.addresses);
      let miners = 0;
      for (const a of payouts) {
        const { matches } = await search(a);
        const miner = matches.find((m) => m.kind === 'miner');
        const mined = truth.blocksByMiner[a] ?? 0;
        if (mined === 0) {
          expect(miner).toBeUndefined();
          continue;
        }
        miners++;
        expect(matches.map((m) => m.kind)).toEqual(['address', 'miner']);
        expect(miner).toEqual({
          kind: 'miner',
          id: a,
          label: expect.stringMatching(/ payout$/),
          path: `/v1/miners/${a}`,
          blocks: mined,
        });
      }
      expect(miners).toBeGreaterThan(0);
    });

    it('finds a pool by id and by name, case-insensitively, and the unknown pool', async () => {
      const truth = f.devnet.truth();
      const expected = {
        kind: 'pool',
        id: 'foundryusa',
        label: 'Foundry USA',
        path: '/v1/pools/foundryusa',
        blocks: truth.blocksByPool.foundryusa,
      };
      expect(truth.blocksByPool.foundryusa).toBeGreaterThan(0);
      expect((await search('foundryusa')).matches).toEqual([expected]);
      expect((await search('FoundryUSA')).matches).toEqual([expected]);
      expect((await search('foundry usa')).matches).toEqual([expected]);
      expect((await search('Foundry')).matches).toEqual([]);
      expect(truth.blocksByPool.unknown).toBeGreaterThan(0);
      expect((await search('unknown')).matches).toEqual([
        {
          kind: 'pool',
          id: 'unknown',
          label: 'Unknown',
          path: '/v1/pools/unknown',
          blocks: truth.blocksByPool.unknown,
        },
      ]);
    });

    it('finds addresses by their known label, case-insensitively', async () => {
      const labels = f.devnet.definitions().labels;
      const faucet = labels.find((l) => l.kind === 'faucet')!;
      expect((await search('DEVNET faucet')).matches).toEqual([
        { kind: 'label', id: faucet.address, label: faucet.label, path: `/v1/addresses/${faucet.address}` },
      ]);
      const foundry = labels.filter((l) => l.label === 'Foundry USA payout').map((l) => l.address);
      const { matches } = await search('foundry usa payout');
      expect(matches.map((m) => m.id)).toEqual([...foundry].sort());
      expect(matches.every((m) => m.kind === 'label')).toBe(true);
    });

    it('refuses a missing, empty, too long or control-character q with 400', async () => {
      const cases: [string, RegExp][] = [
        ['/v1/search', /q is required/],
        ['/v1/search?q=', /q must not be empty/],
        ['/v1/search?q=%20%20%09', /q must not be empty/],
        [`/v1/search?q=${'a'.repeat(131)}`, /at most 130/],
        ['/v1/search?q=ab%00cd', /control characters/],
        ['/v1/search?q=ab%07cd', /control characters/],
        ['/v1/search?q=ab%C2%85cd', /control characters/],
        ['/v1/search?q=abc&q=def', /more than once/],
        ['/v1/search?q=abc&limit=2', /unknown query parameter/],
      ];
      for (const [path, message] of cases) {
        const r = await get('search', path);
        expect(r.status, path).toBe(400);
        expect(r.body.error, path).toMatch(message);
      }
      expect((await get('search', `/v1/search?q=${'a'.repeat(130)}`)).status).toBe(200);
      // Surrounding whitespace, a pasted newline included, is trimmed rather than refused.
      expect((await search(`\n${txid}\n`)).matches[0]?.id).toBe(txid);
    });
  });

  describe('GET /v1/search/suggest', () => {
    const suggest = async (q: string, limit?: number) => {
      const r = await get(
        'suggest',
        `/v1/search/suggest?q=${encodeURIComponent(q)}${limit ? `&limit=${limit}` : ''}`,
      );
      expect(r.status).toBe(200);
      return r.body as { query: string; minLength: number; suggestions: any[] };
    };

    it('completes a txid from its first 6 characters, every suggestion starting with the prefix', async () => {
      for (const prefix of [txid.slice(0, 6), txid.slice(0, 3), txid.slice(0, 6).toUpperCase()]) {
        const body = await suggest(prefix);
        expect(body.minLength).toBe(3);
        expect(body.suggestions.length).toBeLessThanOrEqual(10);
        for (const s of body.suggestions) {
          expect(['block', 'transaction']).toContain(s.kind);
          expect(s.id.startsWith(prefix.toLowerCase()) || String(s.height).startsWith(prefix)).toBe(true);
        }
        if (prefix.length === 6) expect(body.suggestions.map((s) => s.id)).toContain(txid);
      }
      const found = (await suggest(txid.slice(0, 10))).suggestions.find((s) => s.id === txid);
      expect(found).toEqual({
        kind: 'transaction',
        id: txid,
        label: null,
        path: `/v1/txs/${txid}`,
        height: block.height,
      });
    });

    it('respects limit and completes block hashes and addresses', async () => {
      for (const limit of [1, 3, 10]) {
        const { suggestions } = await suggest('0a', limit);
        expect(suggestions.length).toBeLessThanOrEqual(limit);
      }
      // Some hex prefix has more than 3 matches among ~900 txids and 121 blocks.
      expect((await suggest('1', 3)).suggestions.map((s) => s.height)).toEqual([1, 10, 11]);
      expect((await suggest('abc', 3)).suggestions.length).toBeLessThanOrEqual(3);
      const { suggestions: b } = await suggest(block.hash.slice(0, 8));
      expect(b).toContainEqual({
        kind: 'block',
        id: block.hash,
        label: null,
        path: `/v1/blocks/${block.hash}`,
        height: block.height,
      });
      const { suggestions: a } = await suggest(address.slice(0, 9));
      expect(a.length).toBeGreaterThan(0);
      for (const s of a) expect(s.id.startsWith(address.slice(0, 9))).toBe(true);
      expect(a.map((s) => s.id)).toContain(address);
    });

    it('completes heights from their digits, lowest first', async () => {
      const tip = f.devnet.height();
      expect(tip).toBe(120);
      expect((await suggest('1')).suggestions.map((s) => s.height)).toEqual([
        1, 10, 11, 12, 13, 14, 15, 16, 17, 18,
      ]);
      expect((await suggest('12', 3)).suggestions.map((s) => s.height)).toEqual([12, 120]);
    });

    it('completes pool ids and names and escapes LIKE wildcards', async () => {
      expect((await suggest('foun')).suggestions).toContainEqual({
        kind: 'pool',
        id: 'foundryusa',
        label: 'Foundry USA',
        path: '/v1/pools/foundryusa',
      });
      expect((await suggest('BINANCE P')).suggestions.map((s) => s.id)).toEqual(['binancepool']);
      expect((await suggest('unk')).suggestions.map((s) => s.id)).toContain('unknown');
      expect((await suggest('%%%')).suggestions).toEqual([]);
      expect((await suggest('f_p')).suggestions).toEqual([]);
      expect((await suggest('___')).suggestions).toEqual([]);
    });

    it('answers prefixes shorter than 3 characters with an empty list and minLength', async () => {
      for (const q of ['ab', 'Fo', 'x']) {
        expect(await suggest(q)).toEqual({
          ok: true,
          query: q,
          minLength: 3,
          suggestions: [],
          meta: expect.any(Object),
        });
      }
    });

    it('refuses a bad q or limit with 400', async () => {
      for (const path of [
        '/v1/search/suggest',
        '/v1/search/suggest?q=%20',
        '/v1/search/suggest?q=abc&limit=0',
        '/v1/search/suggest?q=abc&limit=11',
        '/v1/search/suggest?q=abc&limit=x',
        '/v1/search/suggest?q=abc&cursor=x',
        `/v1/search/suggest?q=${'1'.repeat(131)}`,
      ]) {
        expect((await get('suggest', path)).status, path).toBe(400);
      }
    });
  });

  it('lists every known label and pool as the definitions give them, sorted', async () => {
    const { status, body } = await get('listKnownAddresses', '/v1/known-addresses');
    expect(status).toBe(200);
    const defs = f.devnet.definitions();
    // Every definition, as given; the order (label or name case-insensitively, then exactly, then id) is
    // unit-tested beside its comparators in core.
    const byAddress = (a: { address: string }, b: { address: string }) => (a.address < b.address ? -1 : 1);
    expect([...body.labels].sort(byAddress)).toEqual(
      defs.labels
        .map((l) => ({ address: l.address, label: l.label, kind: l.kind, poolId: null, poolName: null }))
        .sort(byAddress),
    );
    const lowered = (xs: string[]) => xs.map((x) => x.toLowerCase());
    expect(lowered(body.labels.map((l: any) => l.label))).toEqual(
      lowered(defs.labels.map((l) => l.label)).sort(),
    );
    expect(body.pools).toEqual(
      defs.pools
        .map((p) => ({ id: p.slug, name: p.name, link: p.link, addresses: p.addresses, tags: p.tags }))
        .sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1)),
    );
    expect((await get('listKnownAddresses', '/v1/known-addresses?limit=5')).status).toBe(400);
  });

  describe('GET /v1/mempool', () => {
    it('matches the node’s own getrawmempool true; buckets add up', async () => {
      const api = makeApi(directChainNode(f.node, () => f.devnet.height()));
      const { status, body } = await get('getMempool', '/v1/mempool', api);
      expect(status).toBe(200);
      const raw = await f.node.call<Record<string, any>>('getrawmempool', [true]);
      const info = await f.node.call<any>('getmempoolinfo', []);
      const entries = Object.entries(raw);
      expect(entries.length).toBeGreaterThan(5);
      // pearld's entries carry `fee` (PRL) and its getmempoolinfo no usage or minimum fee; Core's `fees.base`.
      const fee = (e: any) => Math.round((e.fees?.base ?? e.fee) * 1e8);
      const m = body.mempool;
      expect(m.count).toBe(entries.length);
      expect(m.totalFee).toBe(String(entries.reduce((s, [, e]) => s + fee(e), 0)));
      expect(m.bytes).toBe(entries.reduce((s, [, e]) => s + e.vsize, 0));
      expect(m.usage).toBe(info.usage);
      expect(m.minFeeRate).toBe(info.mempoolminfee === undefined ? 0 : 1);
      expect(m.feeRateBuckets).toHaveLength(13);
      expect(m.feeRateBuckets.reduce((s: number, b: any) => s + b.count, 0)).toBe(m.count);
      expect(m.feeRateBuckets.reduce((s: number, b: any) => s + b.vsize, 0)).toBe(m.bytes);
      for (const [txid, e] of entries) {
        const rate = fee(e) / e.vsize;
        const bucket = m.feeRateBuckets.find(
          (b: any) => rate >= b.minFeeRate && (b.maxFeeRate === null || rate < b.maxFeeRate),
        );
        expect(bucket, txid).toBeDefined();
      }
      const top = entries
        .map(([txid, e]) => ({ txid, rate: fee(e) / e.vsize }))
        .sort((a, b) => b.rate - a.rate || (a.txid < b.txid ? -1 : 1))
        .slice(0, 10)
        .map((t) => t.txid);
      expect(m.sampleTxids).toEqual(top);
      expect(Date.parse(m.updatedAt)).not.toBeNaN();
    });

    it('makes one node call for a burst of requests and reuses it for 2 s', async () => {
      const counted = countingNode(directChainNode(f.node, () => f.devnet.height()));
      // A fixed clock: the reuse window is judged by the API's clock, so a slow machine cannot
      // let 2 s pass between the burst and the repeat.
      const now = Date.now();
      const api = makeApi(counted, () => now);
      const burst = await Promise.all(Array.from({ length: 8 }, () => get('getMempool', '/v1/mempool', api)));
      expect(burst.every((r) => r.status === 200)).toBe(true);
      expect(counted.calls).toEqual({ getrawmempool: 1, getmempoolinfo: 1 });
      const again = await get('getMempool', '/v1/mempool', api);
      expect(again.body.meta.cached).toBe(true);
      expect(again.body.mempool).toEqual(burst[0]!.body.mempool);
      expect(counted.calls.getrawmempool).toBe(1);
    });

    it('answers 503 when the node is down or absent, while the rest of the API answers', async () => {
      // Port 2 on loopback: nothing listens there, and unlike a just-freed ephemeral port nothing else can take
      // it (port 1 would do too, but fetch refuses it as a blocked port before connecting).
      const dead = createNodeClient({ url: 'http://127.0.0.1:2/', attempts: 1, timeoutMs: 1_000 });
      for (const api of [makeApi(directChainNode(dead, () => null)), makeApi(null)]) {
        const r = await get('getMempool', '/v1/mempool', api);
        expect(r.status).toBe(503);
        expect(r.body).toMatchObject({
          ok: false,
          error: 'the chain node is unreachable; mempool data is unavailable',
        });
        expect((await get('listBlocks', '/v1/blocks?limit=2', api)).status).toBe(200);
        expect((await get('search', `/v1/search?q=${block.height}`, api)).status).toBe(200);
      }
    });
  });
});
