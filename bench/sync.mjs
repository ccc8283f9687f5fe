#!/usr/bin/env node
// Initial-sync throughput: a devnet node in its own process, indexed into PostgreSQL from scratch.
// usage: node bench/sync.mjs [--blocks 100000] [--tx-per-block 10] [--database-url URL] [--out bench/out/sync.json]
// Needs a built workspace (pnpm build) and PostgreSQL (default postgres://postgres@127.0.0.1:5432/postgres).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { createPgSql, openDatabase } from '../packages/db/dist/index.js';
import {
  createDefinitions,
  createIndexer,
  createNodeClient,
  loadDefinitions,
} from '../packages/indexer/dist/index.js';

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '100000' },
    'tx-per-block': { type: 'string', default: '10' },
    'database-url': {
      type: 'string',
      default: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
    out: { type: 'string', default: 'bench/out/sync.json' },
    'batch-tx': { type: 'string', default: '5000' },
  },
});
const blocks = Number(values.blocks);
const txPerBlock = Number(values['tx-per-block']);
const url = values['database-url'];
const defsDir = `.tmp/bench-devnet-${process.pid}`;

console.error(
  `bench/sync: generating a devnet chain of ${blocks} blocks × ~${txPerBlock} txs in a child process…`,
);
const t0 = performance.now();
const devnet = spawn(
  process.execPath,
  [
    'packages/devnet/dist/bin.js',
    '--seed',
    'bench',
    '--blocks',
    String(blocks),
    '--tx-per-block',
    String(txPerBlock),
    '--port',
    '0',
    '--definitions-dir',
    defsDir,
    '--proof-min',
    '200',
    '--proof-max',
    '400',
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const info = await new Promise((resolve, reject) => {
  let buf = '';
  devnet.stdout.on('data', (d) => {
    buf += d;
    const line = buf.split('\n').find((l) => l.startsWith('{'));
    if (line) resolve(JSON.parse(line));
  });
  devnet.on('exit', (code) => reject(new Error(`devnet exited with ${code}`)));
});
const generateSeconds = (performance.now() - t0) / 1000;
console.error(`bench/sync: chain ready in ${generateSeconds.toFixed(1)} s at ${info.url}`);

const schema = `bench_${process.pid}`;
const admin = createPgSql({ connectionString: url, max: 1 });
await admin.query(`CREATE SCHEMA ${schema}`);
const sql = await openDatabase({ url, schema, poolSize: 4 });
const definitions = await loadDefinitions({ poolsFile: info.poolsFile, labelsFile: info.labelsFile }).catch(
  () => createDefinitions([], []),
);
const indexer = createIndexer({
  sql,
  node: createNodeClient({ url: info.url, timeoutMs: 120_000 }),
  definitions,
  batchTxTarget: Number(values['batch-tx']),
});
let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 500);
const progress = setInterval(() => {
  const s = indexer.status();
  console.error(`bench/sync: height ${s.tipHeight} / ${s.nodeHeight ?? '?'}`);
}, 10_000);
const t1 = performance.now();
const { applied } = await indexer.syncOnce();
const seconds = (performance.now() - t1) / 1000;
clearInterval(sampler);
clearInterval(progress);
const [{ n: txs }] = await sql.query('SELECT count(*)::int8 AS n FROM txs');
await indexer.stop();
await sql.close();
await admin.query(`DROP SCHEMA ${schema} CASCADE`);
await admin.close();
devnet.kill('SIGTERM');

const result = {
  date: new Date().toISOString(),
  machine: {
    cpus: cpus().length,
    model: cpus()[0]?.model,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  },
  command: `node bench/sync.mjs --blocks ${blocks} --tx-per-block ${txPerBlock}`,
  chain: { blocks: applied, txs, generateSeconds: Math.round(generateSeconds) },
  sync: {
    seconds: Math.round(seconds * 10) / 10,
    blocksPerSecond: Math.round(applied / seconds),
    txPerSecond: Math.round(txs / seconds),
    indexerPeakRssMiB: Math.round(peakRss / 2 ** 20),
  },
};
mkdirSync(dirname(values.out), { recursive: true });
writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
process.exit(0);
