import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  // Declarations are for publishing; the README's start and test commands skip them to start faster.
  dts: process.env.EXPLORER_SKIP_DTS !== '1',
  sourcemap: true,
  clean: true,
  // One bundle for browsers and Node ≥ 20: no Node built-ins, ES2022 syntax; ky stays a dependency.
  platform: 'neutral',
  target: 'es2022',
});
