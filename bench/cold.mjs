#!/usr/bin/env node
// Cold and repeated reads per endpoint class, each against the ceiling measured in the same run: a bare Hono
// route returning a static JSON body of the next power of two above the class's median body size
// (bench/ceiling-server.mjs).
//
// Cold: every request names a transaction, block or address that no request of the run asked before (wrk with
// bench/wrk-paths.lua walks a list of distinct paths per class, more than every cache keeps, and says if it ever
// ran out); repeated: one path of the class asked again and again, as bench/serve.mjs does. The server runs on
// its defaults (every cache on, as deployed; only the rate limit is off, or it would refuse the load),
// API-only (`start --no-index`) over an indexed database such as one `bench/sync.mjs --keep` left. What answered
// each figure is measured, not assumed: the server's own metrics (/metrics) give, per request, the SQL
// statements it ran and the share of bodies served from the response cache or the in-process caches.
//
// usage: node bench/cold.mjs --database-url postgres://…/bench_large [--label large] [--connections 32]
//          [--seconds 5] [--rounds 3] [--paths 60000] [--classes tx,tx flow,…] [--wallet-key K]
//          [--out bench/out/cold-large.json] [--server-cpu-prof DIR]
// With --server-cpu-prof the server runs under V8's profiler and the result says where its CPU went (the
// explorer's own code, libraries, Node, GC, native code: bench/cpu-profile.mjs); a profile of one class at a
// time (--classes) is the one to read.
// Needs a built workspace (pnpm build) and wrk (apt-get install wrk). The load generator shares the cores.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { createPgSql } from '../packages/db/dist/index.js';
import { summarizeProfile } from './cpu-profile.mjs';
import { planReport } from './db-peer.mjs';
import {
  backendCpu,
  cpuBetween,
  explorerCounters,
  freePort,
  median,
  procCpu,
  rssMiB,
  runWrk,
  startScript,
  wrkSkipReason,
} from './lib.mjs';
import { machineInfo } from './machine.mjs';

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    label: { type: 'string', default: 'chain' },
    connections: { type: 'string', default: '32' },
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    paths: { type: 'string', default: '60000' },
    classes: { type: 'string' },
    modes: { type: 'string', default: 'cold,repeated' },
    'wallet-key': { type: 'string' },
    out: { type: 'string' },
    'server-cpu-prof': { type: 'string' },
  },
});
if (!values['database-url']) {
  console.error('usage: node bench/cold.mjs --database-url postgres://…/<indexed database> [--label L]');
  process.exit(2);
}
const skip = wrkSkipReason();
if (skip) {
  console.error(`bench/cold: ${skip}`);
  process.exit(2);
}
const connections = Number(values.connections);
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const perClass = Number(values.paths);
const modes = values.modes.split(',');
const threads = 2;
const out = values.out ?? `bench/out/cold-${values.label}.json`;
const log = (line) => console.error(`bench/cold ${values.label}: ${line}`);

// Samples, disjoint between classes: no class's request names what another's asked.
const sql = createPgSql({ connectionString: values['database-url'], max: 1 });
const [{ tip }] = await sql.query('SELECT tip_height AS tip FROM indexer_state WHERE id = 1');
const take = async (text, n) => (await sql.query(text, [n])).map((r) => Object.values(r)[0]);
const txids = await take(`SELECT encode(txid, 'hex') FROM txs ORDER BY random() LIMIT $1`, perClass * 7);
const heights = await take('SELECT height FROM blocks ORDER BY random() LIMIT $1', perClass * 2);
// Hashes of the first half of the heights: by hash for /v1 and for Esplora, a half each.
const allHashes = await take(
  'SELECT hash FROM blocks WHERE height = ANY($1::int[])',
  heights.slice(0, Math.ceil(heights.length / 2)),
).catch(() => []);
const hashes = allHashes.slice(0, Math.ceil(allHashes.length / 2));
const esploraHashes = allHashes.slice(hashes.length);
const [{ n: addressCount }] = await sql.query('SELECT count(*)::int AS n FROM addresses');
const addresses = await take('SELECT address FROM addresses ORDER BY random() LIMIT $1', perClass * 4);
const withUtxos = new Set(
  await take(
    'SELECT address FROM addresses WHERE utxo_count > 0 AND address = ANY($1::text[])',
    addresses.slice(perClass * 2, perClass * 3),
  ),
);
const dbName = new URL(values['database-url']).pathname.slice(1);

