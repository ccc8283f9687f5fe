import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { canonicalDump, checkInvariants, createSqlStore, readIndexerState } from '@explorer/db';
import type { Devnet } from '@explorer/devnet';
import { openTestDatabase, pgSkipReason, type TestDatabase } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIndexer } from './indexer.js';
import { createNodeClient } from './node-client.js';
import { devnetDefinitions, serveDevnet } from './test-support/fixtures.js';

const child = fileURLToPath(new URL('./test-support/crash-child.mjs', import.meta.url));
const built = existsSync(fileURLToPath(new URL('../dist/index.js', import.meta.url)));
const reason =
  pgSkipReason() ?? (built ? null : 'packages/indexer/dist is missing (run pnpm build): crash test skipped');
if (reason) console.log(`[indexer crash] ${reason}`);

// 8 in the suite (each kill is a child process started and a database checked: about 4 s); CRASH_KILLS for more.
const KILLS = Number(process.env.CRASH_KILLS ?? 8);

/** An in-process indexer over the devnet, to finish a sync or build the reference index. */
const indexerOf = (sql: TestDatabase['sql'], url: string, devnet: Devnet) =>
  createIndexer({
    sql,
    node: createNodeClient({ url }),
    definitions: devnetDefinitions(devnet),
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(reason !== null)('indexer killed with SIGKILL at random points (pg)', () => {
  let devnet: Devnet;
  let url: string;
  let close: () => Promise<void>;
  let db: TestDatabase;

  beforeAll(async () => {
    ({ devnet, url, close } = await serveDevnet({
      seed: 'crash',
      blocks: 300,
      txPerBlock: 12,
      coinbaseMaturity: 5,
      proofSize: [500, 2000],
    }));
    db = await openTestDatabase('pg');
  });
  afterAll(async () => {
    await close?.();
    await db?.drop();
  });

  it(`resumes after each of ${KILLS} kills with every invariant holding, and ends equal to a fresh index`, async () => {
    const env = {
      ...process.env,
      NODE_URL: url,
      DATABASE_URL: db.url,
      DB_SCHEMA: db.schema,
      DEFINITIONS: JSON.stringify(devnet.definitions()),
    };
    let kills = 0;
    const heights: number[] = [];
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let previous = (await readIndexerState(db.sql)).tip_height;
    while (kills < KILLS) {
      const proc: ChildProcess = spawn(process.execPath, [child], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let errors = '';
      proc.stderr?.on('data', (d) => {
        errors += d;
      });
      await new Promise<void>((resolve, reject) => {
        proc.stdout?.on('data', (d) => String(d).includes('started') && resolve());
        proc.on('exit', () => reject(new Error(`indexer child exited before starting: ${errors}`)));
      });
      // Let this run commit at least one batch past the previous kill (bounded, so a stuck child still
      // shows up as too little progress below), then kill it at a random later point.
      const deadline = Date.now() + 60_000;
      while ((await readIndexerState(db.sql)).tip_height <= previous && Date.now() < deadline)
        await sleep(20);
      await sleep(20 + random() * 400);
      proc.kill('SIGKILL');
      // (A child that died on its own already exited: waiting for 'exit' again would hang.)
      if (proc.exitCode === null && proc.signalCode === null) await new Promise((r) => proc.once('exit', r));
      kills++;
      expect(await checkInvariants(db.sql)).toEqual([]);
      const state = await readIndexerState(db.sql);
      heights.push(state.tip_height);
      previous = state.tip_height;
      // Keep the chain ahead of the indexer so every kill lands during a sync.
      if (devnet.height() - state.tip_height < 40) devnet.mine(40);
      if (kills % 5 === 0) devnet.reorg(3);
    }
    // Progress was made across restarts, not one lucky run.
    expect(new Set(heights).size).toBeGreaterThan(KILLS / 3);

    const finisher = indexerOf(db.sql, url, devnet);
    await finisher.syncOnce();
    await finisher.stop();
    expect(await checkInvariants(db.sql)).toEqual([]);

    // Supply to the grain and the certificate figures equal the devnet's own after all those kills.
    const truth = devnet.truth();
    const store = createSqlStore(db.sql);
    const emitted = BigInt(truth.emitted);
    expect(await store.supply()).toMatchObject({
      height: truth.height,
      emitted: truth.emitted,
      claimed: String(emitted - BigInt(truth.unclaimed)),
      fees: truth.fees,
      unspendable: {
        opReturn: truth.opReturnValue,
        unclaimedSubsidy: truth.unclaimed,
        burnAddresses: truth.burnAddressBalance,
      },
    });
    const pouw = await store.pouw();
    const c = truth.certificates;
    expect(pouw).toMatchObject({
      certifiedBlocks: c.total,
      moe: c.moe,
      commitmentFailures: c.commitmentFailures,
      unreadable: 0,
      proofSize: { min: c.proofBytes.min, max: c.proofBytes.max },
    });
    for (const v of ['1', '2', '3', '4']) expect(pouw.byVersion[v as '1']).toBe(c.byVersion[v] ?? 0);

    const fresh = await openTestDatabase('pg');
    try {
      const indexer = indexerOf(fresh.sql, url, devnet);
      await indexer.syncOnce();
      await indexer.stop();
      expect(await canonicalDump(db.sql)).toEqual(await canonicalDump(fresh.sql));
    } finally {
      await fresh.drop();
    }
  });
});
