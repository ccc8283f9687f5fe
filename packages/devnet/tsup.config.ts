import { defineConfig } from 'tsup';

export default defineConfig({
  // src/bin.ts starts with a `#!/usr/bin/env node` line, which esbuild keeps, so only the CLI gets the banner.
  entry: ['src/index.ts', 'src/bin.ts'],
  format: ['esm'],
  // Declarations are for publishing; the README's start and test commands skip them to start faster.
  dts: process.env.EXPLORER_SKIP_DTS !== '1',
  sourcemap: true,
  clean: true,
  target: 'node20',
});
