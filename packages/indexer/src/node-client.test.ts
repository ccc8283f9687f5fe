import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeClient, NodeRpcError, NodeUnavailableError } from './node-client.js';
import { NodeCookieError } from './node-cookie.js';

type Reply = (res: ServerResponse, req: IncomingMessage) => void;

/** A node on 127.0.0.1 that answers each request with the next reply of its script, then with the last one. */
async function scriptedNode(...script: Reply[]) {
  const bodies: string[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    bodies.push(body);
    headers.push(req.headers);
    script[Math.min(bodies.length, script.length) - 1]!(res, req);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return { url: `http://user:secret@127.0.0.1:${port}/`, bodies, headers, close };
}

const json =
  (status: number, body: unknown): Reply =>
  (res) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const result =
  (value: unknown): Reply =>
  (res, req) =>
    json(200, { result: value, error: null, id: null })(res, req);

describe('node client', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(() => close?.());

  it('retries a failed attempt and answers with the next one', async () => {
    // Bitcoin Core's answer while its RPC work queue is full, then a dropped connection, then the answer.
    const node = await scriptedNode(
      (res) => res.writeHead(503).end('Work queue depth exceeded'),
      (_res, req) => req.socket.destroy(),
      result(42),
    );
    close = node.close;
    const client = createNodeClient({ url: node.url, attempts: 3, backoffMs: 5 });
    expect(await client.call<number>('getblockcount')).toBe(42);
    expect(node.bodies).toHaveLength(3);
    // Every attempt sends the same request.
    expect(new Set(node.bodies).size).toBe(1);
    expect(JSON.parse(node.bodies[0]!)).toMatchObject({ method: 'getblockcount', params: [] });
    expect(node.headers[2]).toMatchObject({
      authorization: `Basic ${Buffer.from('user:secret').toString('base64')}`,
      'content-type': 'application/json',
    });
  });

  it('does not retry an RPC error or refused credentials', async () => {
    const rpc = await scriptedNode(json(500, { result: null, error: { code: -28, message: 'Loading' } }));
    close = rpc.close;
    const client = createNodeClient({ url: rpc.url, attempts: 3, backoffMs: 5 });
    await expect(client.call('getblockcount')).rejects.toBeInstanceOf(NodeRpcError);
    expect(rpc.bodies).toHaveLength(1);
    await rpc.close();

    const refused = await scriptedNode((res) => res.writeHead(401).end());
    close = refused.close;
    const denied = createNodeClient({ url: refused.url, attempts: 3, backoffMs: 5 });
    await expect(denied.call('getblockcount')).rejects.toThrow(/refused the credentials \(HTTP 401\)/);
    expect(refused.bodies).toHaveLength(1);
  });

  it('times out an answer that stalls after its headers, and says so after the last attempt', async () => {
    const node = await scriptedNode((res) => res.writeHead(200).write('{"result":'));
    close = node.close;
    const client = createNodeClient({ url: node.url, attempts: 2, backoffMs: 5, timeoutMs: 200 });
    const err = await client.call('getblockcount').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NodeUnavailableError);
    expect((err as Error).message).toMatch(
      /node unreachable at http:\/\/127\.0\.0\.1:\d+\/ \(timed out after 200 ms\)/,
    );
    expect(node.bodies).toHaveLength(2);
  });
});

describe('node client with a cookie file', () => {
  let close: (() => Promise<void>) | undefined;
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'node-cookie-'));
  });
  afterEach(async () => {
    await close?.();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A node that accepts only its current cookie, as Core does, answering 401 with no body otherwise. */
  async function cookieNode() {
    const state = { cookie: `__cookie__:${'a1'.repeat(32)}` };
    const accept: Reply = (res, req) =>
      req.headers.authorization === `Basic ${Buffer.from(state.cookie).toString('base64')}`
        ? result(7)(res, req)
        : res.writeHead(401).end();
    const node = await scriptedNode(accept);
    close = node.close;
    return { ...node, url: node.url.replace('user:secret@', ''), state };
  }

  it('reads the cookie again when the node answers 401, and asks once more with the new one', async () => {
    const node = await cookieNode();
    const file = join(dir, '.cookie');
    writeFileSync(file, `${node.state.cookie}\n`);
    const client = createNodeClient({ url: node.url, cookieFile: file, attempts: 1 });
    expect(await client.call('getblockcount')).toBe(7);
    expect(await client.call('getblockcount')).toBe(7);
    expect(node.bodies).toHaveLength(2);

    // The node restarts: a new cookie in the same file.
    node.state.cookie = `__cookie__:${'b2'.repeat(32)}`;
    writeFileSync(file, node.state.cookie);
    expect(await client.call('getblockcount')).toBe(7);
    // One refused call, one accepted: the cookie was read once for the 401.
    expect(node.bodies).toHaveLength(4);
    expect(node.headers.slice(2).map((h) => h.authorization)).toEqual([
      `Basic ${Buffer.from(`__cookie__:${'a1'.repeat(32)}`).toString('base64')}`,
      `Basic ${Buffer.from(node.state.cookie).toString('base64')}`,
    ]);

    // Calls refused together each ask again: none takes another's renewal for its own.
    node.state.cookie = `__cookie__:${'c4'.repeat(32)}`;
    writeFileSync(file, node.state.cookie);
    const calls = Array.from({ length: 4 }, () => client.call('getblockcount'));
    expect(await Promise.all(calls)).toEqual([7, 7, 7, 7]);
    expect(node.bodies).toHaveLength(12);
  });

  it('refuses a cookie the node does not take without asking again, and never says the cookie', async () => {
    const node = await cookieNode();
    const file = join(dir, 'cookie');
    writeFileSync(file, `__cookie__:${'c3'.repeat(32)}`);
    const client = createNodeClient({ url: node.url, cookieFile: file, attempts: 3, backoffMs: 5 });
    const err = (await client.call('getblockcount').catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(NodeUnavailableError);
    expect(err.message).toBe(
      `getblockcount: the node refused the cookie in ${file} (HTTP 401): is it the cookie of the node at ${node.url}?`,
    );
    expect(err.message).not.toContain('c3c3');
    // Read again after the 401, the cookie was the same: it is not sent twice, and a refusal is not retried.
    expect(node.bodies).toHaveLength(1);
  });

  it('waits out a node whose cookie is not there yet (starting), and refuses credentials in the URL too', async () => {
    const node = await cookieNode();
    const file = join(dir, '.cookie');
    const client = createNodeClient({ url: node.url, cookieFile: file, attempts: 1 });
    const err = (await client.call('getblockcount').catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(NodeUnavailableError);
    expect(err.message).toMatch(
      /^getblockcount: node cookie: .*\.cookie cannot be read \(ENOENT\): the node writes it/,
    );
    expect(node.bodies).toHaveLength(0);
    writeFileSync(file, node.state.cookie);
    expect(await client.call('getblockcount')).toBe(7);

    expect(() =>
      createNodeClient({ url: node.url.replace('http://', 'http://u:p@'), cookieFile: file }),
    ).toThrow(new NodeCookieError('cannot be used with credentials in the URL: give one or the other'));
  });
});
