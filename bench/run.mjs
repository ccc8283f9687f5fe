#!/usr/bin/env node
// The whole performance suite in one command; writes bench/out/*.json and the tables of bench/RESULTS.md.
// usage: node bench/run.mjs [--small-blocks 1000] [--large-blocks 100000] [--tx-per-block 10]
//                           [--connections 32] [--seconds 5] [--skip-peer] [--skip-sync] [--skip-events]
// Needs a built workspace (pnpm build), PostgreSQL on BENCH_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/postgres) and, for the peer comparison, litecoind. Where PostgreSQL is
// absent: `apt-get install postgresql`, then `pg_ctlcluster 15 main start` (trust auth on loopback, or put the
// password in BENCH_DATABASE_URL).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createPgSql } from '../packages/db/dist/index.js';
import { coldTable } from './cold-table.mjs';
import { eventsTable } from './events-table.mjs';
import { BENCH_DATABASE_URL, dbUrl } from './lib.mjs';
import { peersColdTable } from './peers-cold-table.mjs';

const { values } = parseArgs({
  // `pnpm bench -- --skip-peer` hands the script a leading `--`.
  args: process.argv.slice(2).filter((a, i) => i > 0 || a !== '--'),
  options: {
    'small-blocks': { type: 'string', default: '1000' },
    'large-blocks': { type: 'string', default: '100000' },
    'tx-per-block': { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    seconds: { type: 'string', default: '5' },
    'skip-peer': { type: 'boolean', default: false },
    // Reuse the databases and results an earlier run's sync step left (bench_small, bench_large);
    // --skip-peer likewise reports the last peer runs (bench/peer.mjs and bench/peers-cold.mjs).
    'skip-sync': { type: 'boolean', default: false },
    // Live events to 1,000 SSE clients (bench/events.mjs, about two minutes); skipped, the last run is reported.
    'skip-events': { type: 'boolean', default: false },
  },
});
const base = BENCH_DATABASE_URL;
try {
  const probe = createPgSql({ connectionString: base, max: 1, connectionTimeoutMs: 3_000 });
  await probe.query('SELECT 1');
  await probe.close();
} catch (err) {
  console.error(`bench: PostgreSQL does not answer at ${base} (${err.message}).`);
  console.error(
    '  Start one: apt-get install postgresql && pg_ctlcluster 15 main start, or set BENCH_DATABASE_URL.',
  );
  process.exit(2);
}
// The HD wallet every generated chain pays (a test network's account key; taproot on Pearl, P2PKH on Core):
// bench/cold.mjs asks for it as a used key.
const WALLET_KEY =
  'tpubDCvNhURocXGZsLNqWcqD3syHTqPXrMSTwi8feKVwAcpi29oYKsDD3Vex7x2TDneKMVN23RbLprfxB69v94iYqdaYHsVz3kPR37NQXeqouVz';
const WALLET_ADDRESSES = '100,40';
const step = (script, args) => {
  console.error(`\nbench: node ${script} ${args.join(' ')}`);
  const r = spawnSync(process.execPath, [script, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`${script} failed with status ${r.status}`);
};
const read = (name) => JSON.parse(readFileSync(`bench/out/${name}.json`, 'utf8'));

const tpb = values['tx-per-block'];
const serveArgs = ['--connections', values.connections, '--seconds', values.seconds];
for (const [label, blocks] of [
  ['small', values['small-blocks']],
  ['large', values['large-blocks']],
]) {
  // Pearl's chain (kept for the serving benchmark), then the same generator in Bitcoin Core's dialect, read
  // through the bitcoin profile, beside it.
  for (const [dialect, out, keep] of [
    ['pearl', `sync-${label}`, ['--keep', `bench_${label}`]],
    ['bitcoin', `sync-core-${label}`, ['--keep', `bench_${label}_core`]],
  ]) {
    if (values['skip-sync']) continue;
    step('bench/sync.mjs', [
      '--blocks',
      blocks,
      '--tx-per-block',
      tpb,
      '--dialect',
      dialect,
      ...keep,
      '--hd-wallet',
      WALLET_KEY,
      '--hd-wallet-addresses',
      WALLET_ADDRESSES,
      '--out',
      `bench/out/${out}.json`,
    ]);
  }
  step('bench/serve.mjs', ['--database-url', dbUrl(`bench_${label}`, base), '--label', label, ...serveArgs]);
}
// Cold reads on both large chains: every request names what no request of the run asked before.
for (const [database, label] of [
  ['bench_large', 'large'],
  ['bench_large_core', 'large-core'],
]) {
  step('bench/cold.mjs', [
    '--database-url',
    dbUrl(database, base),
    '--label',
    label,
    '--wallet-key',
    WALLET_KEY,
    '--connections',
    values.connections,
    '--seconds',
    values.seconds,
  ]);
}
if (!values['skip-events'])
  step('bench/events.mjs', ['--database-url', base, '--out', 'bench/out/events.json']);
if (!values['skip-sync']) step('bench/fetch.mjs', ['--out', 'bench/out/fetch.json']);
if (!values['skip-peer']) {
  step('bench/peer.mjs', ['--out', 'bench/out/peer.json']);
  // btc-rpc-explorer is installed with npm into a temporary directory (or left out, saying why).
  step('bench/peers-cold.mjs', [
    '--connections',
    values.connections,
    '--seconds',
    values.seconds,
    '--out',
    'bench/out/peers-cold.json',
  ]);
}
const exists = (name) => {
  try {
    readFileSync(`bench/out/${name}.json`);
    return true;
  } catch {
    return false;
  }
};

// Tables for bench/RESULTS.md.
const sync = {
  'small, Pearl': read('sync-small'),
  'small, Core': read('sync-core-small'),
  'large, Pearl': read('sync-large'),
  'large, Core': read('sync-core-large'),
};
const fetchPaths = exists('fetch') ? read('fetch') : null;
const serve = { small: read('serve-small'), large: read('serve-large') };
// With --skip-peer the last peer run's results are reported, if there are any.
const peer = exists('peer') ? read('peer') : null;
const n = (x) => x.toLocaleString('en-US');
const lines = [];
lines.push(
  `Run of ${sync['large, Pearl'].date.slice(0, 10)} on ${sync['large, Pearl'].machine.cpus} vCPU (${sync['large, Pearl'].machine.model}), ` +
    `${sync['large, Pearl'].machine.memoryGiB} GiB, Node ${sync['large, Pearl'].machine.node}: \`node bench/run.mjs\`.`,
  '',
  '### Indexing (initial sync into PostgreSQL; ceiling: the same rows with COPY, same run)',
  '',
  'Pearl: the devnet in pearld’s dialect, read as block bytes through the Pearl profile. Core: the same generator in',
  'Bitcoin Core’s dialect, read as verbose JSON through the bitcoin profile.',
  '',
  '| chain | blocks | txs | sync s | blocks/s | tx/s | COPY s | COPY tx/s | sync ÷ COPY | CPU s (indexer / postgres / node) | indexer peak RSS |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
);
for (const [label, s] of Object.entries(sync)) {
  const c = s.copyCeiling;
  const cpu = s.sync.cpuSeconds;
  lines.push(
    `| ${label} | ${n(s.chain.blocks)} | ${n(s.chain.txs)} | ${s.sync.seconds} | ${n(s.sync.blocksPerSecond)} | ${n(s.sync.txPerSecond)} | ${c.seconds} | ${n(c.txPerSecond)} | ${c.syncToCopyRatio} | ${cpu.indexer} / ${cpu.postgres} / ${cpu.node} | ${s.sync.indexerPeakRssMiB} MiB |`,
  );
}
if (fetchPaths) {
  const b = fetchPaths.bytes;
  const j = fetchPaths.json;
  lines.push(
    '',
    `### Reading Pearl blocks: bytes or verbose JSON (\`${fetchPaths.command}\`, fetch and decode only)`,
    '',
    '| path | RPC calls per block | tx/s | indexer CPU s | node CPU s (devnet) | MB from the node |',
    '|---|---|---|---|---|---|',
    `| \`getblock <hash> 0\`, decoded by the indexer | 1 | ${n(b.txPerSecond)} | ${b.indexerCpuSeconds} | ${b.nodeCpuSeconds} | ${b.megabytesFromNode} |`,
    `| \`getblock <hash> 2\` (rawtx) + \`getblock <hash> 0\` (certificate) | 2 | ${n(j.txPerSecond)} | ${j.indexerCpuSeconds} | ${j.nodeCpuSeconds} | ${j.megabytesFromNode} |`,
  );
}
lines.push(
  '',
  `### Serving (${serve.large.connections} connections, ${serve.large.seconds} s per endpoint; ratio = req/s ÷ bare-Hono req/s at the same body size)`,
  '',
  '| endpoint | class | small req/s | small p50 / p99 ms | small ratio | large req/s | large p50 / p99 ms | large ratio | large ÷ small time per request |',
  '|---|---|---|---|---|---|---|---|---|',
);
for (let i = 0; i < serve.large.endpoints.length; i++) {
  const s = serve.small.endpoints[i];
  const l = serve.large.endpoints[i];
  // At fixed concurrency the time per request is the inverse of the throughput; latency percentiles come in
  // whole milliseconds, too coarse for a ratio.
  const growth = Math.round((s.rps / l.rps) * 100) / 100;
  lines.push(
    `| ${l.name} | ${l.kind} | ${n(s.rps)} | ${s.p50} / ${s.p99} | ${s.ratio} | ${n(l.rps)} | ${l.p50} / ${l.p99} | ${l.ratio} | ${growth} |`,
  );
}
if (serve.large.endpoints.some((e) => e.db)) {
  lines.push(
    '',
    `### The database alone, large chain (pgbench, ${serve.large.connections} clients, the statements of one uncached request per transaction, prepared)`,
    '',
    '| endpoint | statements | PostgreSQL req/s | PostgreSQL latency ms | HTTP req/s | HTTP ÷ PostgreSQL | queries in a steady-state request |',
    '|---|---|---|---|---|---|---|',
  );
  for (const e of serve.large.endpoints) {
    if (!e.db) continue;
    lines.push(
      e.db.tps === null
        ? `| ${e.name} | 0 | | | ${n(e.rps)} | | ${e.db.steadyStatements} |`
        : `| ${e.name} | ${e.db.statements} | ${n(e.db.tps)} | ${e.db.latencyMs} | ${n(e.rps)} | ${e.httpToDb} | ${e.db.steadyStatements} |`,
    );
  }
}
const deep = (r) => r.endpoints.find((e) => e.name.startsWith('address txs page') && !e.name.endsWith(' 1'));
const first = (r) => r.endpoints.find((e) => e.name === 'address txs page 1');
lines.push(
  '',
  `Page ${serve.large.chain.deepPage} against page 1 of the busiest address (${n(serve.large.chain.busyAddress.txs)} txs, ${serve.large.chain.pageLimit} per page), large chain: ` +
    `${first(serve.large).rps} → ${deep(serve.large).rps} req/s, p50 ${first(serve.large).p50} → ${deep(serve.large).p50} ms ` +
    `(${Math.round((first(serve.large).rps / deep(serve.large).rps) * 100) / 100}× the time per request).`,
  '',
  `Server RSS under load: small ${serve.small.serverRssMiB.start} → ${serve.small.serverRssMiB.peak} MiB, large ${serve.large.serverRssMiB.start} → ${serve.large.serverRssMiB.peak} MiB (peak).`,
);
if (peer) {
  lines.push(
    '',
    `### Against the node (litecoind regtest, tip ${peer.chain.tip}; block of ${peer.chain.blockTxs} txs; ${peer.block.connections} connections)`,
    '',
    '| comparison | explorer API | node | ratio |',
    '|---|---|---|---|',
    `| \`/v1/blocks/{hash}\` vs \`getblock <hash> 2\` | ${n(peer.block.api.rps)} req/s (p99 ${peer.block.api.p99} ms) | ${n(peer.block.nodeGetblock2.rps)} req/s (p99 ${peer.block.nodeGetblock2.p99} ms) | ${peer.block.ratio}× |`,
    `| \`/v1/addresses/{a}/utxos\` vs \`scantxoutset\` (${peer.chain.busyUtxos} UTXOs, sequential) | ${peer.utxos.apiMs} ms | ${peer.utxos.scantxoutsetMs} ms | ${n(peer.utxos.speedup)}× faster |`,
  );
}
if (exists('cold-large') && exists('cold-large-core')) {
  const pearl = read('cold-large');
  lines.push(
    '',
    `### Cold and repeated reads (\`bench/cold.mjs\`, ${pearl.connections} connections, ${pearl.seconds} s per round, median of three rounds; ratio = req/s ÷ bare-Hono req/s at the same body size, same run)`,
    '',
    ...coldTable(pearl, read('cold-large-core')),
  );
}
if (exists('peers-cold')) {
  lines.push(
    '',
    '### Cold reads against the peers (one litecoind regtest chain; `bench/peers-cold.mjs`)',
    '',
    ...peersColdTable(read('peers-cold')),
  );
}
if (exists('events')) {
  const events = read('events');
  lines.push(
    '',
    `### Live events (${events.phases[0].streams.toLocaleString('en-US')} SSE clients; ceiling: a bare node:http broadcaster, same clients, same run)`,
    '',
    ...eventsTable(events),
  );
}
const report = lines.join('\n');
const path = 'bench/RESULTS.md';
const current = readFileSync(path, 'utf8');
const start = '<!-- suite:start -->';
const end = '<!-- suite:end -->';
const block = `${start}\n${report}\n${end}`;
writeFileSync(
  path,
  current.includes(start)
    ? current.replace(new RegExp(`${start}[\\s\\S]*${end}`), () => block)
    : `${current.trimEnd()}\n\n## The suite (\`node bench/run.mjs\`)\n\n${block}\n`,
);
console.log(report);
