import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getJson, seedDataDir, TEST_SERVER_SETTINGS, waitFor } from '@explorer/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { startProcess } from '../test-support/processes.js';

// The embedded demo during its first sync: the log says how far it is, a Ctrl-C stops it and says so, and an
// interrupted sync never claims to be synced.

const serverBin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const reason = existsSync(serverBin) ? null : 'the server is not built (run pnpm build)';
if (reason) console.log(`[embedded-sync] ${reason}: test skipped`);

interface LogLine {
  msg: string;
  height?: number;
  nodeHeight?: number;
  blocksPerSecond?: number;
  txPerSecond?: number;
  etaSeconds?: number | null;
  percent?: number;
  startedAt?: string;
  updatedAt?: string;
}

const lines = (out: string): LogLine[] =>
  out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as LogLine);

describe.skipIf(reason !== null)('an embedded initial sync (built server, PGlite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'explorer-embedded-sync-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('logs its progress, stops at the first Ctrl-C saying so, and never says synced when it is not', async () => {
    const server = await startProcess(
      [serverBin, 'start', '--port', '0'],
      {
        EXPLORER_DATA_DIR: await seedDataDir(dir),
        DEVNET_BLOCKS: '3000',
        DEVNET_INTERVAL_MS: '0',
        LOG_LEVEL: 'info',
        ...TEST_SERVER_SETTINGS,
      },
      /listening on (http:\/\/\S+)/,
    );
    try {
      const progress = () => lines(server.output()).filter((l) => l.msg.startsWith('syncing: '));
      await waitFor('two progress lines', async () => progress().length >= 2);
      const [first, second] = progress();
      for (const p of [first!, second!]) {
        expect(p.msg).toMatch(/^syncing: \d+ of 3000 \(\d+\.\d %\), \d+ blocks\/s, \d+ tx\/s, ETA /);
        expect(p.nodeHeight).toBe(3000);
        expect(p.blocksPerSecond).toBeGreaterThan(0);
        expect(p.txPerSecond).toBeGreaterThan(0);
      }
      expect(second!.height).toBeGreaterThan(first!.height!);
      expect(second!.etaSeconds).toBeGreaterThan(0);

      // /v1/status says the same while the sync runs: the figures of a line the indexer logged.
      const url = server.match[1]!;
      const status = await waitFor('/v1/status to show the progress', async () => {
        const s = (await getJson(`${url}/v1/status`)).body?.status;
        return s?.indexer?.progress ? s : null;
      });
      const indexer = status.indexer;
      expect(indexer.state).toBe('syncing');
      // Nothing is degraded, and the answer says what a person wants to know: not ready yet.
      expect({ state: status.state, healthy: status.healthy }).toEqual({ state: 'syncing', healthy: true });
      const line = await waitFor('the log line of that report', async () =>
        progress().find((l) => l.updatedAt === indexer.progress.updatedAt),
      );
      expect(indexer.progress).toEqual({
        height: line.height,
        nodeHeight: 3000,
        percent: line.percent,
        blocksPerSecond: line.blocksPerSecond,
        txPerSecond: line.txPerSecond,
        etaSeconds: line.etaSeconds,
        startedAt: line.startedAt,
        updatedAt: line.updatedAt,
      });
      expect(indexer.tipHeight).toBeGreaterThanOrEqual(line.height!);

      const exited = new Promise<number | null>((resolve) =>
        server.proc.once('exit', (code) => resolve(code)),
      );
      server.proc.kill('SIGINT');
      expect(await exited).toBe(0);
      const out = server.output();
      expect(out).toMatch(/explorer-server: SIGINT: stopping/);
      expect(out).toMatch(/explorer-server: stopped/);
      const states = lines(out)
        .filter((l) => /^indexer \w/.test(l.msg))
        .map((l) => l.msg);
      expect(states).not.toContain('indexer synced');
      expect(states.at(-1)).toBe('indexer syncing');
    } finally {
      server.proc.kill('SIGKILL');
    }
  });
});
