import { type ServedFixture, serveChainFixture } from '@explorer/chain-fixture';
import type { HandlerOutput, Pagination, RouteOf } from '@explorer/core';
import { createResponseValidator } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createExplorerClient } from './client.js';
import { ExplorerApiError } from './errors/api-error.js';
import { ExplorerError } from './errors/explorer-error.js';
import { ExplorerNetworkError } from './errors/network-error.js';
import { ExplorerPrivateKeyError } from './errors/private-key-error.js';
import { ExplorerValidationError } from './errors/validation-error.js';
import type { ExplorerClient } from './explorer-client.js';
import type { ItemOf, ResponseOf } from './types.js';

// A test network's account key (rust-miniscript's descriptor tests) and BIP32 vector 1's tprv.
const TPUB =
  'tpubDCvNhURocXGZsLNqWcqD3syHTqPXrMSTwi8feKVwAcpi29oYKsDD3Vex7x2TDneKMVN23RbLprfxB69v94iYqdaYHsVz3kPR37NQXeqouVz';
const TPRV =
  'tprv8ZgxMBicQKsPd7Uf69XL1XwhmjHopUGep8GuEiJDZmbQz6o58LninorQAfcKZWARbtRtfnLcJ5MQ2AtHcQJCCRUcMRvmDUjyEmNUWwx8UbK';

let served: ServedFixture;
let client: ExplorerClient;
let s: {
  height: number;
  hash: string;
  txid: string;
  busy: string;
  miner: string;
  pool: string;
  certified: number;
};

beforeAll(async () => {
  served = await serveChainFixture();
  client = createExplorerClient({ baseUrl: served.server.url, validate: true, retry: 0 });
  const f = served.fixture;
  const truth = f.devnet.truth();
  const tip = f.devnet.height();
  // The fixture's chain is Pearl's: every block carries a certificate.
  const certified = tip - 1;
  const { block } = await client.blocks.get(tip - 5);
  const { txs } = await client.blocks.txs(block.hash);
  s = {
    height: block.height,
    hash: block.hash,
    txid: txs[txs.length - 1]!.txid,
    busy: truth.busyAddresses[0]!,
    miner: Object.entries(truth.blocksByMiner).sort((a, b) => b[1] - a[1])[0]![0],
    pool: Object.entries(truth.blocksByPool)
      .filter(([id]) => id !== 'unknown')
      .sort((a, b) => b[1] - a[1])[0]![0],
    certified,
  };
});

afterAll(async () => {
  await served?.close();
});

