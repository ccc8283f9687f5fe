import { encodeSegwitAddress } from '@explorer/chain';
import { type ChainFixture, createChainFixture, nodeBlockTxs } from '@explorer/chain-fixture';
import { ApiError, createHandlers } from '@explorer/core';
import {
  createResponseValidator,
  pgSkipReason,
  type ResponseValidator,
  testDrivers,
} from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';

const skip = pgSkipReason();
if (skip) console.log(`[contract] ${skip}`);

interface Samples {
  height: number;
  hash: string;
  /** A block with a certificate (every Pearl block); -1 on Bitcoin. */
  certified: number;
  /** A block without one (every Bitcoin block); -1 on Pearl. */
  uncertified: number;
  txid: string;
  coinbaseTxid: string;
  address: string;
  busy: string;
  miner: string;
  pool: string;
  /** A valid address of the chain that never appeared in it. */
  unseen: string;
}

/** A test network's extended public key (rust-miniscript's descriptor tests): a wallet no devnet pays. */
const WALLET_TPUB =
  'tpubDCvNhURocXGZsLNqWcqD3syHTqPXrMSTwi8feKVwAcpi29oYKsDD3Vex7x2TDneKMVN23RbLprfxB69v94iYqdaYHsVz3kPR37NQXeqouVz';
/** What a wallet request answers on the sampled chain: Pearl's prefixes are recorded, the Bitcoin devnet's are not. */
const walletOk = (s: Samples) => (s.certified >= 0 ? 200 : 400);

