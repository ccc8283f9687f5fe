import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalDump, checkInvariants, createPgSql, readIndexerState, type Sql } from '@explorer/db';
import { createDevnet, type Devnet } from '@explorer/devnet';
import {
  getJson,
  type PostgresCluster,
  postgresClusterSkipReason,
  startPrimary,
  startReplica,
  waitFor,
} from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Started, startProcess, stopProcess } from '../test-support/processes.js';
import { tcpReachable } from '../test-support/tcp-proxy.js';

// Scale-out as deployed: a PostgreSQL primary and a streaming replica of it (pg_basebackup), clusters of this
// test's own; the indexer writes to the primary, two API processes read from the replica (DATABASE_READ_URL)
// and share one Redis. What a reader sees must be what the chain says, or an honest "not yet".

const serverBin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const reason =
  postgresClusterSkipReason() ??
  (existsSync(serverBin) ? null : 'the server is not built (run pnpm build)') ??
  ((await tcpReachable('127.0.0.1', 6379)) ? null : 'no Redis at 127.0.0.1:6379');
if (reason) console.log(`[replica] ${reason}: test skipped`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A page of /v1/blocks is one snapshot of one chain: each block's parent is the next one listed. */
function linked(blocks: { height: number; hash: string; previousHash: string | null }[]): boolean {
  return blocks.every((b, i) => i === blocks.length - 1 || b.previousHash === blocks[i + 1]!.hash);
}

describe.skipIf(reason !== null)(
  'API processes reading a streaming replica (pg_basebackup, built server)',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'explorer-replica-'));
    // The clusters' own (the server may run as another user, who must reach it).
    const pgDir = mkdtempSync(join(tmpdir(), 'explorer-replica-pg-'));
    const processes: Started[] = [];
    const closers: (() => Promise<unknown>)[] = [];
    let devnet: Devnet;
    let primary: PostgresCluster;
    let replica: PostgresCluster;
    let onPrimary: Sql;
    let onReplica: Sql;
    let api: [string, string];

    const tipOf = async (sql: Sql) => (await readIndexerState(sql)).tip_height;

    beforeAll(async () => {
      devnet = createDevnet({ seed: 'replica', blocks: 300, txPerBlock: 40, coinbaseMaturity: 5 });
      const node = await devnet.listen({ port: 0 });
      closers.push(node.close);
      const files = devnet.writeDefinitions(dir);

      primary = await startPrimary(pgDir);
      closers.push(() => primary.stop());
      const admin = createPgSql({ connectionString: primary.url(), max: 1 });
      await admin.exec('CREATE DATABASE explorer');
      await admin.close();
      replica = await startReplica(primary, pgDir);
      closers.push(() => replica.stop());
      onPrimary = createPgSql({ connectionString: primary.url('explorer'), max: 2 });
      onReplica = createPgSql({ connectionString: replica.url('explorer'), max: 2 });
      closers.push(
        () => onPrimary.close(),
        () => onReplica.close(),
      );

      const common = {
        DATABASE_URL: primary.url('explorer'),
        NODE_RPC_URL: node.url,
        POOLS_FILE: files.poolsFile,
        LABELS_FILE: files.labelsFile,
        LOG_LEVEL: 'warn',
        DB_CONNECT_TIMEOUT_MS: '2000',
      };
      const shared = {
        ...common,
        DATABASE_READ_URL: replica.url('explorer'),
        REDIS_URL: 'redis://127.0.0.1:6379',
        RATE_LIMIT_PREFIX: `explorer-replica:${randomUUID()}`,
        RATE_LIMIT_ANON: '100000',
        REDIS_COMMAND_TIMEOUT_MS: '10000',
      };
      // The API processes first, on the empty (migrated) schema, so they watch the whole initial sync.
      const indexer = startProcess(
        [serverBin, 'index'],
        { ...common, EXPLORER_DATA_DIR: join(dir, 'indexer'), INDEXER_POLL_MS: '100' },
        /indexer running/,
      );
      await waitFor('the schema on the replica', async () => (await tipOf(onReplica)) !== undefined);
      const readers = await Promise.all(
        ['a', 'b'].map((name) =>
          startProcess(
            [serverBin, 'start', '--no-index', '--port', '0'],
            { ...shared, EXPLORER_DATA_DIR: join(dir, name) },
            /listening on (http:\/\/\S+)/,
          ),
        ),
      );
      processes.push(...readers, await indexer);
      api = [readers[0]!.match[1]!, readers[1]!.match[1]!];
    });

    afterAll(async () => {
      await Promise.all(processes.map((p) => stopProcess(p.proc)));
      for (const close of closers.reverse()) await close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    });

    it('serves the primary’s figures once caught up, and never a tip it cannot show while it lags', async () => {
      const lag = { blocks: 0, told: 0, bytes: 0, ms: 0, samples: 0 };
      let honest = 0;
      for (;;) {
        const [page, primaryTip, replicaTip, replication] = await Promise.all([
          getJson(`${api[0]}/v1/blocks?limit=1`),
          tipOf(onPrimary),
          tipOf(onReplica),
          onPrimary.query<{ bytes: string | null; ms: number | null }>(
            `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::text AS bytes,
                  (extract(epoch FROM replay_lag) * 1000)::float8 AS ms
           FROM pg_stat_replication`,
          ),
        ]);
        lag.samples++;
        lag.blocks = Math.max(lag.blocks, primaryTip - replicaTip);
        lag.bytes = Math.max(lag.bytes, Number(replication[0]?.bytes ?? 0));
        lag.ms = Math.max(lag.ms, replication[0]?.ms ?? 0);
        if (page.status === 200 && page.body.blocks.length > 0) {
          const told = page.body.meta.indexedTip as number;
          // The tip a reader is told is one the replica holds, and never ahead of the primary. The told tip is
          // read at most a second before (a busy machine may serve the first blocks while it still says -1,
          // nothing indexed): low, never ahead, which is what this checks.
          if (told >= 0) expect((await getJson(`${api[0]}/v1/blocks/${told}`)).status).toBe(200);
          expect(told).toBeLessThanOrEqual(Math.max(primaryTip, await tipOf(onPrimary)));
          lag.told = Math.max(lag.told, primaryTip - told);
          honest++;
          if (told === devnet.height()) break;
        }
        await sleep(100);
      }
      console.log(
        `[replica] during the initial sync (${devnet.height()} blocks, ${lag.samples} samples): replication lag ` +
          `at most ${lag.bytes} bytes of WAL, ${Math.round(lag.ms)} ms replay lag, the replica's index ${lag.blocks} ` +
          `blocks behind the primary's, meta.indexedTip at most ${lag.told} behind`,
      );
      expect(honest).toBeGreaterThan(0);

      // Caught up: the replica's index is the primary's, row for row, and it satisfies every invariant.
      await waitFor('the replica to replay the last commit', async () => {
        const [p, r] = await Promise.all([tipOf(onPrimary), tipOf(onReplica)]);
        return p === devnet.height() && r === p;
      });
      expect(await canonicalDump(onReplica)).toEqual(await canonicalDump(onPrimary));
      expect(await checkInvariants(onReplica)).toEqual([]);

      // Both API processes answer alike, from the replica.
      for (const path of ['/v1/analytics/supply', `/v1/blocks/${devnet.height() - 7}`, '/v1/pools/top']) {
        const [a, b] = await Promise.all([getJson(`${api[0]}${path}`), getJson(`${api[1]}${path}`)]);
        expect(a.status, path).toBe(200);
        const { meta: _a, ...bodyA } = a.body;
        const { meta: _b, ...bodyB } = b.body;
        expect(bodyA, path).toEqual(bodyB);
      }
    });

    it('takes a cursor from one API process on the other, and shares one rate-limit count through Redis', async () => {
      const first = await getJson(`${api[0]}/v1/blocks?limit=5`);
      expect(first.body.pagination.hasMore).toBe(true);
      const next = await getJson(
        `${api[1]}/v1/blocks?limit=5&cursor=${encodeURIComponent(first.body.pagination.nextCursor)}`,
      );
      expect(next.status).toBe(200);
      const top = devnet.height();
      expect(first.body.blocks.map((b: any) => b.height)).toEqual([top, top - 1, top - 2, top - 3, top - 4]);
      expect(next.body.blocks.map((b: any) => b.height)).toEqual([
        top - 5,
        top - 6,
        top - 7,
        top - 8,
        top - 9,
      ]);

      for (const u of api) {
        const status = await waitFor('Redis to count', async () => {
          const s = await getJson(`${u}/v1/status`);
          return s.body.status?.rateLimit?.ok ? s : null;
        });
        expect(status.body.status.rateLimit).toMatchObject({ store: 'redis', ok: true });
      }
      const remaining = async (u: string) =>
        Number((await fetch(`${u}/v1/api/me`)).headers.get('x-ratelimit-remaining'));
      const before = await remaining(api[0]);
      await remaining(api[1]);
      // The second process's request was counted in the same bucket: the first sees both.
      expect(await remaining(api[0])).toBe(before - 2);
    });

    it('brings a reorg on the primary to replica readers without a page mixing the two branches', async () => {
      const depth = 4;
      const old = new Map<number, string>();
      for (const b of (await getJson(`${api[1]}/v1/blocks?limit=40`)).body.blocks) old.set(b.height, b.hash);
      devnet.reorg(depth, { extra: 2 });
      const fresh = new Map<number, string>();
      for (let h = devnet.height() - 40; h <= devnet.height(); h++)
        fresh.set(h, (await devnet.rpc('getblockhash', [h])) as string);

      let pages = 0;
      for (;;) {
        const page = await getJson(`${api[pages % 2]}/v1/blocks?limit=12`);
        pages++;
        expect(page.status).toBe(200);
        const blocks = page.body.blocks as { height: number; hash: string; previousHash: string | null }[];
        expect(linked(blocks), JSON.stringify(blocks.map((b) => [b.height, b.hash.slice(0, 8)]))).toBe(true);
        for (const b of blocks)
          expect([old.get(b.height), fresh.get(b.height)], `block ${b.height}`).toContain(b.hash);
        if (blocks[0]!.height === devnet.height() && blocks.every((b) => b.hash === fresh.get(b.height)))
          break;
        await sleep(20);
      }
      expect(pages).toBeGreaterThan(0);
      await waitFor(
        'the replica to replay the reorg',
        async () => (await tipOf(onReplica)) === devnet.height(),
      );
      expect(await canonicalDump(onReplica)).toEqual(await canonicalDump(onPrimary));
    });

    it('answers 503 envelopes while the replica is down, and recovers when it is back, without a restart', async () => {
      await replica.stop();
      for (const u of api) {
        const down = await waitFor('a 503 envelope', async () => {
          const r = await getJson(`${u}/v1/blocks?limit=3`);
          return r.status === 503 ? r : null;
        });
        expect(down.body).toMatchObject({
          ok: false,
          error: 'the database is unavailable; retry shortly',
          meta: expect.any(Object),
        });
      }
      devnet.mine(3);
      await replica.start();
      for (const u of api) {
        const back = await waitFor('the replica to serve again', async () => {
          const r = await getJson(`${u}/v1/blocks?limit=3`);
          return r.status === 200 && r.body.blocks[0].height === devnet.height() ? r : null;
        });
        expect(linked(back.body.blocks)).toBe(true);
      }
      for (const p of processes) {
        expect(p.proc.exitCode, p.output().slice(-2000)).toBeNull();
        expect(p.proc.signalCode).toBeNull();
      }
    });
  },
);
