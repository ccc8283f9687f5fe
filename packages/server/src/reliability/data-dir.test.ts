import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkInvariants, openDatabase, readIndexerState } from '@explorer/db';
import { TEST_SERVER_SETTINGS } from '@explorer/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { ProcessExitedError, type Started, startProcess, stopProcess } from '../test-support/processes.js';

// The embedded data dir belongs to one process. Two starts at once: one serves, the other is refused at once
// naming the first's PID. A holder killed with SIGKILL leaves a lock the next start takes over, on an index
// that is intact.

const serverBin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const reason = existsSync(serverBin) ? null : 'the server is not built (run pnpm build)';
if (reason) console.log(`[data-dir] ${reason}: test skipped`);

const dir = mkdtempSync(join(tmpdir(), 'explorer-datadir-'));
const running: Started[] = [];
afterAll(() => {
  for (const p of running) p.proc.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const env = {
  EXPLORER_DATA_DIR: dir,
  DEVNET_BLOCKS: '60',
  DEVNET_INTERVAL_MS: '150',
  INDEXER_POLL_MS: '50',
  LOG_LEVEL: 'warn',
  ...TEST_SERVER_SETTINGS,
};

/** `explorer-server start` on the shared data dir: resolves when it listens, or with its exit and stderr. */
function start(): Promise<{ server: Started } | { code: number | null; stderr: string }> {
  return startProcess([serverBin, 'start', '--port', '0'], env, /listening on (http:\/\/\S+)/).then(
    (server) => {
      running.push(server);
      return { server };
    },
    (err: unknown) => {
      if (!(err instanceof ProcessExitedError)) throw err;
      return { code: err.code, stderr: err.stderr };
    },
  );
}

async function synced(url: string, atLeast = 60): Promise<number> {
  const end = Date.now() + 300_000;
  for (;;) {
    const s = await fetch(`${url}/v1/status`)
      .then((r) => r.json() as Promise<any>)
      .catch(() => null);
    const tip = s?.status?.indexer?.tipHeight;
    if (s?.status?.indexer?.state === 'synced' && tip >= atLeast) return tip;
    if (Date.now() > end) throw new Error(`not synced: ${JSON.stringify(s?.status?.indexer)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(reason !== null)('one process per data dir (built server, embedded database)', () => {
  it('two starts at once: one serves, the other is refused at once naming the PID; kill -9 then a restart takes over an intact index', async () => {
    const outcomes = await Promise.all([start(), start()]);
    const winners = outcomes.filter((o): o is { server: Started } => 'server' in o);
    const losers = outcomes.filter((o): o is { code: number | null; stderr: string } => 'code' in o);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(1);
    const winner = winners[0]!.server;
    const loser = losers[0]!;
    expect(loser.code).toBe(1);
    expect(loser.stderr.trim()).toMatch(
      new RegExp(
        `^explorer-server: start failed: the data dir \\S+ is in use by process ${winner.proc.pid} \\(explorer-server start, since [0-9T:.-]+Z\\); stop that process, or give this one another --data-dir \\(EXPLORER_DATA_DIR\\)$`,
      ),
    );
    const url = winner.match[1]!;
    await synced(url);

    // `check` says the same without starting anything, and names a port in use.
    const check = (...args: string[]) =>
      spawnSync(process.execPath, [serverBin, 'check', ...args], {
        env: { ...process.env, ...env },
        encoding: 'utf8',
      });
    const busyDir = check('--port', '0');
    expect(busyDir.status).toBe(1);
    expect(busyDir.stderr).toContain(`is in use by process ${winner.proc.pid}`);
    const busyPort = check('--port', new URL(url).port, '--data-dir', join(dir, 'elsewhere'));
    expect(busyPort.status).toBe(1);
    expect(busyPort.stderr).toMatch(
      /cannot listen on 127\.0\.0\.1:\d+: address in use; stop what holds it, or choose another --port \(PORT\)/,
    );

    // So do the commands that open the embedded database.
    const migrate = spawnSync(process.execPath, [serverBin, 'migrate'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    expect(migrate.status).toBe(1);
    expect(migrate.stderr).toMatch(
      new RegExp(
        `^explorer-server: migrate failed: the data dir \\S+ is in use by process ${winner.proc.pid} \\(explorer-server start, since .*--data-dir`,
      ),
    );

    // Killed while it mines and indexes live blocks; the next start takes the lock over.
    winner.proc.kill('SIGKILL');
    await new Promise((r) => winner.proc.once('exit', r));
    const restarted = await start();
    if (!('server' in restarted)) throw new Error(`restart refused: ${restarted.stderr}`);
    const again = restarted.server;
    await synced(again.match[1]!);
    expect(check('--port', '0').stderr).toContain(`is in use by process ${again.proc.pid}`);
    expect(await stopProcess(again.proc)).toBe(0);

    // Stopped cleanly: the directory is free, and the index that survived the kill is whole.
    expect(check('--port', '0').status).toBe(0);
    const sql = await openDatabase({ dataDir: dir });
    try {
      expect((await readIndexerState(sql)).tip_height).toBeGreaterThanOrEqual(60);
      expect(await checkInvariants(sql)).toEqual([]);
    } finally {
      await sql.close();
    }
  });
});
