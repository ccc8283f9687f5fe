#!/usr/bin/env node
// Live events to many Server-Sent Events clients: the explorer's server (`start`, indexer and API in one
// process, PostgreSQL) follows a devnet node in its own process while this script mines a block every
// --block-ms; --clients streams of `GET /v1/events` (plain node:http clients, bench/sse-clients.mjs, split over
// --workers processes) receive them. Reported: frames delivered per second across all clients, completeness
// per client (every event id of its subscription, in order, once: gaps and duplicates must be 0), latency from
// the event's `at` (its insert into the log, at the end of the block's transaction) to its receipt (p50/p99/max,
// one machine clock), the server's RSS (VmRSS sampled, VmHWM) and CPU (with and without the clients, at the same
// block rate), and the CPU of PostgreSQL, the node and the clients. Then the server at its maximum rate: an
// API-only process fed over Redis (see maxRatePhase).
// The ceiling, same run, same clients: a bare node:http broadcaster (bench/ceiling-sse.mjs) replaying the block
// phase's frames (same sizes, same gaps), then broadcasting as fast as the clients take them.
// usage: node bench/events.mjs [--clients 1000] [--workers 1] [--block-ms 250] [--tx-per-block 10]
//          [--indexer-poll-ms 100] [--seconds 30] [--address-seconds 15] [--idle-seconds 8] [--max-seconds 10]
//          [--flood-seconds 10] [--flood-batch 16] [--redis-url redis://127.0.0.1:6379]
//          [--database-url postgres://…/postgres] [--out bench/out/events.json] [--server-cpu-prof DIR]
// --address-seconds 0 leaves out the phase whose clients also track an address; --max-seconds 0 the server's
// maximum rate (skipped too when Redis does not answer); --flood-seconds 0 the ceiling's maximum rate. The
// database `bench_events` is created and dropped. Needs a built workspace. The clients, the server, PostgreSQL,
// Redis and the node share the machine's cores.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createPgSql } from '../packages/db/dist/index.js';
import { startDevnetProcess } from './devnet.mjs';
import { eventsTable } from './events-table.mjs';
import {
  BENCH_DATABASE_URL,
  createBenchDatabase,
  dbUrl,
  dropBenchDatabase,
  postgresCpu,
  procCpu,
  startScript,
  statusKiB,
} from './lib.mjs';
import { machineInfo } from './machine.mjs';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '1000' },
    workers: { type: 'string', default: '1' },
    'block-ms': { type: 'string', default: '250' },
    'tx-per-block': { type: 'string', default: '10' },
    // How often the indexer asks the node for a new tip: well under the block interval, so each block is its own
    // transaction (and its events their own commit); shorter only adds polling to the server's CPU.
    'indexer-poll-ms': { type: 'string', default: '100' },
    seconds: { type: 'string', default: '30' },
    'address-seconds': { type: 'string', default: '15' },
    'idle-seconds': { type: 'string', default: '8' },
    'flood-seconds': { type: 'string', default: '10' },
    'max-seconds': { type: 'string', default: '10' },
    // Frames the ceiling writes to each stream per turn at its maximum rate (one system call per stream).
    'flood-batch': { type: 'string', default: '16' },
    'redis-url': { type: 'string', default: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379' },
    'database-url': { type: 'string', default: BENCH_DATABASE_URL },
    out: { type: 'string', default: 'bench/out/events.json' },
    // Writes V8 CPU profiles of the servers (node --cpu-prof) into this directory.
    'server-cpu-prof': { type: 'string' },
  },
});
const clients = Number(values.clients);
const workers = Number(values.workers);
const blockMs = Number(values['block-ms']);
const seconds = Number(values.seconds);
const addressSeconds = Number(values['address-seconds']);
const idleSeconds = Number(values['idle-seconds']);
const floodSeconds = Number(values['flood-seconds']);
const maxSeconds = Number(values['max-seconds']);
const log = (msg) => console.error(`bench/events: ${msg}`);

