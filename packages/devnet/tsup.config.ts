import { defineConfig } from 'tsup';

export default defineConfig({
  // src/bin.ts starts with a `#!/usr/bin/env node` line, which esbuild keeps, so only the CLI gets the banner.
  entry: ['src/index.ts', 'src/bin.ts'],
  format: ['esm'],
  // Declarations are written by scripts/declarations.mjs, one TypeScript program for every package.
  dts: false,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
