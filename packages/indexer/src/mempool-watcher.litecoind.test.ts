import { createExplorerApi, type ExplorerApi, v1Routes } from '@explorer/core';
import { createSqlStore } from '@explorer/db';
import {
  type Litecoind,
  litecoindAvailable,
  openTestDatabase,
  startLitecoind,
  type TestDatabase,
  testDrivers,
} from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMempoolWatcher, type MempoolWatcher } from './mempool-watcher.js';
import { createNodeClient, type NodeClient } from './node-client.js';
import { indexOnce } from './test-support/fixtures.js';

// An address's unconfirmed activity against a real node (Litecoin Core regtest): the watcher's rows against the
// node's `getrawmempool` and `getrawtransaction`, and each balance including the mempool against the wallet's
// own unspent outputs counted with zero confirmations.

const unavailable = litecoindAvailable();
if (unavailable) console.log(`[mempool watcher] litecoind tests skipped: ${unavailable}`);
// The production path is PostgreSQL; PGlite stands in where no server answers.
const driver = testDrivers().at(-1)!;

const sats = (coins: number) => BigInt(Math.round(coins * 1e8));

interface NodeTx {
  txid: string;
  vin: { txid?: string; vout?: number }[];
  vout: { n: number; value: number; scriptPubKey: { address?: string; addresses?: string[] } }[];
}
const addressOf = (o: NodeTx['vout'][number]) => o.scriptPubKey.address ?? o.scriptPubKey.addresses?.[0];