// --- processes and what they cost -------------------------------------------------------------------------

const mib = (kib) => Math.round(kib / 1024);
const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
// Other work on the machine moves every figure: the load average before and after says how busy it was.
const load = () =>
  loadavg()
    .map((x) => round(x, 1))
    .join(' ');
const loadBefore = load();

const children = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGTERM');
});

// --- the database, the node, the server -------------------------------------------------------------------

const base = values['database-url'];
const dbName = 'bench_events';
const databaseUrl = dbUrl(dbName, base);
const admin = createPgSql({ connectionString: base, max: 1, connectionTimeoutMs: 3_000 });
try {
  await admin.query('SELECT 1');
} catch (err) {
  console.error(`bench/events: PostgreSQL does not answer at ${base} (${err.message}); set --database-url.`);
  process.exit(2);
}
await createBenchDatabase(admin, dbName);

const defsDir = `.tmp/bench-events-${process.pid}`;
const { proc: devnet, info } = await startDevnetProcess([
  '--seed',
  'events',
  '--blocks',
  '200',
  '--tx-per-block',
  values['tx-per-block'],
  '--definitions-dir',
  defsDir,
  '--proof-min',
  '200',
  '--proof-max',
  '400',
]);
children.push(devnet);
const rpc = async (method, params = []) => {
  const res = await fetch(info.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '1.0', id: 1, method, params }),
  });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
};

const serverEnv = {
  DATABASE_URL: databaseUrl,
  NODE_RPC_URL: info.url,
  POOLS_FILE: info.poolsFile,
  LABELS_FILE: info.labelsFile,
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  // Every client comes from 127.0.0.1, one anonymous rate-limit bucket: its stream limit is raised to hold
  // them all, and request counting is off (it only counts the 1,000 stream requests; nothing is delivered
  // through it).
  EVENTS_MAX_STREAMS_ANON: String(clients + 100),
  RATE_LIMIT_ENABLED: 'false',
  INDEXER_POLL_MS: values['indexer-poll-ms'],
  REDIS_URL: '',
};
const profArgs = values['server-cpu-prof']
  ? ['--cpu-prof', `--cpu-prof-dir=${values['server-cpu-prof']}`]
  : [];
const server = await startScript(
  [...profArgs, 'packages/server/dist/bin.js', 'start', '--port', '0'],
  serverEnv,
  /listening on (http:\/\/\S+)/,
);
children.push(server.proc);
const api = server.match[1];
const sql = createPgSql({ connectionString: databaseUrl, max: 2 });
const indexedTip = async () => {
  const [row] = await sql.query('SELECT tip_height FROM indexer_state WHERE id = 1');
  return row ? Number(row.tip_height) : -1;
};
const waitIndexed = async (height, timeoutMs = 60_000) => {
  const until = Date.now() + timeoutMs;
  while ((await indexedTip()) < height) {
    if (Date.now() > until) throw new Error(`the indexer did not reach height ${height} in ${timeoutMs} ms`);
    await sleep(20);
  }
};
await waitIndexed(Number(await rpc('getblockcount')));
log(`server at ${api} synced to the devnet's ${await rpc('getblockcount')} blocks (${info.url})`);
const busy = (await sql.query('SELECT address FROM addresses ORDER BY tx_count DESC, address LIMIT 3')).map(
  (r) => r.address,
);
const maxId = async (topic) => {
  const [row] = await sql.query(
    `SELECT coalesce(max(id), 0)::int8 AS id FROM events${topic ? ' WHERE topic = $1' : ''}`,
    topic ? [topic] : [],
  );
  return Number(row.id);
};

// --- sampling ----------------------------------------------------------------------------------------------

let rssPeakKiB = 0;
const rssSampler = setInterval(() => {
  rssPeakKiB = Math.max(rssPeakKiB, statusKiB(server.proc.pid, 'VmRSS'));
}, 250);
const rssStartKiB = statusKiB(server.proc.pid, 'VmRSS');

