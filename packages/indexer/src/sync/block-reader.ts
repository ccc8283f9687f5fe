import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '@explorer/core';
import type { ChainProfile } from '../chains/profile.js';
import type { ParsedBlock } from '../ingest/parse.js';
import type { NodeClient } from '../node-client.js';
import { readBlocks } from './read-blocks.js';
import {
  type ReaderTask,
  type ReaderThreadData,
  reviveFailure,
  type WorkerAnswer,
} from './reader-protocol.js';

/** Reads batches of blocks for the sync, in order. */
export interface BlockReader {
  /**
   * The `count` blocks from height `from`, decoded; `prevHash` is the hash of the block before `from` (null
   * before genesis).
   */
  read(from: number, count: number, prevHash: string | null): Promise<ParsedBlock[]>;
  /** How many threads read blocks (0: the caller's own). */
  readonly threads: number;
  /** Ends the reader threads; a read afterwards starts them again. */
  close(): Promise<void>;
}

/** Options of a block reader. */
export interface BlockReaderOptions {
  node: NodeClient;
  profile: ChainProfile;
  /** Blocks per JSON-RPC batch request: one task of a thread. */
  rpcBatch: number;
  /**
   * Threads that fetch and decode blocks (default: one per core but one, at least one, at most 4). 0, or a
   * node client or profile another thread cannot make again (given as objects), reads in the caller's thread.
   */
  threads?: number;
  /**
   * Most megabytes of a reader thread's long-lived heap (default 128). A task that needs more (blocks far larger
   * than a devnet's, read 25 at a time) is read again on the caller's thread, whose heap is the process's.
   */
  threadHeapMb?: number;
  log: Logger;
}

/** Reader threads by default: the other cores, while this thread builds rows and PostgreSQL writes them. */
export const defaultReaderThreads = () => Math.max(1, Math.min(4, availableParallelism() - 1));

/**
 * Reads blocks through a small pool of worker threads, each with its own node client and chain profile: a batch is
 * cut into tasks of `rpcBatch` blocks, spread over the threads, and put back in order. A thread holds one task
 * at a time, and a sync asks for one batch ahead of the one being prepared, so what is in flight stays within two
 * batches. Blocks cross threads by structured clone.
 * @example const reader = createBlockReader({ node, profile, rpcBatch: 25, log }); await reader.read(0, 100, null);
 */
