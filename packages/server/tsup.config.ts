import { copyFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

export default defineConfig({
  // bin.ts starts with `#!/usr/bin/env node`, which esbuild keeps on dist/bin.js (and tsup marks it executable).
  entry: ['src/index.ts', 'src/bin.ts'],
  format: ['esm'],
  // Declarations are for publishing; the README's start and test commands skip them to start faster.
  dts: process.env.EXPLORER_SKIP_DTS === '1' ? false : { entry: 'src/index.ts' },
  sourcemap: true,
  clean: true,
  target: 'node20',
  // The file the wallet derivation pool's threads start, beside the bundles (plain JavaScript: the tests that
  // run the server from its source start the same file).
  onSuccess: async () => copyFileSync('src/wallet-worker.js', 'dist/wallet-worker.js'),
});
