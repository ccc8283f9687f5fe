#!/usr/bin/env node
// The embedded demo during its first sync, as a user meets it: how long /v1/status takes while PGlite is
// being written, how fast the sync goes, how long a Ctrl-C takes to stop it, and what the index costs on disk.
//
//   node bench/embedded-sync.mjs [--blocks 3000] [--tx-per-block 8] [--interrupt-at 0.5] [--pg-url URL]
//
// Starts the built server (`pnpm build` first) on a fresh data dir with a devnet of --blocks blocks and no live
// mining, asks /v1/status every 200 ms until the index reaches --interrupt-at of the chain (1: until synced),
// then sends SIGINT and measures the time to the process's exit. Then it measures the data dir: the whole
// `pgdata`, its WAL, and every table's bytes per transaction (`pg_table_size` + `pg_indexes_size` after
// `VACUUM (ANALYZE)`, as bench/storage.mjs measures PostgreSQL). With --pg-url (a PostgreSQL server the script
// may create a database on), the same demo chain is indexed into PostgreSQL too and measured the same way,
// beside it. Prints one JSON line.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../packages/db/dist/index.js';
import { createBenchDatabase, dbUrl, dropBenchDatabase, startScript } from './lib.mjs';
import { machineInfo } from './machine.mjs';
import { bytesPerTx } from './storage-report.mjs';

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '3000' },
    'tx-per-block': { type: 'string', default: '8' },
    'interrupt-at': { type: 'string', default: '0.5' },
    'pg-url': { type: 'string' },
  },
});
const blocks = Number(values.blocks);
const interruptAt = Math.ceil(blocks * Number(values['interrupt-at']));
const dir = mkdtempSync(join(tmpdir(), 'explorer-bench-embedded-'));
const run = await syncDemo({ EXPLORER_DATA_DIR: dir });
// The files as the server left them, before anything here writes (VACUUM writes WAL of its own).
const files = filesOf(join(dir, 'pgdata'), run.txs);
const embedded = await measure(await openDatabase({ dataDir: dir, migrate: false }), run.txs, files);
rmSync(dir, { recursive: true, force: true });

let postgres = null;
if (values['pg-url']) {
  const name = `bench_embedded_${process.pid}`;
  const admin = await openDatabase({ url: values['pg-url'], migrate: false, poolSize: 1 });
  await createBenchDatabase(admin, name);
  const url = dbUrl(name, values['pg-url']);
  const devnetDir = mkdtempSync(join(tmpdir(), 'explorer-bench-embedded-pg-'));
  try {
    const pgRun = await syncDemo({ EXPLORER_DATA_DIR: devnetDir, DATABASE_URL: url });
    postgres = {
      seconds: pgRun.seconds,
      ...(await measure(await openDatabase({ url, migrate: false }), pgRun.txs, null)),
    };
  } finally {
    rmSync(devnetDir, { recursive: true, force: true });
    await dropBenchDatabase(admin, name);
    await admin.close();
  }
}

console.log(
  JSON.stringify({
    machine: machineInfo(),
    blocks,
    ...run.figures,
    storage: { embedded, postgres },
  }),
);

/** Bytes of the files under `path`. */
function bytesUnder(path) {
  let sum = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const p = join(path, entry.name);
    sum += entry.isDirectory() ? bytesUnder(p) : statSync(p).size;
  }
  return sum;
}

/** The embedded database's files: the whole pgdata and its WAL, in bytes and per transaction. */
function filesOf(pgdata, txs) {
  const total = bytesUnder(pgdata);
  const wal = bytesUnder(join(pgdata, 'pg_wal'));
  return {
    pgdataBytes: total,
    walBytes: wal,
    perTx: { pgdata: Math.round(total / txs), wal: Math.round(wal / txs) },
  };
}

