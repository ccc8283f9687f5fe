#!/usr/bin/env node
// Initial-sync throughput: a devnet node in its own process, indexed into a PostgreSQL database of its own
// from scratch; then the ceiling: the same rows copied with COPY into a second, freshly migrated database.
// usage: node bench/sync.mjs [--blocks 100000] [--tx-per-block 10] [--dialect pearl|bitcoin] [--database-url URL]
//                            [--keep NAME] [--out bench/out/sync.json]
// --dialect: the devnet speaks pearld's dialect (the indexer reads block bytes, the Pearl profile) or Bitcoin
// Core's (verbose JSON, the bitcoin profile).
// --keep NAME leaves the indexed database behind as NAME (the serving benchmark reads it).
// It runs with the heap cap `explorer-server index` runs with by default (V8's old generation, HEAP_CAP_MB.index),
// unless Node is given a heap size (node --max-old-space-size=N bench/sync.mjs …) or --node-heap keeps Node's own.
// Needs a built workspace (pnpm build) and PostgreSQL (default postgres://postgres@127.0.0.1:5432/postgres).
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { getHeapStatistics } from 'node:v8';
import { createPgSql, DERIVED_TABLES, openDatabase } from '../packages/db/dist/index.js';
import {
  createDefinitions,
  createIndexer,
  createNodeClient,
  defaultReaderThreads,
  loadDefinitions,
} from '../packages/indexer/dist/index.js';
import { HEAP_CAP_MB, heapSizeGiven } from '../packages/server/dist/index.js';
import { startDevnetProcess } from './devnet.mjs';
import {
  BENCH_DATABASE_URL,
  createBenchDatabase,
  dbUrl,
  dropBenchDatabase,
  postgresCpu,
  procCpu,
} from './lib.mjs';
import { machineInfo } from './machine.mjs';

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '100000' },
    dialect: { type: 'string', default: 'pearl' },
    'tx-per-block': { type: 'string', default: '10' },
    'database-url': { type: 'string', default: BENCH_DATABASE_URL },
    out: { type: 'string', default: 'bench/out/sync.json' },
    'batch-tx': { type: 'string' },
    keep: { type: 'string' },
    'no-copy': { type: 'boolean', default: false },
    // An HD wallet the devnet pays (bench/cold.mjs asks for it as a used key), and how many of its receive and
    // change addresses get paid.
    'hd-wallet': { type: 'string' },
    'hd-wallet-addresses': { type: 'string' },
    'node-heap': { type: 'boolean', default: false },
  },
});
// The indexer's default heap cap, as the server's bin applies it (this process runs the sync itself).
if (!values['node-heap'] && !heapSizeGiven(process.execArgv, process.env.NODE_OPTIONS)) {
  const capped = spawnSync(
    process.execPath,
    [`--max-old-space-size=${HEAP_CAP_MB.index}`, ...process.execArgv, ...process.argv.slice(1)],
    { stdio: 'inherit' },
  );
  process.exit(capped.status ?? 1);
}
const blocks = Number(values.blocks);
const dialect = values.dialect;
if (dialect !== 'pearl' && dialect !== 'bitcoin') throw new Error('--dialect must be pearl or bitcoin');
const txPerBlock = Number(values['tx-per-block']);
const url = values['database-url'];
const defsDir = `.tmp/bench-devnet-${process.pid}`;

console.error(
  `bench/sync: generating a ${dialect} devnet chain of ${blocks} blocks × ~${txPerBlock} txs in a child process…`,
);
const t0 = performance.now();
const { proc: devnet, info } = await startDevnetProcess([
  '--dialect',
  dialect,
  '--seed',
  'bench',
  '--blocks',
  String(blocks),
  '--tx-per-block',
  String(txPerBlock),
  '--definitions-dir',
  defsDir,
  '--proof-min',
  '200',
  '--proof-max',
  '400',
  ...(values['hd-wallet'] ? ['--hd-wallet', values['hd-wallet']] : []),
  ...(values['hd-wallet-addresses'] ? ['--hd-wallet-addresses', values['hd-wallet-addresses']] : []),
]);
const generateSeconds = (performance.now() - t0) / 1000;
console.error(`bench/sync: chain ready in ${generateSeconds.toFixed(1)} s at ${info.url}`);

