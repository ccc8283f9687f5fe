// What the benchmarks share: starting a node script and waiting for its first line, a process's RSS and CPU
// seconds (Linux /proc), database URLs on the benchmark's server and databases of their own created and dropped
// there, free ports, a litecoind regtest node, wrk runs over a file of distinct requests (bench/wrk-paths.lua),
// and the explorer's own counters (/metrics).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Starts a node script and resolves with the first match of `pattern` in its stdout (stderr inherited). With
 * `capture`, stderr is read too: both streams go into one transcript, which `pattern` is matched against and
 * `output()` returns for as long as the script runs (for a script whose log lines are part of what is
 * measured), and an exit before the match rejects with the transcript's last lines.
 * @example const { proc, match } = await startScript(['bench/ceiling-server.mjs'], {}, /^(\{.*\})$/m);
 * @returns {Promise<{ proc: import('node:child_process').ChildProcess, match: RegExpExecArray, output: () => string }>}
 */
export function startScript(
  args,
  env = {},
  pattern = /listening on (http:\/\/\S+)/,
  { capture = false } = {},
) {
  const proc = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', capture ? 'pipe' : 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buf = '';
    let matched = false;
    const read = (d) => {
      // Without a transcript to keep, what comes after the match is not needed.
      if (matched && !capture) return;
      buf += d;
      const m = matched ? null : pattern.exec(buf);
      if (!m) return;
      matched = true;
      resolve({ proc, match: m, output: () => buf });
    };
    proc.stdout.setEncoding('utf8');
    proc.stdout.on('data', read);
    if (capture) {
      proc.stderr.setEncoding('utf8');
      proc.stderr.on('data', read);
    }
    proc.on('exit', (code) =>
      reject(new Error(`${args[0]} exited with ${code}${capture ? `:\n${buf.slice(-2000)}` : ''}`)),
    );
  });
}

