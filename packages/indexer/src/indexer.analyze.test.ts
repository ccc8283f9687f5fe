import type { Logger } from '@explorer/core';
import type { Devnet } from '@explorer/devnet';
import { testDrivers, waitFor } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeClient } from './node-client.js';
import { freshIndex, serveDevnet } from './test-support/fixtures.js';

describe.each(testDrivers())('planner statistics after a sync (%s)', (driver) => {
  let devnet: Devnet;
  let node: NodeClient;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const served = await serveDevnet({
      seed: `analyze-${driver}`,
      blocks: 40,
      txPerBlock: 20,
      coinbaseMaturity: 5,
    });
    ({ devnet, node, close } = served);
  });
  afterAll(() => close?.());

  /** An indexer over a fresh database, with what its log said of statistics. */
  async function fresh(analyzeGrowth?: number | null) {
    const said: string[] = [];
    const log: Logger = {
      debug() {},
      info: (_fields, msg) => {
        if (msg.startsWith('planner statistics')) said.push(msg);
      },
      warn() {},
      error() {},
    };
    const {
      db,
      indexer,
      close: done,
    } = await freshIndex(driver, { node, log, analyzeGrowth, batchTxTarget: 40 });
    /** What ANALYZE last recorded of `txs`: its rows (-1 never) and whether its columns have statistics. */
    const txsStats = async () => {
      const [row] = await db.sql.query<{ reltuples: number; columns: number }>(
        `SELECT (SELECT reltuples FROM pg_class WHERE oid = to_regclass('txs'))::float8 AS reltuples,
                (SELECT count(*)::int FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'txs') AS columns`,
      );
      return row!;
    };
    return { indexer, said, txsStats, sql: db.sql, done };
  }

  it('gathers them at the end of any initial sync, however small, before it says synced', async () => {
    const r = await fresh();
    try {
      const { applied } = await r.indexer.syncOnce();
      expect(applied).toBe(devnet.height() + 1);
      expect(r.indexer.status().state).toBe('synced');
      expect(r.said).toHaveLength(1);
      expect(r.said[0]).toMatch(/^planner statistics gathered after \d+ transactions$/);
      const stats = await r.txsStats();
      expect(stats.reltuples).toBeGreaterThan(0);
      // Every column of the transactions table has its statistics now.
      expect(stats.columns).toBeGreaterThan(0);
      // Synced again with nothing new: they are fresh, so not gathered again.
      await r.indexer.syncOnce();
      expect(r.said).toHaveLength(1);
    } finally {
      await r.done();
    }
  });

  it('gathers them again as the chain grows past the fraction, while following the tip', async () => {
    const r = await fresh(0.1);
    try {
      await r.indexer.syncOnce();
      expect(r.said).toHaveLength(1);
      const first = (await r.txsStats()).reltuples;
      // 1,000 transactions more (and well past 10 %), written as blocks followed one pass at a time.
      const target = first + 1_100;
      while ((await r.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM txs'))[0]!.n < target) {
        devnet.mine(20);
        await r.indexer.syncOnce();
      }
      await waitFor('statistics gathered again', async () => (await r.txsStats()).reltuples > first);
      expect(r.said.length).toBeGreaterThanOrEqual(2);
    } finally {
      await r.done();
    }
  });

  it('leaves them alone when told never to', async () => {
    const never = await fresh(null);
    try {
      await never.indexer.syncOnce();
      expect(never.said).toEqual([]);
      // PostgreSQL's autovacuum may gather them meanwhile; PGlite has none, so there they are still absent.
      if (driver === 'pglite') expect((await never.txsStats()).reltuples).toBeLessThan(0);
    } finally {
      await never.done();
    }
  });
});
