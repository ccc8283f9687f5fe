#!/usr/bin/env node
// Serving throughput and latency per endpoint class, each against the ceiling measured in the same run: a bare
// Hono route returning a static JSON body of about the same size (bench/ceiling-server.mjs). The explorer's
// server runs API-only (`start --no-index`) on an indexed database, such as one `bench/sync.mjs --keep` left.
// usage: node bench/serve.mjs --database-url postgres://…/bench_large [--label large] [--connections 32]
//                             [--seconds 5] [--out bench/out/serve-large.json] [--response-cache-mb 0]
// --response-cache-mb 0 turns the response cache off, so every request is rendered from the database (the
// cache otherwise answers nearly every request of a benchmark that asks for the same URL again and again).
// Needs a built workspace (pnpm build). The load generator (autocannon) shares the machine's cores.
// Each endpoint is then replayed against PostgreSQL alone (bench/db-peer.mjs: pgbench with the statements of one
// uncached request), so the gap between the database and HTTP shows per class; --skip-db-peer leaves it out.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createPgSql } from '../packages/db/dist/index.js';
import { captureStatements, pgbench, pgbenchSkipReason } from './db-peer.mjs';
import { rssMiB, startScript } from './lib.mjs';
import { machineInfo } from './machine.mjs';

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    label: { type: 'string', default: 'chain' },
    // pgbench replaying each endpoint's SQL (bench/db-peer.mjs); on unless pgbench is missing or this is set.
    'skip-db-peer': { type: 'boolean', default: false },
    connections: { type: 'string', default: '32' },
    seconds: { type: 'string', default: '5' },
    'page-limit': { type: 'string', default: '10' },
    out: { type: 'string' },
    'response-cache-mb': { type: 'string' },
  },
});
if (!values['database-url']) {
  console.error('usage: node bench/serve.mjs --database-url postgres://…/<indexed database> [--label L]');
  process.exit(2);
}
const connections = Number(values.connections);
const seconds = Number(values.seconds);
const pageLimit = Number(values['page-limit']);
const out = values.out ?? `bench/out/serve-${values.label}.json`;

const server = await startScript(
  ['packages/server/dist/bin.js', 'start', '--no-index', '--port', '0'],
  {
    DATABASE_URL: values['database-url'],
    RATE_LIMIT_ENABLED: 'false',
    LOG_LEVEL: 'silent',
    ...(values['response-cache-mb'] === undefined ? {} : { RESPONSE_CACHE_MB: values['response-cache-mb'] }),
  },
  /listening on (http:\/\/\S+)/,
);
const api = server.match[1];
const ceilingServer = await startScript(['bench/ceiling-server.mjs'], {}, /^(\{.*\})$/m);
const ceiling = JSON.parse(ceilingServer.match[1]).url;
const stop = () => {
  server.proc.kill('SIGTERM');
  ceilingServer.proc.kill('SIGTERM');
};
process.on('exit', stop);

const get = async (path) => {
  const res = await fetch(`${api}${path}`);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return { body: JSON.parse(text), bytes: Buffer.byteLength(text) };
};

// Samples from the indexed chain.
const sql = createPgSql({ connectionString: values['database-url'], max: 1 });
const [{ tip }] = await sql.query('SELECT tip_height AS tip FROM indexer_state WHERE id = 1');
const height = Math.floor(tip / 2);
const [block] = await sql.query('SELECT hash, tx_count FROM blocks WHERE height = $1', [height]);
const [tx] = await sql.query(
  `SELECT encode(txid, 'hex') AS txid FROM txs WHERE tx_no >= $1::int8 << 24 AND tx_no < ($1::int8 + 1) << 24
   ORDER BY tx_no & 16777215 = 0, tx_no LIMIT 1`,
  [height],
);
const [busy] = await sql.query(
  'SELECT address, tx_count, utxo_count FROM addresses ORDER BY tx_count DESC LIMIT 1',
);
await sql.close();

// Page 1,000 of the busy address's history (or the deepest page it has), reached by following cursors.
let cursor = null;
let depth = 1;
for (; depth < 1000; depth++) {
  const q = `/v1/addresses/${busy.address}/txs?limit=${pageLimit}${cursor ? `&cursor=${cursor}` : ''}`;
  const { body } = await get(q);
  if (!body.pagination?.nextCursor) break;
  cursor = body.pagination.nextCursor;
}
const deepPage = `/v1/addresses/${busy.address}/txs?limit=${pageLimit}${cursor ? `&cursor=${cursor}` : ''}`;

