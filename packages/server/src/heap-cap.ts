import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

/**
 * Megabytes of V8's old generation (the heap's long-lived part) that the long-running commands get by default.
 * Left to Node's defaults (a quarter of the machine's memory, up to 4 GiB) V8 lets an initial sync's garbage fill
 * the heap between full collections, so the process grew to 0.6–2.9 GB; the live set is far smaller
 * (docs/operations.md#indexer-memory). `start` also holds the API's caches.
 */
export const HEAP_CAP_MB = { index: 384, start: 768 } as const;

/** The signals a capped command is told of, as it would be if it ran on the process's own thread. */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Whether Node was told a heap size already (a flag, or NODE_OPTIONS): the operator's choice is kept. */
export function heapSizeGiven(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  return [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].some((a) =>
    /^--max[-_]old[-_]space[-_]size\b/.test(a),
  );
}

/**
 * The heap cap the command in `args` (the arguments after the script) runs under by default: `start` and `index`
 * have one unless Node was told a heap size; other commands, and a process run otherwise, have none (null).
 */
export function heapCapFor(
  args: readonly string[],
  execArgv: readonly string[],
  nodeOptions: string | undefined,
): number | null {
  const command = args.find((a) => !a.startsWith('-'));
  if (command !== 'start' && command !== 'index') return null;
  return heapSizeGiven(execArgv, nodeOptions) ? null : HEAP_CAP_MB[command];
}

/** What a capped command's thread is given. */
interface CappedData {
  argv: string[];
  capMb: number;
}

/**
 * Runs `main` (the script at `script`, this module's caller) on a thread of this process whose old generation is
 * capped at `capMb`: the same process (its pid, its signals, its exit code, its output), with a heap that V8
 * bounds. A thread over its cap ends the process with a message that says so, as V8's "heap out of memory" would.
 * @example if (cap !== null) await runUnderHeapCap(new URL(import.meta.url), cap);
 */
export function runUnderHeapCap(script: URL, capMb: number): Promise<void> {
  const data: CappedData = { argv: process.argv, capMb };
  const thread = new Worker(script, { workerData: data, resourceLimits: { maxOldGenerationSizeMb: capMb } });
  // The command answers a first signal by stopping and a second by exiting at once; a thread too busy to hear
  // them (a loop that never yields) is ended from here: at a third signal, or 10 s after the second.
  let signals = 0;
  const force = (signal: string) => {
    process.stderr.write(`explorer-server: ${signal}: the command did not stop; exiting\n`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  for (const signal of SIGNALS)
    process.on(signal, () => {
      signals++;
      if (signals >= 3) force(signal);
      if (signals === 2) setTimeout(() => force(signal), 10_000).unref();
      thread.postMessage({ signal });
    });
  thread.on('message', (m: { unhandled?: string }) => {
    // The command does not handle that signal: it ends the process, as it would have.
    if (!m.unhandled) return;
    process.removeAllListeners(m.unhandled);
    process.kill(process.pid, m.unhandled);
  });
  return new Promise<void>(() => {
    thread.on('error', (err: Error & { code?: string }) => {
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY')
        process.stderr.write(
          `explorer-server: out of memory: the heap reached its cap of ${capMb} MiB; give it more with NODE_OPTIONS=--max-old-space-size=<MiB> (docs/operations.md#indexer-memory)\n`,
        );
      else process.stderr.write(`${err.stack ?? err}\n`);
      process.exit(1);
    });
    thread.on('exit', (code) => process.exit(code));
  });
}

/**
 * On a capped command's thread: its arguments (as `process.argv` would hold them), with signals relayed from
 * the process's thread; null on the process's own thread.
 */
export function cappedThreadArgv(): string[] | null {
  if (isMainThread || !(workerData as CappedData | undefined)?.argv) return null;
  const port = parentPort!;
  port.on('message', (m: { signal?: string }) => {
    if (!m.signal) return;
    if (process.listenerCount(m.signal) > 0)
      process.emit(m.signal as NodeJS.Signals, m.signal as NodeJS.Signals);
    else port.postMessage({ unhandled: m.signal });
  });
  // Relaying signals must not keep the thread alive once the command is done.
  port.unref();
  return (workerData as CappedData).argv;
}