/** CPU seconds of each process of interest, now. */
const cpuNow = (pool, ceilingPid) => ({
  server: procCpu(server.proc.pid),
  postgres: postgresCpu(),
  node: procCpu(devnet.pid),
  clients: pool ? pool.procs.reduce((t, p) => t + procCpu(p.pid), 0) : 0,
  ceiling: ceilingPid ? procCpu(ceilingPid) : 0,
});
const cpuSince = (a, b, secs) =>
  Object.fromEntries(Object.keys(a).map((k) => [k, round((b[k] - a[k]) / secs, 3)]));

/** Mines one block every blockMs for `secs` seconds; resolves with the last height mined and the time taken. */
async function mine(secs) {
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < secs * 1000) {
    await rpc('generate', [1]);
    n++;
    const next = t0 + n * blockMs;
    const wait = next - performance.now();
    if (wait > 0) await sleep(wait);
  }
  return { blocks: n, height: Number(await rpc('getblockcount')), seconds: (performance.now() - t0) / 1000 };
}

// --- the clients ------------------------------------------------------------------------------------------

/** Forks the client processes and opens one stream per path, spread over them. */
async function openClients(baseUrl, paths, record = true) {
  const procs = Array.from({ length: workers }, () =>
    fork('bench/sse-clients.mjs', [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  children.push(...procs);
  const ask = (p, msg, type) =>
    new Promise((resolve) => {
      const on = (m) => {
        if (m.type !== type) return;
        p.off('message', on);
        resolve(m);
      };
      p.on('message', on);
      p.send(msg);
    });
  const t0 = performance.now();
  const opened = await Promise.all(
    procs.map((p, w) =>
      ask(
        p,
        { cmd: 'open', base: baseUrl, paths: paths.filter((_, i) => i % workers === w), record },
        'open',
      ),
    ),
  );
  const n = opened.reduce((t, o) => t + o.opened, 0);
  if (n !== paths.length)
    throw new Error(
      `only ${n} of ${paths.length} streams opened: ${opened.flatMap((o) => o.failed).join('; ')}`,
    );
  log(`${n} streams open in ${Math.round(performance.now() - t0)} ms`);
  return {
    procs,
    /** Waits until every stream received event `id` (or timeoutMs passed); how many did. */
    async reach(id, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const r = await Promise.all(procs.map((p) => ask(p, { cmd: 'progress', id }, 'progress')));
        const reached = r.reduce((t, x) => t + x.reached, 0);
        if (reached === paths.length || Date.now() > until) return reached;
        await sleep(50);
      }
    },
    async collect() {
      const r = await Promise.all(procs.map((p) => ask(p, { cmd: 'collect' }, 'collect')));
      return r.flatMap((x) => x.clients);
    },
    /** Calls onLow with the lowest id every stream has received, every everyMs. */
    watch(everyMs, onLow) {
      const lows = procs.map(() => 0);
      procs.forEach((p, i) => {
        p.on('message', (m) => {
          if (m.type !== 'low') return;
          lows[i] = m.id;
          onLow(Math.min(...lows));
        });
      });
      for (const p of procs) p.send({ cmd: 'watch', everyMs });
    },
    close() {
      for (const p of procs) p.send({ cmd: 'close' });
    },
  };
}

const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const latencySummary = (values) => {
  const s = Float64Array.from(values.filter((v) => Number.isFinite(v))).sort();
  if (s.length === 0) return null;
  return {
    samples: s.length,
    p50: round(percentile(s, 0.5)),
    p99: round(percentile(s, 0.99)),
    max: round(s[s.length - 1]),
  };
};

/** Gaps, duplicates and strays of each stream's ids against the ids it should have had, in order. */
function completeness(streams, expectedFor, from, to) {
  let gaps = 0;
  let dupes = 0;
  let strays = 0;
  let outOfOrder = 0;
  let closed = 0;
  let frames = 0;
  const latency = {};
  // Per event: its first receipt (the path to the first socket) and the spread to its last (the fan-out).
  const perEvent = new Map();
  for (const c of streams) {
    if (c.closes.length > 0 || c.ended) closed++;
    const expected = expectedFor(c.path);
    const got = new Set();
    let last = -1;
    for (let i = 0; i < c.ids.length; i++) {
      const id = c.ids[i];
      if (id <= from || id > to) continue;
      frames++;
      if (got.has(id)) dupes++;
      else if (id < last) outOfOrder++;
      got.add(id);
      last = Math.max(last, id);
      if (!expected.has(id)) strays++;
      latency[c.types[i]] ??= [];
      latency[c.types[i]].push(c.latency[i]);
      const e = perEvent.get(id);
      if (e) {
        e.first = Math.min(e.first, c.latency[i]);
        e.last = Math.max(e.last, c.latency[i]);
      } else perEvent.set(id, { first: c.latency[i], last: c.latency[i] });
    }
    for (const id of expected) if (!got.has(id)) gaps++;
  }
  const events = [...perEvent.values()];
  const fanOut = {
    firstMs: latencySummary(events.map((e) => e.first)),
    spreadMs: latencySummary(events.map((e) => e.last - e.first)),
  };
  return { frames, gaps, dupes, outOfOrder, strays, closed, latency, fanOut };
}

// --- the explorer's server --------------------------------------------------------------------------------

/** One phase: `paths` streams open, blocks mined for `secs`, everything in the window checked. */
async function serverPhase(name, paths, secs) {
  log(`${name}: opening ${paths.length} streams of ${paths[0]}…`);
  const pool = await openClients(api, paths);
  await sleep(500);
  const startId = await maxId();
  rssPeakKiB = 0;
  const cpu0 = cpuNow(pool);
  const mined = await mine(secs);
  await waitIndexed(mined.height);
  const endId = await maxId();
  const lastBlockId = await maxId('block');
  const reached = await pool.reach(lastBlockId);
  const cpu = cpuSince(cpu0, cpuNow(pool), mined.seconds);
  const streams = await pool.collect();
  pool.close();
  const events = await sql.query(
    `SELECT id::int8 AS id, topic, at,
       CASE WHEN topic = 'address'
         THEN (SELECT array_agg(a->>'address') FROM json_array_elements(payload->'activity') a) END AS addrs
     FROM events WHERE id > $1 AND id <= $2 ORDER BY id`,
    [startId, endId],
  );
  const blockIds = new Set(events.filter((e) => e.topic === 'block').map((e) => Number(e.id)));
  const expectedCache = new Map();
  const expectedFor = (path) => {
    let set = expectedCache.get(path);
    if (!set) {
      const address = new URL(path, api).searchParams.get('addresses');
      set = new Set(blockIds);
      if (address)
        for (const e of events) if (e.topic === 'address' && e.addrs.includes(address)) set.add(Number(e.id));
      expectedCache.set(path, set);
    }
    return set;
  };
  const c = completeness(streams, expectedFor, startId, endId);
  const bytes = streams.flatMap((s) => s.bytes.filter((_, i) => s.ids[i] > startId && s.ids[i] <= endId));
  const result = {
    name,
    query: paths[0],
    streams: paths.length,
    blocks: mined.blocks,
    seconds: round(mined.seconds),
    events: { block: blockIds.size, address: events.filter((e) => e.topic === 'address').length },
    framesDelivered: c.frames,
    framesPerSecond: Math.round(c.frames / mined.seconds),
    megabytesPerSecond: round(bytes.reduce((a, b) => a + b, 0) / mined.seconds / 1e6, 3),
    frameBytes: {
      block: medianBytes(streams, 'block', startId, endId),
      address: medianBytes(streams, 'address', startId, endId),
    },
    completeness: {
      gaps: c.gaps,
      dupes: c.dupes,
      outOfOrder: c.outOfOrder,
      strays: c.strays,
      closedOrDropped: c.closed,
      reachedLast: reached,
    },
    latencyMs: Object.fromEntries(Object.entries(c.latency).map(([t, v]) => [t, latencySummary(v)])),
    latencyAllMs: latencySummary(Object.values(c.latency).flat()),
    perEvent: c.fanOut,
    cpuPerSecond: cpu,
    serverRssMiB: { peak: mib(rssPeakKiB) },
  };
  log(
    `${name}: ${result.framesPerSecond} frames/s over ${result.streams} streams, gaps ${c.gaps}, dupes ${c.dupes}, ` +
      `latency p50 ${result.latencyAllMs?.p50} p99 ${result.latencyAllMs?.p99} max ${result.latencyAllMs?.max} ms, ` +
      `server CPU ${cpu.server} s/s, RSS peak ${result.serverRssMiB.peak} MiB`,
  );
  // The block events of the phase, for the ceiling to replay: when each was recorded, its frame's size.
  const sizes = new Map();
  for (const s of streams.slice(0, 1))
    s.ids.forEach((id, i) => {
      if (s.types[i] === 'block') sizes.set(id, s.bytes[i]);
    });
  const schedule = events
    .filter((e) => e.topic === 'block' && sizes.has(Number(e.id)))
    .map((e) => ({ at: new Date(e.at).getTime(), bytes: sizes.get(Number(e.id)) }));
  await sleep(300);
  return { result, schedule };
}

function medianBytes(streams, type, from, to) {
  const b = [];
  for (const s of streams.slice(0, 20))
    s.ids.forEach((id, i) => {
      if (s.types[i] === type && id > from && id <= to) b.push(s.bytes[i]);
    });
  b.sort((x, y) => x - y);
  return b.length ? b[Math.floor(b.length / 2)] : null;
}

const t0 = performance.now();
// The same block rate with no client: what the server spends on indexing alone.
log(`idle: mining a block every ${blockMs} ms for ${idleSeconds} s with no stream open…`);
const idleCpu0 = cpuNow(null);
const idleMined = await mine(idleSeconds);
await waitIndexed(idleMined.height);
const idle = {
  seconds: round(idleMined.seconds),
  blocks: idleMined.blocks,
  cpuPerSecond: cpuSince(idleCpu0, cpuNow(null), idleMined.seconds),
};
const rssIdleKiB = statusKiB(server.proc.pid, 'VmRSS');

const blockPhase = await serverPhase(
  'block',
  Array.from({ length: clients }, () => '/v1/events?topics=block'),
  seconds,
);
const phases = [blockPhase.result];
if (addressSeconds > 0) {
  const addressPhase = await serverPhase(
    'block + address',
    Array.from({ length: clients }, (_, i) => `/v1/events?topics=block&addresses=${busy[i % busy.length]}`),
    addressSeconds,
  );
  phases.push(addressPhase.result);
}
const serverHwmKiB = statusKiB(server.proc.pid, 'VmHWM');
clearInterval(rssSampler);
// Real block events, for the maximum-rate phase to send again under new ids.
const blockPayloads = (
  await sql.query(`SELECT payload FROM events WHERE topic = 'block' ORDER BY id DESC LIMIT 100`)
).map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload));
const lastLogId = await maxId();
await sql.close();
// Both gone before the next phases run on the same cores.
await Promise.all(
  [server.proc, devnet].map((p) => {
    p.kill('SIGTERM');
    return once(p, 'exit');
  }),
);

