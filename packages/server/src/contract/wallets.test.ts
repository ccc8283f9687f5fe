import { deriveAddresses, PEARL_NETWORKS, parseWalletKey, pearlWalletChain } from '@explorer/chain';
import { type ChainFixture, createChainFixture } from '@explorer/chain-fixture';
import { createExplorerApi, v1Routes } from '@explorer/core';
import { createSqlStore } from '@explorer/db';
import {
  type ContractReader,
  contractReader,
  createResponseValidator,
  pgSkipReason,
  testDrivers,
} from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { loggablePath } from '../middleware/request-log.js';
import { createRateLimiter } from '../rate-limit/index.js';
import { serveExplorer } from '../test-support/serve-app.js';

const skip = pgSkipReason();
if (skip) console.log(`[wallets] ${skip}`);

// A test network's account key (rust-miniscript's descriptor tests), as the devnet's hdWallet option takes it.
const TPUB =
  'tpubDCvNhURocXGZsLNqWcqD3syHTqPXrMSTwi8feKVwAcpi29oYKsDD3Vex7x2TDneKMVN23RbLprfxB69v94iYqdaYHsVz3kPR37NQXeqouVz';
const TPRV =
  'tprv8ZgxMBicQKsPd7Uf69XL1XwhmjHopUGep8GuEiJDZmbQz6o58LninorQAfcKZWARbtRtfnLcJ5MQ2AtHcQJCCRUcMRvmDUjyEmNUWwx8UbK';
/** The devnet pays the first 10 receive and 5 change addresses. */
const PAID = { receive: 10, change: 5 };

const enc = encodeURIComponent;

