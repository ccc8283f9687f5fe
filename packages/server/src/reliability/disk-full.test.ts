import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalDump, DEFAULT_RESERVE_BYTES, openDatabase } from '@explorer/db';
import { createDevnet, type Devnet } from '@explorer/devnet';
import {
  createDefinitions,
  createIndexer,
  createNodeClient,
  parseLabels,
  parsePools,
} from '@explorer/indexer';
import {
  getJson,
  mountSmallFilesystem,
  openTestDatabase,
  type PostgresCluster,
  postgresClusterSkipReason,
  type SmallFilesystem,
  seedDataDir,
  smallFilesystemSkipReason,
  startPrimary,
  TEST_SERVER_SETTINGS,
  waitFor,
} from '@explorer/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { type Started, startProcess, stopProcess } from '../test-support/processes.js';

// A disk that fills while the explorer indexes, in both modes: the data directory (PGlite) or a PostgreSQL
// cluster's files on a small filesystem of the test's own. The explorer says so in one line, the API keeps
// answering, indexing resumes when space returns, SIGTERM stops the process, and the index ends equal to a
// fresh index of the same chain.

const serverBin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const reason =
  smallFilesystemSkipReason() ?? (existsSync(serverBin) ? null : 'the server is not built (run pnpm build)');
if (reason) console.log(`[disk-full] ${reason}: test skipped`);
const pgReason = reason ?? postgresClusterSkipReason();
if (!reason && pgReason) console.log(`[disk-full] ${pgReason}: PostgreSQL case skipped`);

const MB = 1024 * 1024;