// --- the explorer's server at its maximum rate -------------------------------------------------------------

/**
 * An API-only process (`start --no-index`, as a replica runs) fed over Redis pub/sub, the way replicas hear of
 * the events the indexing process commits: the block events just recorded, sent again under the next ids with
 * `at` = the moment of publishing, keeping at most WINDOW events ahead of the slowest stream (so the
 * slow-consumer bound is never what limits it) for `secs`.
 */
async function maxRatePhase(secs) {
  const WINDOW = 64;
  const serverRequire = createRequire(new URL('../packages/server/package.json', import.meta.url));
  const { Redis } = await import(serverRequire.resolve('ioredis'));
  const pub = new Redis(values['redis-url'], {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    retryStrategy: () => null,
  });
  pub.on('error', () => {});
  try {
    await pub.connect();
  } catch (err) {
    log(`maximum rate: skipped, Redis does not answer at ${values['redis-url']} (${err.message})`);
    return null;
  }
  const channel = `bench:events:${process.pid}`;
  const replica = await startScript(
    [...profArgs, 'packages/server/dist/bin.js', 'start', '--no-index', '--port', '0'],
    { ...serverEnv, NODE_RPC_URL: '', REDIS_URL: values['redis-url'], EVENTS_CHANNEL: channel },
    /listening on (http:\/\/\S+)/,
  );
  children.push(replica.proc);
  while (Number((await pub.pubsub('NUMSUB', channel))[1]) < 1) await sleep(20);
  log(`maximum rate: an API-only server at ${replica.match[1]}, fed over Redis; opening ${clients} streams…`);
  const pool = await openClients(
    replica.match[1],
    Array.from({ length: clients }, () => '/v1/events?topics=block'),
    false,
  );
  await sleep(500);
  let low = lastLogId;
  let wake = null;
  pool.watch(10, (id) => {
    low = id;
    wake?.();
  });
  let rss = 0;
  const rssTimer = setInterval(() => {
    rss = Math.max(rss, statusKiB(replica.proc.pid, 'VmRSS'));
  }, 250);
  const firstId = lastLogId + 1;
  let next = firstId;
  const cpu0 = { ...cpuNow(pool), server: procCpu(replica.proc.pid) };
  const t = performance.now();
  while (performance.now() - t < secs * 1000) {
    for (; next <= low + WINDOW; next++) {
      const data = blockPayloads[next % blockPayloads.length];
      const event = { id: String(next), type: 'block', at: new Date().toISOString(), data };
      pub.publish(channel, JSON.stringify([event])).catch(() => {});
    }
    await new Promise((resolve) => {
      wake = resolve;
      setTimeout(resolve, 50);
    });
  }
  const lastId = next - 1;
  const reached = await pool.reach(lastId, 60_000);
  const elapsed = (performance.now() - t) / 1000;
  const cpu = cpuSince(cpu0, { ...cpuNow(pool), server: procCpu(replica.proc.pid) }, elapsed);
  clearInterval(rssTimer);
  const streams = await pool.collect();
  pool.close();
  const sent = lastId - firstId + 1;
  const frames = streams.reduce((a, x) => a + x.frames, 0);
  const result = {
    name: 'maximum rate (API-only, fed over Redis)',
    streams: clients,
    events: sent,
    seconds: round(elapsed),
    framesDelivered: frames,
    framesPerSecond: Math.round(frames / elapsed),
    completeness: {
      gaps: streams.reduce(
        (a, x) => a + (x.frames === 0 ? sent : x.gaps + (x.firstId - firstId) + (lastId - x.lastId)),
        0,
      ),
      dupes: streams.reduce((a, x) => a + x.dupes, 0),
      closedOrDropped: streams.filter((x) => x.ended || x.closes.length > 0).length,
      reachedLast: reached,
    },
    cpuPerSecond: cpu,
    serverRssMiB: { peak: mib(rss), hwm: mib(statusKiB(replica.proc.pid, 'VmHWM')) },
  };
  result.cpuMicrosPerFrame = round((cpu.server / result.framesPerSecond) * 1e6, 1);
  log(
    `maximum rate: ${result.framesPerSecond} frames/s (${sent} events), gaps ${result.completeness.gaps}, ` +
      `dupes ${result.completeness.dupes}, server CPU ${cpu.server} s/s, ${result.cpuMicrosPerFrame} µs per frame`,
  );
  replica.proc.kill('SIGTERM');
  await once(replica.proc, 'exit');
  await pub.quit();
  await sleep(300);
  return result;
}
const maxRate = maxSeconds > 0 ? await maxRatePhase(maxSeconds) : null;

