import { silentLogger } from '@explorer/core';
import { createDevnet } from '@explorer/devnet';
import { afterAll, describe, expect, it } from 'vitest';
import { detectChain } from '../chains/detect.js';
import { MalformedBlockError } from '../ingest/errors.js';
import type { ParsedBlock } from '../ingest/parse.js';
import { createNodeClient, NodeRpcError, NodeUnavailableError } from '../node-client.js';
import { type BlockReader, createBlockReader } from './block-reader.js';

/** Blocks as text, bytes as hex (a thread's bytes arrive as Uint8Array, this thread's are Buffers). */
const text = (blocks: ParsedBlock[]) =>
  JSON.stringify(blocks, (_k, v) =>
    typeof v === 'bigint'
      ? `${v}n`
      : v instanceof Uint8Array
        ? Buffer.from(v).toString('hex')
        : v?.type === 'Buffer' && Array.isArray(v.data) // a Buffer, as its toJSON gives it
          ? Buffer.from(v.data).toString('hex')
          : v,
  );

// Reader threads run the indexer's source here (bundled by esbuild), as they load dist/block-worker.js in a
// build; the packaging test runs the built ones from the published tarball.
describe.each(['pearl', 'bitcoin'] as const)('block reader threads (%s devnet)', (dialect) => {
  const devnet = createDevnet({
    seed: `reader-${dialect}`,
    blocks: 60,
    txPerBlock: 4,
    coinbaseMaturity: 5,
    dialect,
  });
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of closers.reverse()) await c();
  });

  async function readers(threads: number) {
    const server = await devnet.listen({ port: 0 });
    closers.push(server.close);
    const node = createNodeClient({ url: server.url, attempts: 1 });
    const profile = await detectChain(node);
    const make = (n: number, threadHeapMb?: number, log = silentLogger): BlockReader => {
      const r = createBlockReader({ node, profile, rpcBatch: 7, threads: n, threadHeapMb, log });
      closers.push(() => r.close());
      return r;
    };
    return { threaded: make(threads), inThread: make(0), server, make };
  }

  it('reads on its own thread what a reader thread has no room for', async () => {
    const { make, inThread } = await readers(1);
    // A heap too small to hold a task's blocks: the thread runs out of memory on its first task.
    const warned: string[] = [];
    const starved = make(1, 1, { ...silentLogger, warn: (_fields, msg) => warned.push(msg) });
    const [a, b] = await Promise.all([starved.read(0, 40, null), inThread.read(0, 40, null)]);
    expect(text(a)).toBe(text(b));
    expect(warned[0]).toMatch(/too large for a reader thread/);
  });

  it('reads the same blocks as the writer’s own thread would, in order, across tasks and threads', async () => {
    const { threaded, inThread } = await readers(2);
    expect(threaded.threads).toBe(2);
    expect(inThread.threads).toBe(0);
    const [a, b] = await Promise.all([threaded.read(0, 61, null), inThread.read(0, 61, null)]);
    expect(a.map((x) => x.height)).toEqual(Array.from({ length: 61 }, (_, i) => i));
    expect(text(a)).toBe(text(b));
    // A batch that starts mid-chain: its first task is given the parent's hash, the others ask for theirs.
    const mid = await threaded.read(20, 30, a[19]!.hash);
    expect(text(mid)).toBe(text(a.slice(20, 50)));
  });

  it('fails a read with the error class the indexer tells states by, and reads again afterwards', async () => {
    const { threaded, server } = await readers(1);
    // A height the node does not have: its RPC error, as raised in the thread.
    await expect(threaded.read(devnet.height() + 5, 3, null)).rejects.toBeInstanceOf(NodeRpcError);
    await expect(threaded.read(0, 3, null)).resolves.toHaveLength(3);
    await server.close();
    await expect(threaded.read(0, 3, null)).rejects.toBeInstanceOf(NodeUnavailableError);
  });

  it.runIf(dialect === 'pearl')('checks checkpoints: a node on another chain is refused', async () => {
    const server = await devnet.listen({ port: 0 });
    closers.push(server.close);
    const node = createNodeClient({ url: server.url });
    const profile = await detectChain(node);
    // A profile pinning a hash the node does not serve (readBlocks checks it on whichever thread reads).
    const pinned = { ...profile, checkpoint: (h: number) => (h === 2 ? '00'.repeat(32) : undefined) };
    const inThread = createBlockReader({ node, profile: pinned, rpcBatch: 7, threads: 0, log: silentLogger });
    await expect(inThread.read(0, 5, null)).rejects.toBeInstanceOf(MalformedBlockError);
  });
});
