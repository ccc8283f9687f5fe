import { defineConfig } from 'tsup';

export default defineConfig({
  // bin.ts starts with `#!/usr/bin/env node`, which esbuild keeps on dist/bin.js (and tsup marks it executable).
  // wallet-worker.js is the file the wallet derivation pool's threads start, beside the bundles.
  entry: ['src/index.ts', 'src/bin.ts', 'src/wallet-worker.js'],
  format: ['esm'],
  // Declarations are for publishing; the README's start and test commands skip them to start faster.
  dts: process.env.EXPLORER_SKIP_DTS === '1' ? false : { entry: 'src/index.ts' },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