// --- the ceiling -------------------------------------------------------------------------------------------

const ceilingServer = await startScript(['bench/ceiling-sse.mjs'], {}, /^(\{.*\})$/m);
children.push(ceilingServer.proc);
const ceilingUrl = JSON.parse(ceilingServer.match[1]).url;
const post = async (path, body) => {
  const res = await fetch(`${ceilingUrl}${path}`, { method: 'POST', body: JSON.stringify(body) });
  return res.json();
};

async function ceilingPhase(name, plan, record) {
  log(`ceiling, ${name}: opening ${clients} streams…`);
  const pool = await openClients(
    ceilingUrl,
    Array.from({ length: clients }, () => '/events'),
    record,
  );
  await sleep(500);
  const cpu0 = cpuNow(pool, ceilingServer.proc.pid);
  const t = performance.now();
  const run = await post(plan.frames ? '/replay' : '/flood', plan);
  const reached = await pool.reach(run.lastId, 60_000);
  const secs = (performance.now() - t) / 1000;
  const cpu = cpuSince(cpu0, cpuNow(pool, ceilingServer.proc.pid), secs);
  const streams = await pool.collect();
  pool.close();
  const expected = new Set(Array.from({ length: run.sent }, (_, i) => run.firstId + i));
  const c = record
    ? completeness(streams, () => expected, run.firstId - 1, run.lastId)
    : {
        frames: streams.reduce((t, s) => t + s.frames, 0),
        // Between consecutive ids, and whatever a stream missed at either end of the broadcast.
        gaps: streams.reduce(
          (t, s) =>
            t + (s.frames === 0 ? run.sent : s.gaps + (s.firstId - run.firstId) + (run.lastId - s.lastId)),
          0,
        ),
        dupes: streams.reduce((t, s) => t + s.dupes, 0),
        outOfOrder: 0,
        strays: 0,
        closed: streams.filter((s) => s.ended).length,
        latency: {},
      };
  const result = {
    name,
    streams: clients,
    broadcasts: run.sent,
    seconds: round(secs),
    framesDelivered: c.frames,
    // Replayed: over the mining time of the phase replayed (the same events at the same moments); flooded:
    // until the last frame reached every stream.
    framesPerSecond: Math.round(c.frames / (plan.spanSeconds ?? secs)),
    completeness: {
      gaps: c.gaps,
      dupes: c.dupes,
      outOfOrder: c.outOfOrder,
      closedOrDropped: c.closed,
      reachedLast: reached,
    },
    latencyAllMs: record ? latencySummary(Object.values(c.latency).flat()) : null,
    perEvent: c.fanOut ?? null,
    cpuPerSecond: cpu,
    ceilingCpuSeconds: round(run.cpuSeconds),
  };
  log(
    `ceiling, ${name}: ${result.framesPerSecond} frames/s, gaps ${c.gaps}, dupes ${c.dupes}` +
      (record
        ? `, latency p50 ${result.latencyAllMs?.p50} p99 ${result.latencyAllMs?.p99} max ${result.latencyAllMs?.max} ms`
        : '') +
      `, ceiling CPU ${cpu.ceiling} s/s`,
  );
  await sleep(300);
  return result;
}

