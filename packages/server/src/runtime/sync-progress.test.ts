import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDevnet } from '@explorer/devnet';
import { getJson, seedDataDir, TEST_SERVER_SETTINGS, waitFor } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A person who runs the explorer on a terminal sees the sync's progress without asking for it: `npm start`
// runs the server with its log at `warn` (scripts/run.mjs), which hides the indexer's info lines, so the server
// writes its progress to stderr when stderr is a terminal. A real pseudo-terminal (util-linux `script`) stands
// where the person would.

const serverBin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const hasScript = spawnSync('script', ['--version']).status === 0;
const reason = !existsSync(serverBin)
  ? 'the server is not built (run pnpm build)'
  : hasScript
    ? null
    : 'no `script` (util-linux) to give the server a terminal';
if (reason) console.log(`[sync progress] ${reason}: test skipped`);

const root = mkdtempSync(join(tmpdir(), 'explorer-sync-progress-'));
const running: ChildProcess[] = [];

/** Runs `explorer-server <args>`, on a pseudo-terminal when `terminal`; what it printed, as it comes. */
function run(args: string[], env: Record<string, string>, terminal: boolean) {
  const command = [process.execPath, serverBin, ...args].map((a) => `'${a}'`).join(' ');
  const proc = terminal
    ? spawn('script', ['-q', '-e', '-f', '-c', command, '/dev/null'], {
        env: { ...process.env, ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      })
    : spawn(process.execPath, [serverBin, ...args], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
  running.push(proc);
  let out = '';
  proc.stdout?.on('data', (d) => {
    out += d;
  });
  proc.stderr?.on('data', (d) => {
    out += d;
  });
  return {
    output: () => out.replace(/\r/g, ''),
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        proc.once('exit', () => resolve());
        process.kill(-proc.pid!, 'SIGTERM');
      }),
  };
}

describe.skipIf(reason !== null)('the sync’s progress on a terminal (built server)', () => {
  let nodeUrl: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const devnet = createDevnet({ seed: 'progress', blocks: 60, txPerBlock: 8, coinbaseMaturity: 5 });
    const s = await devnet.listen({ port: 0 });
    nodeUrl = s.url;
    close = s.close;
  });
  afterAll(async () => {
    for (const p of running)
      if (p.exitCode === null && p.signalCode === null) process.kill(-p.pid!, 'SIGKILL');
    await close?.();
    rmSync(root, { recursive: true, force: true });
  });

  const env = async (name: string) => ({
    ...TEST_SERVER_SETTINGS,
    NODE_RPC_URL: nodeUrl,
    EXPLORER_DATA_DIR: await seedDataDir(join(root, name)),
    // What `npm start` sets.
    LOG_LEVEL: 'warn',
  });
  const progress =
    /explorer-server: syncing: \d+ of 60 \(\d+\.\d %\), \d+ blocks\/s, \d+ tx\/s, ETA (unknown|\d)/;
  const synced = 'explorer-server: synced: the index reached the node at height 60';

  it.each([
    ['start', ['start', '--port', '0']],
    ['index', ['index']],
  ])('%s shows height, rate and ETA, then says when the index reached the node', async (name, args) => {
    const server = run(args, await env(name), true);
    try {
      await waitFor('the index to reach the node', async () => server.output().includes(synced));
      expect(server.output()).toMatch(progress);
      // One line per report, not a flood: the indexer renews its figures every 5 s.
      expect(server.output().split(synced)).toHaveLength(2);
    } finally {
      await server.stop();
    }
  });

  it('writes nothing of the kind where no person watches (stderr not a terminal)', async () => {
    const server = run(['start', '--port', '0'], await env('piped'), false);
    try {
      const url = await waitFor(
        'the server to listen',
        async () => /listening on (\S+)/.exec(server.output())?.[1],
      );
      await waitFor('the same sync to reach the node', async () => {
        const s = (await getJson(`${url}/v1/status`)).body.status.indexer;
        return s.state === 'synced' && s.tipHeight === 60;
      });
    } finally {
      await server.stop();
    }
    expect(server.output()).not.toMatch(/explorer-server: sync/);
  });
});
