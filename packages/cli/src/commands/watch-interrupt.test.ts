import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChainEvent, createExplorerClient } from '@explorer/client';
import {
  collectGarbage,
  type Started,
  seedDataDir,
  startProcess,
  stopProcess,
  TEST_SERVER_SETTINGS,
  waitFor,
} from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `explorer watch` and the SDK's subscription, interrupted after a stretch of live events from the built server
// (embedded PGlite, the devnet mining a block every 250 ms) during which the garbage collector ran in both
// processes over and over: a collection once left the stream deaf to Ctrl-C. A full collection is forced every
// 250 ms in each (the CLI with --expose-gc and a timer loaded before it, this process through collectGarbage), so
// that 15 s hold some sixty of them in each. Nothing here waits a fixed time or
// bounds one: it waits for progress (the stretch passed and an event arrived after it) and checks what the
// processes did.

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const CLI = join(root, 'packages/cli/dist/bin.js');
const SERVER = join(root, 'packages/server/dist/bin.js');
/** How long the watch runs before Ctrl-C. */
const RUN_MS = 15_000;
/** How often each process collects its garbage meanwhile. */
const GC_EVERY_MS = 250;
/** How long anything may take before the test gives up: far past what a loaded machine needs. */
const SAFETY_MS = 120_000;

let reason: string | null = null;
try {
  execFileSync(
    process.execPath,
    [join(root, 'scripts/build-stale.mjs'), 'cli', 'client', '--no-declarations'],
    {
      cwd: root,
      stdio: 'pipe',
    },
  );
  if (!existsSync(SERVER)) reason = 'the server is not built (run pnpm build)';
} catch (err) {
  reason = `the build failed: ${(err as Error).message}`;
}
if (reason) console.warn(`[watch-interrupt] skipped: ${reason}`);

const dataDir = mkdtempSync(join(tmpdir(), 'explorer-watch-interrupt-'));

/** The built CLI's `watch blocks --json`, its output as it grows, and its exit. */
function watch(baseUrl: string) {
  const { EXPLORER_API_KEY: _key, ...env } = process.env;
  const collecting = `data:text/javascript,setInterval(() => gc(), ${GC_EVERY_MS}).unref()`;
  const args = ['--expose-gc', `--import=${collecting}`, CLI, 'watch', 'blocks', '--json'];
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...env, EXPLORER_BASE_URL: baseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '', arrivals: [] as number[] };
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out.stdout += d;
    for (const _line of d.split('\n').slice(0, -1)) out.arrivals.push(Date.now());
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    out.stderr += d;
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, out, exit };
}