/** Every table's bytes per transaction after VACUUM (ANALYZE), as bench/storage.mjs measures them. */
async function measure(sql, txs, files) {
  try {
    await sql.exec('VACUUM (ANALYZE)', 'bench.vacuum');
    const rows = await sql.query(
      `SELECT c.relname AS name, c.reltuples::float8 AS rows,
              pg_table_size(c.oid) AS "tableBytes", pg_indexes_size(c.oid) AS "indexBytes"
         FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'm') AND ns.nspname = 'public'`,
      [],
      'bench.sizes',
    );
    const tables = bytesPerTx(rows, txs);
    const [db] = await sql.query(
      'SELECT pg_database_size(current_database())::int8 AS bytes',
      [],
      'bench.db',
    );
    return {
      txs,
      tablesAndIndexesPerTx: tables.total.perTx,
      databaseBytes: Number(db.bytes),
      databasePerTx: Math.round(Number(db.bytes) / txs),
      files,
      largest: tables.tables.slice(0, 6).map((t) => ({ name: t.name, perTx: t.perTx.total })),
    };
  } finally {
    await sql.close();
  }
}

/** One first sync of the demo chain by the built server with `env`, as described at the top. */
async function syncDemo(extraEnv) {
  const started = await startScript(
    [new URL('../packages/server/dist/bin.js', import.meta.url).pathname, 'start', '--port', '0'],
    {
      ...extraEnv,
      DEVNET_BLOCKS: String(blocks),
      DEVNET_TX_PER_BLOCK: values['tx-per-block'],
      DEVNET_INTERVAL_MS: '0',
      LOG_LEVEL: 'info',
      RATE_LIMIT_ENABLED: 'false',
      // The metrics listener's own "listening on" line is not the API's.
      METRICS_PORT: 'off',
    },
    /^explorer listening on (http:\/\/\S+)/m,
    // Its log lines (stdout and stderr) say what it did: progress, "indexer synced", "SIGINT: stopping".
    { capture: true },
  );
  const server = started.proc;
  const url = started.match[1];
  const exited = new Promise((resolve) => server.once('exit', (code) => resolve(code)));

  const latencies = [];
  let tip = -1;
  const began = performance.now();
  // Bounded: at most 3,000 requests (10 minutes at one every 200 ms).
  for (let i = 0; i < 3_000 && tip < interruptAt; i++) {
    const t = performance.now();
    const body = await fetch(`${url}/v1/status`)
      .then((r) => r.json())
      .catch(() => null);
    latencies.push(performance.now() - t);
    tip = body?.status?.indexer?.tipHeight ?? tip;
    await new Promise((r) => setTimeout(r, 200));
  }
  const syncSeconds = (performance.now() - began) / 1000;
  const signalled = performance.now();
  server.kill('SIGINT');
  const code = await exited;
  const stopMs = performance.now() - signalled;

  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]);
  const output = started.output();
  const progress = output.split('\n').filter((l) => l.includes('"msg":"syncing: '));
  return {
    seconds: Math.round(syncSeconds * 10) / 10,
    txs: await countTxs(extraEnv),
    figures: {
      indexedAtInterrupt: tip,
      seconds: Math.round(syncSeconds * 10) / 10,
      statusMs: {
        n: latencies.length,
        p50: at(0.5),
        p90: at(0.9),
        p99: at(0.99),
        max: Math.round(latencies.at(-1)),
      },
      progressLines: progress.length,
      sigint: { exitCode: code, stopMs: Math.round(stopMs), saidStopping: /SIGINT: stopping/.test(output) },
      saidSynced: output.includes('"msg":"indexer synced"'),
    },
  };
}

/** Transactions the index of `env` holds. */
async function countTxs(env) {
  const sql = await openDatabase(
    env.DATABASE_URL
      ? { url: env.DATABASE_URL, migrate: false }
      : { dataDir: env.EXPLORER_DATA_DIR, migrate: false },
  );
  try {
    return Number((await sql.query('SELECT count(*)::int8 AS n FROM txs', [], 'bench.txs'))[0].n);
  } finally {
    await sql.close();
  }
}
