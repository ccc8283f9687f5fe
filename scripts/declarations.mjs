#!/usr/bin/env node
// Writes the type declarations of the published packages into their dist/ folders, one .d.ts beside each
// source module (dist/index.d.ts the entry that package.json's `types` names): one TypeScript program over every
// package's sources, in place of one per package that type-checked again every package it imports. Their
// imports of one another stay package imports (`@explorer/db`), as an installed user resolves them.
// Names (`core client`) limit the copy to those packages; EXPLORER_SKIP_DTS=1 skips the step (npm start, npm
// test build without declarations).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { publishedDirs, root } from './stale.mjs';

if (process.env.EXPLORER_SKIP_DTS === '1') process.exit(0);
const names = process.argv.slice(2);
const wanted = names.length > 0 ? names : publishedDirs();
const out = join(root, 'node_modules/.cache/explorer-declarations');
rmSync(out, { recursive: true, force: true });
const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.declarations.json')], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
});
if (r.status !== 0) {
  console.error(`declarations: tsc failed (${r.error?.message ?? `exit ${r.status}`})`);
  process.exit(r.status || 1);
}
for (const name of wanted) {
  const from = join(out, name, 'src');
  const dist = join(root, 'packages', name, 'dist');
  if (!existsSync(from) || !existsSync(dist)) {
    console.error(
      `declarations: packages/${name} has no ${existsSync(dist) ? 'sources' : 'dist/ (build it first)'}`,
    );
    process.exit(1);
  }
  // Declarations of modules since removed go with them.
  for (const f of readdirSync(dist, { recursive: true }).map(String))
    if (f.endsWith('.d.ts')) rmSync(join(dist, f), { force: true });
  cpSync(from, dist, { recursive: true });
}