/** Resolves with `p`, or rejects naming `what` once `SAFETY_MS` passed: a hang fails rather than stalls. */
function within<T>(what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen`)), SAFETY_MS);
  });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

describe.skipIf(reason !== null)(
  'Ctrl-C after live events and many garbage collections (built CLI and server, PGlite, devnet)',
  () => {
    let server: Started | undefined;
    let url: string;
    /** The watch under test: killed outright if a failure left it running. */
    let watcher: ChildProcess | undefined;

    beforeAll(async () => {
      server = await startProcess(
        [SERVER, 'start', '--port', '0'],
        {
          EXPLORER_DATA_DIR: await seedDataDir(dataDir),
          DEVNET_BLOCKS: '10',
          DEVNET_TX_PER_BLOCK: '2',
          DEVNET_INTERVAL_MS: '250',
          INDEXER_POLL_MS: '50',
          ...TEST_SERVER_SETTINGS,
          LOG_LEVEL: 'warn',
        },
        /listening on (http:\/\/\S+)/,
      );
      url = server.match[1]!;
      const client = createExplorerClient({ baseUrl: url });
      await waitFor(
        'the index to follow the devnet',
        async () => (await client.blocks.list({ limit: 1 })).blocks[0]!.height > 10,
        SAFETY_MS,
      );
    }, SAFETY_MS * 2);

    afterAll(async () => {
      if (watcher && watcher.exitCode === null && watcher.signalCode === null) watcher.kill('SIGKILL');
      await stopProcess(server?.proc);
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('npm run explorer -- watch, stopped by Ctrl-C in a terminal, exits 0 as the direct command does', async () => {
      // A terminal's Ctrl-C signals the whole foreground process group: npm, the shell it runs the script in,
      // and the command line. The shell (dash) exited 130 on it, whatever the command line did.
      const { EXPLORER_API_KEY: _key, ...env } = process.env;
      const npm = spawn('npm', ['run', '-s', 'explorer', '--', 'watch', 'blocks', '--json'], {
        cwd: root,
        env: { ...env, EXPLORER_BASE_URL: url },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      watcher = npm;
      let stdout = '';
      npm.stdout!.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
      });
      const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        npm.on('close', (code, signal) => resolve({ code, signal })),
      );
      await waitFor('a live event through npm run', async () => stdout.includes('\n'), SAFETY_MS);
      process.kill(-npm.pid!, 'SIGINT');
      expect(await within('the exit of npm run after Ctrl-C', exit)).toEqual({ code: 0, signal: null });
    });

    it('explorer watch and client.events.subscribe stop at the first SIGINT: exit 0, the resume line, nothing after it', async () => {
      const started = Date.now();
      const cli = watch(url);
      watcher = cli.child;

      // The SDK in this process, alongside: its signal must end the iteration just as promptly.
      const sdk = new AbortController();
      const sdkEvents: ChainEvent[] = [];
      const sdkDone = (async () => {
        const client = createExplorerClient({ baseUrl: url });
        for await (const e of client.events.subscribe({ signal: sdk.signal })) sdkEvents.push(e);
      })();

      // The stretch of events, collecting all along, then Ctrl-C right after one arrives: the stream is flowing
      // when it is interrupted.
      const collector = setInterval(() => void collectGarbage(), GC_EVERY_MS);
      try {
        await waitFor(
          'the stretch of events',
          async () => {
            const last = cli.out.arrivals.at(-1);
            return last !== undefined && last - started >= RUN_MS && sdkEvents.length > 0;
          },
          RUN_MS + SAFETY_MS,
        );
      } finally {
        // The worker's process runs other files after this one.
        clearInterval(collector);
      }
      const printedBefore = cli.out.arrivals.length;
      const sdkBefore = sdkEvents.length;
      cli.child.kill('SIGINT');
      sdk.abort();

      const { code, signal } = await within('the exit after one SIGINT', cli.exit);
      await within('the end of the SDK iteration', sdkDone);

      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(printedBefore).toBeGreaterThan(20);
      const resume = /^stopped; resume with --from (\d+)$/m.exec(cli.out.stderr);
      expect(cli.out.stderr, 'the resume line, and nothing else on stderr').toBe(`${resume?.[0]}\n`);
      // Every line printed, including any already on its way when the signal came, is at or before the id to
      // resume from; the last one is that id: no event was printed after the stop took effect.
      const ids = cli.out.stdout
        .split('\n')
        .filter((l) => l.length > 0)
        .map((l) => BigInt((JSON.parse(l) as ChainEvent).id));
      expect(ids.at(-1)).toBe(BigInt(resume![1]!));
      expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
      // The SDK yields nothing once its signal has aborted, not even what was already read.
      expect(sdkEvents).toHaveLength(sdkBefore);

      // Events went on after the stop: resuming from the line's id gets the next ones.
      const client = createExplorerClient({ baseUrl: url });
      const next: ChainEvent[] = [];
      for await (const e of client.events.subscribe({ lastEventId: resume![1]! })) {
        next.push(e);
        if (next.length === 2) break;
      }
      expect(BigInt(next[0]!.id)).toBeGreaterThan(BigInt(resume![1]!));
    });
  },
);
