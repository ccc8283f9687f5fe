import { type ChainFixture, createChainFixture } from '@explorer/chain-fixture';
import { createExplorerApi, generateApiKey, type Identity, v1Routes } from '@explorer/core';
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
import { createRateLimiter } from '../rate-limit/index.js';
import { serveExplorer } from '../test-support/serve-app.js';

const skip = pgSkipReason();
if (skip) console.log(`[address-lists] ${skip}`);

/** A well-formed address (letters and digits, 62 long, like a bech32m one) that no transaction touches. */
const unseen = (i: number) => `rprl1p${String(i).padStart(6, '0')}${'q'.repeat(50)}`;

/** Newest first by block position, then output. */
const byPosition = (a: any, b: any) =>
  b.blockHeight - a.blockHeight || b.blockIndex - a.blockIndex || (b.vout ?? 0) - (a.vout ?? 0);

describe.each(testDrivers())('many addresses in one request on the devnet (%s)', (driver) => {
  let f: ChainFixture;
  let read: ContractReader;
  /** Busy addresses, some sharing transactions, then a repeat and a never-seen one. */
  let asked: string[];
  let distinct: string[];

  beforeAll(async () => {
    f = await createChainFixture(driver, { seed: 'address-lists', blocks: 60, txPerBlock: 8 });
    read = contractReader(f.get, createResponseValidator((await f.get('/v1/openapi.json')).body));
    // Addresses of transactions that pay or spend several addresses, so the merged history has shared rows.
    const rows = await f.db.sql.query<{ address: string }>(
      `SELECT d.address FROM addresses d
       WHERE d.id IN (SELECT a.address_id FROM address_txs a
                      WHERE a.tx_no IN (SELECT tx_no FROM address_txs GROUP BY tx_no HAVING count(*) > 1))
       ORDER BY d.tx_count DESC, d.address LIMIT 9`,
      [],
    );
    const busy = rows.map((r) => r.address);
    expect(busy.length).toBe(9);
    asked = [...busy.slice(0, 5), busy[1]!, unseen(1), ...busy.slice(5)];
    distinct = [...new Set(asked)];
  }, 180_000);
  afterAll(async () => {
    await f?.close();
  });

  const get = (path: string, op: string, status?: number) => read.get(path, op, status);
  /** Every item of a list, following its cursors. */
  const all = (path: string, op: string, member: string, limit: number) => read.all(path, op, member, limit);

  it('summaries: each as the single endpoint answers it, in the order asked, repeats once', async () => {
    const body = await get(`/v1/addresses?addresses=${asked.join(',')}`, 'getAddresses');
    const singles = await Promise.all(
      distinct.map(async (a) => (await get(`/v1/addresses/${a}`, 'getAddress')).address),
    );
    expect(body.addresses).toEqual(singles);
    expect(body.addresses.map((a: any) => a.address)).toEqual(distinct);
    const never = body.addresses.find((a: any) => a.address === unseen(1));
    expect(never).toMatchObject({ seen: false, balance: '0', txCount: 0, firstSeen: null });
  });

  it('UTXOs: the union of the single lists, newest first, across pages', async () => {
    const expected: any[] = [];
    for (const address of distinct) {
      const { items } = await all(`/v1/addresses/${address}/utxos`, 'listAddressUtxos', 'utxos', 100);
      expected.push(...items.map((u) => ({ ...u, address })));
    }
    expected.sort(byPosition);
    expect(expected.length).toBeGreaterThan(14);
    const { items, pages } = await all(
      `/v1/addresses/utxos?addresses=${asked.join(',')}`,
      'listMultiAddressUtxos',
      'utxos',
      7,
    );
    expect(pages).toBeGreaterThan(2);
    expect(items).toEqual(expected);
  });

  it('history: the single histories merged, each transaction once with its amounts summed, across pages', async () => {
    const byTxid = new Map<string, any>();
    for (const address of distinct) {
      const { items } = await all(`/v1/addresses/${address}/txs`, 'listAddressTxs', 'txs', 100);
      for (const { received, sent, net: _net, balanceAfter: _b, ...tx } of items) {
        const row = byTxid.get(tx.txid) ?? { ...tx, received: 0n, sent: 0n, addresses: [] };
        row.received += BigInt(received);
        row.sent += BigInt(sent);
        row.addresses.push(address);
        byTxid.set(tx.txid, row);
      }
    }
    const expected = [...byTxid.values()]
      .map((r) => ({
        ...r,
        received: String(r.received),
        sent: String(r.sent),
        net: String(r.received - r.sent),
      }))
      .sort(byPosition);
    // What the test is about: transactions that several of the asked addresses appear in.
    expect(expected.some((t) => t.addresses.length > 1)).toBe(true);
    const { items, pages } = await all(
      `/v1/addresses/txs?addresses=${asked.join(',')}`,
      'listMultiAddressTxs',
      'txs',
      6,
    );
    expect(pages).toBeGreaterThan(3);
    expect(items).toEqual(expected);
  });

  it('pages by cursor only: a legacy offset would make every address read up to 10,000 more rows', async () => {
    for (const list of ['txs', 'utxos']) {
      const res = await f.get(`/v1/addresses/${list}?addresses=${asked.join(',')}&limit=4&offset=5`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(
        'offset is not accepted on a list merged from many addresses: follow pagination.nextCursor',
      );
    }
    // offset=0 asks for nothing a first page does not give.
    const first = await get(`/v1/addresses/txs?addresses=${asked.join(',')}&limit=4`, 'listMultiAddressTxs');
    const zero = await get(
      `/v1/addresses/txs?addresses=${asked.join(',')}&limit=4&offset=0`,
      'listMultiAddressTxs',
    );
    expect(zero.txs).toEqual(first.txs);
  });

  it('refuses bad lists with the contract envelope, naming what is wrong', async () => {
    const cases: [string, RegExp][] = [
      [
        `/v1/addresses?addresses=${distinct[0]},short`,
        /"short" is not an address: address must be 14 to 130/,
      ],
      [
        `/v1/addresses/txs?addresses=${distinct[0]},x-y_z_not_an_address`,
        /"x-y_z_not_an_address" is not an address/,
      ],
      ['/v1/addresses/utxos?addresses=', /at least one address/],
      ['/v1/addresses/utxos?addresses=,,', /at least one address/],
      ['/v1/addresses/txs', /addresses is required/],
      [
        `/v1/addresses?addresses=${Array.from({ length: 51 }, (_, i) => unseen(i)).join(',')}`,
        /names 51 distinct addresses; at most 50 per request without an API key \(200 with one\)/,
      ],
      [`/v1/addresses/txs?addresses=${distinct[0]}&addresses=${distinct[1]}`, /given more than once/],
    ];
    for (const [path, message] of cases) {
      const res = await f.get(path);
      expect({ path: path.slice(0, 90), status: res.status }).toEqual({
        path: path.slice(0, 90),
        status: 400,
      });
      expect(res.body).toMatchObject({
        ok: false,
        error: expect.stringMatching(message),
        meta: expect.any(Object),
      });
    }
    // 50 distinct (a repeat does not count) is within the anonymous limit.
    const fifty = [...Array.from({ length: 50 }, (_, i) => unseen(i)), unseen(0)];
    const ok = await get(`/v1/addresses?addresses=${fifty.join(',')}`, 'getAddresses');
    expect(ok.addresses).toHaveLength(50);
  });

  it('binds cursors to the set of addresses, not to the order they are named in', async () => {
    const page = await get(
      `/v1/addresses/txs?addresses=${distinct.join(',')}&limit=3`,
      'listMultiAddressTxs',
    );
    const cursor = encodeURIComponent(page.pagination.nextCursor);
    const reordered = [...distinct].reverse().join(',');
    const next = await f.get(`/v1/addresses/txs?addresses=${reordered}&limit=3&cursor=${cursor}`);
    expect(next.status).toBe(200);
    const other = await f.get(
      `/v1/addresses/txs?addresses=${distinct.slice(1).join(',')}&limit=3&cursor=${cursor}`,
    );
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('cursor must be a valid pagination cursor');
  });

  describe('over HTTP, with a rate limiter and API keys', () => {
    let server: Awaited<ReturnType<typeof serveExplorer>>;
    const key = generateApiKey().key;
    const identity: Identity = { type: 'key', keyId: 'k1', name: 'wallet', tier: 'default' };

    beforeAll(async () => {
      server = await serveExplorer({
        store: createSqlStore(f.db.sql),
        log: createLogger({ level: 'silent' }),
        rateLimiter: createRateLimiter({
          policy: { windowSeconds: 60, anonymous: 100, key: 1000, tiers: {} },
          keyPrefix: `address-lists-${driver}-${Date.now()}`,
        }),
        authenticate: async (k) => {
          if (k !== key) throw new Error('unexpected key');
          return identity;
        },
      });
    });
    afterAll(async () => {
      await server?.close();
    });

    const fetchAs = (path: string, withKey = false) =>
      fetch(`${server.url}${path}`, withKey ? { headers: { 'x-api-key': key } } : {});

    it('costs 1 + ⌈n / 10⌉ rate-limit points for n distinct addresses; a single address costs 1', async () => {
      const remaining = async (path: string) => {
        const res = await fetchAs(path);
        await res.arrayBuffer();
        return Number(res.headers.get('x-ratelimit-remaining'));
      };
      const start = await remaining(`/v1/addresses/${distinct[0]}`);
      const list25 = Array.from({ length: 25 }, (_, i) => unseen(i));
      expect(await remaining(`/v1/addresses?addresses=${list25.join(',')}`)).toBe(start - 4);
      // A repeat is not counted; one address costs 2.
      expect(await remaining(`/v1/addresses/utxos?addresses=${distinct[0]},${distinct[0]}`)).toBe(start - 6);
      expect(await remaining(`/v1/addresses/txs?addresses=${distinct.join(',')}`)).toBe(start - 8);
      // A refused list costs what it asked for.
      const list51 = Array.from({ length: 51 }, (_, i) => unseen(i));
      expect(await remaining(`/v1/addresses?addresses=${list51.join(',')}`)).toBe(start - 8 - 7);
      expect(await remaining(`/v1/addresses/${distinct[0]}`)).toBe(start - 16);
    });

    it('refuses with 429 a request that costs more points than are left', async () => {
      const small = createExplorerApi({
        store: createSqlStore(f.db.sql),
        routes: v1Routes,
        config: { tipCacheMs: 0 },
        rateLimiter: createRateLimiter({
          policy: { windowSeconds: 60, anonymous: 8, key: 1000, tiers: {} },
          keyPrefix: `address-lists-small-${driver}-${Date.now()}`,
        }),
      });
      const ask = async (path: string) => {
        const res = await small.handle(new Request(`http://x${path}`), { clientAddress: '203.0.113.7' });
        return {
          status: res.status,
          remaining: res.headers.get('x-ratelimit-remaining'),
          body: await res.json(),
        };
      };
      const fifty = Array.from({ length: 50 }, (_, i) => unseen(i)).join(',');
      expect(await ask(`/v1/addresses?addresses=${fifty}`)).toMatchObject({ status: 200, remaining: '2' });
      const over = await ask(`/v1/addresses/txs?addresses=${fifty}`);
      expect(over).toMatchObject({ status: 429, remaining: '0', body: { ok: false } });
      expect(over.body.error).toMatch(/rate limit exceeded/);
    });

    it('allows 200 addresses with an API key (a URL of about 12.6 KB), 201 are refused', async () => {
      const list200 = Array.from({ length: 200 }, (_, i) => unseen(i));
      const anon = await fetchAs(`/v1/addresses?addresses=${list200.join(',')}`);
      expect(anon.status).toBe(400);
      expect((await anon.json()).error).toMatch(/names 200 distinct addresses; at most 50/);
      const keyed = await fetchAs(`/v1/addresses?addresses=${list200.join(',')}`, true);
      expect(keyed.status).toBe(200);
      expect((await keyed.json()).addresses).toHaveLength(200);
      const over = await fetchAs(
        `/v1/addresses/utxos?addresses=${[...list200, unseen(200)].join(',')}`,
        true,
      );
      expect(over.status).toBe(400);
      expect((await over.json()).error).toMatch(
        /names 201 distinct addresses; at most 200 per request with an API key/,
      );
    });

    it('never serves an anonymous caller a list answered for an API key (the response cache keeps them apart)', async () => {
      const list60 = Array.from({ length: 60 }, (_, i) => unseen(i)).join(',');
      for (const path of [`/v1/addresses?addresses=${list60}`, `/v1/addresses/utxos?addresses=${list60}`]) {
        const keyed = await fetchAs(path, true);
        expect(keyed.status).toBe(200);
        await keyed.arrayBuffer();
        // At once, at the same tip: the keyed body is in the response cache under this very URL.
        const anon = await fetchAs(path);
        expect(anon.status).toBe(400);
        expect((await anon.json()).error).toMatch(/names 60 distinct addresses; at most 50/);
        // And a keyed caller still shares what another keyed caller rendered (unless the cache's second passed).
        const again = await fetchAs(path, true);
        expect(again.status).toBe(200);
        await again.arrayBuffer();
        // (The same holds with a pinned clock, where it cannot pass by the cache's second running out: core's
        // create-api test.)
      }
    });

    it('answers a URL past MAX_URL_LENGTH with the 414 envelope, and one past the header limit with 431', async () => {
      const list230 = Array.from({ length: 230 }, (_, i) => unseen(i));
      const long = await fetchAs(`/v1/addresses/txs?addresses=${list230.join(',')}`, true);
      expect(long.status).toBe(414);
      expect(await long.json()).toMatchObject({
        ok: false,
        error: 'the request URL is longer than 14336 bytes',
        meta: { indexedTip: f.devnet.height() },
      });
      expect(long.headers.get('x-ratelimit-limit')).toBe('1000');
      const list270 = Array.from({ length: 270 }, (_, i) => unseen(i));
      const huge = await fetchAs(`/v1/addresses/txs?addresses=${list270.join(',')}`, true);
      expect(huge.status).toBe(431);
      expect(await huge.json()).toMatchObject({ ok: false, error: 'the request headers are too large' });
    });
  });
});
