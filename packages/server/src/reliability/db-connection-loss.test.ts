import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalDump, checkInvariants, openDatabase, readIndexerState, type Sql } from '@explorer/db';
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
  openTestDatabase,
  pgSkipReason,
  scratchDatabase,
  TEST_SERVER_SETTINGS,
  waitFor,
} from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Started, startProcess } from '../test-support/processes.js';

// Losing PostgreSQL connections must never end the process: not an idle one, not one in the middle of a
// COPY, not the one holding the writer lock, not all of them while the database refuses new ones. The
// server and the indexer run as deployed (built binary, a database of their own) and are checked against a
// fresh index of the same chain at the end.

const serverBin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const reason = pgSkipReason() ?? (existsSync(serverBin) ? null : 'the server is not built (run pnpm build)');
if (reason) console.log(`[db-connection-loss] ${reason}: test skipped`);

/** The indexer's writer lock key (packages/indexer/src/indexer.ts). */
const WRITER_LOCK = 7_301_002;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(reason !== null)('losing the database connection (pg, built server)', () => {
  let devnet: Devnet;
  let nodeUrl: string;
  let closeDevnet: () => Promise<void>;
  let files: { poolsFile: string; labelsFile: string };
  const dir = mkdtempSync(join(tmpdir(), 'explorer-dbloss-'));
  const cleanup: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    devnet = createDevnet({ seed: 'db-loss', blocks: 200, txPerBlock: 30, coinbaseMaturity: 5 });
    const s = await devnet.listen({ port: 0 });
    nodeUrl = s.url;
    closeDevnet = s.close;
    files = devnet.writeDefinitions(dir);
  });
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
    await closeDevnet?.();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A scratch database, the admin connection that terminates its sessions, and a reader of its index. */
  async function database(purpose: string) {
    const db = await scratchDatabase(process.env.TEST_DATABASE_URL!, purpose);
    let reader: Sql | null = null;
    cleanup.push(async () => {
      await reader?.close();
      await db.drop();
    });
    const terminate = async (where: string) =>
      (
        await db.admin.query<{ pid: number }>(
          // Materialized, so the sessions are chosen before any is terminated.
          `WITH chosen AS MATERIALIZED (SELECT a.pid FROM pg_stat_activity a
             WHERE a.datname = $1 AND a.pid <> pg_backend_pid() AND ${where})
           SELECT pid FROM chosen WHERE pg_terminate_backend(pid)`,
          [db.name],
        )
      ).length;
    const lockHolder = async () =>
      (
        await db.admin.query<{ pid: number }>(
          `SELECT l.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
           WHERE a.datname = $1 AND l.locktype = 'advisory' AND l.objid = $2 AND l.granted`,
          [db.name, WRITER_LOCK],
        )
      )[0]?.pid ?? null;
    const read = async () => {
      reader ??= await openDatabase({ url: db.url, migrate: false, poolSize: 1 });
      return reader;
    };
    return { ...db, terminate, lockHolder, read };
  }

  /** A fresh index of the devnet's chain as it stands, for comparison. */
  async function freshDump(): Promise<unknown> {
    const fresh = await openTestDatabase('pg');
    try {
      const defs = devnet.definitions();
      const indexer = createIndexer({
        sql: fresh.sql,
        node: createNodeClient({ url: nodeUrl }),
        definitions: createDefinitions(parsePools(defs.pools), parseLabels(defs.labels)),
      });
      await indexer.syncOnce();
      await indexer.stop();
      return await canonicalDump(fresh.sql);
    } finally {
      await fresh.drop();
    }
  }

  const env = (databaseUrl: string) => ({
    DATABASE_URL: databaseUrl,
    NODE_RPC_URL: nodeUrl,
    POOLS_FILE: files.poolsFile,
    LABELS_FILE: files.labelsFile,
    EXPLORER_DATA_DIR: dir,
    LOG_LEVEL: 'warn',
    INDEXER_POLL_MS: '100',
    ...TEST_SERVER_SETTINGS,
    DB_CONNECT_TIMEOUT_MS: '2000',
  });

  const alive = (p: Started) => {
    expect(p.proc.exitCode, p.output().slice(-2000)).toBeNull();
    expect(p.proc.signalCode).toBeNull();
  };

  it('`start` (API and indexer) and `index` outlive terminated connections and a refused database, then equal a fresh index', async () => {
    const [a, b] = await Promise.all([database('loss_start'), database('loss_index')]);
    const [server, indexer] = await Promise.all([
      startProcess([serverBin, 'start', '--port', '0'], env(a.url), /listening on (http:\/\/\S+)/),
      startProcess([serverBin, 'index'], env(b.url), /indexer running/),
    ]);
    cleanup.push(async () => {
      server.proc.kill('SIGKILL');
      indexer.proc.kill('SIGKILL');
    });
    const url = server.match[1]!;
    const both = <T>(fn: (db: typeof a) => Promise<T>) => Promise.all([fn(a), fn(b)]);
    const tipOf = async (db: typeof a) => {
      const s = await readIndexerState(await db.read());
      return s.status === 'synced' ? s.tip_height : null;
    };

    // Mid-COPY: the indexer's bulk load of a batch.
    const copies = await both((db) =>
      // Polled every 5 ms: a batch's COPY is brief.
      waitFor(
        `a COPY to terminate in ${db.name}`,
        () =>
          db.terminate(
            `a.application_name = 'explorer-indexer' AND a.state = 'active' AND a.query LIKE 'COPY%'`,
          ),
        30_000,
        5,
      ),
    );
    expect(copies.every((n) => n > 0)).toBe(true);
    await sleep(300);
    alive(server);
    alive(indexer);

    // The connection holding the writer lock: the lock goes with it and must be taken again.
    await both(async (db) => {
      const holder = await waitFor(`the writer lock in ${db.name}`, db.lockHolder);
      expect(await db.terminate(`a.pid = ${holder}`)).toBe(1);
      const again = await waitFor(`the writer lock taken again in ${db.name}`, async () => {
        const pid = await db.lockHolder();
        return pid !== null && pid !== holder ? pid : null;
      });
      expect(again).not.toBe(holder);
    });
    alive(server);
    alive(indexer);

    // Idle connections, once synced: the API's pool and the indexer's.
    await both((db) =>
      waitFor(`the first sync of ${db.name}`, async () => (await tipOf(db)) === devnet.height()),
    );
    expect((await both((db) => db.terminate(`a.state = 'idle'`))).every((n) => n > 0)).toBe(true);
    await sleep(300);
    alive(server);
    alive(indexer);
    expect((await getJson(`${url}/v1/blocks?limit=3`)).status).toBe(200);

    // Every connection, while the databases refuse new ones: 503 envelopes and the outage in /v1/status.
    await both((db) => db.admin.query(`ALTER DATABASE ${db.name} ALLOW_CONNECTIONS false`));
    try {
      expect((await both((db) => db.terminate('true'))).every((n) => n > 0)).toBe(true);
      devnet.mine(20);
      const down = await waitFor('503 envelopes', async () => {
        const r = await getJson(`${url}/v1/blocks?limit=4`);
        return r.status === 503 ? r : null;
      });
      expect(down.body).toMatchObject({
        ok: false,
        error: 'the database is unavailable; retry shortly',
        meta: expect.any(Object),
      });
      const status = await waitFor('the outage in /v1/status', async () => {
        const s = await getJson(`${url}/v1/status`);
        return s.body.status?.indexer?.state === 'database-unreachable' ? s : null;
      });
      expect(status.status).toBe(200);
      expect(status.body.status.degraded).toEqual(expect.arrayContaining(['database', 'indexer']));
      expect(status.body.status.database.ok).toBe(false);
      expect(status.body.status.indexer.error).toMatch(/database/);
      await sleep(500);
      alive(server);
      alive(indexer);
    } finally {
      await both((db) => db.admin.query(`ALTER DATABASE ${db.name} ALLOW_CONNECTIONS true`));
    }

    // Back by themselves: each resumes from its last commit and catches up with the 20 new blocks.
    await waitFor(
      'the API to recover',
      async () => {
        const s = await getJson(`${url}/v1/status`);
        return s.body.status?.healthy && s.body.status.indexer.tipHeight === devnet.height();
      },
      60_000,
    );
    await waitFor('the indexer to catch up', async () => (await tipOf(b)) === devnet.height(), 60_000);
    expect((await getJson(`${url}/v1/blocks?limit=5`)).status).toBe(200);
    alive(server);
    alive(indexer);

    const fresh = await freshDump();
    for (const db of [a, b]) {
      const sql = await db.read();
      expect(await checkInvariants(sql)).toEqual([]);
      expect(await canonicalDump(sql)).toEqual(fresh);
    }
  }); // two servers, six outages and a fresh index: slow on a loaded two-core machine
});
