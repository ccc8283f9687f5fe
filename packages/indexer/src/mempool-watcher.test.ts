import { type ChainEvent, createExplorerApi, type ExplorerApi, v1Routes } from '@explorer/core';
import { createSqlStore, eventLogBounds, readEventsAfter, readMempoolState } from '@explorer/db';
import type { Devnet, MempoolTx, RpcServerHandle } from '@explorer/devnet';
import { pgSkipReason, type TestDatabase, testDrivers, waitFor } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Indexer } from './indexer.js';
import { createMempoolWatcher, type MempoolWatcher } from './mempool-watcher.js';
import { createNodeClient, type NodeClient } from './node-client.js';
import { freshIndex, serveDevnet } from './test-support/fixtures.js';

const skip = pgSkipReason();
if (skip) console.log(`[mempool watcher] ${skip}`);

// The documented method (docs/fees.md), written out again here from its statement rather than its code: a rate
// is fee × 1000 ÷ vsize rounded up, in thousandths; the target for n blocks is the rate r such that the
// transactions paying more than r hold fewer than n × C vbytes and those paying r or more at least n × C.
const milliOf = (fee: number, vsize: number) =>
  Number((BigInt(fee) * 1000n + BigInt(vsize) - 1n) / BigInt(vsize));

function expectedFees(
  mempool: { fee: number; vsize: number }[],
  blockFloors: number[],
  blockVsize: number,
  blockSeconds: number,
) {
  const floors = [...blockFloors].sort((a, b) => a - b);
  const mid = floors.length >> 1;
  const median =
    floors.length === 0
      ? null
      : floors.length % 2
        ? floors[mid]!
        : Math.ceil((floors[mid - 1]! + floors[mid]!) / 2);
  const economy = Math.max(median ?? 0, 1000); // neither devnet dialect reports a minimum under 1 per vbyte
  const rates = [...new Set(mempool.map((t) => milliOf(t.fee, t.vsize)))].sort((a, b) => b - a);
  const vsizeAtOrAbove = (r: number) =>
    mempool.filter((t) => milliOf(t.fee, t.vsize) >= r).reduce((s, t) => s + t.vsize, 0);
  const target = (n: number) => {
    const r = rates.find((x) => vsizeAtOrAbove(x) >= n * blockVsize);
    return Math.max(r ?? economy, economy) / 1000;
  };
  const halfHour = Math.ceil(1800 / blockSeconds);
  const hour = Math.ceil(3600 / blockSeconds);
  return {
    nextBlock: target(1),
    halfHour: target(halfHour),
    hour: target(hour),
    economy: economy / 1000,
    minimum: 1,
    blockTargets: { halfHour, hour },
  };
}

// Both dialects (pearld's bytes, Core's JSON) and every driver, in as few databases as cover them: Pearl on
// the first driver, Core's dialect on the second when there is one (else on the first too).
const drivers = testDrivers();
const cases = [
  [drivers[0]!, 'pearl'],
  [drivers[1] ?? drivers[0]!, 'bitcoin'],
] as const;

