import { defineConfig } from 'tsup';

export default defineConfig({
  // The block reader thread is an entry of its own: dist/block-worker.js, beside the index that starts it.
  entry: { index: 'src/index.ts', 'block-worker': 'src/sync/block-worker.ts' },
  format: ['esm'],
  // Declarations are written by scripts/declarations.mjs, one TypeScript program for every package.
  dts: false,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
