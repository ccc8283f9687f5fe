import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDevnet } from '@explorer/devnet';
import { scratchDatabase, seedDataDir, TEST_SERVER_SETTINGS } from '@explorer/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { HEAP_CAP_MB, heapCapFor } from './heap-cap.js';
import { type Started, startProcess, stopProcess } from './test-support/processes.js';

// `start` and `index` run with V8's old generation capped unless Node was told a heap size: read from the
// running process's own metrics (V8's heap size limit on the thread that serves), against Node's default on
// this machine, which is several times larger.

const serverBin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const built = existsSync(serverBin) ? null : 'the server is not built (run pnpm build)';
if (built) console.log(`[heap-cap] ${built}: test skipped`);
const MiB = 2 ** 20;

describe('the heap cap of the long-running commands', () => {
  it('applies to start and index, unless Node was given a heap size', () => {
    expect(heapCapFor(['start', '--port', '0'], [], undefined)).toBe(HEAP_CAP_MB.start);
    expect(heapCapFor(['index'], [], '--enable-source-maps')).toBe(HEAP_CAP_MB.index);
    expect(heapCapFor(['migrate'], [], undefined)).toBeNull();
    expect(heapCapFor(['keys', 'create'], [], undefined)).toBeNull();
    expect(heapCapFor(['index'], [], '--max-old-space-size=1024')).toBeNull();
    expect(heapCapFor(['start'], ['--max_old_space_size=200'], undefined)).toBeNull();
  });
});

describe.skipIf(built !== null)('the heap limit of the running server (built server)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'explorer-heap-'));
  const running: Started[] = [];
  afterAll(async () => {
    for (const p of running) await stopProcess(p.proc);
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts the built server and reads V8's heap size limit from its metrics, in MiB. */
  async function heapLimitOf(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
    const started = await startProcess(
      [serverBin, ...args],
      { ...TEST_SERVER_SETTINGS, LOG_LEVEL: 'info', METRICS_PORT: '0', ...env },
      /metrics listening on (http:\/\/[0-9.:]+)/,
    );
    running.push(started);
    const text = await (await fetch(`${started.match[1]}/metrics`)).text();
    const m = /^explorer_heap_limit_bytes (\d+)/m.exec(text);
    expect(m, text.slice(0, 500)).not.toBeNull();
    return Number(m![1]) / MiB;
  }

  const embedded = async (name: string) => ({
    EXPLORER_DATA_DIR: await seedDataDir(join(dir, name)),
    DEVNET_BLOCKS: '10',
    DEVNET_INTERVAL_MS: '0',
  });

  it('explorer-server start (the embedded demo, as npm start runs it) runs under its cap', async () => {
    const limit = await heapLimitOf(['start', '--port', '0'], await embedded('start'));
    // The old generation's cap, and the young generation on top of it.
    expect(limit).toBeGreaterThanOrEqual(HEAP_CAP_MB.start);
    expect(limit).toBeLessThan(HEAP_CAP_MB.start + 128);
  });

  it('an operator’s NODE_OPTIONS heap size is kept as given', async () => {
    const limit = await heapLimitOf(['start', '--port', '0'], {
      ...(await embedded('operator')),
      NODE_OPTIONS: '--max-old-space-size=1500',
    });
    expect(limit).toBeGreaterThanOrEqual(1500);
    expect(limit).toBeLessThan(1500 + 128);
  });

  if (!process.env.TEST_DATABASE_URL)
    console.log('[heap-cap] TEST_DATABASE_URL is not set: the index command’s case is skipped');
  it.skipIf(!process.env.TEST_DATABASE_URL)('explorer-server index runs under its cap', async () => {
    const devnet = createDevnet({ seed: 'heap-cap', blocks: 10, txPerBlock: 2, coinbaseMaturity: 5 });
    const node = await devnet.listen({ port: 0 });
    const db = await scratchDatabase(process.env.TEST_DATABASE_URL!, 'heap_cap');
    try {
      const limit = await heapLimitOf(['index'], {
        DATABASE_URL: db.url,
        NODE_RPC_URL: node.url,
        EXPLORER_DATA_DIR: join(dir, 'index'),
      });
      expect(limit).toBeGreaterThanOrEqual(HEAP_CAP_MB.index);
      expect(limit).toBeLessThan(HEAP_CAP_MB.index + 128);
    } finally {
      for (const p of running.splice(0)) await stopProcess(p.proc);
      await db.drop();
      await node.close();
    }
  });
});
