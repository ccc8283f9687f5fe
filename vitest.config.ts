import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  resolve: {
    // Tests read each workspace package from its source, so they need no build step (the examples are
    // resolved as they declare themselves).
    alias: [{ find: /^@explorer\/(?!example-)([a-z-]+)$/, replacement: `${root}packages/$1/src/index.ts` }],
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'examples/**/*.test.ts', 'bench/**/*.test.ts'],
    // Safety nets, not measures: a test waits on progress (a block indexed, a line printed), and these only end
    // one that is stuck. They are long so that the suite passes on a machine whose cores are busy with other
    // work; no test asserts how long anything took.
    testTimeout: 600_000,
    hookTimeout: 900_000,
    pool: 'forks',
    // Servers the tests start as child processes inherit this: without it every one would try the default
    // metrics port (9464) and all but the first would warn. Tests of the metrics set METRICS_PORT themselves.
    env: { METRICS_PORT: 'off' },
    // One worker per core: the suite mostly waits on PostgreSQL, child processes and sockets (a run with one
    // worker, vitest's default on two cores, kept the machine about half idle).
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
