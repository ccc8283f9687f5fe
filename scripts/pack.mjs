#!/usr/bin/env node
// `npm run tarballs [-- <dir>]`: packs the published packages (never the private test packages) into <dir>
// (./tarballs by default), one `explorer-<name>-<version>.tgz` each, ready for `npm install` without a
// registry. Stale packages are built first, with declarations; pnpm packs, as it turns `workspace:` specs
// into the version. Earlier explorer tarballs in <dir> are removed first, so `<dir>/*.tgz` is exactly these.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pnpmCommand } from './pnpm.mjs';
import { promised, publishedDirs, root } from './stale.mjs';

const dest = resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[2] ?? join(root, 'tarballs'));
const dirs = publishedDirs();
const manifest = (dir) => JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8'));
/** The tarball pnpm writes for a package: `@explorer/core` 1.0.0 → explorer-core-1.0.0.tgz. */
const tarball = (dir) => {
  const { name, version } = manifest(dir);
  return `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
};

function must(cmd, args, what) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error || r.status !== 0) {
    process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`);
    console.error(`tarballs: ${what} failed (${r.error?.message ?? `exit ${r.status}`})`);
    process.exit(r.status || 1);
  }
  return r.stdout;
}

const build = (names) => must(process.execPath, [join(root, 'scripts/build-stale.mjs'), ...names], 'build');

/** Packs the named packages, and returns those whose tarball lacks a file their package.json promises. */
function pack(names) {
  const [pnpm, ...pre] = pnpmCommand();
  const filters = names.flatMap((dir) => ['--filter', `./packages/${dir}`]);
  // Built just above: prepack would build every package again.
  must(
    pnpm,
    [...pre, ...filters, '--config.ignore-scripts=true', 'pack', '--pack-destination', dest],
    'pack',
  );
  return names.filter((dir) => {
    const files = new Set(must('tar', ['-tzf', join(dest, tarball(dir))], 'tar').split('\n'));
    return !promised(manifest(dir)).every((f) => files.has(`package/${f.slice(2)}`));
  });
}

mkdirSync(dest, { recursive: true });
for (const f of readdirSync(dest)) if (/^explorer-.+\.tgz$/.test(f)) rmSync(join(dest, f));
build(dirs);
// Another command in this checkout (npm start builds without declarations) may rebuild a dist meanwhile.
const incomplete = pack(dirs);
if (incomplete.length > 0) {
  build(incomplete);
  const still = pack(incomplete);
  if (still.length > 0) {
    console.error(`tarballs: ${still.join(', ')} packed without every file promised; run it again`);
    process.exit(1);
  }
}
console.log(`tarballs: ${dirs.length} packages in ${dest}`);
for (const dir of dirs) console.log(`  ${tarball(dir)}`);
