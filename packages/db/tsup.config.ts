import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  // Declarations are written by scripts/declarations.mjs, one TypeScript program for every package.
  dts: false,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
