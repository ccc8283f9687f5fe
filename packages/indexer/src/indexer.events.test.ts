import type { ChainEvent } from '@explorer/core';
import { readEventsAfter } from '@explorer/db';
import type { Devnet } from '@explorer/devnet';
import { pgSkipReason, type TestDatabase, testDrivers } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIndexer, type Indexer } from './indexer.js';
import { createNodeClient } from './node-client.js';
import { type FreshIndex, freshIndex, type ServedDevnet, serveDevnet } from './test-support/fixtures.js';

const skip = pgSkipReason();
if (skip) console.log(`[indexer events] ${skip}`);

describe.each(testDrivers())('the indexer’s live events (%s)', (driver) => {
  let devnet: Devnet;
  let served: ServedDevnet;
  let index: FreshIndex;
  let db: TestDatabase;
  let indexer: Indexer;
  const heard: ChainEvent[] = [];

  beforeAll(async () => {
    served = await serveDevnet({ seed: `events-${driver}`, blocks: 60, txPerBlock: 5, coinbaseMaturity: 5 });
    devnet = served.devnet;
    index = await freshIndex(driver, {
      node: served.node,
      definitions: served.definitions,
      batchTxTarget: 40,
      events: { liveWindow: 5, retain: 1_000, onEvents: (e) => heard.push(...e) },
    });
    ({ db, indexer } = index);
  });
  afterAll(async () => {
    // The indexer a test started in place of the first one is stopped too.
    await indexer?.stop();
    await index?.close();
    await served?.close();
  });

  it('records block and address events only for blocks near the tip, in order, as committed', async () => {
    await indexer.syncOnce();
    const logged = await readEventsAfter(db.sql, '0');
    expect(logged).toEqual(heard);
    const blocks = logged.filter((e) => e.type === 'block');
    const tip = devnet.height();
    expect(blocks.map((e) => e.data.height)).toEqual([tip - 4, tip - 3, tip - 2, tip - 1, tip]);
    expect(blocks.at(-1)?.data).toMatchObject({ hash: devnet.tipHash(), confirmations: 1, nextHash: null });
    const ids = logged.map((e) => BigInt(e.id));
    expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(ids);
    // Each address event lists every address the block touched, with its balance after the block.
    const address = logged.find((e) => e.type === 'address');
    expect(address?.type).toBe('address');
    if (address?.type !== 'address') return;
    const first = address.data.activity[0]!;
    const [row] = await db.sql.query<{ balance: string }>(
      `SELECT h.balance::text AS balance FROM address_txs h JOIN addresses a ON a.id = h.address_id
       WHERE a.address = $1 AND h.tx_no >> 24 = $2 ORDER BY h.tx_no DESC LIMIT 1`,
      [first.address, address.data.height],
    );
    expect(first.balance).toBe(row?.balance);
  });

  it('records one reorg event naming the removed and added blocks, then the new branch’s block events', async () => {
    const before = heard.length;
    const result = devnet.reorg(3, { extra: 1 });
    await indexer.syncOnce();
    const after = heard.slice(before);
    const reorgs = after.filter((e) => e.type === 'reorg');
    expect(reorgs).toHaveLength(1);
    const reorg = reorgs[0]!;
    if (reorg.type !== 'reorg') return;
    expect(reorg.data.removed.map((b) => b.hash)).toEqual(result.removed);
    expect(reorg.data.added.map((b) => b.height)).toEqual([
      reorg.data.forkHeight + 1,
      reorg.data.forkHeight + 2,
      reorg.data.forkHeight + 3,
      reorg.data.forkHeight + 4,
    ]);
    const blocks = after
      .filter((e) => e.type === 'block')
      .map((e) => (e.type === 'block' ? e.data.hash : ''));
    expect(blocks).toEqual(reorg.data.added.map((b) => b.hash));
    expect(after[0]).toBe(reorg);
  });

  it('a reorg found by a fresh indexer (a restart, a resume after a crash) deeper than the live window: the event, then every block it names', async () => {
    await indexer.stop();
    const result = devnet.reorg(12, { extra: 2 });
    // A new indexer on the same database, as a restarted process has: it rolls back in the event's transaction.
    const fresh: ChainEvent[] = [];
    const before = (await readEventsAfter(db.sql, '0')).at(-1)!.id;
    indexer = createIndexer({
      sql: db.sql,
      node: createNodeClient({ url: served.url }),
      definitions: served.definitions,
      batchTxTarget: 40,
      events: { liveWindow: 5, retain: 1_000, onEvents: (e) => fresh.push(...e) },
    });
    await indexer.syncOnce();
    const logged = (await readEventsAfter(db.sql, before)).filter((e) => e.type !== 'address');
    expect(logged).toEqual(fresh.filter((e) => e.type !== 'address'));
    const [reorg, ...blocks] = logged;
    if (reorg?.type !== 'reorg') throw new Error(`expected a reorg event first, got ${reorg?.type}`);
    expect(reorg.data.removed.map((b) => b.hash)).toEqual(result.removed);
    expect(reorg.data.added.map((b) => b.hash)).toEqual(result.added);
    // 14 blocks, more than the live window of 5: each named block follows as a block event all the same.
    expect(blocks.map((e) => (e.type === 'block' ? e.data.hash : e.type))).toEqual(result.added);
  });
});