const slice = (list, i, n = perClass) => list.slice(i * n, (i + 1) * n);
const halfHeights = heights.slice(Math.ceil(heights.length / 2));
const manyOf = (list, per) => {
  const out = [];
  for (let i = 0; i + per <= list.length; i += 1) {
    // Distinct lists of 20: a rotating window over a shuffled list never names the same set twice.
    out.push(list.slice(i, i + per));
    if (out.length >= perClass) break;
  }
  return out;
};
const classes = [
  ['tx', slice(txids, 0).map((t) => `/v1/txs/${t}`)],
  ['tx flow', slice(txids, 1).map((t) => `/v1/txs/${t}/flow`)],
  ['tx status', slice(txids, 2).map((t) => `/v1/txs/${t}/status`)],
  ['outspends', slice(txids, 3).map((t) => `/v1/txs/${t}/outspends`)],
  ['block by hash', hashes.map((h) => `/v1/blocks/${h}`)],
  ['block txs page', halfHeights.map((h) => `/v1/blocks/${h}/txs`)],
  ['address summary', slice(addresses, 0).map((a) => `/v1/addresses/${a}`)],
  ['address txs page 1', slice(addresses, 1).map((a) => `/v1/addresses/${a}/txs`)],
  [
    'address UTXOs',
    slice(addresses, 2)
      .filter((a) => withUtxos.has(a))
      .map((a) => `/v1/addresses/${a}/utxos`),
  ],
  [
    'many-address summary (20)',
    manyOf(addresses, 20).map((list) => `/v1/addresses?addresses=${list.join(',')}`),
  ],
  ['search by txid', slice(txids, 4).map((t) => `/v1/search?q=${t}`)],
  // Esplora's REST API (docs/esplora.md): the same index under /api, its own bodies.
  ['esplora tx', slice(txids, 5).map((t) => `/api/tx/${t}`)],
  ['esplora tx status', slice(txids, 6).map((t) => `/api/tx/${t}/status`)],
  ['esplora block', esploraHashes.map((h) => `/api/block/${h}`)],
  ['esplora address', slice(addresses, 3).map((a) => `/api/address/${a}`)],
];
if (values['wallet-key']) {
  // A used key, each path asked once: a gap, and for its transactions and UTXOs a page size, of its own. The
  // response and the discovery are cold; the key's derived addresses are kept per key after the first
  // request (what a wallet that comes back finds).
  const key = encodeURIComponent(values['wallet-key']);
  const paths = [];
  for (let gap = 1; gap <= 100; gap++) {
    paths.push(`/v1/wallet?key=${key}&gap=${gap}`);
    for (let limit = 1; limit <= 100; limit++)
      for (const p of ['/v1/wallet/txs', '/v1/wallet/utxos'])
        paths.push(`${p}?key=${key}&gap=${gap}&limit=${limit}`);
  }
  // Shuffled (deterministically), so that neighbouring requests differ in gap as much as in page size.
  let seed = 1;
  for (let i = paths.length - 1; i > 0; i--) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = seed % (i + 1);
    [paths[i], paths[j]] = [paths[j], paths[i]];
  }
  classes.push(['wallet (used xpub)', paths]);
}
const wanted = values.classes ? new Set(values.classes.split(',')) : null;
const chosen = classes.filter(([name]) => !wanted || wanted.has(name));

const metricsPort = await freePort();
const profileDir = values['server-cpu-prof'] ? mkdtempSync(join(values['server-cpu-prof'], 'cold-')) : null;
const profileArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
const server = await startScript(
  [...profileArgs, 'packages/server/dist/bin.js', 'start', '--no-index', '--port', '0'],
  {
    DATABASE_URL: values['database-url'],
    RATE_LIMIT_ENABLED: 'false',
    LOG_LEVEL: 'silent',
    METRICS_PORT: String(metricsPort),
  },
);
const api = server.match[1];
const ceilingServer = await startScript(['bench/ceiling-server.mjs'], {}, /^(\{.*\})$/m);
const ceiling = JSON.parse(ceilingServer.match[1]).url;
const dir = mkdtempSync(join(tmpdir(), 'explorer-cold-'));
const stop = () => {
  server.proc.kill('SIGTERM');
  ceilingServer.proc.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
};
process.on('exit', stop);
process.on('SIGINT', () => process.exit(130));

