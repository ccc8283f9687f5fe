import { createExplorerApi, type Logger, type SyncProgress, v1Routes } from '@explorer/core';
import { createSqlStore, openDatabase, type Sql } from '@explorer/db';
import { openTestDatabase, type TestDatabase, testDrivers, waitFor } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIndexer } from './indexer.js';
import { createDefinitions } from './pools.js';
import { type ServedDevnet, serveDevnet } from './test-support/fixtures.js';

// The production path is PostgreSQL, where the API reads through connections of its own (as an API process
// beside the indexer process does); PGlite stands in where no server answers.
const driver = testDrivers().at(-1)!;
const BLOCKS = 3000;

interface ProgressLine extends SyncProgress {
  msg: string;
}

describe(`sync progress in the log and in /v1/status (${driver})`, () => {
  let db: TestDatabase;
  let apiSql: Sql;
  let served: ServedDevnet;
  const lines: ProgressLine[] = [];
  const log: Logger = {
    debug() {},
    info: (fields, msg) => {
      if (msg.startsWith('syncing: ')) lines.push({ ...(fields as unknown as SyncProgress), msg });
    },
    warn() {},
    error() {},
  };

  beforeAll(async () => {
    served = await serveDevnet({ seed: 'progress', blocks: BLOCKS, txPerBlock: 3, coinbaseMaturity: 5 });
    db = await openTestDatabase(driver);
    apiSql = db.url
      ? await openDatabase({ url: db.url, schema: db.schema, poolSize: 2, migrate: false })
      : db.sql;
  });
  afterAll(async () => {
    if (apiSql !== db?.sql) await apiSql?.close();
    await served?.close();
    await db?.drop();
  });

  it('logs lines whose ETA falls as the sync goes, and /v1/status serves the same figures meanwhile', async () => {
    // The API reads the database only: what it shows is what the indexer recorded, as in another process.
    const api = createExplorerApi({
      store: createSqlStore(apiSql),
      routes: v1Routes,
      node: null,
      config: { publicBaseUrl: 'http://127.0.0.1:3000', tipCacheMs: 0 },
    });
    const status = async () => {
      const res = await api.handle(new Request('http://127.0.0.1/v1/status'));
      return (await res.json()).status.indexer;
    };
    expect((await status()).progress).toBeNull();

    const indexer = createIndexer({
      sql: db.sql,
      node: served.node,
      definitions: createDefinitions([], []),
      log,
      // Many small batches and a short interval: a few dozen progress reports over one sync.
      maxBatchBlocks: 20,
      batchTxTarget: 100,
      progressIntervalMs: 100,
    });
    const sync = indexer.syncOnce();
    sync.catch(() => {});
    try {
      // A report seen through the API while the sync runs, and the line the indexer logged with it.
      const seen = await waitFor('/v1/status to show a sync in progress', async () => {
        const s = await status();
        return s.progress && s.progress.height < BLOCKS ? s : null;
      });
      expect(seen.state).toBe('syncing');
      const line = await waitFor('the log line of that report', async () =>
        lines.find((l) => l.updatedAt === seen.progress.updatedAt),
      );
      const { msg, ...logged } = line;
      expect(seen.progress).toEqual(logged);
      expect(msg).toMatch(
        new RegExp(
          `^syncing: ${logged.height} of ${BLOCKS} \\(${logged.percent.toFixed(1)} %\\), \\d+ blocks/s, \\d+ tx/s, ETA `,
        ),
      );
      // The same heights as the rest of /v1/status: the node's height, and an indexed tip at or past the report.
      expect(seen.progress.nodeHeight).toBe(BLOCKS);
      expect(seen.nodeHeight).toBe(BLOCKS);
      expect(seen.tipHeight).toBeGreaterThanOrEqual(seen.progress.height);
      expect(seen.progress.percent).toBe(Math.round((1000 * seen.progress.height) / BLOCKS) / 10);
      expect(Date.parse(seen.progress.startedAt)).toBeLessThanOrEqual(Date.parse(seen.progress.updatedAt));

      await sync;
    } finally {
      await indexer.stop();
    }

    // Once synced there is no progress to show.
    const after = await status();
    expect(after).toMatchObject({ state: 'stopped', tipHeight: BLOCKS, progress: null });

    // The ETA falls over the sync: the last below the first, and most steps not rising (a stall of a busy
    // machine may lift one a little).
    expect(lines.length).toBeGreaterThanOrEqual(5);
    const etas = lines.map((l) => l.etaSeconds).filter((e): e is number => e !== null);
    expect(etas.length).toBeGreaterThanOrEqual(5);
    expect(etas.at(-1)!).toBeLessThan(etas[0]!);
    const steps = etas.slice(1).map((e, i) => e <= etas[i]!);
    expect(steps.filter(Boolean).length).toBeGreaterThanOrEqual(Math.ceil(0.75 * steps.length));
    const heights = lines.map((l) => l.height);
    expect(heights).toEqual([...heights].sort((a, b) => a - b));
    expect(lines.every((l) => l.nodeHeight === BLOCKS && l.startedAt === lines[0]!.startedAt)).toBe(true);
  });
});
