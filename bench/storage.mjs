#!/usr/bin/env node
// Old schema against new, on this machine, in the same run: two git revisions of this repository, each in a
// temporary worktree of its own (installed and built there), each running its own bench/sync.mjs, so each
// schema is written by its own code and measured against the COPY ceiling of its own rows. The two alternate
// within each profile (old first for the first profile, new first for the second) to share the machine's
// drift. After each sync: bytes on disk per transaction, per table (pg_table_size + pg_indexes_size, after
// VACUUM ANALYZE); with --serve, that revision's bench/serve.mjs with the response cache off.
// usage: node bench/storage.mjs --old <rev> [--new HEAD] [--blocks 100000] [--tx-per-block 10]
//                               [--dialect pearl,bitcoin] [--pg-config default|tuned] [--database-url URL]
//                               [--serve] [--connections 32] [--seconds 5] [--keep-databases]
//                               [--copy old,new] [--out bench/out/storage.json]
// --copy names the revisions whose sync also measures the COPY ceiling of its rows (default both; `--copy new`
// saves the old schema's ceiling, a few minutes on a large chain, when only the new one's ratio is wanted).
// --pg-config runs everything on a cluster the script starts under .tmp/ (initdb, a free port, trust auth) in
// initdb's default configuration or with examples/standalone/postgresql.explorer.conf (its two memory
// settings sized for this machine), and stops at the end; without it, the server at --database-url is used
// (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres) and the databases are dropped.
// Needs git, pnpm, PostgreSQL (server or Debian's binaries under /usr/lib/postgresql) and, per revision, about
// a minute of install and build. Whatever it starts (worktrees, cluster, processes) is removed at the end, on
// failure and on SIGINT/SIGTERM too. Prints a markdown report; writes JSON to --out.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { totalmem } from 'node:os';
import { dirname, join, relative, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BENCH_DATABASE_URL, dbUrl, dropBenchDatabase, sleep } from './lib.mjs';
import { machineInfo } from './machine.mjs';
import { startCluster } from './pg-cluster.mjs';
import { bytesPerTx, compareRuns, confSettings, memorySettings, storageMarkdown } from './storage-report.mjs';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a, i) => i > 0 || a !== '--'),
  options: {
    old: { type: 'string' },
    new: { type: 'string', default: 'HEAD' },
    blocks: { type: 'string', default: '100000' },
    'tx-per-block': { type: 'string', default: '10' },
    dialect: { type: 'string', default: 'pearl,bitcoin' },
    'database-url': { type: 'string', default: BENCH_DATABASE_URL },
    'pg-config': { type: 'string' },
    'pg-bin': { type: 'string' },
    serve: { type: 'boolean', default: false },
    copy: { type: 'string', default: 'old,new' },
    connections: { type: 'string', default: '32' },
    seconds: { type: 'string', default: '5' },
    'keep-databases': { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
const usage =
  'usage: node bench/storage.mjs --old <rev> [--new HEAD] [--blocks N] [--tx-per-block N] ' +
  '[--dialect pearl,bitcoin] [--pg-config default|tuned] [--serve]';
const fail = (message) => {
  console.error(`bench/storage: ${message}\n${usage}`);
  process.exit(2);
};
if (!values.old) fail('--old <rev> is required');
const dialects = values.dialect.split(',').map((d) => d.trim());
if (dialects.length === 0 || dialects.some((d) => d !== 'pearl' && d !== 'bitcoin'))
  fail('--dialect takes pearl, bitcoin or both (comma-separated)');
const copySides = values.copy.split(',').map((s) => s.trim());
if (copySides.some((s) => s !== 'old' && s !== 'new'))
  fail('--copy takes old, new or both (comma-separated)');
const pgConfig = values['pg-config'] ?? null;
if (pgConfig !== null && pgConfig !== 'default' && pgConfig !== 'tuned')
  fail('--pg-config is default or tuned');
if (pgConfig && values['keep-databases'])
  fail('--keep-databases keeps nothing on a cluster that is stopped at the end');
for (const k of ['blocks', 'tx-per-block', 'connections', 'seconds'])
  if (!/^[1-9]\d*$/.test(values[k])) fail(`--${k} wants a positive integer`);
const out = values.out ?? `bench/out/storage${pgConfig ? `-${pgConfig}` : ''}.json`;

const root = fileURLToPath(new URL('..', import.meta.url));
const confFile = join(root, 'examples/standalone/postgresql.explorer.conf');
const tmp = join(root, '.tmp', `storage-${process.pid}`);
const log = (line) => console.error(`bench/storage: ${line}`);
// This checkout's driver, for the size queries; the revisions use their own for everything else.
const pg = createRequire(join(root, 'packages/db/package.json'))('pg');

// Everything started, so that cleanup() can undo it.
const children = new Set();
const worktrees = [];
const databases = [];
let cluster = null;
let baseUrl = values['database-url'];

const groupAlive = (pgid) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};
/** Ends what is left of a child's process group (a devnet or server it started): TERM, then KILL after 15 s. */
async function endGroup(pgid) {
  try {
    process.kill(-pgid, 'SIGTERM');
  } catch {
    return;
  }
  for (let i = 0; i < 150 && groupAlive(pgid); i++) await sleep(100);
  if (groupAlive(pgid)) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {}
  }
}