describe.skipIf(unavailable !== null)(`an address’s mempool activity against litecoind (${driver})`, () => {
  let node: Litecoind;
  let client: NodeClient;
  let db: TestDatabase;
  let api: ExplorerApi;
  let watcher: MempoolWatcher;
  const wallet: string[] = [];

  const get = async (path: string) => {
    const res = await api.handle(new Request(`http://127.0.0.1${path}`));
    return { status: res.status, body: (await res.json()) as any };
  };
  const sync = () => indexOnce(db.sql, client);
  /** A raw transaction spending exactly `inputs`, signed by the wallet and sent; returns its txid. */
  const spend = async (inputs: { txid: string; vout: number }[], outputs: Record<string, number>) => {
    const raw = await node.rpc<string>('createrawtransaction', inputs, outputs);
    const signed = await node.rpc<{ hex: string; complete: boolean }>('signrawtransactionwithwallet', raw);
    expect(signed.complete).toBe(true);
    return node.rpc<string>('sendrawtransaction', signed.hex);
  };
  /** What the wallet holds at `address` with at least `minconf` confirmations (0: the mempool's included). */
  const unspentAt = async (address: string, minconf: number) => {
    const utxos = await node.rpc<{ amount: number }[]>('listunspent', minconf, 9_999_999, [address]);
    return utxos.reduce((s, u) => s + sats(u.amount), 0n);
  };

  beforeAll(async () => {
    node = await startLitecoind();
    client = createNodeClient({ url: node.rpcUrl });
    db = await openTestDatabase(driver);
    await node.mine(101);
    for (const t of ['bech32', 'legacy', 'p2sh-segwit'] as const) wallet.push(await node.newAddress(t));
    // One payment to both, so the wallet cannot fund one from the other's output.
    await node.rpc('sendmany', '', { [wallet[0]!]: 2, [wallet[1]!]: 1 });
    await node.mine(1);
    await sync();
    api = createExplorerApi({
      store: createSqlStore(db.sql),
      routes: v1Routes,
      config: { publicBaseUrl: 'http://127.0.0.1:3000', tipCacheMs: 0, responseCacheMs: 0 },
    });
    watcher = createMempoolWatcher({ sql: db.sql, node: client });
    expect(await watcher.readOnce()).toMatchObject({ baseline: true, rebuilt: true });
  }, 180_000);
  afterAll(async () => {
    await watcher?.stop();
    await node?.stop();
    await db?.drop();
  });

  it('lists what the node’s mempool does to each address, and the balance the wallet counts with 0 confirmations', async () => {
    const [a, b, c] = wallet as [string, string, string];
    // A pays B and takes its change; B pays C from that unconfirmed output (a chain of two); the wallet pays C.
    const [fromA] = await node.rpc<{ txid: string; vout: number }[]>('listunspent', 1, 9_999_999, [a]);
    const first = await spend([{ txid: fromA!.txid, vout: fromA!.vout }], { [b]: 0.5, [a]: 1.4999 });
    const firstTx = await node.rpc<NodeTx>('getrawtransaction', first, true);
    const toB = firstTx.vout.find((o) => addressOf(o) === b)!;
    const second = await spend([{ txid: first, vout: toB.n }], { [c]: 0.3, [b]: 0.1999 });
    const third = await node.send(c, 0.7);
    const reading = await watcher.readOnce();
    expect([...reading.added].sort()).toEqual([first, second, third].sort());

    // Every address the mempool touches, from the node's own rendering of its transactions and their prevouts.
    const mempool = await client.call<string[]>('getrawmempool');
    const verbose = await client.call<Record<string, any>>('getrawmempool', [true]);
    const want = new Map<string, Map<string, { received: bigint; sent: bigint }>>();
    const part = (address: string, txid: string) => {
      const byTx = want.get(address) ?? new Map();
      want.set(address, byTx);
      const p = byTx.get(txid) ?? { received: 0n, sent: 0n };
      byTx.set(txid, p);
      return p;
    };
    for (const txid of mempool) {
      const tx = await node.rpc<NodeTx>('getrawtransaction', txid, true);
      for (const o of tx.vout) {
        const address = addressOf(o);
        if (address) part(address, txid).received += sats(o.value);
      }
      for (const i of tx.vin) {
        const prev = (await node.rpc<NodeTx>('getrawtransaction', i.txid, true)).vout[i.vout!]!;
        const address = addressOf(prev);
        if (address) part(address, txid).sent += sats(prev.value);
      }
    }
    for (const x of [a, b, c]) expect(want.has(x)).toBe(true);
    for (const [address, byTx] of want) {
      const { status, body } = await get(`/v1/addresses/${address}/mempool?limit=100`);
      expect(status).toBe(200);
      expect(new Set(body.txs.map((t: any) => t.txid))).toEqual(new Set(byTx.keys()));
      for (const t of body.txs) {
        const p = byTx.get(t.txid)!;
        const e = verbose[t.txid];
        expect(t).toMatchObject({
          received: p.received.toString(),
          sent: p.sent.toString(),
          fee: sats(e.fees.base).toString(),
          vsize: e.vsize,
          firstSeen: e.time,
        });
      }
      const confirmed = BigInt((await get(`/v1/addresses/${address}`)).body.address.balance);
      const delta = [...byTx.values()].reduce((s, p) => s + p.received - p.sent, 0n);
      expect(body.mempool).toMatchObject({
        balance: confirmed.toString(),
        mempoolDelta: delta.toString(),
        balanceWithMempool: (confirmed + delta).toString(),
        mempoolTxCount: byTx.size,
      });
    }
    // The wallet's own view of A, B and C: confirmed coins, and coins counting the mempool's.
    for (const x of [a, b, c]) {
      const { body } = await get(`/v1/addresses/${x}/mempool`);
      expect(body.mempool.balanceWithMempool).toBe((await unspentAt(x, 0)).toString());
    }
    // A's confirmed output is spent in the mempool: the wallet no longer lists it, the index still counts it.
    expect((await get(`/v1/addresses/${a}/mempool`)).body.mempool.balance).toBe(sats(2).toString());
    expect(await unspentAt(a, 1)).toBe(0n);
  });

  it('drops the transactions a block confirms, whose balances become what the mempool said', async () => {
    const before = new Map<string, string>();
    for (const x of wallet)
      before.set(x, (await get(`/v1/addresses/${x}/mempool`)).body.mempool.balanceWithMempool);
    await node.mine(1);
    await sync();
    for (const x of wallet) {
      const { body } = await get(`/v1/addresses/${x}/mempool`);
      expect(body.txs).toEqual([]);
      expect(body.mempool).toMatchObject({ balance: before.get(x), balanceWithMempool: before.get(x) });
      expect(body.mempool.balance).toBe((await unspentAt(x, 1)).toString());
    }
    const reading = await watcher.readOnce();
    expect(reading.removed).toHaveLength(3);
    const [left] = await db.sql.query<{ n: number }>('SELECT count(*)::int4 AS n FROM mempool_address_txs');
    expect(left?.n).toBe(0);
  });
});
