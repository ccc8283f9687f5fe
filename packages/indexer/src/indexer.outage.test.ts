import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createExplorerApi, v1Routes } from '@explorer/core';
import { checkInvariants, createSqlStore, readIndexerState } from '@explorer/db';
import type { Devnet } from '@explorer/devnet';
import { openTestDatabase, type TestDatabase } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIndexer, type Indexer } from './indexer.js';
import { createNodeClient, NodeUnavailableError } from './node-client.js';
import { createDefinitions } from './pools.js';
import { serveDevnet } from './test-support/fixtures.js';

type Mode = 'ok' | 'down' | 'slow' | 'garbage' | 'truncated';

/** A proxy in front of the devnet whose behaviour the test switches. */
async function flakyProxy(
  target: string,
): Promise<{ url: string; mode: Mode; calls: number; close(): Promise<void> }> {
  const state = { mode: 'ok' as Mode, calls: 0 };
  const server: Server = createServer(async (req, res) => {
    state.calls++;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (state.mode === 'down') return req.socket.destroy();
    if (state.mode === 'slow') return setTimeout(() => res.end('{}'), 2_000).unref();
    if (state.mode === 'garbage')
      return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>busy</html>');
    const upstream = await fetch(target, {
      method: 'POST',
      body: Buffer.concat(chunks),
      headers: { 'content-type': 'application/json' },
    });
    const text = await upstream.text();
    res.writeHead(upstream.status, { 'content-type': 'application/json' });
    res.end(state.mode === 'truncated' ? text.slice(0, Math.floor(text.length / 2)) : text);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}

describe('indexer through node outages (pglite)', () => {
  let devnet: Devnet;
  let closeDevnet: () => Promise<void>;
  let proxy: Awaited<ReturnType<typeof flakyProxy>>;
  let db: TestDatabase;
  let indexer: Indexer;

  beforeAll(async () => {
    const served = await serveDevnet({ seed: 'outage', blocks: 60, txPerBlock: 5, coinbaseMaturity: 5 });
    ({ devnet, close: closeDevnet } = served);
    proxy = await flakyProxy(served.url);
    db = await openTestDatabase('pglite');
    const node = createNodeClient({ url: proxy.url, timeoutMs: 300, attempts: 2, backoffMs: 20 });
    indexer = createIndexer({
      sql: db.sql,
      node,
      definitions: createDefinitions([], []),
      pollIntervalMs: 40,
    });
  });
  afterAll(async () => {
    await indexer?.stop();
    await proxy?.close();
    await closeDevnet?.();
    await db?.drop();
  });

  it('the client retries a bounded number of times and says why it gave up', async () => {
    // 1 s: well under the slow mode's 2 s, and enough that a loaded machine does not turn a relayed
    // (garbage or truncated) answer into a timeout.
    const node = createNodeClient({ url: proxy.url, timeoutMs: 1_000, attempts: 3, backoffMs: 10 });
    for (const [mode, message] of [
      ['down', /node unreachable/],
      ['slow', /timed out after 1000 ms/],
      ['garbage', /not JSON/],
      ['truncated', /not JSON/],
    ] as const) {
      proxy.mode = mode;
      const before = proxy.calls;
      const err = (await node.call('getblockcount').catch((e: unknown) => e)) as Error;
      expect(err).toBeInstanceOf(NodeUnavailableError);
      expect(err.message).toMatch(message);
      // The proxy may count the last attempt a moment after the client gave up on it.
      await expect.poll(() => proxy.calls - before).toBe(3);
    }
    proxy.mode = 'ok';
  });

  it('reports the node as unreachable, writes nothing half-way, and recovers on its own', async () => {
    // The API keeps serving from the index while the node is away, and says what is down.
    const apiNode = createNodeClient({ url: proxy.url, timeoutMs: 300, attempts: 1 });
    const api = createExplorerApi({
      store: createSqlStore(db.sql),
      routes: v1Routes,
      node: {
        lastHeight: () => null,
        probe: async () => {
          try {
            return {
              reachable: true,
              height: await apiNode.call<number>('getblockcount'),
              latencyMs: 0,
              error: null,
            };
          } catch (e) {
            return { reachable: false, height: null, latencyMs: null, error: (e as Error).message };
          }
        },
        call: (method, params) => apiNode.call(method, params),
      },
      config: { tipCacheMs: 0 },
    });
    const get = async (path: string) => {
      const res = await api.handle(new Request(`http://x${path}`));
      return { status: res.status, body: (await res.json()) as any };
    };
    await indexer.start();
    await expect.poll(() => indexer.status().state, { timeout: 120_000 }).toBe('synced');
    for (const mode of ['down', 'garbage', 'slow', 'truncated'] as const) {
      proxy.mode = mode;
      devnet.mine(5);
      await expect.poll(() => indexer.status().state, { timeout: 120_000 }).toBe('node-unreachable');
      expect((await readIndexerState(db.sql)).status).toBe('node-unreachable');
      expect(await checkInvariants(db.sql)).toEqual([]);
      const status = (await get('/v1/status')).body.status;
      expect(status.degraded).toEqual(expect.arrayContaining(['node', 'indexer']));
      expect(status.indexer.state).toBe('node-unreachable');
      expect((await get('/v1/blocks?limit=3')).status).toBe(200);
      expect((await get('/v1/analytics/supply')).status).toBe(200);
      expect((await get('/v1/mempool')).status).toBe(503);
      proxy.mode = 'ok';
      await expect.poll(() => indexer.status().tipHeight, { timeout: 120_000 }).toBe(devnet.height());
      await expect.poll(() => indexer.status().state, { timeout: 120_000 }).toBe('synced');
      await expect
        .poll(async () => (await get('/v1/status')).body.status.healthy, { timeout: 120_000 })
        .toBe(true);
    }
    expect(await checkInvariants(db.sql)).toEqual([]);
  });
});