const s0 = blockPhase.schedule[0]?.at ?? 0;
const replay = await ceilingPhase(
  'same frames, same rate',
  {
    frames: blockPhase.schedule.map((f) => ({ bytes: f.bytes, afterMs: f.at - s0 })),
    spanSeconds: blockPhase.result.seconds,
  },
  true,
);
const flood =
  floodSeconds > 0
    ? await ceilingPhase(
        'maximum rate',
        {
          bytes: blockPhase.result.frameBytes.block,
          seconds: floodSeconds,
          batch: Number(values['flood-batch']),
        },
        false,
      )
    : null;
ceilingServer.proc.kill('SIGTERM');
rmSync(defsDir, { recursive: true, force: true });
await dropBenchDatabase(admin, dbName);
await admin.close();

const block = blockPhase.result;
// The server's CPU for delivery at the block rate: with the streams open minus idle at the same block rate.
const deliveryCpu = block.cpuPerSecond.server - idle.cpuPerSecond.server;
const perFrame = (cpuPerSecond, framesPerSecond) => round((cpuPerSecond / framesPerSecond) * 1e6, 1);
const ratio = (a, b, d = 2) => (a === null || b === null || !b ? null : round(a / b, d));
const out = {
  date: new Date().toISOString(),
  machine: machineInfo(),
  command: `node bench/events.mjs --clients ${clients} --workers ${workers} --block-ms ${blockMs} --tx-per-block ${values['tx-per-block']} --indexer-poll-ms ${values['indexer-poll-ms']} --seconds ${seconds} --address-seconds ${addressSeconds} --idle-seconds ${idleSeconds} --max-seconds ${maxSeconds} --flood-seconds ${floodSeconds} --flood-batch ${values['flood-batch']}`,
  setup: {
    server:
      'packages/server/dist/bin.js start (indexer and API in one process), PostgreSQL, devnet node in its own process',
    env: Object.fromEntries(
      Object.entries(serverEnv).filter(([k]) => /^(EVENTS_|RATE_LIMIT_|INDEXER_)/.test(k)),
    ),
    clients: `${clients} node:http streams in ${workers} process(es), all from 127.0.0.1`,
    blockMs,
    txPerBlock: Number(values['tx-per-block']),
  },
  loadAverage: { before: loadBefore, after: load() },
  idle,
  phases,
  server: {
    rssMiB: { start: mib(rssStartKiB), afterIdle: mib(rssIdleKiB), hwm: mib(serverHwmKiB) },
    deliveryCpuPerSecond: round(deliveryCpu, 3),
    deliveryCpuMicrosPerFrame: perFrame(deliveryCpu, block.framesPerSecond),
  },
  maxRate,
  ceiling: {
    replay,
    flood,
    cpuMicrosPerFrame: {
      replay: perFrame(replay.cpuPerSecond.ceiling, replay.framesPerSecond),
      flood: flood ? perFrame(flood.cpuPerSecond.ceiling, flood.framesPerSecond) : null,
    },
  },
  ratios: {
    blockRateVsReplay: ratio(block.framesPerSecond, replay.framesPerSecond),
    blockRateVsCeilingMax: ratio(block.framesPerSecond, flood?.framesPerSecond ?? null, 3),
    maxRateVsCeilingMax: ratio(maxRate?.framesPerSecond ?? null, flood?.framesPerSecond ?? null),
    cpuPerFrameAtMaxVsCeiling: ratio(
      maxRate?.cpuMicrosPerFrame ?? null,
      flood ? perFrame(flood.cpuPerSecond.ceiling, flood.framesPerSecond) : null,
      1,
    ),
    addedLatencyMs: {
      p50: round(block.latencyAllMs.p50 - replay.latencyAllMs.p50),
      p99: round(block.latencyAllMs.p99 - replay.latencyAllMs.p99),
      firstReceiptP50: round(block.perEvent.firstMs.p50 - replay.perEvent.firstMs.p50),
      spreadP50: round(block.perEvent.spreadMs.p50 - replay.perEvent.spreadMs.p50),
    },
  },
  totalSeconds: Math.round((performance.now() - t0) / 1000),
};
mkdirSync(dirname(values.out), { recursive: true });
writeFileSync(values.out, `${JSON.stringify(out, null, 2)}\n`);
console.log(eventsTable(out).join('\n'));
process.exit(0);
