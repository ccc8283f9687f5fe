#!/usr/bin/env node
// One entry for the README's two commands, so that a machine with only Node and npm can run them:
// it finds pnpm 10 (or fetches it through npx), installs, builds, then starts the explorer or runs the tests.
//
// `start` keeps its output short and refuses early: a port in use is refused before anything is installed or
// built, and so is a data dir held by another process once a build exists to ask; a second `npm start`
// while one is installing or building this checkout is refused at once. Install and build run only when
// something changed, report on one line and show their own output only when they fail; the server's log is
// at `warn` unless LOG_LEVEL or --log-level says otherwise; once it listens, the next commands to try
// follow. The SDK's type declarations are built beside the running server when they are missing or stale.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { constants } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pnpmCommand } from './pnpm.mjs';
import { installNeeded, isStale, packageDirs, root } from './stale.mjs';

const [, , mode, ...rest] = process.argv;
const SERVER_BIN = 'packages/server/dist/bin.js';

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

const pnpm = pnpmCommand();
const p = (...args) => run(pnpm[0], [...pnpm.slice(1), ...args]);
const must = (status, what) => {
  if (status !== 0) {
    console.error(`${what} failed (exit ${status})`);
    process.exit(status);
  }
};

if (mode === 'start') {
  await start();
} else if (mode === 'test') {
  must(p('install', '--frozen-lockfile', '--prefer-offline'), 'install');
  process.env.EXPLORER_SKIP_DTS = '1';
  must(p('run', 'build'), 'build');
  await findPostgres();
  must(p('run', 'lint'), 'lint');
  must(p('run', 'typecheck'), 'typecheck');
  must(p('run', 'lint:openapi'), 'OpenAPI lint');
  process.exit(p('exec', 'vitest', 'run', ...rest));
} else {
  console.error('usage: node scripts/run.mjs start|test [args…]');
  process.exit(2);
}

