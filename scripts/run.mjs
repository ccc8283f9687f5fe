#!/usr/bin/env node
// One entry for the README's two commands, so that a machine with only Node and npm can run them:
// it finds pnpm 10 (or fetches it through npx), installs, builds, then starts the explorer or runs the tests.
import { spawnSync } from 'node:child_process';

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
  must(p('run', 'lint'), 'lint');
  must(p('run', 'typecheck'), 'typecheck');
  must(p('run', 'lint:openapi'), 'OpenAPI lint');
  process.exit(p('exec', 'vitest', 'run', ...rest));
} else {
  console.error('usage: node scripts/run.mjs start|test [args…]');
  process.exit(2);
}
