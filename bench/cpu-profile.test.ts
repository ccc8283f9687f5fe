import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain script of the benchmarks, without declarations.
import { summarizeProfile } from './cpu-profile.mjs';

describe('summarizeProfile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cpu-profile-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('shares the busy samples between the explorer, libraries, Node, GC and native code, idle (and waiting) left out', () => {
    const frame = (id: number, functionName: string, url: string) => ({
      id,
      callFrame: { functionName, url, lineNumber: 9 },
    });
    const file = join(dir, 'p.cpuprofile');
    writeFileSync(
      file,
      JSON.stringify({
        nodes: [
          frame(1, '(root)', ''),
          frame(2, 'answer', 'file:///x/packages/core/dist/index.js'),
          frame(
            3,
            'parse',
            'file:///x/node_modules/.pnpm/pg-protocol@1.16.1/node_modules/pg-protocol/dist/parser.js',
          ),
          frame(4, 'emit', 'node:events'),
          frame(5, '(garbage collector)', ''),
          frame(6, 'writev', ''),
          frame(7, '(idle)', ''),
          frame(
            8,
            'atomicsWaitLoop',
            'file:///x/node_modules/.pnpm/piscina@5.1.4/node_modules/piscina/dist/worker.js',
          ),
        ],
        samples: [2, 2, 3, 4, 5, 6, 6, 6, 7, 7, 8],
        timeDeltas: [100, 100, 100, 100, 100, 100, 100, 100, 5000, 5000, 9000],
      }),
    );
    const s = summarizeProfile(file);
    expect(s.busyMs).toBe(1);
    expect(s.shares).toEqual({ explorer: 0.25, libraries: 0.125, node: 0.125, gc: 0.125, native: 0.375 });
    expect(s.heaviest.explorer).toEqual([{ name: 'answer core:10', share: 0.25 }]);
    expect(s.heaviest.libraries[0].name).toBe('parse pg-protocol:10');
  });
});