describe('createExplorerClient against the contract fixture', () => {
  it('answers every method with its envelope', async () => {
    const c = client;
    const answers: Record<string, PromiseLike<unknown>> = {
      'blocks.list': c.blocks.list({ limit: 2 }),
      'blocks.get': c.blocks.get(s.hash),
      'blocks.certificate': c.blocks.certificate(s.certified, { includeProof: true }),
      'blocks.coinbaseOutputs': c.blocks.coinbaseOutputs(s.height),
      'blocks.outputs': c.blocks.outputs(s.height, { limit: 2 }),
      'blocks.raw': c.blocks.raw(s.height),
      'blocks.txs': c.blocks.txs(s.height),
      'txs.list': c.txs.list({ limit: 2 }),
      'txs.get': c.txs.get(s.txid),
      'txs.flow': c.txs.flow(s.txid),
      'txs.inputs': c.txs.inputs(s.txid),
      'txs.outputs': c.txs.outputs(s.txid),
      'txs.raw': c.txs.raw(s.txid),
      'txs.status': c.txs.status(s.txid),
      'txs.outspends': c.txs.outspends(s.txid),
      'addresses.get': c.addresses.get(s.busy),
      'addresses.txs': c.addresses.txs(s.busy),
      'addresses.utxos': c.addresses.utxos(s.busy),
      'addresses.balanceHistory': c.addresses.balanceHistory(s.busy),
      'addresses.flowSummary': c.addresses.flowSummary(s.busy),
      'addresses.flows': c.addresses.flows(s.busy),
      'addresses.getMany': c.addresses.getMany([s.busy, s.txid.slice(0, 40)]),
      'addresses.txsOfMany': c.addresses.txsOfMany([s.busy]),
      'addresses.utxosOfMany': c.addresses.utxosOfMany([s.busy]),
      'addresses.mempool': c.addresses.mempool(s.busy),
      'wallet.get': c.wallet.get(TPUB),
      'wallet.txs': c.wallet.txs(TPUB),
      'wallet.utxos': c.wallet.utxos(TPUB),
      'miners.top': c.miners.top(),
      'miners.get': c.miners.get(s.miner),
      'miners.blocksOverTime': c.miners.blocksOverTime(s.miner),
      'pools.top': c.pools.top({ window: 'all' }),
      'pools.get': c.pools.get(s.pool),
      'pools.blocksOverTime': c.pools.blocksOverTime(s.pool),
      'pools.payoutOutputs': c.pools.payoutOutputs(s.pool),
      'analytics.network': c.analytics.network(),
      'analytics.pouw': c.analytics.pouw(),
      'analytics.supply': c.analytics.supply(),
      'analytics.pools': c.analytics.pools(),
      'analytics.market': c.analytics.market(),
      search: c.search(String(s.height)),
      suggest: c.suggest(String(s.height).slice(0, 2), { limit: 3 }),
      mempool: c.mempool(),
      fees: c.fees(),
      knownAddresses: c.knownAddresses(),
      status: c.status(),
      me: c.me(),
    };
    for (const [name, answer] of Object.entries(answers)) {
      const body = (await answer) as { ok: boolean; meta: { requestId: string } };
      expect(body.ok, name).toBe(true);
      expect(body.meta.requestId, name).toMatch(/.+/);
    }
    const doc = await c.openapi();
    expect(doc.openapi).toMatch(/^3\.1/);
    expect((await c.request('getDocs')).openapi).toBe(doc.openapi);
    // Blockbook's fee estimate: served as is, typed as what Blockbook's clients read.
    const estimate = await c.blockbookEstimateFee(2, { conservative: false });
    expectTypeOf(estimate).toEqualTypeOf<{ result: string }>();
    expect(estimate.result).toMatch(/^\d+(\.\d*[1-9])?$/);
    expect(await c.request('getBlockbookV2EstimateFee', { params: { blocks: '2' } })).toEqual(estimate);
    // The fixture has no market data yet: the API says so with a retryable 503.
    for (const call of [() => c.market.get(), () => c.market.chart({ days: 30 })]) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ExplorerApiError);
      expect(err).toMatchObject({ status: 503, retryable: true });
      expect((err as ExplorerApiError).retryAfter).toBeGreaterThan(0);
    }
  });

  it('reads a transaction’s status, proof and outspends, typed from core', async () => {
    const { status } = await client.txs.status(s.txid);
    expect(status).toMatchObject({ txid: s.txid, confirmed: true, inMempool: false });
    expectTypeOf(status.merkleProof).toEqualTypeOf<{
      blockHeight: number;
      pos: number;
      merkle: string[];
    } | null>();
    expect(status.merkleProof?.pos).toBe(status.blockIndex);
    const spends = await client.txs.outspends(s.txid, { limit: 1 }).toArray();
    expectTypeOf(spends[0]!.spentBy).toEqualTypeOf<{ txid: string; vin: number; height: number } | null>();
    expect(spends.map((o) => o.vout)).toEqual(spends.map((_o, i) => i));
    const err = await client.txs.status('0'.repeat(64)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExplorerApiError);
    expect(err).toMatchObject({ status: 404 });
  });

  it('reads many addresses at once and follows the merged lists’ cursors, typed from core', async () => {
    const wallet = served.fixture.devnet.truth().busyAddresses.slice(0, 4);
    const { addresses } = await client.addresses.getMany(wallet);
    expect(addresses.map((a) => a.address)).toEqual(wallet);
    expectTypeOf(addresses[0]!.balance).toEqualTypeOf<string>();
    const txs = await client.addresses.txsOfMany(wallet, { limit: 7 }).toArray({ max: 30 });
    expectTypeOf(txs[0]!.addresses).toEqualTypeOf<string[]>();
    expect(txs).toHaveLength(30);
    expect(new Set(txs.map((t) => t.txid)).size).toBe(30);
    const utxos = await client.addresses.utxosOfMany(wallet, { limit: 5 }).toArray();
    expectTypeOf(utxos[0]!.address).toEqualTypeOf<string>();
    let single = 0;
    for (const a of wallet) single += (await client.addresses.utxos(a, { limit: 100 }).toArray()).length;
    expect(utxos).toHaveLength(single);
    const err = await client.addresses.getMany([]).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400 });
  });

  it('reads an address’s unconfirmed activity, typed from core', async () => {
    const { mempool, txs } = await client.addresses.mempool(s.busy, { limit: 5 });
    expect(mempool).toMatchObject({ address: s.busy, mempoolTxCount: txs.length });
    expect(BigInt(mempool.balanceWithMempool)).toBe(BigInt(mempool.balance) + BigInt(mempool.mempoolDelta));
    expect(mempool.balance).toBe((await client.addresses.get(s.busy)).address.balance);
    expectTypeOf(mempool.updatedAt).toEqualTypeOf<string | null>();
    expectTypeOf(txs).toEqualTypeOf<
      {
        txid: string;
        firstSeen: number;
        received: string;
        sent: string;
        net: string;
        fee: string;
        vsize: number;
        feeRate: number;
      }[]
    >();
    const err = await client.addresses.mempool('short').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExplorerApiError);
    expect(err).toMatchObject({ status: 400 });
  });

  it('sends a descriptor as the wallet key, encoded, and reads the wallet typed from core', async () => {
    // An origin with hardened steps ('), a multipath step (<0;1>), a wildcard and a checksum (#).
    const descriptor = `tr([2cbe2a6d/86'/1'/0']${TPUB}/<0;1>/*)`;
    const { wallet } = await client.wallet.get(descriptor, { gap: 5 });
    expect(wallet.descriptor).toMatch(/^tr\(\[2cbe2a6d\/86'\/1'\/0'\]tpub.*\/<0;1>\/\*\)#[a-z0-9]{8}$/);
    expect(wallet).toMatchObject({ gap: 5, derived: 10, used: [], balance: '0' });
    expect(wallet.firstUnused.receive.path).toBe("m/86'/1'/0'/0/0");
    expectTypeOf(wallet.firstUnused.change).toEqualTypeOf<{
      branch: number;
      index: number;
      path: string;
      address: string;
    } | null>();
    const again = await client.wallet.get(wallet.descriptor, { gap: 5 });
    expect(again.wallet.descriptor).toBe(wallet.descriptor);
    expect(await client.wallet.txs(wallet.descriptor).toArray()).toEqual([]);
  });

  it('refuses a private key before any request, bare or in a descriptor, and never repeats it', async () => {
    // No server there: a request would fail as a network error; a refusal comes first.
    const nowhere = createExplorerClient({ baseUrl: 'http://127.0.0.1:2', retry: { limit: 0 } });
    const XPRV =
      'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi';
    const WIF = [
      '5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ',
      'KwdMAjGmerYanjeui5SHS7JkmpZvVipYvB2LJGU1ZxJwYvP98617',
    ];
    const cases: [string, string][] = [
      [TPRV, 'this tprv'],
      [`tr([2cbe2a6d/86'/1'/0']${TPRV}/<0;1>/*)`, 'this tprv'],
      [`wpkh(${XPRV}/0/*)`, 'this xprv'],
      ...WIF.map((w): [string, string] => [`pkh(${w})`, 'this WIF key']),
    ];
    for (const [key, what] of cases) {
      const attempts: (() => unknown)[] = [
        () => nowhere.wallet.get(key),
        () => nowhere.wallet.txs(key, { limit: 5 }).toArray(),
        () => nowhere.wallet.utxos(key),
      ];
      for (const attempt of attempts) {
        const err = await Promise.resolve()
          .then(attempt)
          .catch((e: unknown) => e);
        expect(err, key).toBeInstanceOf(ExplorerPrivateKeyError);
        expect((err as Error).message).toBe(
          `key: ${what} is a private key: never send private keys (they spend the coins); send the extended public key (xpub, tpub, or the zpub/vpub Pearl's wallet shows) or a descriptor holding one instead`,
        );
      }
    }
    // A public key goes out (and meets no server).
    expect(await nowhere.wallet.get(TPUB).catch((e: unknown) => e)).toBeInstanceOf(ExplorerNetworkError);
  });

  it('returns data typed from core', async () => {
    const page = await client.blocks.list({ limit: 3 });
    expect(page.blocks).toHaveLength(3);
    expect(page.pagination).toMatchObject({ limit: 3, hasMore: true, cursor: null });
    expectTypeOf(page).toEqualTypeOf<HandlerOutput<RouteOf<'listBlocks'>>>();
    expectTypeOf(page.blocks[0]!.height).toEqualTypeOf<number>();
    // Every list answer carries pagination, and every success answer these members of meta: not optional.
    expectTypeOf(page.pagination).toEqualTypeOf<Pagination>();
    expectTypeOf(page.pagination.hasMore).toEqualTypeOf<boolean>();
    expectTypeOf(page.meta.cached).toEqualTypeOf<boolean>();
    expectTypeOf(page.meta.indexedTipHash).toEqualTypeOf<string | null>();
    expectTypeOf(page.meta.txIndexedTip).toEqualTypeOf<number>();
    for (const m of [page.meta, (await client.blocks.get(s.height)).meta]) {
      expect(Object.keys(m).sort()).toEqual(
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
    }
    // A single resource has no pagination member at all.
    expectTypeOf<ResponseOf<'getBlock'>>().not.toHaveProperty('pagination');
    const { block } = await client.blocks.get(s.height);
    expect(block.hash).toBe(s.hash);
    expectTypeOf(block.hash).toEqualTypeOf<string>();
    const all = client.addresses.txs(s.busy).all();
    expectTypeOf(all).toEqualTypeOf<AsyncGenerator<ItemOf<'listAddressTxs', 'txs'>, void, undefined>>();
    expectTypeOf<ItemOf<'listAddressTxs', 'txs'>>().toEqualTypeOf<
      ResponseOf<'listAddressTxs'>['txs'][number]
    >();
    const byId = await client.request('getBlock', { params: { heightOrHash: String(s.height) } });
    expectTypeOf(byId).toEqualTypeOf<ResponseOf<'getBlock'>>();
    expect(byId.block.height).toBe(s.height);
    expectTypeOf(await client.openapi()).toEqualTypeOf<Record<string, unknown>>();
    // @ts-expect-error getBlock needs its path parameter.
    void (() => client.request('getBlock'));
    // @ts-expect-error limit is a query parameter of lists, not of the address summary.
    void client.addresses.get(s.busy, { limit: 1 });
  });

  it('follows nextCursor with .all(): exactly the address’s txCount, no duplicates', async () => {
    const { address } = await client.addresses.get(s.busy);
    expect(address.txCount).toBeGreaterThan(40);
    const ids: string[] = [];
    for await (const tx of client.addresses.txs(s.busy, { limit: 17 }).all()) ids.push(tx.txid);
    expect(ids).toHaveLength(address.txCount);
    expect(new Set(ids).size).toBe(address.txCount);
    const first = await client.addresses.txs(s.busy, { limit: 17 });
    expect(first.txs.map((t) => t.txid)).toEqual(ids.slice(0, 17));
  });

  it('stops .all() at max, and walks .pages()', async () => {
    const some = await client.addresses.txs(s.busy, { limit: 10 }).toArray({ max: 25 });
    expect(some).toHaveLength(25);
    const pages: number[] = [];
    for await (const page of client.blocks.list({ limit: 5 }).pages({ maxPages: 3 }))
      pages.push(page.blocks.length);
    expect(pages).toEqual([5, 5, 5]);
    // A legacy offset applies to the first page only; the cursor carries on from there.
    const viaOffset = await client.blocks.list({ limit: 5, offset: 5 }).toArray({ max: 10 });
    const plain = await client.blocks.list({ limit: 5 }).toArray({ max: 15 });
    expect(viaOffset.map((b) => b.height)).toEqual(plain.slice(5).map((b) => b.height));
    expect(await client.blocks.list({ limit: 5 }).toArray({ max: 0 })).toEqual([]);
  });

  it('turns 404 and 400 into ExplorerApiError with the envelope message and requestId', async () => {
    const notFound = await client.blocks.get(99_999_999).catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(ExplorerApiError);
    expect(notFound).toBeInstanceOf(ExplorerError);
    expect(notFound).toMatchObject({
      name: 'ExplorerApiError',
      status: 404,
      message: 'block 99999999 not found',
      retryable: false,
      operationId: 'getBlock',
    });
    const e404 = notFound as ExplorerApiError;
    expect(e404.requestId).toMatch(/.+/);
    expect(e404.requestId).toBe(e404.body?.meta?.requestId);
    const bad = await client.addresses.txs(s.busy, { limit: 1000 }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 400, message: 'limit must be an integer from 1 to 100' });
    const cursor = await client.blocks.list({ cursor: 'garbage' }).catch((e: unknown) => e);
    expect(cursor).toMatchObject({ status: 400, message: 'cursor must be a valid pagination cursor' });
    // A request id of our own comes back in the error.
    const traced = createExplorerClient({
      baseUrl: served.server.url,
      headers: { 'x-request-id': 'trace-1' },
    });
    await expect(traced.txs.get('0'.repeat(64))).rejects.toMatchObject({ status: 404, requestId: 'trace-1' });
  });

  it('validates bodies with a validator built from the served OpenAPI document', async () => {
    const doc = await client.openapi();
    const check = createResponseValidator(doc);
    const strict = createExplorerClient({
      baseUrl: served.server.url,
      validator: ({ operationId, status, body }) =>
        operationId === 'getOpenApiDocument' ? null : check.check(operationId, status, body),
    });
    await expect(strict.blocks.get(s.height)).resolves.toMatchObject({ ok: true });
    await expect(strict.addresses.txs(s.busy, { limit: 5 })).resolves.toMatchObject({ ok: true });
    // A server that drops a field is caught by the validator, and one without meta by the built-in check.
    const tamper = (edit: (body: any) => void) =>
      createExplorerClient({
        baseUrl: served.server.url,
        validator: ({ operationId, status, body }) => check.check(operationId, status, body),
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          const body = await res.json();
          edit(body);
          return new Response(JSON.stringify(body), { status: res.status, headers: res.headers });
        },
      });
    const noHash = await tamper((b) => delete b.block.hash)
      .blocks.get(s.height)
      .catch((e: unknown) => e);
    expect(noHash).toBeInstanceOf(ExplorerValidationError);
    expect((noHash as Error).message).toMatch(/hash/);
    const noMeta = await tamper((b) => delete b.meta)
      .blocks.get(s.height)
      .catch((e: unknown) => e);
    expect(noMeta).toMatchObject({ name: 'ExplorerValidationError', operationId: 'getBlock' });
    expect((noMeta as Error).message).toMatch(/meta/);
  });
});
