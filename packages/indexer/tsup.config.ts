import { defineConfig } from 'tsup';

export default defineConfig({
  // The block reader thread is an entry of its own: dist/block-worker.js, beside the index that starts it.
  entry: { index: 'src/index.ts', 'block-worker': 'src/sync/block-worker.ts' },
  format: ['esm'],
  // Declarations are for publishing; the README's start and test commands skip them to start faster.
  dts: process.env.EXPLORER_SKIP_DTS === '1' ? false : { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
