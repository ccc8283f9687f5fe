import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalDump, openDatabase } from '@explorer/db';
import { createDevnet } from '@explorer/devnet';
import { getJson, seedDataDir, TEST_SERVER_SETTINGS, waitFor } from '@explorer/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.js';
import { createLogger } from '../logger.js';
import { runCommand } from '../test-support/run-command.js';
import { createRuntime } from './index.js';

const root = mkdtempSync(join(tmpdir(), 'explorer-wrong-chain-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Everything a start could write to: the chain index, the state row, market data, the event log, definitions. */
async function contents(dataDir: string) {
  const sql = await openDatabase({ dataDir, migrate: false });
  try {
    const one = async (text: string) => (await sql.query(text, [], 'test.contents'))[0];
    return {
      dump: await canonicalDump(sql),
      state: await one('SELECT * FROM indexer_state'),
      snapshots: await one('SELECT count(*)::int4 AS n, max(id)::text AS last FROM market_snapshots'),
      charts: await one('SELECT count(*)::int4 AS n FROM market_chart'),
      health: await one('SELECT * FROM market_health'),
      events: await one('SELECT count(*)::int4 AS n, max(id)::text AS last FROM events'),
      mempool: await one('SELECT * FROM mempool_state'),
    };
  } finally {
    await sql.close();
  }
}

describe('a database holding another chain than the node’s', () => {
  it('is left as it was found: the start stops with what to do, exit code 2, no retries', async () => {
    const dataDir = await seedDataDir(join(root, 'demo'));
    // The demo's Pearl index, with its market snapshots, as `npm start` leaves it.
    const demo = await createRuntime(
      loadConfig({
        EXPLORER_DATA_DIR: dataDir,
        DEVNET_BLOCKS: '12',
        DEVNET_INTERVAL_MS: '0',
        PORT: '0',
        ...TEST_SERVER_SETTINGS,
      }),
      { log: createLogger({ level: 'silent' }) },
    );
    try {
      await waitFor('the demo to index its chain and its market data', async () => {
        const status = (await getJson(`${demo.url}/v1/status`)).body.status;
        const market = await getJson(`${demo.url}/v1/market`);
        return status.indexer.state === 'synced' && status.indexer.tipHeight >= 11 && market.status === 200;
      });
    } finally {
      await demo.close();
    }
    const before = await contents(dataDir);
    expect(before.snapshots?.n).toBeGreaterThan(0);

    // A node of another chain (Bitcoin Core's dialect), pointed at that data dir as docs/chains.md's recipe is.
    const other = await createDevnet({ dialect: 'bitcoin', seed: 'another chain', blocks: 5 }).listen({
      port: 0,
    });
    try {
      const run = await runCommand(['start', '--port', '0'], {
        EXPLORER_DATA_DIR: dataDir,
        NODE_RPC_URL: other.url,
        METRICS_PORT: 'off',
        LOG_LEVEL: 'silent',
      });
      await waitFor('the start to stop', async () => run.exits.length > 0);
      expect(run.exits).toEqual([2]);
      const stopped = run.err.filter((l) => l.startsWith('explorer-server: start stopped: '));
      expect(stopped).toHaveLength(1);
      expect(stopped[0]).toMatch(/this database holds the chain whose genesis block is [0-9a-f]{64} \(pearl/);
      expect(stopped[0]).toContain('index it into another database');
      expect(stopped[0]).toContain('Nothing was written to it');
    } finally {
      await other.close();
    }
    expect(await contents(dataDir)).toEqual(before);
  });
});