/** One wrk run of `paths` (walked once, striped over the threads) for `secs` seconds; any error fails the run. */
function wrk(base, paths, secs) {
  const file = join(dir, 'paths.txt');
  writeFileSync(file, `${paths.join('\n')}\n`);
  const r = runWrk({ url: base, file, seconds: secs, connections, threads });
  if (r.errors > 0)
    throw new Error(`${base}${paths[0]}: ${r.errors} errors or non-2xx answers under load (${r.raw})`);
  return r;
}

const get = async (path) => {
  const res = await fetch(`${api}${path}`).catch((err) => {
    throw new Error(`${path}: ${err.cause?.message ?? err.message}`);
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return Buffer.byteLength(text);
};

const ceilings = new Map();
const ceilingRound = (size) => {
  const r = wrk(ceiling, [`/static/${size}`], seconds);
  const list = ceilings.get(size) ?? [];
  list.push(r);
  ceilings.set(size, list);
  return r;
};

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, rssMiB(server.proc.pid));
}, 250);
const rssStart = rssMiB(server.proc.pid);
const rows = [];
for (const [name, all] of chosen) {
  if (all.length < 2) {
    log(`${name}: not enough distinct paths on this chain (${all.length}); left out`);
    continue;
  }
  // The repeated figure asks the first path; the cold rounds never do.
  const [hotPath, ...coldPaths] = all;
  // A class this chain cannot answer (a wallet on a chain whose address prefixes are not known) is left out,
  // saying why, rather than ending the run; any other answer than 200 or 400 still ends it.
  const probe = await fetch(`${api}${hotPath}`);
  if (probe.status === 400) {
    const body = await probe.json().catch(() => null);
    log(`${name}: this chain cannot answer it (400: ${body?.error ?? 'bad request'}); left out`);
    continue;
  }
  await probe.arrayBuffer();
  // Body size from paths the cold rounds will not ask (the last ones of the list).
  const sizes = [];
  for (const p of coldPaths.slice(-25)) sizes.push(await get(p));
  const bytes = median(sizes);
  const size = 2 ** Math.ceil(Math.log2(Math.max(256, bytes)));
  const sample = coldPaths.slice(-25);
  let pool = coldPaths.slice(0, -25);
  for (const mode of modes) {
    const byRound = [];
    let wrapped = false;
    // Warm-up: JIT, connections, plans; cold paths of its own.
    if (mode === 'cold') {
      const w = wrk(api, pool, 2);
      pool = pool.slice(w.used);
    } else wrk(api, [hotPath], 2);
    for (let r = 0; r < rounds; r++) {
      const before = await explorerCounters(metricsPort);
      // PostgreSQL's CPU: the backends of this database only, not the machine's other work.
      const cpu0 = { server: procCpu(server.proc.pid), postgres: await backendCpu(sql, dbName) };
      const m = mode === 'cold' ? wrk(api, pool, seconds) : wrk(api, [hotPath], seconds);
      const cpu = {
        server: procCpu(server.proc.pid) - cpu0.server,
        postgres: cpuBetween(cpu0.postgres, await backendCpu(sql, dbName)),
      };
      const after = await explorerCounters(metricsPort);
      if (mode === 'cold') {
        wrapped ||= m.wrapped;
        pool = pool.slice(m.used);
      }
      // The scrape itself is one request the counters see.
      const requests = Math.max(1, after.requests - before.requests - 1);
      byRound.push({
        ...m,
        statementsPerRequest: Math.round(((after.statements - before.statements) / requests) * 100) / 100,
        tipReadsPerRequest: Math.round(((after.tipReads - before.tipReads) / requests) * 1000) / 1000,
        dbMsPerRequest: Math.round(((after.dbSeconds - before.dbSeconds) * 1e5) / requests) / 100,
        // CPU per request: the server's own, and that of the PostgreSQL backends serving its database.
        serverCpuMs: Math.round((cpu.server * 1e5) / m.requests) / 100,
        postgresCpuMs: Math.round((cpu.postgres * 1e5) / m.requests) / 100,
        fromCache: Math.round(((after.fromCache - before.fromCache) / requests) * 1000) / 1000,
        responseCacheHits:
          Math.round(((after.responseCacheHits - before.responseCacheHits) / requests) * 1000) / 1000,
        ceiling: ceilingRound(size),
      });
    }
    const pick = (f) => median(byRound.map(f));
    const row = {
      name,
      mode,
      distinctPaths: mode === 'cold' ? coldPaths.length - sample.length : 1,
      wrapped,
      bytes,
      ceilingBytes: size,
      rps: pick((r) => r.rps),
      p50: pick((r) => r.p50),
      p99: pick((r) => r.p99),
      ceilingRps: pick((r) => r.ceiling.rps),
      ratio: pick((r) => Math.round((r.rps / r.ceiling.rps) * 100) / 100),
      statementsPerRequest: pick((r) => r.statementsPerRequest),
      dbMsPerRequest: pick((r) => r.dbMsPerRequest),
      serverCpuMs: pick((r) => r.serverCpuMs),
      postgresCpuMs: pick((r) => r.postgresCpuMs),
      fromCache: pick((r) => r.fromCache),
      responseCacheHits: pick((r) => r.responseCacheHits),
      rounds: byRound,
    };
    if (mode === 'cold') {
      // Whether PostgreSQL keeps each statement's plan, from a dozen paths of the class not asked over HTTP.
      row.plans = await planReport(values['database-url'], sample.slice(0, 12));
      const kept = Object.values(row.plans);
      row.plansKept = kept.length > 0 && kept.every((p) => p.generic > 0);
      row.planningMs = Math.round(kept.reduce((n, p) => n + p.planningMs, 0) * 1000) / 1000;
      row.executionMs = Math.round(kept.reduce((n, p) => n + p.executionMs, 0) * 1000) / 1000;
    }
    rows.push(row);
    log(
      `${`${name} (${mode})`.padEnd(38)} ${String(row.rps).padStart(6)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  ${row.ratio} of ceiling (${row.ceilingRps} req/s at ${size} B); CPU ms server ${row.serverCpuMs} postgres ${row.postgresCpuMs}; ${row.statementsPerRequest} statements, ${row.dbMsPerRequest} ms in SQL, ${row.fromCache} from a cache per request${row.plans ? `; plans ${row.plansKept ? 'kept' : 'NOT kept'}, planning ${row.planningMs} ms of ${row.executionMs} ms executing` : ''}${wrapped ? '; RAN OUT OF PATHS' : ''}`,
    );
  }
}
clearInterval(sampler);
await sql.close();
// The profile is written when the server exits.
let serverProfile = null;
if (profileDir) {
  const exited = new Promise((resolve) => server.proc.once('exit', resolve));
  server.proc.kill('SIGTERM');
  await exited;
  // One profile per thread: the server's (on a thread of its own under the heap cap) is the one that ran the
  // explorer's code most.
  const profiles = readdirSync(profileDir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => ({ file: join(profileDir, f), ...summarizeProfile(join(profileDir, f)) }));
  const ran = (p) => p.busyMs * (p.shares.explorer ?? 0);
  serverProfile = profiles.sort((a, b) => ran(b) - ran(a))[0] ?? null;
  if (serverProfile)
    log(
      `server CPU profile: ${JSON.stringify(serverProfile.shares)} of ${serverProfile.busyMs} busy ms (${serverProfile.file})`,
    );
}

const result = {
  date: new Date().toISOString(),
  machine: machineInfo(),
  command: `node bench/cold.mjs --database-url <${values.label} database> --label ${values.label} --connections ${connections} --seconds ${seconds} --rounds ${rounds} --paths ${perClass}${values['wallet-key'] ? ' --wallet-key <key>' : ''}`,
  generator: `wrk -t${threads} -c${connections}, bench/wrk-paths.lua; median of ${rounds} rounds, each beside a ceiling round`,
  server: 'explorer-server start --no-index on its defaults (every cache on), RATE_LIMIT_ENABLED=false',
  chain: { tip, addresses: addressCount },
  connections,
  seconds,
  endpoints: rows,
  serverRssMiB: { start: Math.round(rssStart), peak: Math.round(peakRss) },
  ...(serverProfile ? { serverProfile } : {}),
};
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
process.exit(0);
