#!/usr/bin/env node
// Builds the workspace packages named (`cli client`; every package under packages/ when none is named) whose
// dist/ is missing, older than their sources, or lacks a declaration file their package.json names. It builds
// with declarations, so whatever it builds can be packed and published. Tests that run or pack dist/ call it
// first; a lock keeps two test files from rebuilding the same folder at the same time.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const names = process.argv.slice(2);
const all = readdirSync(join(root, 'packages')).filter((d) =>
  existsSync(join(root, 'packages', d, 'package.json')),
);
const wanted = names.length > 0 ? names : all;

/** The files a package's package.json promises from dist/: main, types, bin, and every export condition. */
function promised(pkg) {
  const files = new Set();
  const add = (v) => typeof v === 'string' && v.startsWith('./dist/') && files.add(v);
  add(pkg.main);
  add(pkg.types);
  for (const v of Object.values(typeof pkg.bin === 'object' ? pkg.bin : {})) add(v);
  const walk = (v) =>
    typeof v === 'string' ? add(v) : v && typeof v === 'object' && Object.values(v).forEach(walk);
  walk(pkg.exports);
  return [...files];
}

function stale(name) {
  const dir = join(root, 'packages', name);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const built = promised(pkg).map((f) => join(dir, f));
  if (built.length === 0 || !built.every((f) => existsSync(f))) return true;
  const since = Math.min(...built.map((f) => statSync(f).mtimeMs));
  return readdirSync(join(dir, 'src'), { recursive: true })
    .map(String)
    .some(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && statSync(join(dir, 'src', f)).mtimeMs > since,
    );
}

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
  if (todo.length > 0) {
    console.error(`build-stale: building ${todo.join(', ')} (with declarations)`);
    const { EXPLORER_SKIP_DTS: _skip, ...env } = process.env;
    const r = spawnSync('pnpm', [...todo.flatMap((n) => ['--filter', `./packages/${n}`]), 'run', 'build'], {
      cwd: root,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    status = r.error ? 1 : (r.status ?? 1);
    if (r.error) console.error(`build-stale: ${r.error.message}`);
  }
} finally {
  rmSync(lock, { recursive: true, force: true });
}
process.exit(status);
