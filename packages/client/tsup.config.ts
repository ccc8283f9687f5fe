import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  // Declarations are written by scripts/declarations.mjs, one TypeScript program for every package.
  dts: false,
  sourcemap: true,
  clean: true,
  // One bundle for browsers and Node ≥ 20: no Node built-ins, ES2022 syntax; ky stays a dependency.
  platform: 'neutral',
  target: 'es2022',
});
