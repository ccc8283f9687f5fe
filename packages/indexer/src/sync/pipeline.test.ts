import { describe, expect, it } from 'vitest';
import { ChainMismatchError } from '../ingest/errors.js';
import { type PipelineStages, runPipeline } from './pipeline.js';

interface Block {
  hash: string;
  height: number;
}

/**
 * Stages over heights whose reads, prepares and writes each wait until the test lets them finish, recording
 * when each starts and ends: the order the pipeline runs them in is then what the test says, not timing.
 */
function stages(
  opts: {
    size?: number;
    prepareFails?: (first: number) => Error | null;
    writeFails?: (first: number) => Error | null;
  } = {},
) {
  const log: string[] = [];
  const gates = new Map<string, () => void>();
  const gate = (name: string) =>
    new Promise<void>((resolve) => {
      log.push(`${name} start`);
      gates.set(name, () => {
        log.push(`${name} end`);
        resolve();
      });
    });
  let aborted = false;
  const s: PipelineStages<Block, Block[]> = {
    async read(from, count) {
      await gate(`read ${from}`);
      return Array.from({ length: count }, (_, i) => ({ height: from + i, hash: `h${from + i}` }));
    },
    async prepare(blocks) {
      await gate(`prepare ${blocks[0]!.height}`);
      const e = opts.prepareFails?.(blocks[0]!.height);
      if (e) throw e;
      return blocks;
    },
    async write(prepared) {
      await gate(`write ${prepared[0]!.height}`);
      const e = opts.writeFails?.(prepared[0]!.height);
      if (e) throw e;
    },
    batchSize: () => opts.size ?? 10,
    aborted: () => aborted,
  };
  /** Lets the named step finish, once it has started. */
  const finish = async (name: string) => {
    for (let i = 0; i < 1_000 && !gates.has(name); i++) await new Promise((r) => setImmediate(r));
    const open = gates.get(name);
    if (!open) throw new Error(`${name} never started; so far: ${log.join(', ')}`);
    gates.delete(name);
    open();
    await new Promise((r) => setImmediate(r));
  };
  return { s, log, finish, abort: () => (aborted = true) };
}

describe('runPipeline', () => {
  it('reads batch N+2 and prepares N+1 while N is written, one write at a time, in order', async () => {
    const t = stages();
    const run = runPipeline(t.s, 0, 29, null);
    await t.finish('read 0');
    await t.finish('prepare 0');
    // Batch 0 is being written; batch 1 was read meanwhile and is prepared.
    await t.finish('read 10');
    await t.finish('prepare 10');
    // Batch 1 waits for batch 0's write, while batch 2 is read.
    expect(t.log).toContain('read 20 start');
    expect(t.log).not.toContain('write 10 start');
    await t.finish('write 0');
    await t.finish('read 20');
    await t.finish('prepare 20');
    await t.finish('write 10');
    await t.finish('write 20');
    expect(await run).toEqual({ mismatch: false });
    const writes = t.log.filter((l) => l.startsWith('write'));
    expect(writes).toEqual([
      'write 0 start',
      'write 0 end',
      'write 10 start',
      'write 10 end',
      'write 20 start',
      'write 20 end',
    ]);
    // One batch read ahead of the one being prepared, never two.
    expect(t.log.indexOf('read 20 start')).toBeGreaterThan(t.log.indexOf('read 10 end'));
  });

  it('ends with mismatch when a batch no longer extends the tip, after the write in flight', async () => {
    const t = stages({ prepareFails: (h) => (h === 10 ? new ChainMismatchError('moved') : null) });
    const run = runPipeline(t.s, 0, 29, null);
    await t.finish('read 0');
    await t.finish('prepare 0');
    await t.finish('read 10');
    await t.finish('prepare 10');
    await t.finish('write 0');
    // The read ahead is waited for too: nothing is left running.
    await t.finish('read 20');
    expect(await run).toEqual({ mismatch: true });
    expect(t.log).not.toContain('write 10 start');
  });

  it('lets the write in flight explain a failure first, and throws any other error once nothing runs', async () => {
    const t = stages({ writeFails: (h) => (h === 0 ? new Error('disk full') : null) });
    const run = runPipeline(t.s, 0, 19, null);
    const outcome = run.then(
      () => 'resolved',
      (e: Error) => e.message,
    );
    await t.finish('read 0');
    await t.finish('prepare 0');
    await t.finish('read 10');
    await t.finish('prepare 10');
    await t.finish('write 0');
    expect(await outcome).toBe('disk full');
    expect(t.log).not.toContain('write 10 start');
  });

  it('stops after the batch at hand once aborted, its write finished', async () => {
    const t = stages();
    const run = runPipeline(t.s, 0, 99, null);
    t.abort();
    await t.finish('read 0');
    await t.finish('prepare 0');
    await t.finish('write 0');
    expect(await run).toEqual({ mismatch: false });
    expect(t.log.filter((l) => l.startsWith('read') && l.endsWith('start'))).toEqual(['read 0 start']);
  });

  it('cuts the heights into batches of the size asked, the last one shorter', async () => {
    const reads: [number, number][] = [];
    const r = await runPipeline<Block, Block[]>(
      {
        read: async (from, count) => {
          reads.push([from, count]);
          return Array.from({ length: count }, (_, i) => ({ height: from + i, hash: `h${from + i}` }));
        },
        prepare: async (b) => b,
        write: async () => {},
        batchSize: () => 4,
        aborted: () => false,
      },
      5,
      14,
      'h4',
    );
    expect(r.mismatch).toBe(false);
    expect(reads).toEqual([
      [5, 4],
      [9, 4],
      [13, 2],
    ]);
  });
});