/** A `/proc/<pid>/status` memory field (VmRSS, VmHWM…) of a process in KiB (0 once it is gone). */
export function statusKiB(pid, field) {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** A process's resident set in MiB (0 once it is gone). */
export function rssMiB(pid) {
  return statusKiB(pid, 'VmRSS') / 1024;
}

/** CPU seconds (user + system) a process has used; NaN once it is gone. */
export function procCpu(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds of every PostgreSQL process of the machine together. */
export function postgresCpu() {
  let t = 0;
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/comm`, 'utf8').startsWith('postgres')) t += procCpu(d) || 0;
    } catch {}
  }
  return t;
}

/**
 * CPU seconds so far of each PostgreSQL backend connected to database `name`, by pid (the asking connection
 * left out): with {@link cpuBetween}, the work one server's queries cost, without other databases' work.
 */
export async function backendCpu(sql, name) {
  const rows = await sql.query(
    'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [name],
  );
  return new Map(rows.map((r) => [r.pid, procCpu(r.pid) || 0]));
}

/** CPU seconds between two readings of {@link backendCpu} (a backend that came meanwhile counts from 0). */
export function cpuBetween(before, after) {
  let t = 0;
  for (const [pid, cpu] of after) t += cpu - (before.get(pid) ?? 0);
  return t;
}

/** The benchmarks' PostgreSQL server. */
export const BENCH_DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL of database `name` on the server of `base`. */
export function dbUrl(name, base = BENCH_DATABASE_URL) {
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

// A database name goes into the statement as it is (CREATE DATABASE takes no parameter), so only plain ones.
const plainDatabaseName = (name) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  return name;
};

/**
 * Creates database `name`, empty, on the server `admin` is connected to; one of the same name that an earlier
 * run left behind is dropped first. `admin` is any connection whose `query(text)` runs a statement:
 * `@explorer/db`'s createPgSql or openDatabase, or a `pg.Client` (for a script that runs before the workspace
 * is built). The caller keeps its connection: it opens it (on the server of its choice, with the timeout it
 * wants) and closes it.
 * @example await createBenchDatabase(admin, 'bench_sync'); // then dbUrl('bench_sync', base) reaches it
 */
export async function createBenchDatabase(admin, name) {
  await dropBenchDatabase(admin, name);
  await admin.query(`CREATE DATABASE ${plainDatabaseName(name)}`);
}

/**
 * Drops database `name` if it exists, ending the sessions still connected to it (WITH (FORCE)), over the same
 * kind of connection {@link createBenchDatabase} takes.
 */
export async function dropBenchDatabase(admin, name) {
  await admin.query(`DROP DATABASE IF EXISTS ${plainDatabaseName(name)} WITH (FORCE)`);
}

/** Why wrk cannot run here, or null. */
export function wrkSkipReason() {
  return spawnSync('wrk', ['--version']).error ? 'wrk is not installed (apt-get install wrk)' : null;
}

/** A free TCP port on loopback. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns a truthy value (returned), every `everyMs`, at most `timeoutMs`. */
export async function waitFor(what, check, { timeoutMs = 60_000, everyMs = 100 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      const v = await check();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    await sleep(everyMs);
  }
  throw new Error(`${what}: not within ${timeoutMs / 1000} s${last ? ` (${last.message})` : ''}`);
}

/** The litecoind binary (Debian's real one behind its wrapper, or LITECOIND, or on PATH), or null. */
export function litecoindBin() {
  const candidates = [process.env.LITECOIND, '/usr/lib/litecoin/litecoind', '/usr/bin/litecoind'];
  for (const p of candidates) {
    if (!p) continue;
    try {
      accessSync(p, constants.X_OK);
      if (spawnSync(p, ['-version']).status === 0) return p;
    } catch {}
  }
  return null;
}

/**
 * Starts a regtest litecoind on loopback in a datadir of its own, authenticated with a random user and
 * password, and waits until its RPC answers. `args` come after the common ones (which include -txindex=1).
 * `stop()` stops it (SIGKILL after a bound) and removes the datadir; an exit of this process does the same.
 */
export async function startLitecoind({ args = [], datadirRoot } = {}) {
  const bin = litecoindBin();
  if (!bin) throw new Error('litecoind is not installed (scripts/install-litecoind.sh installs it)');
  const datadir = mkdtempSync(join(datadirRoot ?? tmpdir(), 'bench-litecoind-'));
  const rpcPort = await freePort();
  const user = 'bench';
  const password = randomBytes(12).toString('hex');
  const proc = spawn(
    bin,
    [
      '-regtest',
      `-datadir=${datadir}`,
      '-server=1',
      '-listen=0',
      '-connect=0',
      '-dnsseed=0',
      '-discover=0',
      '-upnp=0',
      '-printtoconsole=0',
      `-rpcport=${rpcPort}`,
      '-rpcbind=127.0.0.1',
      '-rpcallowip=127.0.0.1',
      `-rpcuser=${user}`,
      `-rpcpassword=${password}`,
      '-txindex=1',
      '-fallbackfee=0.0001',
      ...args,
    ],
    { stdio: 'ignore' },
  );
  let exited = false;
  const gone = new Promise((resolve) => proc.once('exit', resolve)).then(() => {
    exited = true;
  });
  const kill = () => {
    if (!exited) proc.kill('SIGKILL');
    rmSync(datadir, { recursive: true, force: true });
  };
  process.on('exit', kill);
  const auth = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const url = `http://127.0.0.1:${rpcPort}/`;
  let id = 0;
  const rpcAt = async (path, method, ...params) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '1.0', id: ++id, method, params }),
      signal: AbortSignal.timeout(120_000),
    });
    const text = await res.text();
    let reply;
    try {
      reply = JSON.parse(text);
    } catch {
      throw new Error(`${method}: HTTP ${res.status} ${text.slice(0, 200)}`);
    }
    if (reply.error) throw new Error(`${method}: ${reply.error.message} (code ${reply.error.code})`);
    return reply.result;
  };
  const rpc = (method, ...params) => rpcAt('', method, ...params);
  await waitFor('litecoind RPC', async () => !exited && (await rpc('getblockchaininfo')), {
    timeoutMs: 180_000,
  }).catch((err) => {
    kill();
    throw err;
  });
  return {
    proc,
    bin,
    datadir,
    url,
    auth,
    user,
    password,
    /** JSON-RPC URL with the credentials in it, as the explorer's NODE_RPC_URL takes it. */
    urlWithCredentials: `http://${user}:${password}@127.0.0.1:${rpcPort}/`,
    rpcPort,
    rpc,
    /** A call of one loaded wallet (where several are loaded, wallet calls must name theirs). */
    wallet: (name, method, ...params) => rpcAt(`wallet/${name}`, method, ...params),
    stop: async () => {
      if (!exited) {
        await rpc('stop').catch(() => undefined);
        await Promise.race([gone, sleep(15_000)]);
      }
      kill();
      process.off('exit', kill);
    },
  };
}

