// What is out of date in a checkout, for the scripts that install and build only when they must.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root directory. */
export const root = fileURLToPath(new URL('..', import.meta.url));

/** The workspace packages under packages/ that are built (directory names); private test packages are not. */
export const packageDirs = () =>
  readdirSync(join(root, 'packages')).filter((d) => {
    const manifest = join(root, 'packages', d, 'package.json');
    return existsSync(manifest) && Boolean(JSON.parse(readFileSync(manifest, 'utf8')).scripts?.build);
  });

/** The packages under packages/ that are published (directory names): every one not marked private. */
export const publishedDirs = () =>
  readdirSync(join(root, 'packages')).filter((d) => {
    const manifest = join(root, 'packages', d, 'package.json');
    return existsSync(manifest) && !JSON.parse(readFileSync(manifest, 'utf8')).private;
  });

/** The files a package's package.json promises from dist/: main, types, bin, and every export condition. */
export function promised(pkg) {
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

/**
 * Whether a package's dist/ must be built again: a promised file is missing (declaration files only when
 * `declarations` is set), or a source, its package.json or its build config is newer than the oldest of them.
 */
export function isStale(name, { declarations = true } = {}) {
  const dir = join(root, 'packages', name);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const built = promised(pkg)
    .filter((f) => declarations || !f.endsWith('.d.ts'))
    .map((f) => join(dir, f));
  if (built.length === 0 || !built.every((f) => existsSync(f))) return true;
  const since = Math.min(...built.map((f) => statSync(f).mtimeMs));
  const inputs = [
    'package.json',
    'tsup.config.ts',
    ...readdirSync(join(dir, 'src'), { recursive: true })
      .map(String)
      .filter((f) => !f.endsWith('.test.ts') && !f.includes('test-support'))
      .map((f) => join('src', f)),
  ];
  return inputs.some((f) => existsSync(join(dir, f)) && statSync(join(dir, f)).mtimeMs > since);
}

/** Whether `pnpm install` has work to do: no install yet, or a manifest or the lockfile changed since. */
export function installNeeded() {
  const marker = join(root, 'node_modules', '.modules.yaml');
  if (!existsSync(marker)) return true;
  const since = statSync(marker).mtimeMs;
  const manifests = [
    'package.json',
    'pnpm-lock.yaml',
    'pnpm-workspace.yaml',
    ...['packages', 'examples'].flatMap((group) =>
      readdirSync(join(root, group)).map((d) => join(group, d, 'package.json')),
    ),
  ];
  return manifests.some((f) => existsSync(join(root, f)) && statSync(join(root, f)).mtimeMs > since);
}
