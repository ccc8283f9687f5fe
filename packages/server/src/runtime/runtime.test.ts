import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getJson, seedDataDir, TEST_SERVER_SETTINGS, waitFor } from '@explorer/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/index.js';
import { createLogger } from '../logger.js';
import { createRuntime } from './index.js';

const dataDir = await seedDataDir(mkdtempSync(join(tmpdir(), 'explorer-server-')));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const lines: string[] = [];
const log = createLogger({ level: 'info', stream: { write: (s) => lines.push(s) } });

function config(extra: Record<string, string> = {}) {
  return loadConfig({
    EXPLORER_DATA_DIR: dataDir,
    PORT: '0',
    ...TEST_SERVER_SETTINGS,
    DEVNET_BLOCKS: '30',
    INDEXER_POLL_MS: '50',
    MEMPOOL_POLL_MS: '100',
    ...extra,
  });
}

async function indexedTip(url: string, atLeast: number, ms = 180_000): Promise<number> {
  const end = Date.now() + ms;
  for (;;) {
    const { body } = await getJson(`${url}/v1/blocks/${atLeast}`).catch(() => ({ body: null }));
    const tip = body?.meta?.indexedTip;
    if (typeof tip === 'number' && tip >= atLeast) return tip;
    if (Date.now() > end) throw new Error(`index did not reach ${atLeast} (at ${tip})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('createRuntime (embedded PGlite + devnet)', () => {
  it('serves, indexes, survives a restart of the devnet, and releases everything on close', async () => {
    // First run mines live, so the index grows past the devnet's regenerated history.
    const first = await createRuntime(config({ DEVNET_INTERVAL_MS: '150' }), { log });
    let url = first.url!;
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(first.summary).toBe(`PGlite at ${dataDir}, devnet node`);
      const index = await getJson(`${url}/`);
      expect(index.status).toBe(200);
      expect(index.body).toMatchObject({ status: '/v1/status', openapi: '/v1/openapi.json' });
      const missing = await getJson(`${url}/definitely/not/here`);
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ ok: false, error: expect.any(String), meta: expect.any(Object) });
      await indexedTip(url, 33);
      const status = await fetch(`${url}/v1/status`);
      expect(status.status).toBe(200);
      expect(status.headers.get('x-request-id')).toBeTruthy();
      // The mempool watcher runs beside the indexer: /v1/fees serves its stored reading of the devnet's mempool.
      const fees = await waitFor('a stored mempool reading', async () => {
        const { body } = await getJson(`${url}/v1/fees`);
        return body?.fees?.basis?.mempoolRead ? body.fees : null;
      });
      expect(fees.basis).toMatchObject({ blockSeconds: 194, blockVsize: 1_000_000 });
      // The demo, and only the demo, fills the market cache with made-up prices, marked as such.
      const market = await waitFor('demo market data', async () => {
        const { status, body } = await getJson(`${url}/v1/market`);
        return status === 200 ? body.market : null;
      });
      expect(market).toMatchObject({ provider: 'demo', coin: 'demo', demo: true });
      expect((await getJson(`${url}/v1/analytics/market`)).body.market).toMatchObject({
        configured: true,
        provider: 'demo',
        demo: true,
      });
    } finally {
      await first.close();
    }
    await expect(fetch(`${url}/`)).rejects.toThrow();
    const requestLines = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    expect(requestLines.length).toBeGreaterThan(0);
    expect(requestLines[0]).toMatchObject({ method: 'GET', requestId: expect.any(String) });

    // Same data dir: the devnet has only its 30 historical blocks, so the live ones must be rolled back
    // rather than stopping the indexer as a too-deep reorg.
    const second = await createRuntime(config({ DEVNET_INTERVAL_MS: '0', MAX_REORG_DEPTH: '1' }), { log });
    url = second.url!;
    try {
      expect(lines.some((l) => JSON.parse(l).msg.startsWith('devnet restarted'))).toBe(true);
      await indexedTip(url, 30);
      const block = await getJson(`${url}/v1/blocks/31`);
      expect(block.status).toBe(404);
      expect(block.body.meta.indexedTip).toBe(30);
    } finally {
      await second.close();
    }
    await expect(fetch(`${url}/`)).rejects.toThrow();
  });

  it('fails cleanly when the port is taken, leaving nothing open', async () => {
    const holder = await createRuntime(config({ DEVNET_INTERVAL_MS: '0' }), { log });
    try {
      const port = new URL(holder.url!).port;
      await expect(
        createRuntime(
          loadConfig({
            EXPLORER_DATA_DIR: join(dataDir, 'other'),
            PORT: port,
            DEVNET_BLOCKS: '5',
            ...TEST_SERVER_SETTINGS,
          }),
          {
            log,
          },
        ),
      ).rejects.toThrow(/address in use/);
    } finally {
      await holder.close();
    }
  });
});

describe('the node cookie at start', () => {
  const start = (env: Record<string, string>) =>
    createRuntime(loadConfig({ EXPLORER_DATA_DIR: join(dataDir, 'cookie'), PORT: '0', ...env }), { log });

  it('stops a start with one line that says what to do, before anything is opened', async () => {
    const missing = join(dataDir, 'no-such-node', '.cookie');
    const err = (await start({ NODE_RPC_URL: 'http://127.0.0.1:9/', NODE_RPC_COOKIE: missing }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toBe(
      `config: NODE_RPC_COOKIE ${missing} cannot be read (ENOENT): the node writes its cookie when it starts, so start it first, or name the file its -rpccookiefile sets, or its data dir`,
    );
    expect(err.message).not.toContain('\n');
    // Nothing was opened: no data dir, no database.
    expect(existsSync(join(dataDir, 'cookie'))).toBe(false);

    const cookie = join(dataDir, 'cookie-file');
    writeFileSync(cookie, `__cookie__:${'ab'.repeat(32)}`);
    // What the configuration alone says is wrong is refused by loadConfig (so `explorer-server check` says it too).
    expect(() =>
      loadConfig({ NODE_RPC_URL: 'http://u:secret@127.0.0.1:9/', NODE_RPC_COOKIE: cookie }),
    ).toThrow(
      new ConfigError(
        'NODE_RPC_COOKIE',
        'cannot be used with credentials in NODE_RPC_URL: take user:password out of the URL, or unset NODE_RPC_COOKIE',
      ),
    );
    expect(() => loadConfig({ NODE_RPC_COOKIE: cookie, DEVNET_BLOCKS: '5' })).toThrow(
      'config: NODE_RPC_COOKIE needs NODE_RPC_URL (the built-in devnet takes no cookie)',
    );
  });
});