describe.each(testDrivers())('wallets from an extended public key on the devnet (%s)', (driver) => {
  let f: ChainFixture;
  let read: ContractReader;
  const key = parseWalletKey(TPUB, pearlWalletChain(PEARL_NETWORKS.regtest));

  beforeAll(async () => {
    f = await createChainFixture(driver, { seed: 'wallets', blocks: 80, txPerBlock: 4, hdWallet: TPUB });
    read = contractReader(f.get, createResponseValidator((await f.get('/v1/openapi.json')).body));
  }, 180_000);
  afterAll(async () => {
    await f?.close();
  });

  const get = (path: string, op: string, status?: number) => read.get(path, op, status);
  const all = async (path: string, op: string, member: string, limit: number) =>
    (await read.all(path, op, member, limit)).items;

  it('finds the paid addresses with their paths, and the first unused of each branch', async () => {
    const { wallet } = await get(`/v1/wallet?key=${enc(TPUB)}`, 'getWallet');
    const receive = deriveAddresses(key, { branch: 0, from: 0, count: PAID.receive + 1 });
    const change = deriveAddresses(key, { branch: 1, from: 0, count: PAID.change + 1 });
    expect(wallet.descriptor).toBe(key.descriptor);
    expect(wallet.script).toBe('tr');
    expect(wallet.gap).toBe(20);
    expect(
      wallet.used.map((a: any) => ({ branch: a.branch, index: a.index, path: a.path, address: a.address })),
    ).toEqual(
      [...receive.slice(0, -1), ...change.slice(0, -1)].map((a) => ({
        branch: a.branch,
        index: a.index,
        path: a.path,
        address: a.address,
      })),
    );
    expect(wallet.used[12].path).toBe('1/2');
    expect(wallet.firstUnused.receive).toEqual({
      branch: 0,
      index: 10,
      path: '0/10',
      address: receive.at(-1)!.address,
    });
    expect(wallet.firstUnused.change).toMatchObject({
      index: 5,
      path: '1/5',
      address: change.at(-1)!.address,
    });
    // Up to the last used address and the 20 after it, on each branch: 10 + 20 and 5 + 20.
    expect(wallet.derived).toBe(55);
    // A gap of 3 still finds them all (they are contiguous), examining 3 past the last used on each branch.
    const { wallet: narrow } = await get(`/v1/wallet?key=${enc(TPUB)}&gap=3`, 'getWallet');
    expect(narrow.used).toEqual(wallet.used);
    expect(narrow.derived).toBe(13 + 8);
  });

  it('equals what the many-address endpoints give for its used addresses', async () => {
    const { wallet } = await get(`/v1/wallet?key=${enc(TPUB)}`, 'getWallet');
    const addresses = wallet.used.map((a: any) => a.address).join(',');
    const { addresses: summaries } = await get(`/v1/addresses?addresses=${addresses}`, 'getAddresses');
    for (const [i, s] of summaries.entries()) {
      expect(s.txCount).toBeGreaterThan(0);
      expect(wallet.used[i]).toMatchObject({
        balance: s.balance,
        received: s.received,
        sent: s.sent,
        txCount: s.txCount,
      });
    }
    expect(wallet.balance).toBe(String(summaries.reduce((n: bigint, s: any) => n + BigInt(s.balance), 0n)));
    const walletTxs = await all(`/v1/wallet/txs?key=${enc(TPUB)}`, 'listWalletTxs', 'txs', 7);
    const listTxs = await all(`/v1/addresses/txs?addresses=${addresses}`, 'listMultiAddressTxs', 'txs', 100);
    expect(walletTxs).toEqual(listTxs);
    expect(wallet.txCount).toBe(listTxs.length);
    const net = listTxs.reduce((n: bigint, t: any) => n + BigInt(t.net), 0n);
    expect(BigInt(wallet.received) - BigInt(wallet.sent)).toBe(net);
    const walletUtxos = await all(`/v1/wallet/utxos?key=${enc(TPUB)}`, 'listWalletUtxos', 'utxos', 4);
    const listUtxos = await all(
      `/v1/addresses/utxos?addresses=${addresses}`,
      'listMultiAddressUtxos',
      'utxos',
      100,
    );
    expect(walletUtxos).toEqual(listUtxos);
    expect(walletUtxos.reduce((n: bigint, u: any) => n + BigInt(u.value), 0n)).toBe(BigInt(wallet.balance));
    // The devnet's own record of what the wallet holds.
    const { balances } = f.devnet.truth();
    for (const a of wallet.used) {
      const t = balances(a.address);
      expect({ path: a.path, balance: a.balance, txCount: a.txCount }).toEqual({
        path: a.path,
        balance: String(t.balance),
        txCount: t.txCount,
      });
    }
  });

  it('reads the key as a descriptor too, and binds cursors to the key', async () => {
    const descriptor = `tr([2cbe2a6d/86'/1'/0']${TPUB}/<0;1>/*)`;
    const { wallet } = await get(`/v1/wallet?key=${enc(descriptor)}`, 'getWallet');
    expect(wallet.used[0].path).toBe("m/86'/1'/0'/0/0");
    expect(wallet.used).toHaveLength(PAID.receive + PAID.change);
    const first = await get(`/v1/wallet/txs?key=${enc(TPUB)}&limit=2`, 'listWalletTxs');
    const cursor = enc(first.pagination.nextCursor);
    await get(`/v1/wallet/txs?key=${enc(TPUB)}&gap=21&limit=2&cursor=${cursor}`, 'listWalletTxs', 400);
    await get(
      `/v1/addresses/txs?addresses=${wallet.used[0].address}&limit=2&cursor=${cursor}`,
      'listMultiAddressTxs',
      400,
    );
  });

  it('refuses private keys without repeating them, bad checksums, other networks, a gap out of range', async () => {
    const xprv = await get(`/v1/wallet?key=${TPRV}`, 'getWallet', 400);
    expect(xprv.error).toMatch(/never send private keys/);
    expect(JSON.stringify(xprv)).not.toContain(TPRV.slice(4, 30));
    const inside = await get(`/v1/wallet/utxos?key=${enc(`tr(${TPRV}/0/*)`)}`, 'listWalletUtxos', 400);
    expect(JSON.stringify(inside)).not.toContain(TPRV.slice(4, 30));
    const sum = key.descriptor.slice(-8);
    const bad = key.descriptor.replace(`#${sum}`, `#${sum.slice(1)}q`);
    expect((await get(`/v1/wallet?key=${enc(bad)}`, 'getWallet', 400)).error).toMatch(/checksum/);
    expect((await get(`/v1/wallet?key=${enc(`tr(${TPUB}/0h/*)`)}`, 'getWallet', 400)).error).toMatch(
      /hardened/,
    );
    expect((await get(`/v1/wallet?key=${enc(`wpkh(${TPUB}/0/*)`)}`, 'getWallet', 400)).error).toMatch(
      /taproot/,
    );
    const xpub =
      'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8';
    expect((await get(`/v1/wallet?key=${xpub}`, 'getWallet', 400)).error).toMatch(/mainnet/);
    expect((await get('/v1/wallet?key=tpubnonsense', 'getWallet', 400)).error).toMatch(/^key: /);
    // The request log never holds a wallet key (a private one sent by mistake, or an xpub: both are private).
    expect(loggablePath(`http://127.0.0.1/v1/wallet?key=${TPRV}&gap=5`)).toBe(
      '/v1/wallet?key=%5Bredacted%5D&gap=5',
    );
    for (const gap of ['0', '101', 'x'])
      expect((await get(`/v1/wallet?key=${TPUB}&gap=${gap}`, 'getWallet', 400)).error).toMatch(
        /gap must be an integer from 1 to 100/,
      );
  });

  it('refuses a wallet deeper than the configured bound, naming it', async () => {
    const api = createExplorerApi({
      store: createSqlStore(f.db.sql),
      routes: v1Routes,
      config: { tipCacheMs: 0, walletMaxDerived: { anonymous: 25, key: 50 } },
    });
    const ask = async (path: string) => {
      const res = await api.handle(new Request(`http://127.0.0.1${path}`));
      return { status: res.status, body: (await res.json()) as any };
    };
    // The receive branch's 10 used addresses and a gap of 20 need 30 addresses: more than 25.
    const refused = await ask(`/v1/wallet/txs?key=${TPUB}`);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(
      'key: discovery would derive more than 25 addresses on the receive branch (used addresses followed by a gap of 20); at most 25 per branch without an API key (50 with one): read a wallet this deep address by address (/v1/addresses?addresses=…)',
    );
    expect((await ask(`/v1/wallet?key=${TPUB}&gap=10`)).status).toBe(200);
  });

  it('costs 11 rate-limit points at every gap (the 200 addresses its first window derives), refused or not, over HTTP', async () => {
    const server = await serveExplorer({
      store: createSqlStore(f.db.sql),
      log: createLogger({ level: 'silent' }),
      rateLimiter: createRateLimiter({
        policy: { windowSeconds: 60, anonymous: 100, key: 1000, tiers: {} },
        keyPrefix: `wallets-${driver}-${Date.now()}`,
      }),
    });
    try {
      const remaining = async (path: string) => {
        const res = await fetch(`${server.url}${path}`);
        await res.arrayBuffer();
        return Number(res.headers.get('x-ratelimit-remaining'));
      };
      const start = await remaining('/v1/status');
      expect(await remaining(`/v1/wallet?key=${TPUB}`)).toBe(start - 11);
      expect(await remaining(`/v1/wallet/utxos?key=${TPUB}&gap=100`)).toBe(start - 22);
      // A refused request costs what it asked for; a gap the server cannot read is priced at the default.
      expect(await remaining(`/v1/wallet/txs?key=${TPRV}&gap=3`)).toBe(start - 33);
      expect(await remaining(`/v1/wallet?key=${TPUB}&gap=oops`)).toBe(start - 44);
    } finally {
      await server.close();
    }
  });
});

describe('wallets on a chain whose address prefixes are not known', () => {
  let f: ChainFixture;
  beforeAll(async () => {
    f = await createChainFixture('pglite', {
      seed: 'wallets-core',
      blocks: 30,
      dialect: 'bitcoin',
      txPerBlock: 2,
    });
  }, 120_000);
  afterAll(async () => {
    await f?.close();
  });
  it('refuses with a 400 that says why (a Core fork of unknown genesis: the devnet’s Bitcoin dialect)', async () => {
    const res = await f.get(`/v1/wallet?key=${TPUB}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/address prefixes of the indexed chain .* are not known/);
  });
});
