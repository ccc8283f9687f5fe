import { canonicalDump, checkInvariants, readIndexerState } from '@explorer/db';
import { createDevnet, type Devnet } from '@explorer/devnet';
import { openTestDatabase, pgSkipReason, type TestDatabase, testDrivers } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIndexer, type Indexer } from './indexer.js';
import { createNodeClient, type NodeClient } from './node-client.js';
import { createDefinitions, type Definitions, parseLabels, parsePools } from './pools.js';
import { devnetDefinitions, freshIndex, serveDevnet } from './test-support/fixtures.js';

const skip = pgSkipReason();
if (skip) console.log(`[indexer] ${skip}`);

/** Indexes the devnet's current chain into a fresh database and returns its dump. */
async function freshDump(driver: 'pg' | 'pglite', node: NodeClient, definitions: Definitions) {
  const { db, indexer, close } = await freshIndex(driver, { node, definitions, batchTxTarget: 300 });
  try {
    await indexer.syncOnce();
    expect(await checkInvariants(db.sql)).toEqual([]);
    return await canonicalDump(db.sql);
  } finally {
    await close();
  }
}

describe.each(testDrivers())('indexer on the devnet (%s)', (driver) => {
  let devnet: Devnet;
  let close: () => Promise<void>;
  let node: NodeClient;
  let db: TestDatabase;
  let indexer: Indexer;
  /** What the indexer told its metrics hook. */
  const told = { blocks: 0, txs: 0, reorgs: [] as number[] };
  let definitions: Definitions;

  beforeAll(async () => {
    ({ devnet, close, node, definitions } = await serveDevnet({
      seed: `indexer-${driver}`,
      blocks: 60,
      txPerBlock: 6,
      coinbaseMaturity: 5,
    }));
    db = await openTestDatabase(driver);
    // Small batches, so a sync spans many transactions and the batch boundaries get exercised.
    indexer = createIndexer({
      sql: db.sql,
      node,
      definitions,
      batchTxTarget: 80,
      maxReorgDepth: 12,
      observe: {
        committed: (blocks, txs) => {
          told.blocks += blocks;
          told.txs += txs;
        },
        reorg: (depth) => told.reorgs.push(depth),
      },
    });
  });
  afterAll(async () => {
    await indexer?.stop();
    await close?.();
    await db?.drop();
  });

  it('syncs to the tip with every invariant holding', async () => {
    const r = await indexer.syncOnce();
    expect(r.applied).toBe(devnet.height() + 1);
    // What the metrics count: every block written, and the transactions in them.
    expect(told.blocks).toBe(devnet.height() + 1);
    expect(told.txs).toBe(
      Number((await db.sql.query<{ n: number }>('SELECT count(*)::int4 AS n FROM txs'))[0]!.n),
    );
    expect(indexer.status()).toMatchObject({
      state: 'synced',
      tipHeight: devnet.height(),
      tipHash: devnet.tipHash(),
      lag: 0,
    });
    expect(await checkInvariants(db.sql)).toEqual([]);
    const truth = devnet.truth();
    const [totals] = await db.sql.query<{ utxo: string; n: number }>(
      `SELECT COALESCE(sum(o.value), 0)::numeric AS utxo, count(*)::int4 AS n FROM utxos u
       JOIN outputs o USING (tx_no, vout) WHERE o.script_type <> 'nulldata'`,
    );
    expect(totals).toEqual({ utxo: truth.utxoValue, n: truth.utxoCount });
  });

  it('writes the same index when its caches hold almost nothing and every batch reads back from the database', async () => {
    const small = await freshIndex(driver, {
      node,
      definitions,
      batchTxTarget: 30,
      cache: { maxUtxos: 8, maxBalances: 4 },
    });
    try {
      await small.indexer.syncOnce();
      expect(await checkInvariants(small.db.sql)).toEqual([]);
      expect(await canonicalDump(small.db.sql)).toEqual(await canonicalDump(db.sql));
    } finally {
      await small.close();
    }
  });

  it('rolls back reorgs of depth 1 and 10, moved transactions and a removed spent coinbase, ending equal to a fresh index', async () => {
    for (const [depth, opts] of [
      [1, {}],
      [10, { extra: 3, moveTxs: true }],
      [8, { extra: 1, dropCoinbaseSpends: true }],
      [4, { dropCoinbaseSpends: false }],
    ] as const) {
      const before = indexer.status().reorgs;
      const result = devnet.reorg(depth, opts);
      devnet.mine(1);
      const r = await indexer.syncOnce();
      expect(r.rolledBack).toBe(depth);
      expect(indexer.status().reorgs).toBe(before + 1);
      expect(result.removed).toHaveLength(depth);
      // With a maturity of 5, an 8-deep reorg removes coinbases that later blocks had spent.
      if ('dropCoinbaseSpends' in opts && opts.dropCoinbaseSpends)
        expect(result.dropped.length).toBeGreaterThan(0);
      expect(await checkInvariants(db.sql)).toEqual([]);
    }
    expect(await canonicalDump(db.sql)).toEqual(await freshDump(driver, node, definitions));
    expect(told.reorgs).toEqual([1, 10, 8, 4]);
  });

  it('follows a restarted node that regenerated its history: the live tail replaced by a shorter one paying the same addresses', async () => {
    // A devnet restart: the same seed regenerates the same history, but the blocks mined live before the
    // restart are gone and new live blocks (other times, so other hashes) pay the same wallet's addresses.
    const opts = { seed: `restart-${driver}`, blocks: 40, txPerBlock: 6, coinbaseMaturity: 5 } as const;
    const before = createDevnet(opts);
    const after = createDevnet(opts);
    const [a, b] = await Promise.all([before.listen({ port: 0 }), after.listen({ port: 0 })]);
    const other = await openTestDatabase(driver);
    const definitionsA = devnetDefinitions(before);
    try {
      const first = createIndexer({
        sql: other.sql,
        node: createNodeClient({ url: a.url }),
        definitions: definitionsA,
        batchTxTarget: 60,
      });
      before.mine(6, { time: 1_900_000_000 });
      await first.syncOnce();
      await first.stop();
      after.mine(3, { time: 1_900_100_000 });
      expect(after.height()).toBeLessThan(before.height());
      const second = createIndexer({
        sql: other.sql,
        node: createNodeClient({ url: b.url }),
        definitions: definitionsA,
        batchTxTarget: 60,
      });
      const r = await second.syncOnce();
      await second.stop();
      expect(r.rolledBack).toBe(6);
      expect(await checkInvariants(other.sql)).toEqual([]);
      expect(await canonicalDump(other.sql)).toEqual(
        await freshDump(driver, createNodeClient({ url: b.url }), definitionsA),
      );
    } finally {
      await other.drop();
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('stops at a reorg deeper than the limit, keeps the old chain and says so', async () => {
    const dumpBefore = await canonicalDump(db.sql);
    const tip = devnet.height();
    devnet.reorg(20, { extra: 2 });
    await expect(indexer.syncOnce()).rejects.toThrow(/diverges more than 12 blocks/);
    expect(await canonicalDump(db.sql)).toEqual(dumpBefore);
    const run = createIndexer({ sql: db.sql, node, definitions, maxReorgDepth: 12, pollIntervalMs: 50 });
    await indexer.stop();
    await run.start();
    await expect
      .poll(async () => (await readIndexerState(db.sql)).status, { timeout: 120_000 })
      .toBe('reorg-too-deep');
    expect(run.status().tipHeight).toBe(tip);
    await run.stop();
    // A larger limit (the operator's decision) lets it follow the new chain.
    indexer = createIndexer({ sql: db.sql, node, definitions, maxReorgDepth: 100 });
    await indexer.syncOnce();
    expect(await checkInvariants(db.sql)).toEqual([]);
    expect(indexer.status().tipHash).toBe(devnet.tipHash());
  });

  it('commits nothing once the database no longer shows its writer lock, and takes the lock again to go on', async () => {
    // A lock that the database says is gone (its connection dropped without a word) while the process still
    // thinks it holds it: the batch must roll back rather than commit beside another writer.
    let gone = true;
    const base = db.sql;
    const sql = {
      ...base,
      async tryAdvisoryLock(key: number) {
        const lock = await base.tryAdvisoryLock(key);
        return lock && { ...lock, confirm: async (tx: typeof base) => !gone && (await lock.confirm(tx)) };
      },
    };
    const writer = createIndexer({ sql, node, definitions, batchTxTarget: 200 });
    await indexer.stop();
    try {
      devnet.mine(3);
      const before = await canonicalDump(db.sql);
      await expect(writer.syncOnce()).rejects.toThrow(/writer lock was lost/);
      expect(await canonicalDump(db.sql)).toEqual(before);
      gone = false;
      await writer.syncOnce();
      expect(writer.status().tipHeight).toBe(devnet.height());
      expect(await checkInvariants(db.sql)).toEqual([]);
    } finally {
      await writer.stop();
    }
  });

  it('re-attributes blocks when the pool list changes, without re-indexing', async () => {
    const pools = await db.sql.query<{ pool_id: string; blocks: number }>(
      'SELECT pool_id, blocks FROM pool_stats ORDER BY 1',
    );
    const unknown = pools.find((p) => p.pool_id === 'unknown')?.blocks ?? 0;
    expect(unknown).toBeGreaterThan(0);
    // The pool the devnet leaves out of its file: define it by its coinbase tag.
    const d = devnet.definitions();
    const shadow = {
      id: 999,
      slug: 'shadow',
      name: 'Shadow Pool',
      addresses: [],
      tags: ['Shad0w-M1ner'],
      link: '',
    };
    const changed = createDefinitions(parsePools([...d.pools, shadow]), parseLabels(d.labels));
    await indexer.stop();
    indexer = createIndexer({ sql: db.sql, node, definitions: changed, maxReorgDepth: 100 });
    const txsBefore = await db.sql.query<{ n: number }>('SELECT count(*)::int4 AS n FROM txs');
    await indexer.syncOnce();
    const after = await db.sql.query<{ pool_id: string; blocks: number }>(
      'SELECT pool_id, blocks FROM pool_stats ORDER BY 1',
    );
    const shadowBlocks = after.find((p) => p.pool_id === 'shadow')?.blocks ?? 0;
    expect(shadowBlocks).toBeGreaterThan(0);
    expect((after.find((p) => p.pool_id === 'unknown')?.blocks ?? 0) + shadowBlocks).toBe(unknown);
    expect(await db.sql.query('SELECT count(*)::int4 AS n FROM txs')).toEqual(txsBefore);
    expect(await checkInvariants(db.sql)).toEqual([]);
    expect((await readIndexerState(db.sql)).definitions_hash).toBe(changed.hash);
  });

  it('keeps the definitions stored with the index when restarted without them, and attributes new blocks with them', async () => {
    const d = devnet.definitions();
    const given = {
      pools: parsePools(d.pools),
      labels: parseLabels(d.labels),
      sources: { pools: '/etc/explorer/pools.json', labels: '/etc/explorer/labels.json' },
    };
    await indexer.stop();
    // The files of the previous test differ (a pool more): loaded again, blocks attributed again.
    indexer = createIndexer({ sql: db.sql, node, definitions: given, maxReorgDepth: 100 });
    await indexer.syncOnce();
    const loaded = (await readIndexerState(db.sql)).definitions_source;
    expect(loaded).toMatchObject({
      pools: { source: '/etc/explorer/pools.json', count: given.pools.length },
      labels: { source: '/etc/explorer/labels.json', count: given.labels.length },
    });
    const dump = await canonicalDump(db.sql);
    await indexer.stop();

    const said: string[] = [];
    const log = { debug() {}, info: (_: unknown, msg: string) => said.push(msg), warn() {}, error() {} };
    indexer = createIndexer({ sql: db.sql, node, log, maxReorgDepth: 100 });
    await indexer.syncOnce();
    expect(await canonicalDump(db.sql)).toEqual(dump);
    expect((await readIndexerState(db.sql)).definitions_source).toEqual(loaded);
    expect(said).toContain(
      `keeping the definitions stored with the index: ${given.pools.length} pools from /etc/explorer/pools.json, loaded ${loaded!.pools!.loadedAt}; ${given.labels.length} labels from /etc/explorer/labels.json, loaded ${loaded!.labels!.loadedAt}`,
    );
    expect(said).not.toContain('pool definitions loaded');

    // New blocks are attributed with the stored definitions: the index equals a fresh one made with the files.
    devnet.mine(4);
    await indexer.syncOnce();
    expect(await canonicalDump(db.sql)).toEqual(await freshDump(driver, node, definitions));
  });

  it.skipIf(driver !== 'pg')('lets only one indexer write to a database', async () => {
    await indexer.syncOnce();
    const second = createIndexer({ sql: db.sql, node, definitions });
    await expect(second.syncOnce()).rejects.toThrow(/another indexer holds the writer lock/);
    await indexer.stop();
    await expect(second.syncOnce()).resolves.toBeDefined();
    await second.stop();
  });
});
