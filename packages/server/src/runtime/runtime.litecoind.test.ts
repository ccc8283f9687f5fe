import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MARKET_NOT_CONFIGURED } from '@explorer/core';
import {
  getJson,
  type Litecoind,
  litecoindAvailable,
  seedDataDir,
  startLitecoind,
  TEST_SERVER_SETTINGS,
  waitFor,
} from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.js';
import { createLogger } from '../logger.js';
import { createRuntime, type Runtime } from './index.js';

// The server beside a real node (Litecoin Core regtest) with nothing but NODE_RPC_URL configured: what an
// operator gets before setting up market data or pool definitions.

const unavailable = litecoindAvailable();
if (unavailable) console.log(`[runtime] litecoind tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)('the server beside litecoind, with no market provider (pglite)', () => {
  let node: Litecoind;
  let runtime: Runtime;
  let url: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'explorer-litecoind-'));
  const lines: { msg: string; [field: string]: unknown }[] = [];

  beforeAll(async () => {
    node = await startLitecoind();
    await node.mine(12);
    const log = createLogger({ level: 'info', stream: { write: (s) => lines.push(JSON.parse(s)) } });
    runtime = await createRuntime(
      loadConfig({
        NODE_RPC_URL: node.rpcUrl,
        EXPLORER_DATA_DIR: await seedDataDir(dataDir),
        PORT: '0',
        INDEXER_POLL_MS: '100',
        // An explicit environment does not carry the test runner's METRICS_PORT.
        ...TEST_SERVER_SETTINGS,
      }),
      { log },
    );
    url = runtime.url!;
    await waitFor('the index to reach the node', async () => {
      const s = (await getJson(`${url}/v1/status`)).body.status;
      return s.indexer.state === 'synced' && s.indexer.tipHeight === 12;
    });
  });
  afterAll(async () => {
    await runtime?.close();
    await node?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('/v1/market and /v1/market/chart say that no provider is configured: 501, without Retry-After', async () => {
    for (const path of ['/v1/market', '/v1/market/chart?days=7']) {
      const r = await getJson(`${url}${path}`);
      expect(r.status).toBe(501);
      expect(r.headers.get('retry-after')).toBeNull();
      expect(r.body).toMatchObject({ ok: false, error: MARKET_NOT_CONFIGURED, meta: expect.any(Object) });
    }
    expect(lines.some((l) => l.msg.startsWith('no market-data provider configured'))).toBe(true);
    expect(lines.some((l) => l.msg === 'market data refresher started')).toBe(false);
  });

  it('analytics answers with nothing configured; status shows no market and is not degraded by it', async () => {
    const a = await getJson(`${url}/v1/analytics/market`);
    expect(a.status).toBe(200);
    expect(a.body.market).toMatchObject({ configured: false, provider: null, snapshots: { count: 0 } });
    const s = (await getJson(`${url}/v1/status`)).body.status;
    expect(s.market).toBeNull();
    expect(s.degraded).not.toContain('market');
    expect(s.chain).toMatchObject({ profile: 'bitcoin', network: 'regtest' });
  });

  it('with no pool or label definitions given or stored, blocks are attributed to unknown, tags kept', async () => {
    const block = (await getJson(`${url}/v1/blocks/12`)).body.block;
    expect(block.pool).toMatchObject({ id: 'unknown' });
    expect(typeof block.coinbaseTag).toBe('string');
    expect((await getJson(`${url}/v1/known-addresses`)).body.labels).toEqual([]);
    expect(lines.some((l) => /^no pool or label definitions given or stored/.test(l.msg))).toBe(true);
  });
});