describe.each(cases)('the mempool watcher (%s, %s)', (driver, dialect) => {
  let devnet: Devnet;
  let server: RpcServerHandle;
  let node: NodeClient;
  let db: TestDatabase;
  let indexer: Indexer;
  let watcher: MempoolWatcher;
  const heard: ChainEvent[] = [];
  /** The last event the indexer's initial sync recorded: the watcher's come after it. */
  let synced = '0';
  let api: ExplorerApi;
  const get = async (path: string) => {
    const res = await api.handle(new Request(`http://127.0.0.1${path}`));
    return { status: res.status, body: (await res.json()) as any };
  };
  /** The lowest rate (thousandths, rounded up) each of the last 10 blocks included, from the API's tx lists. */
  const blockFloors = async () => {
    const floors: number[] = [];
    for (let h = devnet.height(); h > devnet.height() - 10; h--) {
      const { body } = await get(`/v1/blocks/${h}/txs?limit=100`);
      const rates = body.txs
        .filter((t: any) => !t.isCoinbase)
        .map((t: any) => milliOf(Number(t.fee), t.vsize));
      if (rates.length > 0) floors.push(Math.min(...rates));
    }
    return floors;
  };
  /** Amount of a node JSON `value` (coins) in base units. */
  const units = (coins: number) => BigInt(Math.round(coins * 1e8));
  const nodeTx = (txid: string) => node.call<any>('getrawtransaction', [txid, true]);
  /**
   * What each mempool transaction pays to and spends from each address, from the node's own rendering of the
   * transactions and of what they spend: address → txid → received, sent.
   */
  const nodeParts = async () => {
    const txids = await node.call<string[]>('getrawmempool');
    const parts = new Map<string, Map<string, { received: bigint; sent: bigint }>>();
    const part = (address: string, txid: string) => {
      const byTx = parts.get(address) ?? new Map<string, { received: bigint; sent: bigint }>();
      parts.set(address, byTx);
      const p = byTx.get(txid) ?? { received: 0n, sent: 0n };
      byTx.set(txid, p);
      return p;
    };
    for (const txid of txids) {
      const tx = await nodeTx(txid);
      for (const o of tx.vout) {
        const a = o.scriptPubKey?.address;
        if (a) part(a, txid).received += units(o.value);
      }
      for (const i of tx.vin) {
        const prev = (await nodeTx(i.txid)).vout[i.vout];
        const a = prev.scriptPubKey?.address;
        if (a) part(a, txid).sent += units(prev.value);
      }
    }
    return { txids, parts };
  };
  /** Every page of an address's mempool list, followed by cursor. */
  const mempoolOf = async (address: string, limit = 100) => {
    const first = await get(`/v1/addresses/${address}/mempool?limit=${limit}`);
    expect(first.status).toBe(200);
    const txs = [...first.body.txs];
    let next = first.body.pagination.nextCursor;
    while (next) {
      const page = await get(`/v1/addresses/${address}/mempool?limit=${limit}&cursor=${next}`);
      expect(page.status).toBe(200);
      txs.push(...page.body.txs);
      next = page.body.pagination.nextCursor;
    }
    return { mempool: first.body.mempool, txs };
  };
  /**
   * Checks every address's mempool list and totals against the node, and that the table holds nothing else;
   * returns each address's balance including the mempool.
   */
  const expectMatchesNode = async () => {
    const { txids, parts } = await nodeParts();
    const verbose = await node.call<Record<string, any>>('getrawmempool', [true]);
    let rows = 0;
    const withMempool = new Map<string, bigint>();
    for (const [address, byTx] of parts) {
      const { mempool, txs } = await mempoolOf(address, 2);
      const confirmed = BigInt((await get(`/v1/addresses/${address}`)).body.address.balance);
      let received = 0n;
      let sent = 0n;
      for (const p of byTx.values()) {
        received += p.received;
        sent += p.sent;
      }
      expect(mempool).toMatchObject({
        address,
        balance: confirmed.toString(),
        mempoolReceived: received.toString(),
        mempoolSent: sent.toString(),
        mempoolDelta: (received - sent).toString(),
        balanceWithMempool: (confirmed + received - sent).toString(),
        mempoolTxCount: byTx.size,
      });
      expect(mempool.updatedAt).toEqual(expect.any(String));
      // Newest first: by the time the node first saw each, then txid.
      const order = [...txs].sort((a, b) => b.firstSeen - a.firstSeen || (a.txid < b.txid ? 1 : -1));
      expect(txs.map((t: any) => t.txid)).toEqual(order.map((t: any) => t.txid));
      expect(new Set(txs.map((t: any) => t.txid))).toEqual(new Set(byTx.keys()));
      for (const t of txs) {
        const p = byTx.get(t.txid)!;
        const e = verbose[t.txid]!;
        const fee = units(e.fees?.base ?? e.fee);
        expect(t).toEqual({
          txid: t.txid,
          firstSeen: e.time,
          received: p.received.toString(),
          sent: p.sent.toString(),
          net: (p.received - p.sent).toString(),
          fee: fee.toString(),
          vsize: e.vsize,
          feeRate: Math.round((Number(fee) / e.vsize) * 100) / 100,
        });
      }
      rows += byTx.size;
      withMempool.set(address, confirmed + received - sent);
    }
    const [count] = await db.sql.query<{ n: number }>('SELECT count(*)::int4 AS n FROM mempool_address_txs');
    expect(count?.n).toBe(rows);
    return { txids, parts, withMempool };
  };
  /** What the coinbases of blocks above `height` paid to each address. */
  const coinbasePaid = async (above: number) => {
    const paid = new Map<string, bigint>();
    for (let h = above + 1; h <= devnet.height(); h++) {
      const { body } = await get(`/v1/blocks/${h}/coinbase-outputs`);
      for (const o of body.outputs)
        if (o.address) paid.set(o.address, (paid.get(o.address) ?? 0n) + BigInt(o.value));
    }
    return paid;
  };

  beforeAll(async () => {
    // mempoolSize 0: the mempool holds only what a test puts in it.
    const served = await serveDevnet(
      { seed: `mempool-${dialect}`, dialect, blocks: 30, txPerBlock: 4, coinbaseMaturity: 5, mempoolSize: 0 },
      { attempts: 2, backoffMs: 20 },
    );
    ({ devnet, server, node } = served);
    ({ db, indexer } = await freshIndex(driver, { node, definitions: served.definitions }));
    api = createExplorerApi({
      store: createSqlStore(db.sql),
      routes: v1Routes,
      config: { publicBaseUrl: 'http://127.0.0.1:3000', tipCacheMs: 0, responseCacheMs: 0 },
    });
    await indexer.syncOnce();
    synced = (await eventLogBounds(db.sql)).latest ?? '0';
    // Projected blocks of 500 vB and a 600-second interval: targets of 1, 3 and 6 blocks that a few dozen
    // transactions fill.
    watcher = createMempoolWatcher({
      sql: db.sql,
      node,
      blockVsize: 500,
      blockSeconds: 600,
      onEvents: (e) => heard.push(...e),
    });
  });
  afterAll(async () => {
    await watcher?.stop();
    await indexer?.stop();
    await server?.close();
    await db?.drop();
  });

  it('serves recent blocks’ floor before any reading, then sets its baseline on an empty mempool', async () => {
    const floors = await blockFloors();
    expect(floors.length).toBeGreaterThan(3);
    const before = await get('/v1/fees');
    expect(before.status).toBe(200);
    // The chain's own interval, as the indexer recorded it: Pearl's 194 s, Core's 600 s.
    const seconds = dialect === 'pearl' ? 194 : 600;
    expect(before.body.fees).toMatchObject(expectedFees([], floors, 1_000_000, seconds));
    expect(before.body.fees.basis).toMatchObject({
      mempoolRead: false,
      blockSeconds: seconds,
      blockVsize: 1_000_000,
    });

    expect(await node.call('getrawmempool')).toEqual([]);
    const first = await watcher.readOnce();
    expect(first).toMatchObject({ baseline: true, added: [], removed: [], events: [] });
    expect(first.fees).toMatchObject(expectedFees([], floors, 500, 600));
    expect(first.fees.basis).toMatchObject({ mempoolRead: true, mempoolTxs: 0, projectedBlocks: 0 });
    expect((await get('/v1/fees')).body.fees).toEqual(first.fees);
    expect(heard).toEqual([]);
  });

  it('answers what the documented method gives for a mempool of known fee rates', async () => {
    const rates = [
      1.5, 3, 7.25, 12, 20, 35, 50, 80, 2, 4, 4, 9.999, 15, 25, 60, 1, 5, 6, 11, 18, 33, 44, 2.5, 70,
    ];
    const added: MempoolTx[] = rates.flatMap((feeRate) => devnet.addTxs(1, { feeRate }));
    expect(added).toHaveLength(rates.length);
    // The devnet reports each fee as the node does.
    const verbose = await node.call<Record<string, any>>('getrawmempool', [true]);
    for (const t of added) {
      const e = verbose[t.txid]!;
      expect(units(e.fees?.base ?? e.fee)).toBe(BigInt(t.fee));
      expect(e.vsize).toBe(t.vsize);
      expect(t.fee).toBeGreaterThanOrEqual(Math.ceil(rates[added.indexOf(t)]! * t.vsize));
    }
    const total = added.reduce((s, t) => s + t.vsize, 0);
    expect(total).toBeGreaterThan(6 * 500); // fills the 6-block target

    const reading = await watcher.readOnce();
    const expected = expectedFees(added, await blockFloors(), 500, 600);
    expect(reading.fees).toMatchObject(expected);
    // The mempool decides: the next block costs more than waiting for the floor.
    expect(expected.nextBlock).toBeGreaterThan(expected.economy);
    expect(reading.fees.basis).toMatchObject({
      mempoolTxs: added.length,
      mempoolVsize: total,
      projectedBlocks: Math.ceil(total / 500),
    });
    const answer = await get('/v1/fees');
    expect(answer.body.fees).toEqual(reading.fees);
    expect((await readMempoolState(db.sql))?.fees).toEqual(reading.fees);

    // Blockbook's form of the same estimates, for wallets that read it: coins per 1,000 vbytes, rounded up to a
    // whole base unit, as Blockbook writes amounts (no trailing zeros).
    const f = reading.fees;
    const { halfHour: half, hour } = f.blockTargets;
    const coins = (rate: number) =>
      (Math.ceil(Number((rate * 1000).toFixed(3))) / 1e8).toFixed(8).replace(/\.?0+$/, '');
    const targets: [number, number][] = [
      [1, f.nextBlock],
      [2, half >= 2 ? f.halfHour : f.hour],
      [half, f.halfHour],
      [half + 1, half + 1 <= hour ? f.hour : f.economy],
      [hour, f.hour],
      [hour + 1, f.economy],
      [1008, f.economy],
    ];
    for (const [blocks, rate] of targets) {
      for (const path of [
        `/api/v1/estimatefee/${blocks}`,
        `/api/v2/estimatefee/${blocks}?conservative=false`,
      ]) {
        const r = await get(path);
        expect(r.status, path).toBe(200);
        // As it is, without the envelope: the one member Blockbook's clients read.
        expect(r.body, path).toEqual({ result: coins(rate) });
      }
    }
    expect(Number((await get('/api/v1/estimatefee/1')).body.result)).toBeGreaterThan(
      Number((await get('/api/v1/estimatefee/1008')).body.result),
    );
    for (const bad of ['0', '1009', 'x', '1.5', '-1', '99999']) {
      const r = await get(`/api/v1/estimatefee/${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.body.ok, bad).toBe(false);
      expect(r.body.error, bad).toMatch(/blocks must be a number of blocks from 1 to 1008/);
    }
    const maybe = await get('/api/v1/estimatefee/2?conservative=maybe');
    expect(maybe.status).toBe(400);
    expect(maybe.body.error).toMatch(/conservative must be true or false/);
  });

  it('recorded a mempool event with the added txids, and the addresses’ unconfirmed activity', async () => {
    const events = await readEventsAfter(db.sql, synced);
    expect(events).toEqual(heard);
    expect(events.map((e) => e.type)).toEqual(['mempool', 'address']);
    const [mempool, address] = events;
    if (mempool?.type !== 'mempool' || address?.type !== 'address') throw new Error('unexpected events');
    const mempoolTxids = (await node.call<string[]>('getrawmempool')).sort();
    expect([...mempool.data.added].sort()).toEqual(mempoolTxids);
    expect(mempool.data).toMatchObject({
      removed: [],
      addedCount: mempoolTxids.length,
      removedCount: 0,
      count: mempoolTxids.length,
    });

    // What each address received and sent, from the node's own rendering of the txs and of what they spend.
    const want = new Map<string, { received: bigint; sent: bigint; txids: Set<string> }>();
    const row = (a: string) => {
      const r = want.get(a) ?? { received: 0n, sent: 0n, txids: new Set<string>() };
      want.set(a, r);
      return r;
    };
    for (const txid of mempoolTxids) {
      const tx = await nodeTx(txid);
      for (const o of tx.vout) {
        const a = o.scriptPubKey?.address;
        if (a) {
          row(a).received += units(o.value);
          row(a).txids.add(txid);
        }
      }
      for (const i of tx.vin) {
        const prev = (await nodeTx(i.txid)).vout[i.vout];
        const a = prev.scriptPubKey?.address;
        if (a) {
          row(a).sent += units(prev.value);
          row(a).txids.add(txid);
        }
      }
    }
    expect(address.data).toMatchObject({ confirmed: false, height: null, blockHash: null });
    expect(address.data.activity.map((a) => a.address)).toEqual([...want.keys()].sort());
    expect(address.data.activity.some((a) => a.sent !== '0')).toBe(true);
    for (const a of address.data.activity) {
      const w = want.get(a.address)!;
      const confirmed = (await get(`/v1/addresses/${a.address}`)).body.address.balance;
      expect(a).toEqual({
        address: a.address,
        txids: a.txids,
        received: w.received.toString(),
        sent: w.sent.toString(),
        balance: confirmed,
        mempoolDelta: (w.received - w.sent).toString(),
      });
      expect(new Set(a.txids)).toEqual(w.txids);
    }
  });

  it('lists each address’s mempool transactions and its balance including them, as the node has them', async () => {
    const { parts } = await expectMatchesNode();
    expect(parts.size).toBeGreaterThan(2);
    // An address with nothing in the mempool: an empty list and zero mempool totals; a malformed one: 400.
    const unseen = 'x'.repeat(40);
    const none = await get(`/v1/addresses/${unseen}/mempool`);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({
      txs: [],
      mempool: { balance: '0', mempoolDelta: '0', balanceWithMempool: '0', mempoolTxCount: 0 },
    });
    for (const bad of ['short', "1'%20OR%201=1--"]) {
      const r = await get(`/v1/addresses/${bad}/mempool`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ ok: false, error: expect.stringMatching(/address/) });
      expect(r.body.error).toBe((await get(`/v1/addresses/${bad}`)).body.error);
    }
    const [address] = parts.keys();
    expect((await get(`/v1/addresses/${address}/mempool?cursor=nope`)).status).toBe(400);
  });

  it('records the txids a block took out of the mempool as removed', async () => {
    const before = heard.length;
    const pending = await node.call<string[]>('getrawmempool');
    const earlier = await expectMatchesNode();
    const height = devnet.height();
    const mined = pending.slice(0, 5);
    devnet.mineTxs(mined);
    await indexer.syncOnce();
    // The block write took the mined transactions out of the lists at once, so no balance counts them twice:
    // before the next reading, each balance including the mempool is what it was (plus the new coinbase).
    const paid = await coinbasePaid(height);
    const stillPending = new Set(await node.call<string[]>('getrawmempool'));
    for (const [address, total] of earlier.withMempool) {
      const { mempool, txs } = await mempoolOf(address);
      for (const t of txs) expect(stillPending.has(t.txid)).toBe(true);
      expect(BigInt(mempool.balanceWithMempool)).toBe(total + (paid.get(address) ?? 0n));
    }
    // The block also took the unconfirmed txs those spend: whatever left the mempool is what was mined.
    const now = await node.call<string[]>('getrawmempool');
    const gone = pending.filter((t) => !now.includes(t));
    expect(gone.length).toBeGreaterThanOrEqual(mined.length);
    expect(gone).toEqual(expect.arrayContaining(mined));
    const reading = await watcher.readOnce();
    expect(reading.added).toEqual([]);
    expect([...reading.removed].sort()).toEqual([...gone].sort());
    const after = heard.slice(before);
    expect(after.map((e) => e.type)).toEqual(['mempool']);
    expect(after[0]).toMatchObject({
      type: 'mempool',
      data: { added: [], addedCount: 0, removedCount: gone.length, count: now.length },
    });
    if (after[0]?.type === 'mempool') expect([...after[0].data.removed].sort()).toEqual([...gone].sort());
    // Nothing changed: the reading is stored, no event recorded.
    expect((await watcher.readOnce()).events).toEqual([]);
    expect(heard.length).toBe(before + 1);
    await expectMatchesNode();
  });

  it('rebuilds the rows from the whole mempool after a restart, and after a rollback', async () => {
    await watcher.stop();
    // While the watcher is down: transactions enter, a block takes some, and the table is left wrong.
    devnet.addTxs(6, { feeRate: 9 });
    devnet.mineTxs((await node.call<string[]>('getrawmempool')).slice(0, 2));
    await indexer.syncOnce();
    await db.sql.query(
      'DELETE FROM mempool_address_txs WHERE txid IN (SELECT txid FROM mempool_address_txs LIMIT 3)',
    );
    await db.sql.query(
      `INSERT INTO mempool_address_txs (address, first_seen, txid, received, sent, fee, vsize)
       VALUES ('staleaddress0000000000', 1, decode(repeat('ab', 32), 'hex'), 5, 0, 1, 100)`,
    );
    const restarted = createMempoolWatcher({ sql: db.sql, node, blockVsize: 500, blockSeconds: 600 });
    const first = await restarted.readOnce();
    expect(first).toMatchObject({ baseline: true, rebuilt: true, events: [] });
    await expectMatchesNode();
    expect((await get('/v1/addresses/staleaddress0000000000/mempool')).body.txs).toEqual([]);
    // The next reading only applies what changed.
    devnet.addTxs(2, { feeRate: 30 });
    const next = await restarted.readOnce();
    expect(next).toMatchObject({ baseline: false, rebuilt: false });
    expect(next.added).toHaveLength(2);
    await expectMatchesNode();

    // A block confirms two, and a reorg returns them to the mempool before the next reading: the watcher never
    // sees them leave nor enter, so after the rollback it makes its rows again from the whole mempool.
    const back = (await node.call<string[]>('getrawmempool')).slice(0, 2);
    devnet.mineTxs(back);
    await indexer.syncOnce();
    for (const txid of back) expect((await get(`/v1/txs/${txid}`)).status).toBe(200);
    devnet.reorg(1, { moveTxs: false });
    await indexer.syncOnce();
    expect(await node.call<string[]>('getrawmempool')).toEqual(expect.arrayContaining(back));
    const afterReorg = await restarted.readOnce();
    expect(afterReorg.rebuilt).toBe(true);
    for (const txid of back) expect(afterReorg.added.concat(afterReorg.removed)).not.toContain(txid);
    const { withMempool } = await expectMatchesNode();
    expect((await restarted.readOnce()).rebuilt).toBe(false);

    // Everything mined: the lists empty, and each confirmed balance is the balance the mempool promised.
    const height = devnet.height();
    const all = await node.call<string[]>('getrawmempool');
    devnet.mineTxs(all);
    await indexer.syncOnce();
    expect(await node.call<string[]>('getrawmempool')).toEqual([]);
    const paid = await coinbasePaid(height);
    for (const [address, total] of withMempool) {
      const { mempool, txs } = await mempoolOf(address);
      expect(txs).toEqual([]);
      const expected = (total + (paid.get(address) ?? 0n)).toString();
      expect(mempool).toMatchObject({ balance: expected, mempoolTxCount: 0, balanceWithMempool: expected });
    }
    const last = await restarted.readOnce();
    expect([...last.removed].sort()).toEqual([...all].sort());
    const [left] = await db.sql.query<{ n: number }>('SELECT count(*)::int4 AS n FROM mempool_address_txs');
    expect(left?.n).toBe(0);
  });

  it('keeps running while the node is away, and reads again when it returns', async () => {
    const port = server.port;
    await server.close();
    const quick = createMempoolWatcher({
      sql: db.sql,
      node: createNodeClient({ url: `http://127.0.0.1:${port}/`, attempts: 1 }),
      pollMs: 20,
    });
    await quick.start();
    await waitFor('failed readings', async () => quick.status().failures >= 2);
    expect(quick.status()).toMatchObject({ running: true, readings: 0 });
    expect(quick.status().error).toMatch(/unreachable/);
    server = await devnet.listen({ port });
    await waitFor('a reading after the node returned', async () => quick.status().readings >= 1);
    expect(quick.status()).toMatchObject({ failures: 0, error: null });
    await quick.stop();
    expect(quick.status().running).toBe(false);
  });
});
