import { readIndexerState } from '@explorer/db';
import { createDevnet } from '@explorer/devnet';
import { openTestDatabase } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIndexer } from '../indexer.js';
import { createNodeClient, type NodeClient } from '../node-client.js';
import { findFork, maxReorgDepth, ReorgTooDeepError, rollBackToFork } from './reorg.js';

// The fork is found and rolled back against a real index (an embedded database synced from a devnet) and the
// devnet's node after a reorg of its own; nothing else of the indexer runs.
describe('reorg handling on its own (PGlite, devnet)', () => {
  const devnet = createDevnet({ seed: 'reorg-module', blocks: 30, txPerBlock: 3, coinbaseMaturity: 5 });
  let node: NodeClient;
  let close: () => Promise<void>;
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let forkHeight = 0;
  beforeAll(async () => {
    const server = await devnet.listen({ port: 0 });
    close = server.close;
    node = createNodeClient({ url: server.url });
    db = await openTestDatabase('pglite');
    const indexer = createIndexer({ sql: db.sql, node, readerThreads: 0 });
    await indexer.syncOnce();
    await indexer.stop();
    forkHeight = devnet.reorg(4, { extra: 2 }).forkHeight;
  });
  afterAll(async () => {
    await db?.drop();
    await close?.();
  });

  it('keeps the configured limit, else 100, and none on regtest and simnet', () => {
    expect(maxReorgDepth(7, 'regtest')).toBe(7);
    expect(maxReorgDepth(undefined, 'mainnet')).toBe(100);
    expect(maxReorgDepth(null, 'regtest')).toBe(Number.POSITIVE_INFINITY);
    expect(maxReorgDepth(undefined, 'simnet')).toBe(Number.POSITIVE_INFINITY);
  });

  it('finds the highest height where the index and the node agree', async () => {
    const tip = (await readIndexerState(db.sql)).tip_height;
    expect(await findFork(db.sql, node, tip, devnet.height(), 100)).toBe(forkHeight);
  });

  it('refuses a fork deeper than the limit', async () => {
    const tip = (await readIndexerState(db.sql)).tip_height;
    await expect(findFork(db.sql, node, tip, devnet.height(), 2)).rejects.toThrow(ReorgTooDeepError);
  });

  it('rolls back to the fork in one transaction, with a reorg event naming the new branch', async () => {
    const tip = (await readIndexerState(db.sql)).tip_height;
    const r = await rollBackToFork({
      sql: db.sql,
      node,
      tipHeight: tip,
      nodeHeight: devnet.height(),
      maxDepth: 100,
      write: (fn) => db.sql.transaction(fn),
    });
    expect(r.fork).toBe(forkHeight);
    expect(r.removedBlocks).toBe(tip - forkHeight);
    expect(r.newTip.height).toBe(forkHeight);
    expect(r.added.map((a) => a.height)).toEqual(
      Array.from({ length: devnet.height() - forkHeight }, (_, i) => forkHeight + 1 + i),
    );
    expect(r.added[0]!.hash).toBe(await node.call('getblockhash', [forkHeight + 1]));
    expect(r.events.map((e) => e.type)).toEqual(['reorg']);
    expect((await readIndexerState(db.sql)).tip_height).toBe(forkHeight);
  });
});