const dbName = values.keep ?? `bench_sync_${process.pid}`;
if (!/^[a-z_][a-z0-9_]*$/.test(dbName)) throw new Error(`--keep wants a plain database name, not ${dbName}`);
const admin = createPgSql({ connectionString: url, max: 1 });
await createBenchDatabase(admin, dbName);
const sql = await openDatabase({ url: dbUrl(dbName, url), poolSize: 4 });
const definitions = await loadDefinitions({ poolsFile: info.poolsFile, labelsFile: info.labelsFile }).catch(
  () => createDefinitions([], []),
);
const indexer = createIndexer({
  sql,
  node: createNodeClient({ url: info.url, timeoutMs: 120_000 }),
  definitions,
  batchTxTarget: values['batch-tx'] === undefined ? undefined : Number(values['batch-tx']),
});
let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 500);
const progress = setInterval(() => {
  const s = indexer.status();
  console.error(`bench/sync: height ${s.tipHeight} / ${s.nodeHeight ?? '?'}`);
}, 10_000);
const cpu0 = { me: process.cpuUsage(), pg: postgresCpu(), node: procCpu(devnet.pid) };
const t1 = performance.now();
const { applied } = await indexer.syncOnce();
const seconds = (performance.now() - t1) / 1000;
const me = process.cpuUsage(cpu0.me);
const cpu = {
  indexer: (me.user + me.system) / 1e6,
  postgres: postgresCpu() - cpu0.pg,
  node: procCpu(devnet.pid) - cpu0.node,
};
clearInterval(sampler);
clearInterval(progress);
const [{ n: txs }] = await sql.query('SELECT count(*)::int8 AS n FROM txs');
await indexer.stop();
await sql.close();
devnet.kill('SIGTERM');
// The devnet's pool and label files, written for this run only.
rmSync(defsDir, { recursive: true, force: true });

// The ceiling: every row the sync wrote, streamed out of its database with COPY … TO and into a freshly
// migrated one with COPY … FROM, table by table in one transaction, with the same indexes in place.
let ceiling = null;
if (!values['no-copy']) {
  const copyName = `${dbName}_copy`;
  await createBenchDatabase(admin, copyName);
  await (await openDatabase({ url: dbUrl(copyName, url), poolSize: 1 })).close();
  // The storage package's own driver and COPY streams.
  const dbRequire = createRequire(new URL('../packages/db/package.json', import.meta.url));
  const pg = dbRequire('pg');
  const { from: copyFrom, to: copyTo } = dbRequire('pg-copy-streams');
  const source = new pg.Client({ connectionString: dbUrl(dbName, url) });
  const target = new pg.Client({ connectionString: dbUrl(copyName, url) });
  await source.connect();
  await target.connect();
  // Every table a derived-table description stores (each is dumped by exactly one description).
  const tables = DERIVED_TABLES.flatMap((t) => (t.dump ? [t.dump.table] : []));
  const t2 = performance.now();
  await target.query('BEGIN');
  for (const table of tables) {
    await target.query(`DELETE FROM ${table}`);
    const out = source.query(copyTo(`COPY ${table} TO STDOUT`));
    const into = target.query(copyFrom(`COPY ${table} FROM STDIN`));
    await pipeline(out, into);
  }
  await target.query('COMMIT');
  const copySeconds = (performance.now() - t2) / 1000;
  await source.end();
  await target.end();
  await dropBenchDatabase(admin, copyName);
  ceiling = {
    seconds: Math.round(copySeconds * 10) / 10,
    txPerSecond: Math.round(txs / copySeconds),
    syncToCopyRatio: Math.round((copySeconds / seconds) * 100) / 100,
  };
}
if (!values.keep) await dropBenchDatabase(admin, dbName);
await admin.close();

const result = {
  date: new Date().toISOString(),
  machine: machineInfo(),
  // Node's own flags too (a heap cap changes the RSS measured).
  command: `${['node', ...process.execArgv].join(' ')} bench/sync.mjs --blocks ${blocks} --tx-per-block ${txPerBlock} --dialect ${dialect}${values.keep ? ` --keep ${values.keep}` : ''}${values['hd-wallet'] ? ` --hd-wallet <key> --hd-wallet-addresses ${values['hd-wallet-addresses'] ?? '10,5'}` : ''}${values['no-copy'] ? ' --no-copy' : ''}${values['node-heap'] ? ' --node-heap' : ''}`,
  heapLimitMiB: Math.round(getHeapStatistics().heap_size_limit / 2 ** 20),
  readerThreads: defaultReaderThreads(),
  dialect,
  chain: { blocks: applied, txs, generateSeconds: Math.round(generateSeconds) },
  sync: {
    seconds: Math.round(seconds * 10) / 10,
    blocksPerSecond: Math.round(applied / seconds),
    txPerSecond: Math.round(txs / seconds),
    indexerPeakRssMiB: Math.round(peakRss / 2 ** 20),
    cpuSeconds: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, Math.round(v * 10) / 10])),
  },
  copyCeiling: ceiling,
  keptDatabase: values.keep ?? null,
};
mkdirSync(dirname(values.out), { recursive: true });
writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
process.exit(0);