/** Valid and invalid requests for every operation; `expect` is the status the contract requires. */
function requests(s: Samples): Record<string, { path: string; status: number }[]> {
  const bad = [
    { suffix: '?limit=0', status: 400 },
    { suffix: '?limit=101', status: 400 },
    { suffix: '?limit=abc', status: 400 },
    { suffix: '?cursor=garbage', status: 400 },
    { suffix: '?offset=-1', status: 400 },
    { suffix: '?nope=1', status: 400 },
  ];
  const list = (path: string) => [
    { path, status: 200 },
    { path: `${path}?limit=1`, status: 200 },
    { path: `${path}?limit=100&offset=2`, status: 200 },
    ...bad.map((b) => ({ path: path + b.suffix, status: b.status })),
  ];
  // A list whose own query parameter comes first: the list's parameters follow it.
  const listWith = (path: string, query: string) =>
    list(path).map((r) => ({
      ...r,
      path: r.path.replace(path, `${path}?${query}`).replace(`${query}?`, `${query}&`),
    }));
  // A list merged from many addresses: the same, but paged by cursor only (a legacy offset is refused).
  const mergedListWith = (path: string, query: string) =>
    listWith(path, query).map((r) => (r.path.includes('offset=') ? { ...r, status: 400 } : r));
  const zero = '0'.repeat(64);
  return {
    getOpenApiDocument: [{ path: '/v1/openapi.json', status: 200 }],
    getDocs: [{ path: '/v1/docs', status: 200 }],
    getMe: [{ path: '/v1/api/me', status: 200 }],
    getStatus: [{ path: '/v1/status', status: 200 }],
    // This app serves no event feed (the runtime's hub is tested in events/): refusals are what it answers.
    getEvents: [
      { path: '/v1/events', status: 503 },
      { path: '/v1/events?topics=nope', status: 503 },
    ],
    listBlocks: list('/v1/blocks'),
    getBlock: [
      { path: `/v1/blocks/${s.height}`, status: 200 },
      { path: `/v1/blocks/${s.hash}`, status: 200 },
      { path: `/v1/blocks/${s.hash.toUpperCase()}`, status: 200 },
      { path: '/v1/blocks/99999999', status: 404 },
      { path: `/v1/blocks/${zero}`, status: 404 },
      { path: '/v1/blocks/-1', status: 400 },
      { path: '/v1/blocks/12abc', status: 400 },
      { path: '/v1/blocks/99999999999', status: 400 },
    ],
    getBlockCertificate: [
      ...(s.certified >= 0
        ? [
            { path: `/v1/blocks/${s.certified}/certificate`, status: 200 },
            { path: `/v1/blocks/${s.certified}/certificate?includeProof=true`, status: 200 },
            { path: '/v1/blocks/0/certificate', status: 200 },
          ]
        : []),
      ...(s.uncertified >= 0 ? [{ path: `/v1/blocks/${s.uncertified}/certificate`, status: 404 }] : []),
      { path: `/v1/blocks/${s.height}/certificate?includeProof=yes`, status: 400 },
      { path: '/v1/blocks/99999999/certificate', status: 404 },
    ],
    getBlockCoinbaseOutputs: [
      { path: `/v1/blocks/${s.height}/coinbase-outputs`, status: 200 },
      { path: '/v1/blocks/99999999/coinbase-outputs', status: 404 },
    ],
    listBlockOutputs: [
      ...list(`/v1/blocks/${s.height}/outputs`),
      { path: '/v1/blocks/99999999/outputs', status: 404 },
    ],
    getBlockRaw: [
      { path: `/v1/blocks/${s.height}/raw`, status: 200 },
      { path: `/v1/blocks/${zero}/raw`, status: 404 },
    ],
    listBlockTxs: [...list(`/v1/blocks/${s.height}/txs`), { path: '/v1/blocks/99999999/txs', status: 404 }],
    listTxs: list('/v1/txs'),
    getTx: [
      { path: `/v1/txs/${s.txid}`, status: 200 },
      { path: `/v1/txs/${s.coinbaseTxid}`, status: 200 },
      { path: `/v1/txs/${zero}`, status: 404 },
      { path: '/v1/txs/abc', status: 400 },
      { path: `/v1/txs/${s.txid}x`, status: 400 },
    ],
    getTxFlow: [
      { path: `/v1/txs/${s.txid}/flow`, status: 200 },
      { path: `/v1/txs/${zero}/flow`, status: 404 },
    ],
    listTxInputs: [...list(`/v1/txs/${s.txid}/inputs`), { path: `/v1/txs/${zero}/inputs`, status: 404 }],
    listTxOutputs: [...list(`/v1/txs/${s.txid}/outputs`), { path: `/v1/txs/${zero}/outputs`, status: 404 }],
    getTxRaw: [
      { path: `/v1/txs/${s.txid}/raw`, status: 200 },
      { path: `/v1/txs/${zero}/raw`, status: 404 },
    ],
    getTxStatus: [
      { path: `/v1/txs/${s.txid}/status`, status: 200 },
      { path: `/v1/txs/${s.coinbaseTxid}/status`, status: 200 },
      { path: `/v1/txs/${zero}/status`, status: 404 },
      { path: '/v1/txs/abc/status', status: 400 },
      { path: `/v1/txs/${s.txid}/status?nope=1`, status: 400 },
    ],
    listTxOutspends: [
      ...list(`/v1/txs/${s.txid}/outspends`),
      { path: `/v1/txs/${zero}/outspends`, status: 404 },
      { path: '/v1/txs/abc/outspends', status: 400 },
    ],
    getAddress: [
      { path: `/v1/addresses/${s.address}`, status: 200 },
      { path: `/v1/addresses/${s.unseen}`, status: 200 },
      { path: '/v1/addresses/short', status: 400 },
      { path: "/v1/addresses/1'%20OR%201=1--", status: 400 },
    ],
    listAddressTxs: [
      ...list(`/v1/addresses/${s.busy}/txs`),
      { path: '/v1/addresses/x%00y/txs', status: 400 },
    ],
    listAddressUtxos: list(`/v1/addresses/${s.busy}/utxos`),
    getAddressBalanceHistory: [{ path: `/v1/addresses/${s.busy}/balance-history`, status: 200 }],
    getAddressFlowSummary: [{ path: `/v1/addresses/${s.busy}/flow-summary`, status: 200 }],
    listAddressFlows: list(`/v1/addresses/${s.busy}/flows`),
    getAddresses: [
      { path: `/v1/addresses?addresses=${s.busy},${s.address},${s.unseen}`, status: 200 },
      { path: `/v1/addresses?addresses=${s.busy},${s.busy}`, status: 200 },
      { path: `/v1/addresses?addresses=${s.busy},short`, status: 400 },
      { path: '/v1/addresses?addresses=', status: 400 },
      { path: '/v1/addresses', status: 400 },
      { path: `/v1/addresses?addresses=${s.busy}&limit=1`, status: 400 },
    ],
    listMultiAddressTxs: [
      ...mergedListWith('/v1/addresses/txs', `addresses=${s.busy},${s.address}`),
      { path: '/v1/addresses/txs?addresses=x%00y', status: 400 },
    ],
    listMultiAddressUtxos: [
      ...mergedListWith('/v1/addresses/utxos', `addresses=${s.busy},${s.unseen}`),
      { path: '/v1/addresses/utxos', status: 400 },
    ],
    listAddressMempool: [
      ...list(`/v1/addresses/${s.busy}/mempool`),
      { path: `/v1/addresses/${s.unseen}/mempool`, status: 200 },
      { path: '/v1/addresses/short/mempool', status: 400 },
      { path: "/v1/addresses/1'%20OR%201=1--/mempool", status: 400 },
    ],
    // The Bitcoin devnet's address prefixes are not known to the indexer: its wallets are refused (400).
    getWallet: [
      { path: `/v1/wallet?key=${WALLET_TPUB}`, status: walletOk(s) },
      {
        path: `/v1/wallet?key=${encodeURIComponent(`tr(${WALLET_TPUB}/<0;1>/*)`)}&gap=5`,
        status: walletOk(s),
      },
      { path: `/v1/wallet?key=${WALLET_TPUB}&gap=101`, status: 400 },
      { path: '/v1/wallet', status: 400 },
      { path: '/v1/wallet?key=tpubnonsense', status: 400 },
      { path: `/v1/wallet?key=${WALLET_TPUB}&limit=1`, status: 400 },
    ],
    listWalletTxs: mergedListWith('/v1/wallet/txs', `key=${WALLET_TPUB}`).map((r) =>
      r.status === 200 ? { ...r, status: walletOk(s) } : r,
    ),
    listWalletUtxos: [
      ...mergedListWith('/v1/wallet/utxos', `key=${WALLET_TPUB}`).map((r) =>
        r.status === 200 ? { ...r, status: walletOk(s) } : r,
      ),
      { path: '/v1/wallet/utxos?key=', status: 400 },
    ],
    listTopMiners: list('/v1/miners/top'),
    getMiner: [...list(`/v1/miners/${s.miner}`), { path: '/v1/miners/x', status: 400 }],
    getMinerBlocksOverTime: [
      { path: `/v1/miners/${s.miner}/blocks-over-time`, status: 200 },
      { path: `/v1/miners/${s.busy}/blocks-over-time`, status: 200 },
    ],
    listTopPools: [
      { path: '/v1/pools/top', status: 200 },
      { path: '/v1/pools/top?window=24h', status: 200 },
      { path: '/v1/pools/top?window=30d&limit=2', status: 200 },
      { path: '/v1/pools/top?window=all', status: 200 },
      { path: '/v1/pools/top?window=1y', status: 400 },
      { path: '/v1/pools/top?limit=0', status: 400 },
      { path: '/v1/pools/top?cursor=abc', status: 400 },
    ],
    // The contract declares 404 only where one block or transaction is addressed: an unknown pool id is an
    // empty pool, as an unused address is an empty address.
    getPool: [
      { path: `/v1/pools/${s.pool}`, status: 200 },
      { path: '/v1/pools/unknown', status: 200 },
      { path: '/v1/pools/no-such-pool', status: 200 },
      { path: '/v1/pools/bad%20id', status: 400 },
    ],
    getPoolBlocksOverTime: [
      { path: `/v1/pools/${s.pool}/blocks-over-time`, status: 200 },
      { path: '/v1/pools/no-such-pool/blocks-over-time', status: 200 },
    ],
    listPoolPayoutOutputs: [
      ...list(`/v1/pools/${s.pool}/payout-outputs`),
      { path: '/v1/pools/no-such-pool/payout-outputs', status: 200 },
    ],
    getNetworkAnalytics: [{ path: '/v1/analytics/network', status: 200 }],
    getPouwAnalytics: [{ path: '/v1/analytics/pouw', status: 200 }],
    getSupplyAnalytics: [{ path: '/v1/analytics/supply', status: 200 }],
    getPoolAnalytics: [{ path: '/v1/analytics/pools', status: 200 }],
    search: [
      { path: `/v1/search?q=${s.height}`, status: 200 },
      { path: `/v1/search?q=${s.txid}`, status: 200 },
      { path: `/v1/search?q=${s.pool}`, status: 200 },
      { path: '/v1/search?q=', status: 400 },
      { path: '/v1/search', status: 400 },
      { path: `/v1/search?q=${'a'.repeat(131)}`, status: 400 },
    ],
    suggest: [
      { path: `/v1/search/suggest?q=${s.txid.slice(0, 5)}`, status: 200 },
      { path: '/v1/search/suggest?q=ab', status: 200 },
      { path: '/v1/search/suggest?q=abc&limit=11', status: 400 },
    ],
    listKnownAddresses: [{ path: '/v1/known-addresses', status: 200 }],
    getMempool: [{ path: '/v1/mempool', status: 200 }],
    // No mempool watcher runs in this fixture: the estimate from recent blocks alone.
    getFees: [
      { path: '/v1/fees', status: 200 },
      { path: '/v1/fees?nope=1', status: 400 },
    ],
    // Blockbook's form of the same estimates (served without the envelope).
    getBlockbookEstimateFee: [
      { path: '/api/v1/estimatefee/1', status: 200 },
      { path: '/api/v1/estimatefee/1008?conservative=false', status: 200 },
      { path: '/api/v1/estimatefee/1009', status: 400 },
      { path: '/api/v1/estimatefee/2?conservative=perhaps', status: 400 },
      { path: '/api/v1/estimatefee/2?nope=1', status: 400 },
    ],
    getBlockbookV2EstimateFee: [
      { path: '/api/v2/estimatefee/6', status: 200 },
      { path: '/api/v2/estimatefee/x', status: 400 },
    ],
    // No refresher runs in this fixture: nothing is stored yet, which the contract answers with 503.
    getMarket: [{ path: '/v1/market', status: 503 }],
    getMarketChart: [
      { path: '/v1/market/chart?days=30', status: 503 },
      { path: '/v1/market/chart?days=2', status: 400 },
    ],
    getMarketAnalytics: [{ path: '/v1/analytics/market', status: 200 }],
  };
}

// The whole contract on both chain profiles: pearld's dialect (the default) and Bitcoin Core's.
const cases = testDrivers().flatMap((driver) =>
  (['pearl', 'bitcoin'] as const).map((dialect) => [`${driver}, ${dialect}`, driver, dialect] as const),
);

describe.each(cases)('API contract (%s)', (_name, driver, dialect) => {
  let f: ChainFixture;
  let validator: ResponseValidator;
  let s: Samples;

  beforeAll(async () => {
    f = await createChainFixture(driver, { dialect });
    const doc = (await f.get('/v1/openapi.json')).body;
    validator = createResponseValidator(doc);
    const tip = f.devnet.height();
    const height = tip - 30;
    const txs = await nodeBlockTxs(f.node, height);
    const tx = txs.find((t: any) => !t.vin[0].coinbase);
    const truth = f.devnet.truth();
    const pearl = dialect === 'pearl';
    s = {
      height,
      hash: await f.node.call<string>('getblockhash', [height]),
      certified: pearl ? tip - 2 : -1,
      uncertified: pearl ? -1 : tip - 2,
      unseen: pearl
        ? encodeSegwitAddress('rprl', 1, Buffer.alloc(32, 7))
        : 'dvt1qneverseenaddress000000000000000',
      txid: tx.txid,
      coinbaseTxid: txs[0].txid,
      address: tx.vout.find((o: any) => o.scriptPubKey.address).scriptPubKey.address,
      busy: truth.busyAddresses[0]!,
      miner: Object.entries(truth.blocksByMiner).sort((a, b) => b[1] - a[1])[0]![0],
      pool: Object.entries(truth.blocksByPool)
        .filter(([id]) => id !== 'unknown')
        .sort((a, b) => b[1] - a[1])[0]![0],
    };
  });
  afterAll(async () => {
    await f?.close();
  });

  it('has a validator that rejects bodies the document does not allow', async () => {
    const good = (await f.get(`/v1/blocks/${s.height}`)).body;
    expect(validator.check('getBlock', 200, good)).toBeNull();
    const { hash: _h, ...noHash } = good.block;
    expect(validator.check('getBlock', 200, { ...good, block: noHash })).toMatch(/hash/);
    expect(validator.check('getBlock', 200, { ...good, block: { ...good.block, reward: 1 } })).not.toBeNull();
    // Amounts are decimal strings of base units, never numbers or fractions.
    expect(
      validator.check('getBlock', 200, { ...good, block: { ...good.block, reward: '1.5' } }),
    ).not.toBeNull();
    expect(validator.check('getBlock', 200, { ...good, meta: { requestId: 'x' } })).not.toBeNull();
    expect(validator.check('getBlock', 418, good)).toMatch(/not declared/);
    // The served document lets success bodies gain members (the contract says so); our own answers are
    // checked against its closed form, so a misspelled member still fails here.
    const { txCount, ...rest } = good.block;
    const misspelled = { ...good, block: { ...rest, txcount: txCount } };
    expect(validator.check('getBlock', 200, { ...good, block: { ...good.block, txcount: 1 } })).toMatch(
      /additional properties/,
    );
    expect(validator.check('getBlock', 200, { ...good, meta: { ...good.meta, nodeheight: 1 } })).toMatch(
      /additional properties/,
    );
    const open = createResponseValidator((await f.get('/v1/openapi.json')).body, { closed: false });
    expect(open.check('getBlock', 200, { ...good, block: { ...good.block, added: 1 }, added: 1 })).toBeNull();
    expect(open.check('getBlock', 200, misspelled)).toMatch(/txCount/);
  });

  it('answers an unknown pool id like an unused address: 200, zero totals, empty lists, seen false', async () => {
    const known = (await f.get(`/v1/pools/${s.pool}`)).body.pool;
    expect(known).toMatchObject({ id: s.pool, seen: true, defined: true });
    const pool = await f.get('/v1/pools/no-such-pool');
    expect(pool.status).toBe(200);
    expect(pool.body.pool).toEqual({
      id: 'no-such-pool',
      name: 'no-such-pool',
      link: null,
      defined: false,
      seen: false,
      tags: [],
      definedAddresses: [],
      blocks: 0,
      share: 0,
      reward: '0',
      firstHeight: null,
      lastHeight: null,
      payoutAddresses: [],
      recentPayoutOutputs: [],
    });
    expect((await f.get('/v1/pools/no-such-pool/blocks-over-time')).body.days).toEqual([]);
    const outputs = await f.get('/v1/pools/no-such-pool/payout-outputs');
    expect(outputs.body.outputs).toEqual([]);
    expect(outputs.body.pagination).toMatchObject({ hasMore: false, cursor: null });
  });

  it('documents every operation of the contract', () => {
    expect(validator.operationIds().sort()).toEqual(Object.keys(requests(s)).sort());
  });

  it('answers valid and invalid requests with documented statuses and bodies, never an unplanned 5xx', async () => {
    let checked = 0;
    for (const [op, list] of Object.entries(requests(s))) {
      for (const r of list) {
        const res = await f.get(r.path);
        expect({ op, path: r.path, status: res.status }).toEqual({ op, path: r.path, status: r.status });
        if (op === 'getOpenApiDocument' || op === 'getDocs') {
          expect(res.body.openapi).toBe('3.1.0');
          continue;
        }
        expect({ path: r.path, error: validator.check(op, res.status, res.body) }).toEqual({
          path: r.path,
          error: null,
        });
        if (res.status !== 200) expect(typeof res.body.error).toBe('string');
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('uses the contract’s cursor message, and binds cursors to their list', async () => {
    const first = await f.get('/v1/blocks?limit=2');
    const cursor = first.body.pagination.nextCursor as string;
    expect(typeof cursor).toBe('string');
    for (const bad of ['garbage', `${cursor.slice(0, -2)}AA`, cursor.split('').reverse().join('')]) {
      const r = await f.get(`/v1/blocks?cursor=${encodeURIComponent(bad)}`);
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('cursor must be a valid pagination cursor');
    }
    const foreign = await f.get(`/v1/txs?cursor=${cursor}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toBe('cursor must be a valid pagination cursor');
    const both = await f.get(`/v1/blocks?cursor=${cursor}&offset=3`);
    expect(both.status).toBe(400);
    const limit = await f.get('/v1/blocks?limit=500');
    expect(limit.body.error).toBe('limit must be an integer from 1 to 100');
    const dup = await f.get('/v1/blocks?limit=2&limit=3');
    expect(dup.body.error).toMatch(/more than once/);
  });

  it('pages through a busy address with no gap or duplicate, also while blocks arrive', async () => {
    const summary = (await f.get(`/v1/addresses/${s.busy}`)).body.address;
    expect(summary.txCount).toBeGreaterThan(50);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await f.get(`/v1/addresses/${s.busy}/txs?limit=17${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      seen.push(...r.body.txs.map((t: any) => `${t.blockHeight}:${t.blockIndex}`));
      cursor = r.body.pagination.nextCursor;
      expect(r.body.pagination.hasMore).toBe(cursor !== undefined);
      if (++pages === 2) {
        f.devnet.mine(3);
        await f.sync();
      }
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(summary.txCount);
    const legacy = await f.get(`/v1/addresses/${s.busy}/txs?limit=5&offset=5`);
    const viaCursor = await f.get(`/v1/addresses/${s.busy}/txs?limit=5`);
    const next = await f.get(
      `/v1/addresses/${s.busy}/txs?limit=5&cursor=${viaCursor.body.pagination.nextCursor}`,
    );
    expect(legacy.body.txs.map((t: any) => t.txid)).toEqual(next.body.txs.map((t: any) => t.txid));
  });

  it('keeps paging through a reorg above the cursor, and refuses with a clear 400 after one below it', async () => {
    const path = `/v1/addresses/${s.busy}/txs?limit=5`;
    // Walk down until the cursor sits well below the tip.
    let r = await f.get(path);
    const seen: string[] = r.body.txs.map((t: any) => t.txid);
    while (r.body.txs.at(-1).blockHeight > f.devnet.height() - 8) {
      r = await f.get(`${path}&cursor=${r.body.pagination.nextCursor}`);
      seen.push(...r.body.txs.map((t: any) => t.txid));
    }
    const deep = r.body.pagination.nextCursor as string;
    const below = r.body.txs.at(-1).blockHeight as number;
    f.devnet.reorg(3);
    await f.sync();
    // Everything below the cursor is untouched: the rest of the list follows without a repeat.
    const rest = await f.get(`${path}&cursor=${deep}`);
    expect(rest.status).toBe(200);
    expect(rest.body.txs.every((t: any) => t.blockHeight <= below && !seen.includes(t.txid))).toBe(true);
    // A cursor near the tip, then a reorg that replaces its block: the next page would be wrong, so 400.
    const top = await f.get(path);
    const shallow = top.body.pagination.nextCursor as string;
    const at = top.body.txs.at(-1).blockHeight as number;
    f.devnet.reorg(f.devnet.height() - at + 1);
    await f.sync();
    const refused = await f.get(`${path}&cursor=${shallow}`);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(
      `the chain reorganised at or below height ${at} after this cursor was issued; start again from the first page`,
    );
  });

  it('speaks HTTP: 405 with Allow, HEAD, CORS preflight, unknown path, request ids', async () => {
    const post = await f.api.handle(new Request('http://x/v1/blocks', { method: 'POST', body: '{}' }));
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect((await post.json()).ok).toBe(false);
    const head = await f.api.handle(new Request('http://x/v1/blocks', { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const pre = await f.api.handle(new Request('http://x/v1/blocks', { method: 'OPTIONS' }));
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/X-API-Key/);
    const missing = await f.get('/v1/nothing/here');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ ok: false, error: expect.stringMatching(/no such endpoint/) });
    const mine = await f.get('/v1/status', { 'x-request-id': 'client-abc.123' });
    expect(mine.body.meta.requestId).toBe('client-abc.123');
    expect(mine.headers.get('x-request-id')).toBe('client-abc.123');
    const insane = await f.get('/v1/status', { 'x-request-id': 'bad id with spaces' });
    expect(insane.body.meta.requestId).not.toBe('bad id with spaces');
    expect(insane.headers.get('access-control-expose-headers')).toMatch(/X-RateLimit-Remaining/);
  });

  it('marks final data immutable, revalidates with ETag, and says when it served from cache', async () => {
    const raw = await f.get(`/v1/blocks/${s.height}/raw`);
    expect(raw.headers.get('cache-control')).toMatch(/immutable/);
    const tipRaw = await f.get(`/v1/blocks/${f.devnet.height()}/raw`);
    expect(tipRaw.headers.get('cache-control')).not.toMatch(/immutable/);
    const etag = raw.headers.get('etag')!;
    const again = await f.get(`/v1/blocks/${s.height}/raw`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    const a = await f.get(`/v1/blocks/${s.height}`);
    const b = await f.get(`/v1/blocks/${s.height}`);
    expect(b.body.meta.cached).toBe(true);
    expect(b.body.block).toEqual(a.body.block);
    // A block that is not final is not kept: read afresh at each tip (the requests at one tip, within a
    // second, share that read; see core's api.test).
    const hash = (await f.get('/v1/blocks?limit=3')).body.blocks[2].hash as string;
    const recent = await f.get(`/v1/blocks/${hash}`);
    expect(recent.body.meta.cached).toBe(false);
    expect(recent.headers.get('cache-control')).not.toMatch(/immutable/);
  });

  it('reports meta exactly as the contract lists it', async () => {
    const ok = await f.get('/v1/blocks?limit=1');
    expect(Object.keys(ok.body.meta).sort()).toEqual(
      [
        'cached',
        'indexedTip',
        'indexedTipHash',
        'nodeHeight',
        'requestId',
        'servedAt',
        'txIndexedTip',
      ].sort(),
    );
    expect(ok.body.meta.indexedTip).toBe(f.devnet.height());
    expect(ok.body.meta.indexedTipHash).toBe(f.devnet.tipHash());
    expect(ok.body.meta.nodeHeight).toBe(f.devnet.height());
    const err = await f.get('/v1/blocks/99999999');
    expect(Object.keys(err.body.meta).sort()).toEqual(['indexedTip', 'nodeHeight', 'requestId', 'servedAt']);
    expect(err.body.meta).toMatchObject({ indexedTip: f.devnet.height(), nodeHeight: f.devnet.height() });
  });
});

describe('typed handler functions (pglite)', () => {
  let f: ChainFixture;
  beforeAll(async () => {
    f = await createChainFixture('pglite', { seed: 'handlers', blocks: 40 });
  });
  afterAll(async () => {
    await f?.close();
  });

  it('return the same data as HTTP, typed by operation, and throw ApiError on errors', async () => {
    const h = createHandlers(f.api);
    const { block, meta } = await h.getBlock({ params: { heightOrHash: '12' } });
    expectTypeOf(block.pool.id).toEqualTypeOf<string>();
    expectTypeOf(block.reward).toEqualTypeOf<string>();
    expect(block).toEqual((await f.get('/v1/blocks/12')).body.block);
    expect(meta.indexedTip).toBe(f.devnet.height());
    const page = await h.listBlocks({ query: { limit: 3 } });
    expect(page.blocks.map((b) => b.height)).toEqual([40, 39, 38]);
    expect(page.pagination?.hasMore).toBe(true);
    const status = await h.getStatus({});
    expectTypeOf(status.status.healthy).toEqualTypeOf<boolean>();
    await expect(h.getBlock({ params: { heightOrHash: '999999' } })).rejects.toMatchObject({ status: 404 });
    await expect(h.listBlocks({ query: { limit: 0 } })).rejects.toThrow(ApiError);
  });
});