/**
 * Runs a command in a process group of its own (its children with it) to its end; rejects unless it exits 0.
 * Its stdout goes to this process's stderr, or nowhere (`quiet`), so that stdout carries only the report.
 */
function runChild(cmd, args, { cwd = root, env = {}, quiet = false } = {}) {
  return new Promise((resolve, reject) => {
    const proc = spawn(cmd, args, {
      cwd,
      env: { ...process.env, ...env },
      detached: true,
      stdio: ['ignore', quiet ? 'ignore' : 2, 'inherit'],
    });
    children.add(proc);
    proc.on('error', (err) => {
      children.delete(proc);
      reject(err);
    });
    proc.on('exit', async (code, signal) => {
      await endGroup(proc.pid);
      children.delete(proc);
      if (code === 0) resolve();
      else
        reject(
          new Error(
            // A database URL's password stays out of the message.
            `${cmd} ${args.join(' ').replace(/(\/\/[^:/@\s]+):[^@\s]*@/g, '$1:***@')} (in ${relative(root, cwd) || '.'}) failed: ${signal ?? code}`,
          ),
        );
    });
  });
}

/** git's stdout, trimmed. */
function git(args) {
  return new Promise((resolve, reject) => {
    const proc = spawn('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => {
      stdout += d;
    });
    proc.stderr.on('data', (d) => {
      stderr += d;
    });
    proc.on('error', reject);
    proc.on('close', (code) =>
      code === 0 ? resolve(stdout.trim()) : reject(new Error(`git ${args.join(' ')}: ${stderr.trim()}`)),
    );
  });
}

/** Runs `fn` with a client on `url`, closed afterwards. */
async function withClient(url, fn) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

let cleaning = null;
/** Undoes everything started: children, databases, the cluster, the worktrees, .tmp/storage-<pid>. Once. */
function cleanup() {
  cleaning ??= (async () => {
    await Promise.all([...children].map((c) => endGroup(c.pid)));
    if (!cluster && !values['keep-databases'] && databases.length > 0) {
      await withClient(baseUrl, async (c) => {
        for (const name of databases.splice(0)) {
          await dropBenchDatabase(c, name);
          await dropBenchDatabase(c, `${name}_copy`);
        }
      }).catch((err) => log(`could not drop the benchmark's databases: ${err.message}`));
    }
    if (cluster) {
      await cluster.stop().catch((err) => log(`could not stop the cluster: ${err.message}`));
      cluster = null;
    }
    for (const wt of worktrees.splice(0).reverse())
      await git(['worktree', 'remove', '--force', wt]).catch((err) => log(err.message));
    await git(['worktree', 'prune']).catch(() => {});
    rmSync(tmp, { recursive: true, force: true });
  })();
  return cleaning;
}
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
]) {
  process.on(signal, () => {
    log(`${signal}: stopping what was started…`);
    cleanup().finally(() => process.exit(code));
  });
}
// Nothing may end the process before cleanup(): a reader of its output that went away (`| head`), or an error
// thrown outside main()'s chain.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
for (const event of ['uncaughtException', 'unhandledRejection']) {
  process.on(event, (err) => {
    log(`${event}: ${err?.stack ?? err}`);
    cleanup().finally(() => process.exit(1));
  });
}

