#!/usr/bin/env node
// Builds the workspace packages named (`cli client`; every package under packages/ when none is named) whose
// dist/ is missing, older than their sources, or lacks a declaration file their package.json names. It builds
// with declarations, so whatever it builds can be packed and published. Tests that run or pack dist/ call it
// first; a lock keeps two test files from rebuilding the same folder at the same time.
//
// `--no-declarations` (for tests that only run dist/) asks for the JavaScript alone: declarations missing are
// not a reason to build (type-checking them takes minutes of CPU), and what is fresh is answered at once,
// without waiting for the lock that a build of another test's declarations holds meanwhile.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pnpmCommand } from './pnpm.mjs';
import { isStale, packageDirs, root } from './stale.mjs';

const args = process.argv.slice(2);
const declarations = !args.includes('--no-declarations');
const names = args.filter((a) => !a.startsWith('--'));
const wanted = names.length > 0 ? names : packageDirs();
const stale = (name) => isStale(name, { declarations });
if (!declarations && !wanted.some(stale)) process.exit(0);

const lock = join(root, 'node_modules', '.explorer-build.lock');
const started = Date.now();
for (;;) {
  try {
    mkdirSync(lock);
    break;
  } catch (err) {
    if (err.code !== 'EEXIST') throw err;
    // A lock left by a killed run is taken over after ten minutes.
    if (Date.now() - statSync(lock).mtimeMs > 600_000) rmSync(lock, { recursive: true, force: true });
    if (Date.now() - started > 600_000) throw new Error(`build-stale: ${lock} held for ten minutes`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
let status = 0;
try {
  const todo = wanted.filter(stale);
  // Where only the declarations are missing (`npm test` builds without them), they are written alone: a full
  // build empties dist/ first, under the feet of the tests that run it meanwhile.
  const whole = todo.filter((name) => isStale(name, { declarations: false }));
  const { EXPLORER_SKIP_DTS: _skip, ...withDeclarations } = process.env;
  const env = declarations ? withDeclarations : { ...process.env, EXPLORER_SKIP_DTS: '1' };
  const [pnpm, ...pre] = pnpmCommand();
  const typed = declarations ? todo : [];
  const steps = [
    [
      whole,
      'building',
      pnpm,
      [...pre, ...whole.flatMap((n) => ['--filter', `./packages/${n}`]), 'run', 'build'],
    ],
    [
      typed,
      'writing the declarations of',
      process.execPath,
      [join(root, 'scripts/declarations.mjs'), ...typed],
    ],
  ];
  for (const [names, what, cmd, args] of steps) {
    if (names.length === 0 || status !== 0) continue;
    console.error(`build-stale: ${what} ${names.join(', ')}`);
    const r = spawnSync(cmd, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
    status = r.error ? 1 : (r.status ?? 1);
    if (r.error) console.error(`build-stale: ${r.error.message}`);
  }
} finally {
  rmSync(lock, { recursive: true, force: true });
}
process.exit(status);
