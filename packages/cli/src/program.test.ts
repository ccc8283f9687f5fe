import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { CliIo } from './context.js';
import { createProgram, runCli } from './program.js';

function memoryIo(): CliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (s: string) => (out += s), isTTY: false },
    stderr: { write: (s: string) => (err += s), isTTY: false },
    env: {},
    signal: new AbortController().signal,
    fetch: () => Promise.reject(new Error('no network in this test')),
    out: () => out,
    err: () => err,
  };
}

/** Every runnable command path: `blocks`, `miners top` … */
function leaves(cmd: Command, prefix: string[] = []): string[][] {
  return cmd.commands.flatMap((c) =>
    c.commands.length > 0 ? leaves(c, [...prefix, c.name()]) : [[...prefix, c.name()]],
  );
}

describe('the explorer program', () => {
  const paths = leaves(createProgram(memoryIo()));

  it('has every command of the brief', () => {
    expect(paths.map((p) => p.join(' ')).sort()).toEqual(
      [
        'address',
        'addresses',
        'analytics',
        'block',
        'blocks',
        'completion',
        'fees',
        'labels',
        'market',
        'me',
        'mempool',
        'miner',
        'miners top',
        'pool',
        'pools top',
        'search',
        'status',
        'suggest',
        'tx',
        'txs',
        'wallet',
        'watch address',
        'watch blocks',
        'watch mempool',
        'watch reorgs',
      ].sort(),
    );
  });

  it.each(paths)('%s --help exits 0 and shows an example and the exit codes', async (...path) => {
    const io = memoryIo();
    expect(await runCli([...path, '--help'], io)).toBe(0);
    expect(io.out()).toMatch(new RegExp(`Examples?:\\n  \\$ .*explorer ${path.join(' ')}`));
    expect(io.out()).toContain('JSON (the answer without ok/meta) when stdout is not a terminal');
    expect(io.out()).toContain('Exit codes: 0 ok');
  });

  it('reports a network failure as exit 8 with one error line', async () => {
    const io = memoryIo();
    expect(await runCli(['status'], io)).toBe(8);
    expect(io.err()).toBe(
      'error: could not reach http://127.0.0.1:3000/v1/status: no network in this test\n',
    );
  });
});