/** A revision checked out under .tmp/, installed and built. */
async function prepare(side, { rev, commit, subject }) {
  const dir = join(tmp, side);
  log(`${side}: ${rev} (${commit.slice(0, 8)}) into ${relative(root, dir)}: worktree, install, build`);
  await git(['worktree', 'add', '--detach', dir, commit]);
  worktrees.push(dir);
  await runChild('pnpm', ['install', '--frozen-lockfile', '--prefer-offline'], { cwd: dir });
  await runChild('pnpm', ['run', 'build'], { cwd: dir, env: { EXPLORER_SKIP_DTS: '1' } });
  return { rev, commit, subject, dir };
}

/** Sizes of every table of `name` (any schema but the system's), after VACUUM ANALYZE. */
function measure(name) {
  return withClient(dbUrl(name, baseUrl), async (c) => {
    await c.query('VACUUM (ANALYZE)');
    const { rows } = await c.query(`
      SELECT CASE WHEN ns.nspname = 'public' THEN c.relname ELSE ns.nspname || '.' || c.relname END AS name,
             c.reltuples::float8 AS rows,
             pg_table_size(c.oid) AS "tableBytes",
             pg_indexes_size(c.oid) AS "indexBytes"
        FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'm')
         AND ns.nspname NOT IN ('pg_catalog', 'information_schema') AND ns.nspname NOT LIKE 'pg_toast%'`);
    const [{ bytes }] = (await c.query('SELECT pg_database_size(current_database()) AS bytes')).rows;
    return { rows, databaseBytes: Number(bytes) };
  });
}

/** One revision's sync of one profile, its bytes on disk and, with --serve, its uncached serving. */
async function runOne(rev, side, dialect) {
  const name = `bench_storage_${process.pid}_${side}_${dialect}`;
  const syncOut = join(tmp, `sync-${side}-${dialect}.json`);
  databases.push(name);
  log(`${dialect}, ${side} (${rev.commit.slice(0, 8)}): its bench/sync.mjs`);
  await runChild(
    process.execPath,
    [
      'bench/sync.mjs',
      '--blocks',
      values.blocks,
      '--tx-per-block',
      values['tx-per-block'],
      '--dialect',
      dialect,
      '--keep',
      name,
      '--database-url',
      baseUrl,
      '--out',
      syncOut,
      ...(copySides.includes(side) ? [] : ['--no-copy']),
    ],
    { cwd: rev.dir, quiet: true },
  );
  const sync = JSON.parse(readFileSync(syncOut, 'utf8'));
  const sizes = await measure(name);
  const storage = { ...bytesPerTx(sizes.rows, sync.chain.txs), databaseBytes: sizes.databaseBytes };
  log(
    `${dialect}, ${side}: ${sync.sync.txPerSecond} tx/s (COPY ${sync.copyCeiling?.txPerSecond ?? '–'}), ${storage.total.perTx.total} bytes/tx`,
  );
  let serve = null;
  if (values.serve) {
    const serveOut = join(tmp, `serve-${side}-${dialect}.json`);
    log(`${dialect}, ${side}: its bench/serve.mjs, response cache off`);
    await runChild(
      process.execPath,
      [
        'bench/serve.mjs',
        '--database-url',
        dbUrl(name, baseUrl),
        '--label',
        `storage-${side}-${dialect}`,
        '--response-cache-mb',
        '0',
        '--skip-db-peer',
        '--connections',
        values.connections,
        '--seconds',
        values.seconds,
        '--out',
        serveOut,
      ],
      { cwd: rev.dir, quiet: true },
    );
    serve = JSON.parse(readFileSync(serveOut, 'utf8'));
  }
  if (!cluster && !values['keep-databases']) {
    await withClient(baseUrl, (c) => dropBenchDatabase(c, name));
    databases.splice(databases.indexOf(name), 1);
  }
  return { database: values['keep-databases'] ? name : null, sync, storage, serve };
}

