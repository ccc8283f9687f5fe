import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Test files that run in a process of their own: they observe the process (the modules it loaded, its heap), or
 * replace a module for the whole file (vi.mock).
 */
const ISOLATED = ['packages/server/src/runtime/demo.test.ts', 'packages/server/src/events/hub.test.ts'];
const TESTS = ['packages/*/src/**/*.test.ts', 'examples/**/*.test.ts', 'bench/**/*.test.ts'];

/**
 * The longest files first, so that the two workers end together. Vitest orders by the durations of the last
 * run; a checkout that has none (a clean clone, as CI runs) would keep the files' alphabetical order, and a
 * file of minutes could start last. Without durations, a file's size stands for its length, four times over
 * for a file that starts processes or servers (servers, nodes, a served devnet, the built CLI).
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const known = files.every((f) =>
      this.ctx.cache.getFileTestResults(`${f.project.name}:${relative(root, f.moduleId)}`),
    );
    if (known) return super.sort(files);
    const weight = (f: TestSpecification) => {
      const source = readFileSync(f.moduleId, 'utf8');
      const processes = /\bspawn\(|startProcess\(|dist\/bin\.js|\.listen\(\{|serveDevnet\(/.test(source);
      return source.length * (processes ? 4 : 1);
    };
    const weights = new Map(files.map((f) => [f, weight(f)]));
    return [...files].sort((a, b) => weights.get(b)! - weights.get(a)!);
  }
}

export default defineConfig({
  resolve: {
    // Tests read each workspace package from its source, so they need no build step (the examples are
    // resolved as they declare themselves).
    alias: [{ find: /^@explorer\/(?!example-)([a-z-]+)$/, replacement: `${root}packages/$1/src/index.ts` }],
  },
  test: {
    // Safety nets, not measures: a test waits on progress (a block indexed, a line printed), and these only end
    // one that is stuck. They are long so that the suite passes on a machine whose cores are busy with other
    // work; no test asserts how long anything took.
    testTimeout: 600_000,
    hookTimeout: 900_000,
    pool: 'forks',
    // Servers the tests start as child processes inherit this: without it every one would try the default
    // metrics port (9464) and all but the first would warn. Tests of the metrics set METRICS_PORT themselves.
    env: { METRICS_PORT: 'off' },
    // One worker per core (a run with one worker, vitest's default on two cores, kept the machine about half
    // idle). More do not help: the suite keeps both cores busy (twelve files of servers and syncs: 190 s with
    // two workers, 220 s with four).
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: LongestFirst },
    // A worker runs file after file in one process, its modules loaded once (a new process per file cost about
    // 2 s of a core each: Node, vitest and the workspace's sources loaded again, 176 times). Each file closes
    // what it opens; the few that observe the process itself (which modules it loaded, its heap) get one each.
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
      {
        extends: true,
        test: {
          name: 'shared',
          include: TESTS,
          exclude: [...configDefaults.exclude, ...ISOLATED],
          isolate: false,
        },
      },
    ],
  },
});