async function start() {
  // A build from an earlier start answers the preflight (configuration, data dir and port); without one, the
  // port is probed here, since nothing is installed yet to ask, and the build answers it once it exists.
  const built = existsSync(SERVER_BIN);
  if (built) preflight();
  else {
    const problem = await portProblem();
    if (problem) {
      console.error(`explorer-server: ${problem}`);
      process.exit(1);
    }
  }
  const release = holdSetupLock();
  const status = createStatusLine();
  const timings = [];
  const stale = packageDirs().filter((name) => isStale(name, { declarations: false }));
  const steps = [
    [
      'installing dependencies',
      installNeeded() ? ['install', '--frozen-lockfile', '--prefer-offline'] : null,
    ],
    [
      'building',
      stale.length > 0 ? [...stale.flatMap((n) => ['--filter', `./packages/${n}`]), 'run', 'build'] : null,
    ],
  ];
  for (const [what, args] of steps) {
    if (!args) continue;
    status.show(`explorer: ${what}…`);
    const began = performance.now();
    const r = spawnSync(pnpm[0], [...pnpm.slice(1), ...args], {
      encoding: 'utf8',
      env: { ...process.env, EXPLORER_SKIP_DTS: '1' },
      maxBuffer: 64 * 1024 * 1024,
    });
    if (r.error || r.status !== 0) {
      status.done(`explorer: ${what} failed (exit ${r.status ?? r.error?.message}); its output:`);
      process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`);
      release();
      process.exit(r.status || 1);
    }
    timings.push(`${what.split(' ')[0]} ${((performance.now() - began) / 1000).toFixed(1)} s`);
  }
  release();
  if (!built) preflight();
  status.done(`explorer: ready (${timings.length > 0 ? timings.join(', ') : 'installed and built already'})`);

  const quiet = !process.env.LOG_LEVEL && !rest.some((a) => a.startsWith('--log-level'));
  const server = spawn(process.execPath, [SERVER_BIN, 'start', ...rest], {
    stdio: ['inherit', 'pipe', 'inherit'],
    env: quiet ? { ...process.env, LOG_LEVEL: 'warn' } : process.env,
  });
  // Ctrl-C reaches the server itself (same process group), so SIGINT is not passed on again (a second signal
  // would make it exit without closing); a SIGTERM sent to this process alone is. Either way this process
  // waits for the server to finish closing.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => server.kill('SIGTERM'));
  let declarations = null;
  createInterface({ input: server.stdout }).on('line', (line) => {
    console.log(line);
    const listening = /^explorer listening on (\S+)/.exec(line);
    if (listening && !declarations) {
      console.log(nextSteps(listening[1]));
      if (isStale('core') || isStale('client')) declarations = buildDeclarations();
    }
  });
  server.on('exit', (code, signal) => {
    declarations?.kill();
    // Killed by a signal (kill -9, out of memory) is a failure, reported as a shell would: 128 + its number.
    process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
  });
}

/**
 * Asks the built server whether `start` could begin (`explorer-server check`): a configuration error, a data
 * dir held by another process or a port in use is said in one line, and this process exits with its status.
 */
function preflight() {
  const check = spawnSync(process.execPath, [SERVER_BIN, 'check', '--quiet', ...rest], { encoding: 'utf8' });
  if (check.status !== 0 && /^explorer-server: |^config: |^[A-Z_]+ /m.test(check.stderr)) {
    process.stderr.write(check.stderr);
    process.exit(check.status ?? 1);
  }
}

/** The port and host `start` would listen on: its flags, else PORT and HOST, else the defaults. */
function listenAddress() {
  const flag = (name) => {
    const i = rest.findIndex((a) => a === name || a.startsWith(`${name}=`));
    if (i < 0) return undefined;
    return rest[i].includes('=') ? rest[i].slice(name.length + 1) : rest[i + 1];
  };
  return {
    port: Number(flag('--port') ?? process.env.PORT ?? 3000),
    host: flag('--host') ?? process.env.HOST ?? '127.0.0.1',
  };
}

/**
 * Says why the port cannot be listened on, or null. The server's own preflight (`explorer-server check`)
 * does this once it is built; this copy runs only before there is a build to ask.
 */
function portProblem() {
  const { port, host } = listenAddress();
  if (!Number.isInteger(port) || port === 0) return Promise.resolve(null);
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', (err) =>
      resolve(
        err.code === 'EADDRINUSE'
          ? `cannot listen on ${host}:${port}: address in use; stop what holds it, or choose another --port (PORT)`
          : null,
      ),
    );
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(null)));
  });
}

/**
 * Takes this checkout's setup lock for the install and build, or refuses at once when another `npm start`
 * holds it: two installs and builds of one tree at a time would overwrite each other's output. A lock whose
 * process is gone is taken over. Returns the release.
 */
function holdSetupLock() {
  const dir = join(root, 'node_modules', '.explorer-start.lock');
  const pidFile = join(dir, 'pid');
  mkdirSync(join(root, 'node_modules'), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      mkdirSync(dir);
      writeFileSync(pidFile, String(process.pid));
      const release = () => {
        process.off('exit', release);
        rmSync(dir, { recursive: true, force: true });
      };
      process.once('exit', release);
      return release;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    let pid = Number.NaN;
    try {
      pid = Number(readFileSync(pidFile, 'utf8'));
    } catch {
      // Not written yet by a process that has only just taken it.
    }
    if (Number.isNaN(pid) ? Date.now() - statSync(dir).mtimeMs < 10_000 : alive(pid)) {
      console.error(
        `explorer: another npm start${Number.isNaN(pid) ? '' : ` (process ${pid})`} is installing and building this checkout; wait for it to listen, or stop it`,
      );
      process.exit(1);
    }
    rmSync(dir, { recursive: true, force: true });
  }
  throw new Error(`could not take ${dir}`);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** The commands a new user tries next, with the URL the server listens on. */
function nextSteps(url) {
  return [
    '',
    `  open   ${url}/            front page: status and the latest blocks`,
    `         ${url}/docs        the API reference`,
    `  try    curl '${url}/v1/blocks?limit=5'`,
    `         npm run explorer -- blocks --limit 5${url === 'http://127.0.0.1:3000' ? '' : ` --base-url ${url}`}`,
    `  stop   Ctrl-C (the index is kept ${process.env.DATABASE_URL ? 'in PostgreSQL' : 'in the data dir'} for the next start)`,
    '',
  ].join('\n');
}

/**
 * Builds the type declarations of the SDK (@explorer/core and @explorer/client) beside the running server:
 * declarations only, so the JavaScript the server runs is not touched. Says one line when done.
 */
function buildDeclarations() {
  const env = { ...process.env };
  delete env.EXPLORER_SKIP_DTS;
  const child = spawn(process.execPath, [join(root, 'scripts/declarations.mjs'), 'core', 'client'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  child.on('exit', (code, signal) => {
    if (signal) return;
    if (code === 0) console.log('explorer: SDK type declarations built (packages/client/dist/index.d.ts)');
    else console.error(`explorer: building the SDK type declarations failed (exit ${code}):\n${output}`);
  });
  return child;
}

/** One line that is rewritten in place on a terminal, and printed once when done elsewhere. */
function createStatusLine() {
  const tty = process.stdout.isTTY;
  return {
    show(text) {
      if (tty) process.stdout.write(`\r\x1b[2K${text}`);
    },
    done(text) {
      process.stdout.write(tty ? `\r\x1b[2K${text}\n` : `${text}\n`);
    },
  };
}

/**
 * The PostgreSQL tests run wherever PostgreSQL answers: TEST_DATABASE_URL when set, else a local server on
 * 127.0.0.1:5432 that lets the `postgres` user in and create a schema. Otherwise they skip, saying why.
 */
async function findPostgres() {
  if (process.env.TEST_DATABASE_URL) {
    console.log(`test: PostgreSQL tests run against TEST_DATABASE_URL`);
    return;
  }
  const url = 'postgres://postgres@127.0.0.1:5432/postgres';
  const pg = createRequire(new URL('../packages/db/package.json', import.meta.url))('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('CREATE SCHEMA IF NOT EXISTS explorer_test_probe; DROP SCHEMA explorer_test_probe');
    process.env.TEST_DATABASE_URL = url;
    console.log(`test: PostgreSQL answers at ${url}: its tests run there`);
  } catch (err) {
    console.log(
      `test: no usable PostgreSQL at ${url} (${err.message}): PostgreSQL tests skip; set TEST_DATABASE_URL to run them`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}