async function main() {
  // Both revisions resolved before anything is started.
  const wanted = {};
  for (const side of ['old', 'new']) {
    const rev = values[side];
    const commit = await git(['rev-parse', '--verify', `${rev}^{commit}`]);
    wanted[side] = { rev, commit, subject: await git(['log', '-1', '--format=%s', commit]) };
  }
  mkdirSync(tmp, { recursive: true });
  if (pgConfig) {
    log(`starting a PostgreSQL cluster (${pgConfig}) under ${relative(root, tmp)}/pg`);
    cluster = await startCluster({
      dir: join(tmp, 'pg'),
      pgConfig,
      confFile,
      memoryBytes: totalmem(),
      binDir: values['pg-bin'],
    });
    baseUrl = cluster.url;
    log(`cluster listening on 127.0.0.1:${cluster.port} (${cluster.binDir})`);
  }
  const names = confSettings(readFileSync(confFile, 'utf8')).map((s) => s.name);
  const server = await withClient(baseUrl, async (c) => {
    const [{ server_version: version }] = (await c.query('SHOW server_version')).rows;
    const { rows } = await c.query(
      'SELECT name, current_setting(name) AS value FROM pg_settings WHERE name = ANY($1) ORDER BY name',
      [names],
    );
    return { version, settings: Object.fromEntries(rows.map((r) => [r.name, r.value])) };
  });
  const revs = { old: await prepare('old', wanted.old), new: await prepare('new', wanted.new) };
  const profiles = [];
  for (const [i, dialect] of dialects.entries()) {
    const order = i % 2 === 0 ? ['old', 'new'] : ['new', 'old'];
    const runs = {};
    for (const side of order) runs[side] = await runOne(revs[side], side, dialect);
    profiles.push({ dialect, order, runs, newOverOld: compareRuns(runs.old, runs.new) });
  }
  const memory = memorySettings(totalmem());
  const description =
    pgConfig === 'tuned'
      ? `a cluster of its own with examples/standalone/postgresql.explorer.conf (shared_buffers ${memory.shared_buffers}, effective_cache_size ${memory.effective_cache_size} for this machine)`
      : pgConfig === 'default'
        ? "a cluster of its own in initdb's default configuration"
        : "the machine's server as it is configured";
  const result = {
    date: new Date().toISOString(),
    machine: machineInfo(),
    command: `node bench/storage.mjs --old ${values.old} --new ${values.new} --blocks ${values.blocks} --tx-per-block ${values['tx-per-block']} --dialect ${dialects.join(',')}${pgConfig ? ` --pg-config ${pgConfig}` : ''}${values.serve ? ` --serve --connections ${values.connections} --seconds ${values.seconds}` : ''}`,
    old: { rev: revs.old.rev, commit: revs.old.commit, subject: revs.old.subject },
    new: { rev: revs.new.rev, commit: revs.new.commit, subject: revs.new.subject },
    chain: { blocks: Number(values.blocks), txPerBlock: Number(values['tx-per-block']) },
    postgres: { config: pgConfig ?? 'server', description, ...server },
    profiles,
  };
  mkdirSync(dirname(resolvePath(out)), { recursive: true });
  writeFileSync(resolvePath(out), `${JSON.stringify(result, null, 2)}\n`);
  console.log(storageMarkdown(result));
  log(`results in ${out}`);
}

try {
  await main();
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await cleanup();
}
process.exit(process.exitCode ?? 0);