export function createBlockReader(opts: BlockReaderOptions): BlockReader {
  const { node, profile, rpcBatch, log } = opts;
  const connection = node.connection;
  const wanted = opts.threads ?? defaultReaderThreads();
  const threads = connection && wanted > 0 ? wanted : 0;
  const readInThread = async (from: number, count: number, prevHash: string | null) => {
    const out: ParsedBlock[] = [];
    let prev = prevHash;
    for (let i = 0; i < count; i += rpcBatch) {
      const blocks = await readBlocks(node, profile, from + i, Math.min(rpcBatch, count - i), prev);
      out.push(...blocks);
      prev = blocks[blocks.length - 1]?.hash ?? prev;
    }
    return out;
  };
  if (threads === 0) return { read: readInThread, threads, close: async () => {} };

  const data: ReaderThreadData = { info: profile.info, connection: connection! };
  interface Slot {
    worker: Worker;
    task: { task: ReaderTask; resolve(b: ParsedBlock[]): void; reject(e: Error): void } | null;
  }
  let slots: Slot[] = [];
  const queue: NonNullable<Slot['task']>[] = [];
  let nextId = 1;

  const spawn = (): Slot => {
    const { url, eval: evaluated, execArgv } = workerEntry();
    const worker = new Worker(url, {
      eval: evaluated,
      workerData: data,
      execArgv,
      resourceLimits: { maxOldGenerationSizeMb: opts.threadHeapMb ?? 128 },
    });
    const slot: Slot = { worker, task: null };
    worker.unref();
    worker.on('message', (answer: WorkerAnswer) => {
      for (const line of answer.logs) log[line.level](line.fields, line.msg);
      const t = slot.task;
      slot.task = null;
      if (t && answer.id === t.task.id) {
        if (answer.error) t.reject(reviveFailure(answer.error));
        else t.resolve(answer.blocks);
      }
      dispatch();
    });
    const lost = (err: Error) => {
      slots = slots.filter((s) => s !== slot);
      const t = slot.task;
      slot.task = null;
      const outOfMemory = (err.cause as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
      if (t && outOfMemory) {
        log.warn(
          { from: t.task.from, count: t.task.count, threadHeapMb: opts.threadHeapMb ?? 128 },
          'blocks too large for a reader thread: read on the indexer’s own thread',
        );
        readBlocks(node, profile, t.task.from, t.task.count, t.task.prevHash).then(t.resolve, t.reject);
      } else t?.reject(err);
      dispatch();
    };
    worker.on('error', (err) =>
      lost(new Error(`a block reader thread failed: ${err.message}`, { cause: err })),
    );
    worker.on('exit', (code) => lost(new Error(`a block reader thread ended (exit code ${code})`)));
    return slot;
  };

  /** Hands queued tasks to idle threads, starting threads up to the pool's size. */
  function dispatch() {
    while (queue.length > 0) {
      let slot = slots.find((s) => s.task === null);
      if (!slot && slots.length < threads) {
        slot = spawn();
        slots.push(slot);
      }
      if (!slot) break;
      const t = queue.shift()!;
      slot.task = t;
      // A thread with a task keeps the process alive; an idle one does not.
      slot.worker.ref();
      slot.worker.postMessage(t.task);
    }
    for (const s of slots) if (s.task === null) s.worker.unref();
  }

  const run = (from: number, count: number, prevHash: string | null | undefined) =>
    new Promise<ParsedBlock[]>((resolve, reject) => {
      queue.push({ task: { id: nextId++, from, count, prevHash }, resolve, reject });
      dispatch();
    });

  return {
    threads,
    async read(from, count, prevHash) {
      const parts: Promise<ParsedBlock[]>[] = [];
      for (let i = 0; i < count; i += rpcBatch)
        parts.push(run(from + i, Math.min(rpcBatch, count - i), i === 0 ? prevHash : undefined));
      // Every part settles before the batch does, so that a failed one leaves no thread busy behind the caller.
      const settled = await Promise.allSettled(parts);
      const failed = settled.find((s) => s.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
      return settled.flatMap((s) => (s as PromiseFulfilledResult<ParsedBlock[]>).value);
    },
    async close() {
      const ending = slots;
      slots = [];
      for (const t of queue.splice(0)) t.reject(new Error('the block reader was closed'));
      // Asked to end first, so that a thread ends as a process would (a --cpu-prof profile is written); ended
      // by force when it does not within a second.
      await Promise.all(
        ending.map(async (s) => {
          const ended = new Promise<void>((resolve) => s.worker.once('exit', () => resolve()));
          s.worker.postMessage({ close: true });
          const timer = setTimeout(() => void s.worker.terminate(), 1_000);
          await ended;
          clearTimeout(timer);
        }),
      );
    },
  };
}

/**
 * Where a reader thread's code is: beside the built module (`dist/block-worker.js`, an entry of its own), or,
 * where the indexer runs from its TypeScript source (its tests), the source file and what it imports bundled by
 * esbuild with the workspace's source condition, given to each thread as its code. A thread that loaded the
 * source through a TypeScript loader took two seconds of CPU to start; the bundle is made once per checkout of
 * the sources it holds (kept under the package's node_modules/.cache, made again when one of them changes).
 */
function workerEntry(): { url: URL | string; eval?: true; execArgv: string[] } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { url: new URL('./block-worker.js', here), execArgv: [] };
  sourceBundle ??= bundledSource(new URL('./block-worker.ts', here));
  return { url: sourceBundle, eval: true, execArgv: [] };
}

let sourceBundle: string | undefined;

function bundledSource(entry: URL): string {
  const cache = fileURLToPath(new URL('../../node_modules/.cache/explorer-indexer/', entry));
  const code = join(cache, 'block-worker.cjs');
  const inputs = join(cache, 'block-worker.inputs.json');
  try {
    const known = JSON.parse(readFileSync(inputs, 'utf8')) as Record<string, number>;
    if (Object.entries(known).every(([file, mtime]) => statSync(file).mtimeMs === mtime))
      return readFileSync(code, 'utf8');
  } catch {
    // No bundle yet, or one of its sources is gone: made again below.
  }
  const esbuild = createRequire(entry)('esbuild') as typeof import('esbuild');
  const out = esbuild.buildSync({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    conditions: ['explorer-source'],
    // A native addon stays where it is installed.
    external: ['secp256k1'],
    logLevel: 'silent',
    absWorkingDir: fileURLToPath(new URL('.', entry)),
  });
  const text = out.outputFiles[0]!.text;
  const files: Record<string, number> = {};
  for (const input of Object.keys(out.metafile.inputs)) {
    const file = resolve(fileURLToPath(new URL('.', entry)), input);
    files[file] = statSync(file).mtimeMs;
  }
  // Written beside and renamed, so that a test process reading it at the same time sees all of one or none.
  mkdirSync(cache, { recursive: true });
  const tmp = `${code}.${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, code);
  writeFileSync(`${inputs}.${process.pid}`, JSON.stringify(files));
  renameSync(`${inputs}.${process.pid}`, inputs);
  return text;
}