/**
 * One wrk run with bench/wrk-paths.lua over the lines of `file` from line `offset` on (0-based; each thread
 * walks its own stripe, so no line is asked twice until they run out: `wrapped`). Lines are paths, or with
 * `post` request bodies POSTed to the URL's path (`post.auth`: an Authorization header). `failMatch`: a string
 * whose presence in a 2xx body counts the answer as failed (for servers that answer errors with 200).
 * Returns req/s, p50/p99 (ms), requests, lines used, errors (socket errors, non-2xx, timeouts) and failed.
 */
export function runWrk({ url, file, offset = 0, seconds, connections, threads = 2, post, failMatch }) {
  const env = {
    ...process.env,
    WRK_PATHS: file,
    WRK_THREADS: String(threads),
    WRK_OFFSET: String(offset),
    WRK_METHOD: post ? 'POST' : 'GET',
    WRK_AUTH: post?.auth ?? '',
    WRK_FAIL_MATCH: failMatch ?? '',
  };
  const r = spawnSync(
    'wrk',
    ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--timeout', '30s'].concat([
      '-s',
      new URL('./wrk-paths.lua', import.meta.url).pathname,
      url,
    ]),
    { encoding: 'utf8', env, timeout: (seconds + 120) * 1000, maxBuffer: 1 << 24 },
  );
  const line = (r.stdout ?? '').split('\n').find((l) => l.startsWith('{"requests"'));
  if (r.status !== 0 || !line) throw new Error(`wrk failed (${r.status}): ${r.stderr || r.stdout}`);
  const w = JSON.parse(line);
  return {
    rps: Math.round(w.requests / (w.durationUs / 1e6)),
    p50: Math.round(w.p50 / 100) / 10,
    p99: Math.round(w.p99 / 100) / 10,
    requests: w.requests,
    // Lines consumed: each thread walks its own stripe.
    used: w.mostPerThread * threads,
    wrapped: w.wrapped === 1,
    errors: w.connect + w.read + w.write + w.status + w.timeout,
    failed: w.failed ?? 0,
    raw: line,
  };
}

/**
 * The explorer server's counters from its metrics listener: SQL statements (the tip's reads apart) and their
 * seconds, requests, requests answered from a cache, response-cache hits.
 */
export async function explorerCounters(metricsPort) {
  // A connection of its own each time: the metrics listener closes idle ones between rounds.
  const text = await new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: metricsPort, path: '/metrics', agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
  const c = { statements: 0, tipReads: 0, requests: 0, fromCache: 0, responseCacheHits: 0, dbSeconds: 0 };
  for (const line of text.split('\n')) {
    if (line.startsWith('explorer_db_query_duration_seconds_count{')) {
      const v = Number(line.slice(line.lastIndexOf(' ') + 1));
      if (/query="state\.(tip|read)"/.test(line)) c.tipReads += v;
      else c.statements += v;
    } else if (line.startsWith('explorer_db_query_duration_seconds_sum{')) {
      if (!/query="state\.(tip|read)"/.test(line))
        c.dbSeconds += Number(line.slice(line.lastIndexOf(' ') + 1));
    } else if (line.startsWith('explorer_http_requests_total{')) {
      const v = Number(line.slice(line.lastIndexOf(' ') + 1));
      c.requests += v;
      if (!/cache="(none|miss)"/.test(line)) c.fromCache += v;
    } else if (line.startsWith('explorer_response_cache_hits_total')) {
      c.responseCacheHits += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return c;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? null : s[Math.floor((s.length - 1) / 2)];
};

export { median };
