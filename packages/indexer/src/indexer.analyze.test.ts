import type { Logger } from '@explorer/core';
import { createDevnet } from '@explorer/devnet';
import { openTestDatabase, testDrivers } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIndexer } from './indexer.js';
import { createNodeClient, type NodeClient } from './node-client.js';

describe.each(testDrivers())('planner statistics after a sync (%s)', (driver) => {
  let node: NodeClient;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const devnet = createDevnet({
      seed: `analyze-${driver}`,
      blocks: 40,
      txPerBlock: 4,
      coinbaseMaturity: 5,
    });
    const server = await devnet.listen({ port: 0 });
    close = server.close;
    node = createNodeClient({ url: server.url });
  });
  afterAll(() => close?.());

  /** Syncs a fresh database; what the log said of statistics, and whether `txs` has any. */
  async function sync(analyzeAfterTxs?: number | null) {
    const db = await openTestDatabase(driver);
    const said: string[] = [];
    const log: Logger = {
      debug() {},
      info: (_fields, msg) => {
        if (msg.startsWith('planner statistics')) said.push(msg);
      },
      warn() {},
      error() {},
    };
    const indexer = createIndexer({ sql: db.sql, node, log, analyzeAfterTxs });
    try {
      const { applied } = await indexer.syncOnce();
      const [row] = await db.sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'txs'`,
      );
      return { applied, said, txsStats: row!.n, sql: db.sql };
    } finally {
      await indexer.stop();
      await db.drop();
    }
  }

  it('gathers them once a sync of enough transactions reaches the tip, and says so', async () => {
    const r = await sync(10);
    expect(r.applied).toBe(41);
    expect(r.said).toHaveLength(1);
    expect(r.said[0]).toMatch(/^planner statistics gathered after \d+ transactions$/);
    // Every column of the transactions table has its statistics now.
    expect(r.txsStats).toBeGreaterThan(0);
  });

  it('leaves them to autovacuum after a sync smaller than the threshold, or when told never to', async () => {
    expect((await sync()).said).toEqual([]);
    const never = await sync(null);
    expect(never.said).toEqual([]);
    // PostgreSQL's autovacuum may gather them meanwhile; PGlite has none, so there they are still absent.
    if (driver === 'pglite') expect(never.txsStats).toBe(0);
  });
});
