import { describe, expect, it } from 'vitest';
import { createExplorerApi } from '../api/index.js';
import { v1Routes } from '../routes/index.js';
import type { Store } from '../store.js';
import { INVALID_CURSOR } from './cursor.js';

const HASH = 'ab'.repeat(32);
const HEIGHT = 812_345;
const TIP = 812_400;
const ADDRESS = 'dvt1qdguxwg8pspqfzfrweecd45ja8jys09n9dpxccg';

/**
 * Every list, with the row its store method returns, the cursor a page ending on that row carried in 1.0.0
 * (written down then: a cursor a client kept must stay valid) and the position the store gets back from it.
 */
const lists = [
  {
    path: '/v1/blocks',
    method: 'listBlocks',
    row: { height: HEIGHT, hash: HASH },
    cursor: 'dGl0bGprLls4MTIzNDUsImFiYWJhYmFiYWJhYmFiYWIiXQ',
    after: [HEIGHT],
  },
  {
    path: `/v1/blocks/${HEIGHT}/outputs`,
    method: 'listBlockOutputs',
    row: { blockIndex: 2, vout: 1 },
    cursor: 'MTl3d2J5ZS5bMiwxXQ',
    after: [2, 1],
  },
  {
    path: `/v1/blocks/${HEIGHT}/txs`,
    method: 'listBlockTxs',
    row: { blockIndex: 4, blockHeight: HEIGHT },
    cursor: 'aG03eDhnLls0XQ',
    after: [4],
  },
  {
    path: '/v1/txs',
    method: 'listTxs',
    row: { blockHeight: HEIGHT, blockIndex: 3, blockHash: HASH },
    cursor: 'MXlrbnk2NC5bODEyMzQ1LDMsImFiYWJhYmFiYWJhYmFiYWIiXQ',
    after: [HEIGHT, 3],
  },
  {
    path: `/v1/txs/${HASH}/inputs`,
    method: 'listTxInputs',
    row: { vin: 0 },
    cursor: 'MXIwZTk0bC5bMF0',
    after: [0],
  },
  {
    path: `/v1/txs/${HASH}/outputs`,
    method: 'listTxOutputs',
    row: { vout: 1 },
    cursor: 'ajR6emtwLlsxXQ',
    after: [1],
  },
  {
    path: `/v1/addresses/${ADDRESS}/txs`,
    method: 'listAddressTxs',
    row: { blockHeight: HEIGHT, blockIndex: 3, blockHash: HASH },
    cursor: 'MWsxdDlxcS5bODEyMzQ1LDMsImFiYWJhYmFiYWJhYmFiYWIiXQ',
    after: [HEIGHT, 3],
  },
  {
    path: `/v1/addresses/${ADDRESS}/utxos`,
    method: 'listAddressUtxos',
    row: { blockHeight: HEIGHT, blockIndex: 3, vout: 1, blockHash: HASH },
    cursor: 'cGdnNDM1Lls4MTIzNDUsMywxLCJhYmFiYWJhYmFiYWJhYmFiIl0',
    after: [HEIGHT, 3, 1],
  },
  {
    path: `/v1/addresses/${ADDRESS}/flows`,
    method: 'listAddressFlows',
    row: { blockHeight: HEIGHT, blockIndex: 3, blockHash: HASH },
    cursor: 'dXhlZ2I2Lls4MTIzNDUsMywiYWJhYmFiYWJhYmFiYWJhYiJd',
    after: [HEIGHT, 3],
  },
  {
    path: '/v1/miners/top',
    method: 'listTopMiners',
    row: { blocks: 12, address: ADDRESS },
    cursor: 'MTM0aDM5ci5bMTIsImR2dDFxZGd1eHdnOHBzcHFmemZyd2VlY2Q0NWphOGp5czA5bjlkcHhjY2ciXQ',
    after: [12, ADDRESS],
  },
  {
    path: `/v1/miners/${ADDRESS}`,
    method: 'listMinerBlocks',
    row: { height: HEIGHT, hash: HASH },
    cursor: 'OXEzNmExLls4MTIzNDUsImFiYWJhYmFiYWJhYmFiYWIiXQ',
    after: [HEIGHT],
  },
  {
    path: '/v1/pools/foundryusa/payout-outputs',
    method: 'listPoolPayoutOutputs',
    row: { blockHeight: HEIGHT, vout: 1, blockHash: HASH },
    cursor: 'MWRrMGg0ZC5bODEyMzQ1LDEsImFiYWJhYmFiYWJhYmFiYWIiXQ',
    after: [HEIGHT, 1],
  },
] as const;

/** A store holding one block and one transaction at HEIGHT, whose list methods answer `rows` and record their page. */
function listStore(rows: readonly object[], blockHash = HASH) {
  const pages: { method: string; args: unknown[] }[] = [];
  /** Reads of a list's parent on its own. */
  const parents: string[] = [];
  const methods: Record<string, (...args: any[]) => Promise<unknown>> = {
    tip: async () => ({ height: TIP, hash: 'cd'.repeat(32), txHeight: TIP, time: 1 }),
    blockHashAt: async (h: number) => (h === HEIGHT ? blockHash : null),
    getBlock: async () => parents.push('getBlock') && { height: HEIGHT, hash: HASH },
    getTx: async () => parents.push('getTx') && { txid: HASH, blockHeight: HEIGHT },
    getMiner: async () => ({ address: ADDRESS, blocks: 1 }),
  };
  // The lists of a block or a transaction give their parent with the page (see ListDefinition.first).
  const owners: Record<string, object> = {
    listBlockOutputs: { block: { height: HEIGHT, hash: HASH }, outputs: rows },
    listBlockTxs: { block: { height: HEIGHT, hash: HASH }, txs: rows },
    listTxInputs: { tx: { txid: HASH, blockHeight: HEIGHT }, inputs: rows },
    listTxOutputs: { tx: { txid: HASH, blockHeight: HEIGHT }, outputs: rows },
  };
  const store = new Proxy({} as Store, {
    get: (_t, prop) =>
      methods[String(prop)] ??
      (async (...args: unknown[]) => {
        pages.push({ method: String(prop), args });
        return owners[String(prop)] ?? rows;
      }),
  });
  const api = createExplorerApi({
    store,
    routes: v1Routes,
    config: { responseCacheMs: 0, tipCacheMs: 0, finalityDepth: 10 },
  });
  const get = async (url: string) => {
    const res = await api.handle(new Request(`http://x${url}`));
    return { res, body: await res.json() };
  };
  return { pages, parents, get };
}