const endpoints = [
  ['block by height', `/v1/blocks/${height}`, 'hot'],
  ['block by hash', `/v1/blocks/${block.hash}`, 'hot'],
  ['tx', `/v1/txs/${tx.txid}`, 'hot'],
  ['block txs page', `/v1/blocks/${height}/txs`, 'paginated'],
  ['tx flow', `/v1/txs/${tx.txid}/flow`, 'other'],
  ['address summary', `/v1/addresses/${busy.address}`, 'other'],
  ['address txs page 1', `/v1/addresses/${busy.address}/txs?limit=${pageLimit}`, 'paginated'],
  [`address txs page ${depth}`, deepPage, 'paginated'],
  ['UTXOs of the busy address', `/v1/addresses/${busy.address}/utxos`, 'paginated'],
  ['search (height)', `/v1/search?q=${height}`, 'other'],
  ['search (txid)', `/v1/search?q=${tx.txid}`, 'other'],
  ['suggest (txid prefix)', `/v1/search/suggest?q=${tx.txid.slice(0, 6)}`, 'other'],
  ['analytics/network', '/v1/analytics/network', 'other'],
  ['analytics/pouw', '/v1/analytics/pouw', 'other'],
  ['analytics/supply', '/v1/analytics/supply', 'other'],
  ['analytics/pools', '/v1/analytics/pools', 'other'],
  ['status', '/v1/status', 'other'],
];

async function load(url) {
  const r = await autocannon({ url, connections, duration: seconds, timeout: 30 });
  const non2xx = r.non2xx + r.errors + r.timeouts;
  if (non2xx > 0) throw new Error(`${url}: ${non2xx} non-2xx answers or errors under load`);
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99 };
}

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, rssMiB(server.proc.pid));
}, 250);
const rssStart = rssMiB(server.proc.pid);
const ceilings = new Map();
const rows = [];
for (const [name, path, kind] of endpoints) {
  const { bytes } = await get(path);
  const size = 2 ** Math.ceil(Math.log2(Math.max(256, bytes)));
  await load(`${api}${path}`); // warm-up: caches, plans, JIT
  const m = await load(`${api}${path}`);
  if (!ceilings.has(size)) {
    await load(`${ceiling}/static/${size}`);
    ceilings.set(size, await load(`${ceiling}/static/${size}`));
  }
  const c = ceilings.get(size);
  const row = { name, path, kind, bytes, ...m, ceilingBytes: size, ceilingRps: c.rps };
  row.ratio = Math.round((m.rps / c.rps) * 100) / 100;
  rows.push(row);
  console.error(
    `bench/serve ${values.label}: ${name.padEnd(28)} ${String(m.rps).padStart(6)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  ${row.ratio} of ceiling (${c.rps} req/s at ${size} B)`,
  );
}
clearInterval(sampler);

// The database's ceiling for each endpoint: its uncached request's statements under pgbench, same concurrency.
const dbPeerSkipped = values['skip-db-peer'] ? 'skipped (--skip-db-peer)' : pgbenchSkipReason();
if (dbPeerSkipped) console.error(`bench/serve ${values.label}: database peer ${dbPeerSkipped}`);
else {
  const captured = await captureStatements(
    values['database-url'],
    rows.map((r) => r.path),
  );
  for (const row of rows) {
    const { statements, steadyStatements } = captured.get(row.path);
    const db =
      statements.length === 0
        ? { tps: null, latencyMs: null, statements: 0 }
        : pgbench(values['database-url'], statements, { connections, seconds });
    row.db = { ...db, steadyStatements, names: statements.map((s) => s.name) };
    row.httpToDb = db.tps ? Math.round((row.rps / db.tps) * 100) / 100 : null;
    console.error(
      `bench/serve ${values.label}: ${row.name.padEnd(28)} database: ${db.tps === null ? 'no query' : `${db.tps} req/s of its ${db.statements} statement(s) under pgbench, HTTP at ${row.httpToDb} of it`}${steadyStatements === 0 ? ' (steady state: from the per-tip memos)' : ''}`,
    );
  }
}

const result = {
  date: new Date().toISOString(),
  machine: machineInfo(),
  command: `node bench/serve.mjs --database-url <${values.label} database> --label ${values.label} --connections ${connections} --seconds ${seconds}${values['response-cache-mb'] === undefined ? '' : ` --response-cache-mb ${values['response-cache-mb']}`}`,
  responseCacheMb: values['response-cache-mb'] === undefined ? 32 : Number(values['response-cache-mb']),
  chain: {
    tip,
    sampleHeight: height,
    busyAddress: { txs: busy.tx_count, utxos: busy.utxo_count },
    deepPage: depth,
    pageLimit,
  },
  connections,
  seconds,
  databasePeer:
    dbPeerSkipped ?? 'pgbench -M prepared, the statements of one uncached request per transaction',
  endpoints: rows,
  ceilings: Object.fromEntries(ceilings),
  serverRssMiB: { start: Math.round(rssStart), peak: Math.round(peakRss) },
};
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
stop();
process.exit(0);
