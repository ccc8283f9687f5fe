import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeAdapter, type NodeAdapter } from './node-adapter.js';

type Handler = (body: { method: string; params: unknown[]; id: unknown }, res: ServerResponse) => void;

const servers: Server[] = [];
const adapters: NodeAdapter[] = [];

async function rpcServer(handler: Handler): Promise<string> {
  const server = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => handler(JSON.parse(raw), res));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const reply = (res: ServerResponse, id: unknown, result: unknown) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ result, error: null, id }));
};

const adapter = (opts: Parameters<typeof createNodeAdapter>[0]) => {
  const a = createNodeAdapter(opts);
  adapters.push(a);
  return a;
};

const waitFor = async (check: () => boolean, ms = 60_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

afterEach(async () => {
  for (const a of adapters.splice(0)) a.close();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

describe('createNodeAdapter', () => {
  it('refreshes the height in the background', async () => {
    let height = 100;
    const url = await rpcServer((body, res) => {
      if (body.method === 'getblockcount') reply(res, body.id, height);
      else reply(res, body.id, `called ${body.method}`);
    });
    const node = adapter({ url, refreshMs: 25 });
    expect(node.lastHeight()).toBeNull();
    await waitFor(() => node.lastHeight() === 100);
    height = 101;
    await waitFor(() => node.lastHeight() === 101);
    await expect(node.call('getnetworkinfo')).resolves.toBe('called getnetworkinfo');
    const probe = await node.probe();
    expect(probe).toMatchObject({ reachable: true, height: 101, error: null });
    expect(probe.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('gives up on a hanging node within the timeout', async () => {
    const url = await rpcServer(() => {
      // Never answers.
    });
    const node = adapter({ url, timeoutMs: 150, refreshMs: 60_000 });
    const started = Date.now();
    const probe = await node.probe();
    // Far below a hang, generous for a loaded machine.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(probe).toMatchObject({ reachable: false, height: null, latencyMs: null });
    expect(probe.error).toMatch(/timed out/);
    await expect(node.call('getblockcount')).rejects.toThrow(/timed out/);
    expect(node.lastHeight()).toBeNull();
  });

  it('reports an unreachable port without throwing, and keeps the last height', async () => {
    let up = true;
    const url = await rpcServer((body, res) => {
      if (up) reply(res, body.id, 7);
      else res.socket?.destroy();
    });
    const node = adapter({ url, timeoutMs: 500, refreshMs: 60_000 });
    await waitFor(() => node.lastHeight() === 7);
    up = false;
    const probe = await node.probe();
    expect(probe.reachable).toBe(false);
    expect(node.lastHeight()).toBe(7);

    const closed = adapter({ url: 'http://127.0.0.1:1/', timeoutMs: 500, refreshMs: 60_000 });
    const p = await closed.probe();
    expect(p).toMatchObject({ reachable: false, height: null });
    expect(p.error).toMatch(/unreachable/);
    expect(closed.lastHeight()).toBeNull();
  });
});