describe('list routes', () => {
  it.each(lists)(
    '$path issues and reads the cursors of 1.0.0',
    async ({ path, method, row, cursor, after }) => {
      const { pages, get } = listStore([row, row]);
      const first = await get(`${path}?limit=1`);
      expect(first.res.status).toBe(200);
      expect(first.body.pagination).toEqual({ limit: 1, cursor: null, nextCursor: cursor, hasMore: true });
      expect(pages).toEqual([
        { method, args: [...pages[0]!.args.slice(0, -1), { limit: 1, after: null, offset: 0 }] },
      ]);

      const next = await get(`${path}?limit=1&cursor=${cursor}`);
      expect(next.res.status).toBe(200);
      expect(next.body.pagination).toMatchObject({ cursor, nextCursor: cursor });
      expect(pages[1]!.args.at(-1)).toEqual({ limit: 1, after, offset: 0 });
    },
  );

  it.each(lists.filter((l) => /^\/v1\/(blocks|txs)\/[^/]+\//.test(l.path)))(
    "$path reads its parent with the first page, and on its own before a cursor's page",
    async ({ path, cursor }) => {
      const { pages, parents, get } = listStore([{}, {}]);
      expect((await get(`${path}?limit=1`)).res.status).toBe(200);
      expect({ reads: pages.length, parents }).toEqual({ reads: 1, parents: [] });
      expect((await get(`${path}?limit=1&cursor=${cursor}`)).res.status).toBe(200);
      expect({ reads: pages.length, parents: parents.length }).toEqual({ reads: 2, parents: 1 });
    },
  );

  it('pages by legacy offset, never beside a cursor', async () => {
    const { pages, get } = listStore([]);
    const { body } = await get('/v1/txs?limit=5&offset=40');
    expect(pages[0]!.args).toEqual([{ limit: 5, after: null, offset: 40 }]);
    expect(body.pagination).toEqual({ limit: 5, cursor: null, hasMore: false, offset: 40 });

    const both = await get(`/v1/txs?offset=40&cursor=${lists[3].cursor}`);
    expect(both.res.status).toBe(400);
    expect(both.body.error).toBe('use either cursor or offset, not both');
  });

  it("refuses another list's cursor", async () => {
    const { pages, get } = listStore([]);
    const { res, body } = await get(`/v1/txs?cursor=${lists[0].cursor}`);
    expect(res.status).toBe(400);
    expect(body.error).toBe(INVALID_CURSOR);
    expect(pages).toEqual([]);
  });

  it('refuses a cursor issued on a block a reorg has replaced, before reading the page', async () => {
    const { pages, get } = listStore([], 'ef'.repeat(32));
    const { res, body } = await get(`/v1/blocks?cursor=${lists[0].cursor}`);
    expect(res.status).toBe(400);
    expect(body.error).toMatch(/reorganised at or below height 812345/);
    expect(pages).toEqual([]);
  });

  it("counts confirmations from the tip, and lists a miner's totals before its blocks", async () => {
    const { get } = listStore([{ height: HEIGHT, hash: HASH }]);
    const { body } = await get(`/v1/miners/${ADDRESS}`);
    expect(Object.keys(body).filter((k) => k === 'miner' || k === 'blocks')).toEqual(['miner', 'blocks']);
    expect(body.miner).toEqual({ address: ADDRESS, blocks: 1 });
    expect(body.blocks).toEqual([{ height: HEIGHT, hash: HASH, confirmations: TIP - HEIGHT + 1 }]);
  });

  it('answers 404 for the absent parent of a list before reading a cursor', async () => {
    const { pages, get } = listStore([]);
    const missing = createExplorerApi({
      store: new Proxy({} as Store, {
        get: (_t, prop) =>
          prop === 'tip'
            ? async () => ({ height: TIP, hash: HASH, txHeight: TIP, time: 1 })
            : async () => null,
      }),
      routes: v1Routes,
    });
    const res = await missing.handle(new Request(`http://x/v1/txs/${HASH}/inputs?cursor=bad`));
    expect(res.status).toBe(404);
    // The same request where the transaction exists: the cursor is what is wrong.
    expect((await get(`/v1/txs/${HASH}/inputs?cursor=bad`)).res.status).toBe(400);
    expect(pages).toEqual([]);
  });

  it("serves a final transaction's inputs as immutable", async () => {
    const { get } = listStore([]);
    const { res } = await get(`/v1/txs/${HASH}/inputs`);
    expect(res.headers.get('cache-control')).toMatch(/immutable/);
    expect((await get(`/v1/txs/${HASH}/outputs`)).res.headers.get('cache-control')).not.toMatch(/immutable/);
  });
});
