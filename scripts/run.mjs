#!/usr/bin/env node
// One entry for the README's two commands, so that a machine with only Node and npm can run them:
// it finds pnpm 10 (or fetches it through npx), installs, builds, then starts the explorer or runs the tests.
//
// `start` keeps its output short: a start that would be refused (the data dir held by another process, the
// port in use) is refused before anything is installed or built; install and build report on one line and
// show their own output only when they fail; the server's log is at `warn` unless LOG_LEVEL or --log-level
// says otherwise; once it listens, the next commands to try follow. The SDK's type declarations are built
// beside the running server.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { createInterface } from 'node:readline';

const PNPM_VERSION = '10.34.9';
const [, , mode, ...rest] = process.argv;
const SERVER_BIN = 'packages/server/dist/bin.js';

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

function pnpmCommand() {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  if (probe.status === 0 && probe.stdout.trim().startsWith('10.')) return ['pnpm'];
  return ['npx', '--yes', `pnpm@${PNPM_VERSION}`];
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
  // A build from an earlier start answers the preflight; on a fresh clone nothing here can be running yet.
  if (existsSync(SERVER_BIN)) {
    const check = spawnSync(process.execPath, [SERVER_BIN, 'check', '--quiet', ...rest], {
      encoding: 'utf8',
    });
    if (check.status !== 0 && /^explorer-server: |^[A-Z_]+ /m.test(check.stderr)) {
      process.stderr.write(check.stderr);
      process.exit(check.status ?? 1);
    }
  }
  const status = createStatusLine();
  const timings = [];
  for (const [what, args] of [
    ['installing dependencies', ['install', '--frozen-lockfile', '--prefer-offline']],
    ['building', ['run', 'build']],
  ]) {
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
      process.exit(r.status || 1);
    }
    timings.push(`${what.split(' ')[0]} ${((performance.now() - began) / 1000).toFixed(1)} s`);
  }
  status.done(`explorer: ready (${timings.join(', ')})`);

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
      declarations = buildDeclarations();
    }
  });
  server.on('exit', (code, signal) => {
    declarations?.kill();
    // Killed by a signal (kill -9, out of memory) is a failure, reported as a shell would: 128 + its number.
    process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
  });
}

/** The commands a new user tries next, with the URL the server listens on. */
function nextSteps(url) {
  return [
    '',
    `  open   ${url}/            front page: status and the latest blocks`,
    `         ${url}/docs        the API reference`,
    `  try    curl '${url}/v1/blocks?limit=5'`,
    `         npm run explorer -- blocks --limit 5${url === 'http://127.0.0.1:3000' ? '' : ` --base-url ${url}`}`,
    '  stop   Ctrl-C (the index is kept in the data dir for the next start)',
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
  const child = spawn(
    pnpm[0],
    [
      ...pnpm.slice(1),
      '--filter',
      '@explorer/core',
      '--filter',
      '@explorer/client',
      'exec',
      'tsup',
      '--dts-only',
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
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
