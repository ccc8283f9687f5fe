import { copyFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

export default defineConfig({
  // bin.ts starts with `#!/usr/bin/env node`, which esbuild keeps on dist/bin.js (and tsup marks it executable).
  entry: ['src/index.ts', 'src/bin.ts'],
  format: ['esm'],
  // Declarations are written by scripts/declarations.mjs, one TypeScript program for every package.
  dts: false,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // The file the wallet derivation pool's threads start, beside the bundles (plain JavaScript: the tests that
  // run the server from its source start the same file).
  onSuccess: async () => copyFileSync('src/wallet-worker.js', 'dist/wallet-worker.js'),
});