describe.skipIf(reason !== null)('a full disk (built server)', () => {
  const cleanup: (() => Promise<void> | void)[] = [];

  afterAll(async () => {
    for (const c of cleanup.reverse()) await Promise.resolve(c()).catch(() => {});
  });

  /** A fresh index of the chain `node` serves now, for comparison. */
  async function freshDump(node: string, chain: Devnet): Promise<unknown> {
    const fresh = await openTestDatabase('pglite');
    try {
      const defs = chain.definitions();
      const indexer = createIndexer({
        sql: fresh.sql,
        node: createNodeClient({ url: node }),
        definitions: createDefinitions(parsePools(defs.pools), parseLabels(defs.labels)),
      });
      await indexer.syncOnce();
      await indexer.stop();
      return await canonicalDump(fresh.sql);
    } finally {
      await fresh.drop();
    }
  }

  const mounted = (sizeMb: number): SmallFilesystem => {
    const fs = mountSmallFilesystem(sizeMb);
    cleanup.push(() => fs.unmount());
    return fs;
  };
  const start = async (env: Record<string, string>, node: string): Promise<Started & { url: string }> => {
    const s = await startProcess(
      [serverBin, 'start', '--port', '0'],
      {
        ...TEST_SERVER_SETTINGS,
        NODE_RPC_URL: node,
        LOG_LEVEL: 'warn',
        INDEXER_POLL_MS: '200',
        ...env,
      },
      /listening on (http:\/\/\S+)/,
    );
    cleanup.push(() => void stopProcess(s.proc));
    return { ...s, url: s.match[1]! };
  };
  const indexer = async (url: string) => (await getJson(`${url}/v1/status`)).body.status.indexer;

  /** What every case checks once the disk is full: the state and its reason, reads still answered. */
  async function whileFull(server: Started & { url: string }, says: RegExp) {
    let last: unknown = null;
    const full = await waitFor('the indexer to report the full disk', async () => {
      const s = await indexer(server.url);
      last = s;
      return s.state === 'disk-full' ? s : null;
    }).catch((err) => {
      throw new Error(
        `${err.message}; last status ${JSON.stringify(last)}; log: ${server.output().slice(-4000)}`,
      );
    });
    expect(full.error).toMatch(says);
    const block = await getJson(`${server.url}/v1/blocks/1`);
    expect(block.status).toBe(200);
    expect(block.body.block.height).toBe(1);
    // The line an operator sees on the terminal.
    await waitFor('the log line', async () => server.output().includes('out of disk space'));
    return full;
  }

  /**
   * A node that will keep mining (`mine()`, once the initial sync is under way and its own blocks no longer
   * give the indexer enough to write), so that the indexer has something to write whenever the disk fills.
   */
  async function liveNode(seed: string, dir: string) {
    const live = createDevnet({ seed, blocks: 60, txPerBlock: 30, coinbaseMaturity: 5 });
    const listening = await live.listen({ port: 0 });
    cleanup.push(() => {
      live.stopMining();
      return listening.close();
    });
    mkdirSync(dir, { recursive: true });
    return { live, url: listening.url, defs: live.writeDefinitions(dir), mine: () => live.startMining(250) };
  }

  it('embedded: stops writing with one line, serves, resumes, stops on SIGTERM, ends equal to a fresh index', async () => {
    const fs = mounted(256);
    const dataDir = await seedDataDir(join(fs.dir, 'data'));
    const { live, url, defs, mine } = await liveNode('disk-full-embedded', join(fs.dir, 'definitions'));
    const env = { EXPLORER_DATA_DIR: dataDir, POOLS_FILE: defs.poolsFile, LABELS_FILE: defs.labelsFile };
    const server = await start(env, url);
    await waitFor('the sync to get going', async () => (await indexer(server.url)).tipHeight >= 20);
    mine();
    // The index's own next writes take it below what the embedded database keeps free.
    fs.fill(DEFAULT_RESERVE_BYTES + 2 * MB);
    const full = await whileFull(server, /the data directory \S+ has [\d.]+ MB free of [\d.]+ MB/);
    expect(full.error).toContain(join(dataDir, 'pgdata'));
    const stuck = full.tipHeight;

    fs.unfill();
    await waitFor('indexing to resume', async () => (await indexer(server.url)).tipHeight > stuck);

    // Full again, now below the reserve at once; SIGTERM stops the process, which exits 0.
    const said = () => server.output().split('out of disk space').length;
    const before = said();
    fs.fill(DEFAULT_RESERVE_BYTES - 8 * MB);
    await waitFor('writes to be refused', async () => said() > before);
    // Nothing more to mine for: every block mined from here on is one more for the fresh index to compare.
    live.stopMining();
    expect(await stopProcess(server.proc)).toBe(0);

    fs.unfill();
    const again = await start(env, url);
    await waitFor('the index to reach the node', async () => {
      const s = await indexer(again.url);
      return s.state === 'synced' && s.tipHeight === live.height();
    });
    expect(await stopProcess(again.proc)).toBe(0);
    const sql = await openDatabase({ dataDir, migrate: false });
    try {
      expect(await canonicalDump(sql)).toEqual(await freshDump(url, live));
    } finally {
      await sql.close();
    }
  }, 900_000);

  it.skipIf(pgReason !== null)(
    'PostgreSQL on a full disk: says so, serves, resumes, ends equal to a fresh index',
    async () => {
      const fs = mounted(320);
      const cluster: PostgresCluster = await startPrimary(fs.dir);
      cleanup.push(() => cluster.stop().catch(() => {}));
      // As a server should be set up: WAL that cannot be written is a PANIC (PostgreSQL restarts, and stops for
      // good if it cannot recover), so its segments are made before the disk fills and then recycled in place
      // by frequent checkpoints; what fails on the full disk is a data file that cannot grow, an ERROR.
      appendFileSync(
        join(cluster.dataDir, 'postgresql.conf'),
        '\nmax_wal_size = 64MB\nmin_wal_size = 64MB\ncheckpoint_timeout = 30s\n',
      );
      await cluster.stop();
      await cluster.start();
      const admin = await openDatabase({ url: cluster.url(), migrate: false, poolSize: 1 });
      await admin.query('CREATE DATABASE explorer', [], 'test.create-database');
      for (let i = 0; i < 4; i++) {
        await admin.query('CREATE TABLE IF NOT EXISTS wal_warmup (n int)', [], 'test.wal');
        await admin.query('INSERT INTO wal_warmup VALUES (1)', [], 'test.wal');
        await admin.query('SELECT pg_switch_wal()', [], 'test.wal');
      }
      await admin.query('CHECKPOINT', [], 'test.wal');
      await admin.close();
      const { live, url, defs, mine } = await liveNode('disk-full-pg', join(fs.dir, 'unused'));
      const server = await start(
        {
          DATABASE_URL: cluster.url('explorer'),
          EXPLORER_DATA_DIR: join(fs.dir, 'unused'),
          POOLS_FILE: defs.poolsFile,
          LABELS_FILE: defs.labelsFile,
        },
        url,
      );
      await waitFor('the sync to get going', async () => (await indexer(server.url)).tipHeight >= 20);
      mine();
      fs.fill(2 * MB);
      // A file that could not grow, or (a new connection on the full disk) the init file a backend writes first.
      const full = await whileFull(
        server,
        /^out of disk space: the database server could not write \(.*(No space left on device|could not write init file)/,
      );
      const stuck = full.tipHeight;
      // Blocks enough to resume with; every one mined beyond them is one more for the fresh index to compare.
      await waitFor('the node to mine past the stuck tip', async () => live.height() > stuck + 2);
      live.stopMining();

      fs.unfill();
      await waitFor('indexing to resume', async () => (await indexer(server.url)).tipHeight > stuck + 2);
      await waitFor('the index to reach the node', async () => {
        const s = await indexer(server.url);
        return s.state === 'synced' && s.tipHeight === live.height();
      });
      expect(await stopProcess(server.proc)).toBe(0);
      const sql = await openDatabase({ url: cluster.url('explorer'), migrate: false });
      try {
        expect(await canonicalDump(sql)).toEqual(await freshDump(url, live));
      } finally {
        await sql.close();
      }
    },
    900_000,
  );
});
