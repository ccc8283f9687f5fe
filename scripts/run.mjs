#!/usr/bin/env node
// One entry for the README's two commands, so that a machine with only Node and npm can run them:
// it finds pnpm 10 (or fetches it through npx), installs, builds, then starts the explorer or runs the tests.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const PNPM_VERSION = '10.34.9';
const [, , mode, ...rest] = process.argv;

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

must(p('install', '--frozen-lockfile', '--prefer-offline'), 'install');
process.env.EXPLORER_SKIP_DTS = '1';
must(p('run', 'build'), 'build');

if (mode === 'start') {
  process.exit(run(process.execPath, ['packages/server/dist/bin.js', 'start', ...rest]));
} else if (mode === 'test') {
  await findPostgres();
  must(p('run', 'lint'), 'lint');
  must(p('run', 'typecheck'), 'typecheck');
  must(p('run', 'lint:openapi'), 'OpenAPI lint');
  process.exit(p('exec', 'vitest', 'run', ...rest));
} else {
  console.error('usage: node scripts/run.mjs start|test [args…]');
  process.exit(2);
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
